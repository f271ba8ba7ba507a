"""Computer player for Honga: a greedy turn planner over a hand-tuned evaluation.

The AI first *redacts* the state to what its seat may know (R45): the piles' contents and orders,
the Rng, every pending card and the other seats' disks and cards are replaced by fixed placeholders,
so two states that look the same to the seat give the same choice (and nothing secret can leak into
it).

``evaluate`` values a seat's position in points: score plus what its food, water, mammoths, tusk,
mountain step and bonus cards are worth, minus HONGA on its board; the utility is that minus half
the best opponent's value. In the last round only points count (and raw materials as tie-break).

- ``easy``: plays its own game (its utility ignores the opponents) and does not plan its
  placement: it takes the one whose hands look best at a glance (every hand worth the same, usable
  or not) after HONGA's step 2, then acts greedily (the action that raises the utility most, until
  none does). It beats random play every time.
- ``medium``: minds the opponents too, and plans its placement on one space: the space easy's
  glance picks, each rotation there played out greedily to the end of the turn; then acts
  greedily. Placing is the decision that matters most in Honga: planning it on every space is
  what makes ``hard`` (measured: with naive placements even ``hard``'s acting barely beat easy).
- ``hard`` searches its turn: every placement played out greedily to the end of the turn, the
  three best replayed with its own policy, and every later decision looks one action further
  (each candidate followed by the greedy rest of the turn: one-step policy improvement, a rollout
  search). Searching deeper (two actions ahead, or the other seats' next turns in worlds drawn
  from their hidden disks and cards) was built and measured, and it was not stronger.
Candidates that differ only in how they pay (trade, lure, BUY_VP) are pruned to the best payment
by immediate utility, which keeps a whole computer turn well under a second.

Ties are broken by a tiny noise seeded from public facts (turn, seat), so the choice is a pure
function of (state, seat, level) and picklable module-level objects are all it needs.
"""

from __future__ import annotations

from collections import Counter

from engine.core import Seat
from engine.errors import MatchOver, NotYourTurn
from engine.games import honga as H
from engine.games.honga_data import BONUS_DECK, DISK_IDS, DISKS
from engine.games.honga_turn import HongaState, clone
from engine.rng import Rng

FOOD_V, WATER_V = 0.9, 0.46  # 2 water pay for 1 food; alone, water buys 1 VP (BUY_VP)
BOARD_MAMMOTH_V, HERD_MAMMOTH_V, TUSK_V = 3.0, 3.3, 2.5
STEP_V = (0.0, 0.8, 1.7, 2.6, 3.6)  # value of standing on mountain steps 0-4
HONGA_V = -1.6
CARD_V = {
    "vp2": 2.0,
    "buyvp": 0.8,
    "lucky": 1.2,
    "loc": 1.4,
    "coc": 1.7,
    "chase": 0.6,
    "extra": 0.7,
    "swap": 0.4,
    "frugal": 1.0,
    "barter": 1.2,
}
PENDING_V = 1.1  # an unseen card: about the mean of the above
CARDS_KEPT, SPARE_CARD_V = 3, 0.3
OPPONENT_WEIGHT = 0.5
NAIVE_HAND_V = 0.8  # easy: what any hand looks worth when it places its disk
TOP_PLACEMENTS = 3  # hard replays this many placements with its own (better) policy
MAX_STEPS = 14  # a turn never has more decisions than hands + 2 cards; this is a safety cap


def redact(s: HongaState, seat: Seat) -> HongaState:
    """The state as ``seat`` may know it: hidden parts replaced by placeholders (R45).

    A face-down pile keeps its size, and its contents become the first of what the seat cannot
    place anywhere (every disk or bonus card of the game less those it has seen), in order: sorting
    the true pile would hide only its order, and the disks and cards missing from it would name the
    other seats' hands. The trade pile is what the slots and the discard are not: only its order is
    hidden."""
    t = clone(s)
    t.rng = 0
    t.trade_pile.sort()
    seen = {d for stack in t.stacks.values() for d, _ in stack}
    seen.update(d for d in (t.disk[seat], *(t.drawn if seat == t.current else ())) if d is not None)
    for colour, pile in t.piles.items():
        pile[:] = [d for d in DISK_IDS[colour] if d not in seen][: len(pile)]
    if seat != t.current:
        t.drawn = [0] * len(t.drawn)
    unseen = Counter(BONUS_DECK)
    unseen.subtract([*t.bonus_discard, *t.played, *t.cards[seat]])
    t.bonus_pile[:] = sorted(unseen.elements())[: len(t.bonus_pile)]
    for other in range(t.n):
        t.pending[other] = ["vp2"] * len(t.pending[other])
        if other != seat:
            t.cards[other] = ["vp2"] * len(t.cards[other])
            if t.disk[other] is not None:
                t.disk[other] = 0
    return t


def evaluate(s: HongaState, seat: Seat, endgame: bool) -> float:
    """What ``seat``'s position is worth in points (see the module docstring)."""
    res = s.res[seat]
    if endgame:
        return s.scores[seat] + 0.01 * sum(res)
    v = float(s.scores[seat])
    v += FOOD_V * (res[0] + res[1] + res[2]) + WATER_V * res[3]
    v -= 0.3 * (max(res[:3]) - min(res[:3]))  # a lopsided larder cannot lure or pay mixed trades
    v += BOARD_MAMMOTH_V * s.board[seat] + HERD_MAMMOTH_V * s.herd.count(seat)
    v += TUSK_V if s.tusk == seat else 0.0
    v += STEP_V[min(s.steps[seat], 4)]
    v += _cards_value(s.cards[seat], len(s.pending[seat]))
    v += HONGA_V if s.honga == seat else 0.0
    return v


def _cards_value(cards: list[str], pending: int) -> float:
    """Bonus cards: at most two can be played a turn, so a big hand is worth little more (the
    best ``CARDS_KEPT`` count in full, the rest at ``SPARE_CARD_V``)."""
    values = sorted([CARD_V.get(c, 1.0) for c in cards] + [PENDING_V] * pending, reverse=True)
    return sum(values[:CARDS_KEPT]) + SPARE_CARD_V * len(values[CARDS_KEPT:])


def utility(s: HongaState, seat: Seat, endgame: bool, rivals: float = OPPONENT_WEIGHT) -> float:
    mine = evaluate(s, seat, endgame)
    if not rivals:
        return mine
    others = [evaluate(s, x, endgame) for x in range(s.n) if x != seat]
    return mine - rivals * max(others)


_LISTS = ("disk", "trade_pile", "slots", "trade_discard", "bonus_pile", "bonus_discard", "board", "supply")
_LISTS += ("herd", "steps", "scores", "played", "drawn")


def _copy(s: HongaState) -> HongaState:
    """``clone`` without ``dataclasses.replace`` (the AI's hottest line; hard decides ~30% faster):
    the same fields are copied, except that a stack's ``[disk, rot]`` entries are shared (the rules
    never change one in place)."""
    t = object.__new__(HongaState)
    d = t.__dict__
    d.update(s.__dict__)
    for name in _LISTS:
        d[name] = list(d[name])
    d["piles"] = {k: list(v) for k, v in s.piles.items()}
    d["stacks"] = {k: list(v) for k, v in s.stacks.items()}
    d["cards"] = [list(x) for x in s.cards]
    d["pending"] = [list(x) for x in s.pending]
    d["res"] = [list(x) for x in s.res]
    d["placed"] = list(s.placed) if s.placed is not None else None
    d["left"] = dict(s.left)
    return t


def _step(s: HongaState, code: str) -> HongaState:
    """Apply a code taken from ``legal`` (no re-validation: this is the AI's inner loop)."""
    t = _copy(s)
    kind, args = H.parse_action(code)
    H._apply(t, kind, args, [])
    return t


def _candidates(s: HongaState) -> list[str]:
    """Everything worth trying now: declining is what ``end`` does for all hands at once."""
    return [c for c in H.legal(s, s.current) if c != "end" and not c.startswith("skip.")]


def _head(code: str) -> str:
    """Codes that differ only in how they pay share a head: only the best payment is explored."""
    parts = code.split(".")
    if parts[0] in ("trade", "lure") or code.startswith("card.buyvp"):
        return ".".join(parts[:2])
    return code


Scored = tuple[float, str, HongaState]


class _Planner:
    def __init__(self, seat: Seat, endgame: bool, turn: int, rivals: float) -> None:
        self.seat, self.endgame, self.rivals = seat, endgame, rivals
        self.rng = Rng(turn * 7919 + seat)

    def u(self, s: HongaState) -> float:
        return utility(s, self.seat, self.endgame, self.rivals)

    def noisy(self, value: float) -> float:
        return value + self.rng.below(1000) * 1e-9  # seeded tie-break

    def scored(self, s: HongaState) -> list[Scored]:
        """Each candidate with its immediate utility and resulting state; best payment per head."""
        best: dict[str, Scored] = {}
        for code in _candidates(s):
            t = _step(s, code)
            v = self.noisy(self.u(t))
            head = _head(code)
            if head not in best or v > best[head][0]:
                best[head] = (v, code, t)
        return list(best.values())

    def greedy(self, s: HongaState) -> Scored | None:
        """The action that raises the utility most, or None if none does."""
        base = self.u(s) + 1e-6
        best = max(self.scored(s), key=lambda x: x[0], default=None)
        return best if best is not None and best[0] > base else None

    def rollout(self, s: HongaState) -> float:
        """Utility after finishing this turn greedily (stops before ``end``)."""
        for _ in range(MAX_STEPS):
            if s.phase != "act":
                break
            step = self.greedy(s)
            if step is None:
                break
            s = step[2]
        return self.u(s)

    def improved(self, s: HongaState) -> tuple[str, HongaState]:
        """One-step policy improvement: each candidate followed by the greedy rest of the turn."""
        best, best_v, best_s = "end", self.u(s) + 1e-6, s
        for _, code, t in self.scored(s):
            v = self.noisy(self.rollout(t))
            if v > best_v:
                best, best_v, best_s = code, v, t
        return best, best_s

    def improved_rollout(self, s: HongaState) -> float:
        for _ in range(MAX_STEPS):
            if s.phase != "act":
                break
            code, t = self.improved(s)
            if code == "end":
                break
            s = t
        return self.u(s)

    def place_naive(self, s: HongaState) -> str:
        """``easy``: the placement whose hands look best at a glance (each hand counts the same,
        whether or not it can be used), after what HONGA does in step 2."""
        best, best_v = "", float("-inf")
        for code in H.legal(s, s.current):
            t = _step(s, code)
            v = self.noisy(self.u(t) + NAIVE_HAND_V * sum(t.left.values()))
            if v > best_v:
                best, best_v = code, v
        return best

    def place_focused(self, s: HongaState) -> str:
        """``medium``: the space of the naive choice, each placement there played out greedily."""
        space = self.place_naive(s).split(".")[1:2]
        here = [code for code in H.legal(s, s.current) if code.split(".")[1:2] == space]
        return max(here, key=lambda code: self.noisy(self.rollout(_step(s, code))))

    def place(self, s: HongaState) -> str:
        """``hard``: every placement played out greedily; the best few replayed with the better
        policy."""
        scored = []
        for code in H.legal(s, s.current):
            t = _step(s, code)
            scored.append((self.noisy(self.rollout(t)), code, t))
        scored.sort(key=lambda x: x[0], reverse=True)
        top = scored[:TOP_PLACEMENTS]
        return max(top, key=lambda x: self.noisy(self.improved_rollout(x[2])))[1]

    def act_easy(self, s: HongaState) -> str:
        step = self.greedy(s)
        return step[1] if step is not None else "end"

    def act_improved(self, s: HongaState) -> str:
        return self.improved(s)[0]


def _keep(s: HongaState) -> str:
    """EXTRA_DISK: keep the disk whose hands are most concentrated (big trades, fast climbs)."""
    a, b = (DISKS[d][1] for d in s.drawn)
    return "keep.0" if sorted(a, reverse=True) >= sorted(b, reverse=True) else "keep.1"


class HongaComputer:
    """``hard`` (the default, also playing for absent seats) is the strongest level."""

    levels = ("hard", "medium", "easy")

    def choose(self, s: HongaState, seat: Seat, level: str = "hard") -> str:
        if s.phase == "over":
            raise MatchOver()
        if seat != s.current:
            raise NotYourTurn(seat=seat)
        if s.phase == "keep":
            return _keep(s)
        view = redact(s, seat)
        planner = _Planner(seat, s.final, s.turn, 0.0 if level == "easy" else OPPONENT_WEIGHT)
        if level == "hard" or level not in self.levels:
            return planner.place(view) if s.phase == "place" else planner.act_improved(view)
        if s.phase == "place":
            return planner.place_naive(view) if level == "easy" else planner.place_focused(view)
        return planner.act_easy(view)

    def think_seconds(self, s: HongaState, seat: Seat, level: str) -> float:
        return 0.0

    def action_values(self, s: HongaState, seat: Seat) -> dict[str, float]:
        """Each legal action's worth to ``seat`` (engine.lessons), in points of the hard level's
        utility (hard's): the position after the action and the greedy rest of the turn, judged on the
        redacted state (what the seat knows). Placements and hand actions only."""
        if s.phase not in ("place", "act") or seat != s.current:
            return {}
        view = redact(s, seat)
        planner = _Planner(seat, s.final, s.turn, OPPONENT_WEIGHT)
        out = {}
        for code in H.legal(view, seat):
            out[code] = planner.u(view) if code == "end" else planner.rollout(_step(view, code))
        return out


COMPUTER = HongaComputer()


# ---- measurement -------------------------------------------------------------------------------------


def play_game(seed: int, players: list[str], n_steps: int = 20000) -> tuple[list[Seat], HongaState]:
    """One game where ``players[seat]`` is a level or "random"; returns the winners and final state."""
    s = H.RULES.setup(len(players), seed, {})
    rng = Rng(seed ^ 0x5EED)
    for _ in range(n_steps):
        if s.phase == "over":
            break
        seat = s.current
        level = players[seat]
        act = rng.choice(H.legal(s, seat)) if level == "random" else COMPUTER.choose(s, seat, level)
        s, _ = H.RULES.apply(s, seat, act)
    out = H.RULES.outcome(s)
    assert out is not None
    return out.winners, s


def win_rate(level: str, opponent: str, games: int, n: int = 3, seed: int = 0) -> float:
    """Share of ``n``-player games ``level`` wins outright (seat rotated) against ``opponent``s."""
    wins = 0
    for g in range(games):
        me = g % n
        players = [level if x == me else opponent for x in range(n)]
        winners, _ = play_game(seed * 1_000_003 + g, players)
        wins += winners == [me]
    return wins / games


if __name__ == "__main__":
    import sys
    import time

    t0 = time.perf_counter()
    k = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    for lv, opp in (("easy", "random"), ("medium", "easy"), ("hard", "medium")):
        print(lv, "vs", opp, win_rate(lv, opp, k), f"{time.perf_counter() - t0:.1f}s", flush=True)
