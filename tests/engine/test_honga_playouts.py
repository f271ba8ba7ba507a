"""Seeded random playouts of Honga: conservation of every component, termination, replay, and
secrecy (R45): a seat's view does not change when only other seats' hidden information changes."""

from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.games import honga_data as D
from engine.games.honga import RULES
from engine.games.honga_ai import redact
from engine.games.honga_turn import HongaState, clone


def check_conservation(s: HongaState) -> None:
    """Every disk, card, mammoth and caveman is somewhere exactly once."""
    disks = list(s.piles[D.GREY]) + list(s.piles[D.RED]) + list(s.drawn)
    disks += [d for stack in s.stacks.values() for d, _ in stack]
    disks += [d for d in s.disk if d is not None]
    assert sorted(disks) == list(range(len(D.DISKS)))
    trade = s.trade_pile + s.trade_discard + [c for c in s.slots if c is not None]
    assert sorted(trade) == sorted(D.TRADE_CARDS)
    bonus = s.bonus_pile + s.bonus_discard + s.played
    bonus += [c for hand in s.cards for c in hand] + [c for p in s.pending for c in p]
    assert Counter(bonus) == Counter(D.BONUS_DECK)
    for seat in range(s.n):
        assert s.supply[seat] + s.board[seat] + s.herd.count(seat) == D.MAMMOTHS_PER_PLAYER
        assert all(0 <= v <= (s.cap or 10**6) for v in s.res[seat])
        assert 0 <= s.steps[seat] < D.MOUNTAIN_TOP and s.scores[seat] >= 0
    assert len(s.herd) <= s.herd_cap
    assert len(s.played) <= D.MAX_CARDS_PER_TURN


def playout(seed: int, n: int | None = None, check: bool = True) -> tuple[HongaState, list]:
    rng = random.Random(seed)
    n = n or rng.randint(2, 5)
    s = RULES.setup(n, seed, {"target": rng.choice(["standard", "short"])})
    log = []
    for _ in range(6000):
        if not RULES.to_move(s):
            return s, log
        seat = s.current
        action = rng.choice(RULES.legal_actions(s, seat))
        s, _ = RULES.apply(s, seat, action)
        log.append((seat, action))
        if check:
            check_conservation(s)
    raise AssertionError("no end")


def test_random_playouts_conserve_components_and_terminate():
    for seed in range(6):
        s, _log = playout(seed)
        out = RULES.outcome(s)
        assert out is not None and out.winners and max(s.scores) >= s.target
        # R42: everyone had the same number of turns
        assert (s.turn - 1) % s.n == (s.start - 1 - s.start) % s.n


def test_replay_reproduces_the_state_and_dump_round_trips():
    s, log = playout(11, n=3, check=False)
    r = RULES.setup(3, 11, {"target": random.Random(11).choice(["standard", "short"])})
    random.Random(11).randint(2, 5)
    for seat, action in log:
        r, _ = RULES.apply(r, seat, action)
    assert r == s
    assert RULES.load(json.loads(json.dumps(RULES.dump(s)))) == s


def test_dump_is_asdict_and_shares_nothing_with_the_state():
    """The dump is what dataclasses.asdict gives, and changing it (or the state) leaves the other."""
    s, _ = playout(5, n=4, check=False)
    d = RULES.dump(s)
    assert d == dataclasses.asdict(s)
    d["res"][0][0] += 7
    d["stacks"][next(iter(d["stacks"]))].append([0, 0])
    d["piles"][next(iter(d["piles"]))].clear()
    assert RULES.dump(s) == dataclasses.asdict(s) != d


def perturb_hidden(s: HongaState, seat: int | None, rng: random.Random) -> HongaState:
    """Change what ``seat`` may not know: pile orders, others' disks, cards and pending cards."""
    t = clone(s)
    for pile in (t.piles[D.GREY], t.piles[D.RED], t.trade_pile, t.bonus_pile):
        rng.shuffle(pile)
    t.rng ^= 0xABCDEF
    for other in range(t.n):
        if other == seat:
            continue
        d = t.disk[other]
        if d is not None:
            pile = t.piles[D.DISKS[d][0]]
            if pile:
                k = rng.randrange(len(pile))
                t.disk[other], pile[k] = pile[k], d
        t.cards[other] = [rng.choice(D.BONUS_DECK) for _ in t.cards[other]]
        t.pending[other] = [rng.choice(D.BONUS_DECK) for _ in t.pending[other]]
    t.pending[seat if seat is not None else 0] = [rng.choice(D.BONUS_DECK) for _ in t.pending[seat or 0]]
    if t.drawn and seat != t.current:
        t.drawn = list(reversed(t.drawn))
    return t


def random_position(rng: random.Random, seed: int, steps: int) -> HongaState:
    """2-5 players, then up to ``steps`` random legal actions (fewer if the game ends)."""
    s = RULES.setup(rng.randint(2, 5), seed, {})
    for _ in range(steps):
        if not RULES.to_move(s):
            break
        s, _ = RULES.apply(s, s.current, rng.choice(RULES.legal_actions(s, s.current)))
    return s


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 250), who=st.integers(-1, 4))
def test_secrecy_views_ignore_hidden_information(seed, steps, who):
    rng = random.Random(seed)
    s = random_position(rng, seed, steps)
    seat = None if who < 0 or who >= s.n else who
    t = perturb_hidden(s, seat, rng)
    assert RULES.view(t, seat) == RULES.view(s, seat)
    json.dumps(RULES.view(s, seat))


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 250))
def test_secrecy_the_computer_redacts_every_hidden_part_alike(seed, steps):
    """R45: two states that look the same to the seat to move redact to one state. Sorting the piles
    was not enough: which disks and cards a pile lacks named the other seats' hands."""
    rng = random.Random(seed)
    s = random_position(rng, seed, steps)
    seat = s.current
    t = perturb_hidden(s, seat, rng)
    mine, theirs = redact(s, seat), redact(t, seat)
    assert RULES.dump(mine) == RULES.dump(theirs)
    assert {c: len(p) for c, p in mine.piles.items()} == {c: len(p) for c, p in s.piles.items()}
    assert len(mine.bonus_pile) == len(s.bonus_pile) and mine.trade_pile == sorted(s.trade_pile)
    assert mine.disk[seat] == s.disk[seat] and mine.cards[seat] == s.cards[seat]


def test_secrecy_a_pile_swapped_with_a_hand_redacts_the_same():
    """The case sorting missed: another seat's disk swapped with one in the pile (same colour)."""
    s = RULES.setup(3, 11, {})
    other = (s.current + 1) % 3
    t = clone(s)
    pile = t.piles[D.DISKS[t.disk[other]][0]]
    t.disk[other], pile[0] = pile[0], t.disk[other]
    assert sorted(t.piles[D.GREY]) != sorted(s.piles[D.GREY])
    assert RULES.dump(redact(t, s.current)) == RULES.dump(redact(s, s.current))


def test_secrecy_the_owner_does_see_their_own_hand():
    s = RULES.setup(3, 4, {})
    s.cards[1] = [D.CHASE]
    t = clone(s)
    t.cards[1] = [D.VP2]
    assert RULES.view(t, 1) != RULES.view(s, 1) and RULES.view(t, 0) == RULES.view(s, 0)


def test_events_revealing_secrets_are_addressed():
    rng = random.Random(5)
    s = RULES.setup(3, 5, {})
    for _ in range(800):
        if not RULES.to_move(s):
            break
        s, events = RULES.apply(s, s.current, rng.choice(RULES.legal_actions(s, s.current)))
        for e in events:
            if e.to is None:  # public events never carry disks in hand or card identities
                assert "disks" not in e.data and "cards" not in e.data


def test_computer_plays_legal_deterministic_moves_from_what_it_may_know():
    import pickle

    from engine.games.honga_ai import COMPUTER

    assert pickle.loads(pickle.dumps(COMPUTER)).levels == COMPUTER.levels
    rng = random.Random(2)
    s = RULES.setup(3, 2, {})
    for step in range(90):
        if not RULES.to_move(s):
            break
        seat = s.current
        level = COMPUTER.levels[step % 3]
        action = COMPUTER.choose(s, seat, level)
        assert action in RULES.legal_actions(s, seat)
        assert COMPUTER.choose(s, seat, level) == action
        assert COMPUTER.choose(perturb_hidden(s, seat, rng), seat, level) == action
        assert COMPUTER.think_seconds(s, seat, level) == 0.0
        s, _ = RULES.apply(s, seat, action)


def test_the_computers_copy_is_a_clone_sharing_no_container():
    """honga_ai._copy (the computer's fast clone): equal to ``clone``, and every list or dict field
    is its own (a field added later and not copied would let a look-ahead change the real state)."""
    from engine.games.honga_ai import _copy

    s, _ = playout(8, n=3, check=False)
    t = _copy(s)
    assert t == clone(s)
    for f in dataclasses.fields(s):
        value = getattr(s, f.name)
        if isinstance(value, (list, dict)):
            assert getattr(t, f.name) is not value, f.name


def test_levels_plan_their_placement_ever_more_widely():
    """easy takes the placement that looks best at a glance; medium plays out every rotation on that
    placement's space (the best by the greedy rest of the turn); hard plays out every placement.
    Each is a different player: over seeded positions their placements differ."""
    from engine.games.honga_ai import COMPUTER, OPPONENT_WEIGHT, _Planner, _step

    assert COMPUTER.levels == ("hard", "medium", "easy")
    rng = random.Random(5)
    s, differs = RULES.setup(3, 5, {}), Counter()
    for _ in range(400):
        if not RULES.to_move(s):
            break
        seat = s.current
        if s.phase == "place":
            easy, medium, hard = (COMPUTER.choose(s, seat, lv) for lv in ("easy", "medium", "hard"))
            planner = _Planner(seat, s.final, s.turn, OPPONENT_WEIGHT)
            view = redact(s, seat)
            space = planner.place_naive(view).split(".")[1]
            assert medium.split(".")[1] == space
            here = [c for c in RULES.legal_actions(s, seat) if c.split(".")[1] == space]
            values = {c: planner.rollout(_step(view, c)) for c in here}
            assert values[medium] >= max(values.values()) - 1e-5
            differs["easy/medium"] += easy != medium
            differs["medium/hard"] += medium != hard
        s, _ = RULES.apply(s, seat, rng.choice(RULES.legal_actions(s, seat)))
    assert differs["easy/medium"] >= 3 and differs["medium/hard"] >= 3, differs
