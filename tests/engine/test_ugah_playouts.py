"""Seeded random playouts of Ugah Ugah! checking whole-game invariants: termination, legality,
illegal actions leave the state untouched, dump/load/JSON round trips, replay, chip and score
accounting, and that views never leak hidden chip values."""

from __future__ import annotations

import json
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import BadActionCode, IllegalAction, MatchOver, NotYourTurn
from engine.games import ugah_ai
from engine.games.ugah import RULES, UgahState, scores
from engine.games.ugah_data import CHIPS, HUNTERS, NAMEABLE, SPOILS_POINTS
from engine.rng import Rng

ALL_CODES = (
    ["pick." + ".".join(c) for k in range(1, 6) for c in combinations(NAMEABLE, k)]
    + [f"first.{h}" for h in HUNTERS]
    + [f"keep.{h}.{r}" for h in HUNTERS for r in range(4)]
)
MAX_ACTIONS = 2000  # a game needs far fewer: every turn sets at least one die aside per action


def check_invariants(s: UgahState) -> None:
    d = RULES.dump(s)
    assert RULES.load(d) == s
    assert RULES.load(json.loads(json.dumps(d))) == s
    chips = [v for v in s.path if v is not None] + [v for stash in s.stashes for v in stash]
    assert Counter(chips) == Counter(CHIPS)  # all 31 chips accounted for
    cards = [sum(h == seat for h in s.spoils.values()) for seat in range(s.n)]
    assert scores(s) == [sum(s.stashes[i]) + SPOILS_POINTS * cards[i] for i in range(s.n)]
    for seat in [None, *range(s.n)]:
        json.dumps(RULES.view(s, seat))
    if s.phase != "over":
        public = RULES.view(s, None)
        for i, cell in enumerate(public["path"]):
            if not s.face_up[i]:
                assert cell["v"] is None
        assert public["stash"] is None and public["stashes"] is None
        if s.pending is not None:
            for h in HUNTERS:
                assert (public["pending"][h + "_v"] is None) == (not s.face_up[s.pending[h]])


def check_illegal(s: UgahState, rng: Rng) -> None:
    before = json.dumps(RULES.dump(s), sort_keys=True)
    if s.phase == "over":
        with pytest.raises(MatchOver):
            RULES.apply(s, 0, ALL_CODES[0])
    else:
        illegal = [c for c in ALL_CODES if c not in RULES.legal_actions(s, s.current)]
        with pytest.raises(IllegalAction):
            RULES.apply(s, s.current, rng.choice(illegal))
        with pytest.raises(NotYourTurn):
            RULES.apply(s, (s.current + 1) % s.n, RULES.legal_actions(s, s.current)[0])
        with pytest.raises(BadActionCode):
            RULES.apply(s, s.current, "pick.bone")
    assert json.dumps(RULES.dump(s), sort_keys=True) == before


def playout(
    n: int, seed: int, options: dict[str, str], ai_seats: set[int] = frozenset()
) -> tuple[UgahState, list[str]]:  # type: ignore[assignment]
    """Random (or AI) play to the end with every invariant checked after every action."""
    rng = Rng(seed + 1)
    s = RULES.setup(n, seed, options)
    log: list[str] = []
    check_invariants(s)
    while s.phase != "over":
        assert len(log) < MAX_ACTIONS
        seat = s.current
        assert RULES.to_move(s) == frozenset({seat})
        legal = RULES.legal_actions(s, seat)
        assert legal and all(RULES.legal_actions(s, o) == [] for o in range(n) if o != seat)
        act = ugah_ai.COMPUTER.choose(s, seat, "normal") if seat in ai_seats else rng.choice(legal)
        assert act in legal
        if rng.below(4) == 0:
            check_illegal(s, rng)
            for other in legal:  # every legal action applies and leaves the input untouched
                before = RULES.dump(s)
                RULES.apply(s, seat, other)
                assert RULES.dump(s) == before
        s, events = RULES.apply(s, seat, act)
        log.append(act)
        json.dumps([e.dump() for e in events])
        check_invariants(s)
    assert RULES.to_move(s) == frozenset() and RULES.outcome(s) is not None
    check_illegal(s, rng)
    return s, log


OPTIONS = st.fixed_dictionaries(
    {"variant": st.sampled_from(["basic", "uncertain"]), "rolling": st.sampled_from(["multi", "single"])}
)


@settings(max_examples=100, deadline=None)
@given(n=st.integers(2, 4), seed=st.integers(0, 2**63), options=OPTIONS)
def test_random_playouts_terminate_and_keep_invariants(n: int, seed: int, options: dict[str, str]) -> None:
    s, _ = playout(n, seed, options)
    out = RULES.outcome(s)
    assert out is not None and out.scores == scores(s)
    assert out.winners == [i for i in range(n) if out.scores[i] == max(out.scores)]


@pytest.mark.parametrize("seed", range(6))
def test_replay_from_seed_and_log_reproduces_state(seed: int) -> None:
    options = {"variant": ["basic", "uncertain"][seed % 2], "rolling": ["multi", "single"][seed // 3 % 2]}
    n = 2 + seed % 3
    final, log = playout(n, seed, options)
    s = RULES.setup(n, seed, options)
    for act in log:
        s, _ = RULES.apply(s, s.current, act)
    assert s == final and RULES.dump(s) == RULES.dump(final)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_ai_actions_always_legal(n: int) -> None:
    for seed in range(3):
        variant = "uncertain" if seed % 2 else "basic"
        playout(n, 100 + seed, {"variant": variant}, ai_seats=set(range(n)))


def hidden_shuffle(s: UgahState, viewer: int | None, rng: Rng) -> UgahState:
    """Permute only what ``viewer`` may not know: face-down path values and other players' stashes."""
    t = RULES.load(RULES.dump(s))
    peek = set(s.pending.values()) if s.pending and viewer == s.current else set()
    slots: list[tuple[str, int, int]] = [
        ("path", i, 0) for i, v in enumerate(t.path) if v is not None and not t.face_up[i] and i not in peek
    ]
    slots += [("stash", r, j) for r in range(t.n) if r != viewer for j in range(len(t.stashes[r]))]

    def get(slot: tuple[str, int, int]) -> int:
        kind, a, b = slot
        return t.path[a] if kind == "path" else t.stashes[a][b]  # type: ignore[return-value]

    values = [get(x) for x in slots]
    rng.shuffle(values)
    for (kind, a, b), v in zip(slots, values, strict=True):
        if kind == "path":
            t.path[a] = v
        else:
            t.stashes[a][b] = v
    return t


@pytest.mark.parametrize("variant", ["basic", "uncertain"])
def test_view_ignores_other_players_hidden_info(variant: str) -> None:
    rng = Rng(42)
    changed = 0
    for seed in range(8):
        s = RULES.setup(3, seed, {"variant": variant})
        while s.phase != "over":
            for viewer in [None, 0, 1, 2]:
                t = hidden_shuffle(s, viewer, rng)
                changed += t != s
                assert RULES.view(t, viewer) == RULES.view(s, viewer)
            s, _ = RULES.apply(s, s.current, rng.choice(RULES.legal_actions(s, s.current)))
    assert changed > 100  # the check really perturbed hidden information


def test_ai_beats_random_player() -> None:
    assert ugah_ai.win_rate(games=100, seed=1) >= 0.65
