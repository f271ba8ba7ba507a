"""Issue 21.2: every computer, at every level, decides only from what its seat may know. At decision
points of seeded games the hidden information is changed (face-down chips and other players' chips,
piles, other seats' disks, cards and tasks, and the match's own Rng, which decides the dice and cards
still to come); the seat's view must stay the same (the perturbation is invisible to it) and so must
the computer's decision."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from engine.games.honga import RULES as HONGA
from engine.games.honga_ai import COMPUTER as HONGA_AI
from engine.games.ubongo import RULES as UBONGO
from engine.games.ubongo_ai import COMPUTER as UBONGO_AI
from engine.games.ugah import RULES as UGAH
from engine.games.ugah_ai import COMPUTER as UGAH_AI
from engine.games.uonga import RULES as UONGA
from engine.games.uonga_ai import COMPUTER as UONGA_AI
from engine.rng import Rng
from tests.engine.test_honga_playouts import perturb_hidden as honga_hidden
from tests.engine.test_ugah_playouts import hidden_shuffle as ugah_hidden

Perturb = Callable[[Any, int, random.Random], Any]


def ugah(s: Any, seat: int, rng: random.Random) -> Any:
    t = ugah_hidden(s, seat, Rng(rng.getrandbits(32)))
    t.rng ^= rng.getrandbits(63) | 1
    return t


def honga(s: Any, seat: int, rng: random.Random) -> Any:
    return honga_hidden(s, seat, rng)


def ubongo(s: Any, seat: int, rng: random.Random) -> Any:
    """The cards still to come, the Rng, and which other seat holds which card and task."""
    t = UBONGO.load(UBONGO.dump(s))
    rng.shuffle(t.stack)
    t.rng ^= rng.getrandbits(63) | 1
    others = [o for o in range(t.n) if o != seat and o not in t.solved and not t.placed[o]]
    if len(others) >= 2 and t.sides[others[0]] == t.sides[others[1]]:
        a, b = others[:2]
        t.cards[a], t.cards[b] = t.cards[b], t.cards[a]
        t.tasks[a], t.tasks[b] = t.tasks[b], t.tasks[a]
    return t


def uonga(s: Any, seat: int, rng: random.Random) -> Any:
    """Nothing on the board is hidden: only the Rng (it drew the sides) can change."""
    t = UONGA.load(UONGA.dump(s))
    t.rng ^= rng.getrandbits(63) | 1
    return t


GAMES = {  # game: rules, computer, perturbation, setups (players, options), decisions checked per level
    "ugah": (UGAH, UGAH_AI, ugah, [(3, {"variant": "uncertain"}), (2, {"variant": "basic"})], 60),
    "honga": (HONGA, HONGA_AI, honga, [(3, {}), (4, {})], 24),
    "ubongo": (UBONGO, UBONGO_AI, ubongo, [(4, {}), (3, {"side": "B"})], 40),
    "uonga": (UONGA, UONGA_AI, uonga, [(2, {})], 6),
}


@pytest.mark.parametrize("game", list(GAMES))
def test_a_computer_decides_only_from_what_its_seat_may_know(game: str) -> None:
    rules, computer, perturb, setups, per_level = GAMES[game]
    rng = random.Random(21)
    checked = {level: 0 for level in computer.levels}
    differed = 0
    for k, (n, options) in enumerate(setups * 4):
        s = rules.setup(n, 500 + k, options)
        for _ in range(400):
            movers = sorted(rules.to_move(s))
            if not movers or all(v >= per_level for v in checked.values()):
                break
            seat = rng.choice(movers)
            if rng.random() < 0.35:  # a decision point worth checking (others are skipped for speed)
                level = min(checked, key=checked.get)  # type: ignore[arg-type]
                t = perturb(s, seat, rng)
                assert rules.view(t, seat) == rules.view(s, seat), "the perturbation must be invisible"
                differed += rules.dump(t) != rules.dump(s)
                assert computer.choose(t, seat, level) == computer.choose(s, seat, level), (game, level)
                if game == "ubongo":
                    assert computer.think_seconds(t, seat, level) == computer.think_seconds(s, seat, level)
                checked[level] += 1
            s, _ = rules.apply(s, seat, rng.choice(rules.legal_actions(s, seat)))
    assert all(v >= per_level for v in checked.values()), checked
    assert differed >= sum(checked.values()) * 0.9, "the hidden information really changed"
