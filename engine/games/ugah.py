"""Ugah Ugah! rules engine (rules: docs/rules/ugah.md, clauses R1-R42, decisions A1-A15).

Pure and deterministic: every die roll comes from the Rng state stored in ``UgahState.rng``, so
setup(seed) plus the action log replays a match exactly. Rolling is chance, never a player action:
throws and all automatic steps (bones, spoils, single-figure chip taking, turn passing) happen inside
``setup``/``apply`` until a player has a real decision (phases "pick", "order", "keep") or it is over.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from engine.core import Choice, Event, Outcome, Rules, Seat, Timer
from engine.errors import BadActionCode, IllegalAction, MatchOver, NotYourTurn
from engine.games.ugah_data import (
    ANIMALS,
    BONE,
    CHIPS,
    HUNTERS,
    N_CHIPS,
    N_DICE,
    NAMEABLE,
    SPOILS_POINTS,
    SPOILS_THRESHOLD,
    SYMBOLS,
    UNCERTAIN_FACE_UP,
)
from engine.rng import Rng

MM, BB = HUNTERS
VARIANTS = ("basic", "uncertain")
ROLLING = ("multi", "single")


@dataclass
class UgahState:
    n: int
    variant: str  # "basic" | "uncertain" (R39)
    single: bool  # R41: exactly one symbol per roll
    rng: int
    path: list[int | None]  # R6: chip value per index, None = taken (EMPTY)
    face_up: list[bool]
    mm: int = -1  # R7: MM starts left of index 0 and walks up
    bb: int = N_CHIPS  # R7: BB starts right of index 30 and walks down
    spoils: dict[str, int | None] = field(default_factory=lambda: {a: None for a in ANIMALS})
    stashes: list[list[int]] = field(default_factory=list)
    current: int = 0
    phase: str = "pick"  # "pick" | "order" | "keep" | "over"
    turn: int = 0
    aside: list[str] = field(default_factory=list)  # faces set aside this turn, bones included
    rolled: list[str] = field(default_factory=list)  # non-bone faces of the current throw
    last_bones: int = 0
    pending: dict[str, int] | None = None  # phase "keep": path index under each hunter


# ---- path geometry (public: the AI and the tests use the same code) -------------------------------


def next_step(path: list[Any], mm: int, bb: int, hunter: str) -> int | None:
    """Index the hunter reaches with one more step, or None if the step is forfeited.

    R8: empty places never count. R26: a hunter may land on the other one's index only while a chip
    lies there (path[j] is not None), so the figures can meet on a chip but never pass each other.
    """
    if hunter == MM:
        for j in range(mm + 1, min(bb, N_CHIPS - 1) + 1):
            if path[j] is not None:
                return j
    else:
        for j in range(bb - 1, max(mm, 0) - 1, -1):
            if path[j] is not None:
                return j
    return None


def simulate_moves(
    path: list[Any], mm: int, bb: int, a: int, b: int, mm_first: bool
) -> tuple[int, int, list[tuple[str, int, int]]]:
    """Walk MM ``a`` and BB ``b`` steps (R24/R25); returns (mm, bb, [(hunter, made, forfeited)]).

    No chip is taken during movement, so ``path`` is read only.
    """
    pos = {MM: mm, BB: bb}
    log = []
    for hunter, steps in ((MM, a), (BB, b)) if mm_first else ((BB, b), (MM, a)):
        if not steps:
            continue
        made = 0
        for _ in range(steps):
            j = next_step(path, pos[MM], pos[BB], hunter)
            if j is None:
                break
            pos[hunter] = j
            made += 1
        log.append((hunter, made, steps - made))
    return pos[MM], pos[BB], log


def open_stretch(path: list[Any], mm: int, bb: int) -> list[int]:
    """R9: chip indices strictly between the hunters; empty means the hunters have met (R32)."""
    return [j for j in range(max(mm + 1, 0), min(bb, N_CHIPS)) if path[j] is not None]


def scores(s: UgahState) -> list[int]:
    """R34: stash sum plus 3 per spoils card held."""
    cards = [sum(1 for h in s.spoils.values() if h == seat) for seat in range(s.n)]
    return [sum(s.stashes[seat]) + SPOILS_POINTS * cards[seat] for seat in range(s.n)]


# ---- action codes ----------------------------------------------------------------------------------


def _is_seat(text: str) -> bool:
    """A canonical decimal seat number: ASCII digits, no sign, no leading zero."""
    return text.isascii() and text.isdigit() and text == str(int(text))


def parse_action(code: object) -> tuple[str, tuple[Any, ...]]:
    """Split a code into (kind, args); anything that is not a canonical code is BadActionCode."""
    if not isinstance(code, str):
        raise BadActionCode("not a string")
    parts = code.split(".")
    kind, args = parts[0], parts[1:]
    if kind == "pick" and args and all(a in NAMEABLE for a in args):
        order = [NAMEABLE.index(a) for a in args]
        if order == sorted(set(order)):  # canonical order, no duplicates
            return kind, tuple(args)
    elif kind == "first" and len(args) == 1 and args[0] in HUNTERS:
        return kind, (args[0],)
    elif kind == "keep" and len(args) == 2 and args[0] in HUNTERS and _is_seat(args[1]):
        return kind, (args[0], int(args[1]))
    raise BadActionCode(code)


# ---- the turn machinery (all helpers mutate the copy made in apply/setup) -------------------------


def _run(s: UgahState, ev: list[Event]) -> None:
    """Throw dice and evaluate automatically until a player must decide or the game is over."""
    while s.phase == "pick" and not s.rolled:
        if len(s.aside) < N_DICE:
            _throw(s, ev)
        else:
            _evaluate(s, ev)  # R20: all five dice are aside


def _throw(s: UgahState, ev: list[Event]) -> None:
    """R14/R18: roll every die not yet aside; R15: bones go aside at once."""
    rng = Rng(s.rng)
    faces = [SYMBOLS[rng.below(len(SYMBOLS))] for _ in range(N_DICE - len(s.aside))]
    s.rng = rng.state
    s.last_bones = faces.count(BONE)
    s.aside += [BONE] * s.last_bones
    s.rolled = [f for f in faces if f != BONE]
    ev.append(Event("rolled", {"seat": s.current, "faces": faces, "bones": s.last_bones}))


def _pick(s: UgahState, named: tuple[str, ...], ev: list[Event]) -> None:
    """R17: every die showing a named symbol goes aside; the rest is thrown again by _run."""
    chosen = [f for f in s.rolled if f in named]
    s.aside += chosen
    s.rolled = []  # the other dice are re-rolled (R18)
    ev.append(Event("set_aside", {"seat": s.current, "symbols": list(named), "count": len(chosen)}))


def _evaluate(s: UgahState, ev: list[Event]) -> None:
    """R21-R25: spoils first (automatic, A9), then movement; ask for the order only if it matters (A6)."""
    for animal in ANIMALS:
        holder = s.spoils[animal]
        if s.aside.count(animal) >= SPOILS_THRESHOLD and holder != s.current:  # R22/R23
            s.spoils[animal] = s.current
            ev.append(Event("spoils", {"seat": s.current, "animal": animal, "from": holder}))
    a, b = s.aside.count(MM), s.aside.count(BB)
    if a and b:
        ends = {simulate_moves(s.path, s.mm, s.bb, a, b, first)[:2] for first in (True, False)}
        if len(ends) > 1:
            s.phase = "order"
            return
    _move(s, True, ev)


def _move(s: UgahState, mm_first: bool, ev: list[Event]) -> None:
    """Move the hunters, then take chips (R27-R31) or ask which chip to keep (R29)."""
    a, b = s.aside.count(MM), s.aside.count(BB)
    s.mm, s.bb, log = simulate_moves(s.path, s.mm, s.bb, a, b, mm_first)
    for hunter, made, lost in log:
        to = s.mm if hunter == MM else s.bb
        ev.append(Event("moved", {"hunter": hunter, "steps": made, "forfeited": lost, "to": to}))
    moved = [hunter for hunter, made, _ in log if made]  # R27: forfeiting every step is not moving
    if len(moved) == 2 and s.mm != s.bb:
        s.phase = "keep"
        s.pending = {MM: s.mm, BB: s.bb}
        return
    if moved:  # R28, or R30 when both share one chip
        _take(s, s.mm if moved[0] == MM else s.bb, s.current, ev)
    _end_turn(s, ev)  # R31 when nobody moved


def _chip_events(
    s: UgahState, kind: str, data: dict[str, Any], idx: int, private: tuple[Seat, ...]
) -> list[Event]:
    """R37/R40: values are public in the basic game (and for face-up chips, which everyone saw);
    otherwise everyone learns that a chip moved and only ``private`` seats learn its value."""
    full = {**data, "value": s.path[idx]}
    if s.variant == "basic" or s.face_up[idx]:
        return [Event(kind, full)]
    return [Event(kind, data), Event(kind, full, to=private)]


def _take(s: UgahState, idx: int, seat: Seat, ev: list[Event]) -> None:
    ev += _chip_events(s, "chip_taken", {"seat": seat, "index": idx}, idx, (seat,))
    chip = s.path[idx]
    assert chip is not None  # a hunter only stops on a chip (R8: empty places never count)
    s.stashes[seat].append(chip)
    s.path[idx] = None  # the figure stays on the emptied place (R28)


def _keep(s: UgahState, hunter: str, to: Seat, ev: list[Event]) -> None:
    """R29: keep the chip under ``hunter``, give the other one to seat ``to``."""
    assert s.pending is not None
    kept, given = s.pending[hunter], s.pending[BB if hunter == MM else MM]
    _take(s, kept, s.current, ev)
    data = {"from": s.current, "to": to, "index": given}
    ev += _chip_events(s, "chip_given", data, given, (s.current, to))
    chip = s.path[given]
    assert chip is not None
    s.stashes[to].append(chip)
    s.path[given] = None
    s.pending = None
    _end_turn(s, ev)


def _end_turn(s: UgahState, ev: list[Event]) -> None:
    """R32: the game ends once no chip lies between the hunters; otherwise play passes clockwise."""
    if not open_stretch(s.path, s.mm, s.bb):
        s.phase = "over"
        result = RULES.outcome(s)
        assert result is not None
        ev.append(Event("game_over", {"scores": result.scores, "winners": result.winners}))
        return
    s.current = (s.current + 1) % s.n  # R13: clockwise = next seat
    s.turn += 1
    s.phase, s.aside, s.rolled, s.last_bones, s.pending = "pick", [], [], 0, None
    ev.append(Event("turn", {"seat": s.current}))


def _clone(s: UgahState) -> UgahState:
    """Cheap deep copy (apply never mutates its input)."""
    return dataclasses.replace(
        s,
        path=list(s.path),
        face_up=list(s.face_up),
        spoils=dict(s.spoils),
        stashes=[list(x) for x in s.stashes],
        aside=list(s.aside),
        rolled=list(s.rolled),
        pending=dict(s.pending) if s.pending is not None else None,
    )


# ---- the Rules object --------------------------------------------------------------------------------


class UgahRules(Rules[UgahState]):
    name = "ugah"
    min_players = 2
    max_players = 4
    options = (Choice("variant", VARIANTS), Choice("rolling", ROLLING))
    auto_single = True  # a lone symbol to name, or one keep/give choice, reveals nothing

    def setup(self, n_players: int, seed: int, options: dict[str, Any]) -> UgahState:
        variant = options.get("variant", VARIANTS[0])
        rolling = options.get("rolling", ROLLING[0])
        if (
            not self.min_players <= n_players <= self.max_players
            or variant not in VARIANTS
            or rolling not in ROLLING
        ):
            raise IllegalAction("bad setup", n=n_players, variant=variant, rolling=rolling)
        rng = Rng(seed)
        chips: list[int | None] = list(CHIPS)
        rng.shuffle(chips)  # R10
        face_up = [True] * N_CHIPS
        if variant == "uncertain":  # R39: four random chips face up, the rest face down
            up = set(rng.sample(range(N_CHIPS), UNCERTAIN_FACE_UP))
            face_up = [i in up for i in range(N_CHIPS)]
        current = rng.below(n_players)  # R13 / A13
        s = UgahState(
            n_players, variant, rolling == "single", rng.state, chips, face_up, current=current, turn=1
        )
        s.stashes = [[] for _ in range(n_players)]
        _run(s, [])  # the first throw is chance, rolled at once
        return s

    def to_move(self, s: UgahState) -> frozenset[Seat]:
        return frozenset() if s.phase == "over" else frozenset({s.current})

    def legal_actions(self, s: UgahState, seat: Seat) -> list[str]:
        if s.phase == "over" or seat != s.current:
            return []
        if s.phase == "order":
            return [f"first.{h}" for h in HUNTERS]
        if s.phase == "keep":  # R29/R42: the other chip always goes to someone else
            return [f"keep.{h}.{r}" for h in HUNTERS for r in range(s.n) if r != s.current]
        shown = [x for x in NAMEABLE if x in s.rolled]  # R16/R17: only symbols showing
        sizes = [1] if s.single else range(1, len(shown) + 1)  # R41
        return ["pick." + ".".join(c) for k in sizes for c in combinations(shown, k)]

    def apply(self, s: UgahState, seat: Seat, action: str) -> tuple[UgahState, list[Event]]:
        kind, args = parse_action(action)
        if s.phase == "over":
            raise MatchOver(action)
        if seat != s.current:
            raise NotYourTurn(action, seat=seat)
        if action not in self.legal_actions(s, seat):
            raise IllegalAction(action)
        t, ev = _clone(s), []
        if kind == "pick":
            _pick(t, args, ev)
        elif kind == "first":
            _move(t, args[0] == MM, ev)
        else:
            _keep(t, args[0], args[1], ev)
        _run(t, ev)
        return t, ev

    def timers(self, s: UgahState) -> list[Timer]:
        """One turn limit per decision of the seat to move (the match's ``turn_seconds``)."""
        return [] if s.phase == "over" else [Timer("turn", seat=s.current, per_move=True)]

    def outcome(self, s: UgahState) -> Outcome | None:
        if s.phase != "over":
            return None
        pts = scores(s)
        return Outcome(pts, [seat for seat in range(s.n) if pts[seat] == max(pts)])  # R35/R36

    def view(self, s: UgahState, seat: Seat | None) -> dict[str, Any]:
        over = s.phase == "over"
        me = seat if seat is not None and 0 <= seat < s.n else None
        peek = set(s.pending.values()) if s.pending and me == s.current else set()  # R40

        def shown(i: int) -> int | None:
            return s.path[i] if over or s.face_up[i] or i in peek else None

        result = self.outcome(s)
        return {
            "game": self.name,
            "variant": s.variant,
            "single": s.single,
            "n": s.n,
            "current": s.current,
            "phase": s.phase,
            "turn": s.turn,
            "path": [{"v": shown(i), "up": s.face_up[i], "taken": s.path[i] is None} for i in range(N_CHIPS)],
            "mm": s.mm,
            "bb": s.bb,
            "aside": list(s.aside),
            "rolled": list(s.rolled),
            "last_bones": s.last_bones,
            "spoils": dict(s.spoils),
            "stash_sizes": [len(x) for x in s.stashes],
            "stash": list(s.stashes[me]) if me is not None else None,  # R38
            "pending": None
            if s.pending is None
            else {**s.pending, "mm_v": shown(s.pending[MM]), "bb_v": shown(s.pending[BB])},
            "over": over,
            "scores": result.scores if result else None,
            "winners": result.winners if result else None,
            "stashes": [list(x) for x in s.stashes] if over else None,
        }

    def dump(self, s: UgahState) -> dict[str, Any]:
        # field by field with shallow copies: dataclasses.asdict deep-copies every value and cost
        # ~0.4 ms a move, the largest item on the click path
        d = {f.name: getattr(s, f.name) for f in _FIELDS}
        d.update(path=list(s.path), face_up=list(s.face_up), spoils=dict(s.spoils), aside=list(s.aside),
                 rolled=list(s.rolled), stashes=[list(x) for x in s.stashes],
                 pending=dict(s.pending) if s.pending is not None else None)  # fmt: skip
        return d

    def load(self, d: dict[str, Any]) -> UgahState:
        return _clone(UgahState(**d))


_FIELDS = dataclasses.fields(UgahState)
RULES = UgahRules()
