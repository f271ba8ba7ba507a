"""Ubongo Fun-Size rules engine (rules: docs/rules/ubongo.md, clauses R1-R32, V1-V5, A1-A11).

The first game where every seat acts at once: ``to_move`` holds every player still solving, and the
match engine applies their actions in the order it receives them, which is the race order of R29.
Time belongs to the rules: the countdown after "Ubongo!" (R23), the round limit (R27) and the solo
clock (V4/V5) are declared by ``timers`` and end with a SYSTEM action (``stop.<round>``,
``timeout.<round>``, ``time_up``) that only the SYSTEM seat may apply.

A player's workspace is built one placement at a time (``place.<piece>.<o>.<x>.<y>``, R22), and a
task covered exactly with the right number of pieces is solved at once (R20, R21): there is no
separate "submit". Tasks come from the committed generator output (ubongo_tasks.json, R11).

House decisions beyond the spec, each marked "house" below: the round ends at once when every player
has solved (nobody is left to wait for); under V2 the round limit follows the longest side in play;
solo draws from all 32 cards and shuffles set-aside cards back when the stack runs out; a speed run
(V5) is capped at its task count times the round limit. Seed over spec: the seed's "if you get stuck,
set it aside and draw a new card" follows both solo variants, so ``skip`` is allowed in the speed run
(V5) too, not only in time attack (V4).
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from engine.core import SYSTEM, Choice, Event, Flag, Integer, Outcome, Seat, Timer
from engine.errors import BadActionCode, IllegalAction, MatchOver, NotYourTurn
from engine.games.ubongo_pieces import PIECE_IDS, YELLOW, canonical, cells_at
from engine.games.ubongo_solver import Cells, fits, is_solution, parse_rows
from engine.rng import Rng

TASKS_FILE = Path(__file__).with_name("ubongo_tasks.json")
N_CARDS = 32  # R2
ROUNDS = 8  # R30
SIDES = ("A", "B")
PIECES_NEEDED = {"A": 3, "B": 4}  # R2, R21
COUNTDOWN = {"A": 20, "B": 30}  # R23 seconds
ROUND_LIMIT = {"A": 180, "B": 300}  # R27 seconds
SOLO_MODES = ("time", "tasks")  # V4 time attack, V5 speed run
SOLO_SIZES = ("5", "10", "20")  # minutes (V4) or tasks (V5)
# V1/V2 name players by their 1-based seat number; "none"/"all" read best in a select
SEAT_SETS = (
    "none",
    "all",
    "1",
    "2",
    "3",
    "4",
    "12",
    "13",
    "14",
    "23",
    "24",
    "34",
    "123",
    "124",
    "134",
    "234",
)
SYSTEM_KINDS = ("stop", "timeout", "time_up")
MAX_COORD = 99  # two digits: no task is wider than 6; longer numbers are forged codes


@cache
def card_tasks() -> tuple[dict[str, tuple[str, ...]], ...]:
    """The 32 cards of the committed task file: card i -> {"A": rows, "B": rows}."""
    data = json.loads(TASKS_FILE.read_text(encoding="utf-8"))
    return tuple({side: tuple(card[side]) for side in SIDES} for card in data["cards"])


@cache
def _cells(rows: tuple[str, ...]) -> Cells:
    return parse_rows(rows)


@dataclass
class UbongoState:
    n: int
    mode: str  # "race" (2-4 players) | "time" (V4) | "tasks" (V5)
    rng: int
    sides: list[str]  # R13 / V2: each seat's side
    no_yellow: list[bool]  # V1
    countdown: int  # R23: seconds, 0 = by the first solver's side
    limit: int  # R27: seconds, 0 = by side
    gems: bool  # V3
    solo_size: int  # V4 minutes / V5 tasks (0 in a race)
    stack: list[int]  # R14: cards still to draw, top first
    round: int = 0  # race: round 1-8; solo: number of the task being solved
    starter: int = 0  # R17 / R28
    phase: str = "solving"  # "solving" | "countdown" (R23) | "over"
    cards: list[int] = field(default_factory=list)  # each seat's card this round
    tasks: list[list[str]] = field(default_factory=list)  # each seat's task rows (R6) this round
    placed: list[dict[str, list[int]]] = field(default_factory=list)  # seat -> piece -> [o, x, y]
    solved: list[int] = field(default_factory=list)  # R29: seats in solve order this round
    won: list[list[int]] = field(default_factory=list)  # R31: cards in front of each seat
    gems_won: list[int] = field(default_factory=list)  # V3
    history: list[dict[str, Any]] = field(default_factory=list)  # finished rounds / solo tasks
    aside: list[int] = field(default_factory=list)  # V4: cards set aside by ``skip``
    done: int = 0  # solo: tasks solved


# ---- small state questions (the AI, the renderer's samples and the tests use them) -------------------


def need(s: UbongoState, seat: Seat) -> int:
    """R21: pieces a solution of this seat's task uses."""
    return PIECES_NEEDED[s.sides[seat]]


def task_cells(s: UbongoState, seat: Seat) -> Cells:
    return _cells(tuple(s.tasks[seat]))


def allowed(s: UbongoState, seat: Seat) -> tuple[str, ...]:
    """R16 / V1: the pieces of the seat's own set (A11), without the yellow I3 under V1."""
    return _ALLOWED[bool(s.no_yellow[seat])]


_ALLOWED = {False: tuple(PIECE_IDS), True: tuple(p for p in PIECE_IDS if p != YELLOW)}


def covered(s: UbongoState, seat: Seat) -> set[tuple[int, int]]:
    return {c for p, (o, x, y) in s.placed[seat].items() for c in cells_at(p, o, x, y)}


def placement_problem(s: UbongoState, seat: Seat, piece: str, o: int, x: int, y: int) -> str | None:
    """Why ``place.piece.o.x.y`` is refused (a message key suffix), or None if it may be placed."""
    if piece not in allowed(s, seat):
        return "not_allowed"  # V1
    if piece in s.placed[seat]:
        return "reused"  # R1: one of each piece
    shape = cells_at(piece, o, x, y)
    if not set(shape) <= task_cells(s, seat):
        return "outside"  # R20: no square outside the task
    if covered(s, seat).intersection(shape):
        return "overlap"  # R20: no overlaps
    return None


def piece_spots(s: UbongoState, seat: Seat, piece: str) -> list[str]:
    """The place codes of ``piece`` that fit the seat's free cells now, one per distinct shape and
    spot: the options a workspace offers once a piece is chosen (at most 25, almost
    always). Empty if the piece is placed already or not the seat's to use (V1)."""
    if piece not in allowed(s, seat) or piece in s.placed[seat]:
        return []
    return list(_spots(*_workspace(s, seat), piece))


def _workspace(s: UbongoState, seat: Seat) -> tuple[tuple[str, ...], tuple[tuple[Any, ...], ...]]:
    """The seat's task rows and pieces down (piece, o, x, y), hashable: ``_spots``'s key."""
    return tuple(s.tasks[seat]), tuple((p, *spot) for p, spot in sorted(s.placed[seat].items()))


@lru_cache(maxsize=4096)
def _spots(task: tuple[str, ...], placed: tuple[tuple[Any, ...], ...], piece: str) -> tuple[str, ...]:
    """``piece_spots`` of a task with these pieces down. The same question comes back many times a
    click (what each seat may do, before and after the commit; the workspace's piece menu), and
    answering it walks every placement of the piece: measured 0.43 ms for four seats' actions."""
    cells = _cells(task)
    free = frozenset(cells - {c for p, o, x, y in placed for c in cells_at(p, o, x, y)})
    return tuple(place_code(p, o, x, y) for p, o, x, y in fits(cells, piece, free))


def points(s: UbongoState) -> list[int]:
    """R31 / V3: one point per card in front of a player, plus gems."""
    return [len(s.won[i]) + s.gems_won[i] for i in range(s.n)]


def countdown_seconds(s: UbongoState) -> int:
    """R23 / V2: the option, or 20 / 30 s by the first solver's side."""
    if s.countdown:
        return s.countdown
    first = s.solved[0] if s.solved else 0
    return COUNTDOWN[s.sides[first]]


def limit_seconds(s: UbongoState) -> int:
    """R27: the option, or 180 / 300 s; house: under V2 the longest side in play sets it."""
    return s.limit or max(ROUND_LIMIT[side] for side in s.sides)


def solo_seconds(s: UbongoState) -> int:
    """V4: the chosen minutes; V5 (house): a cap of one round limit per task of the run."""
    return s.solo_size * 60 if s.mode == "time" else s.solo_size * limit_seconds(s)


# ---- personal records (kept by the engine: engine.records) -----------------------------------------


def record_mode(s: UbongoState) -> str | None:
    """The records' mode of a solo run: the /ubongo solo choice (``time.5``, ``tasks.10``...), set
    apart when played (through /ubongo start) on side B or without the yellow piece: those results are
    not comparable with side A's. None for a race (no records)."""
    if s.mode == "race":
        return None
    mode = f"{s.mode}.{s.solo_size}"
    if s.sides[0] != "A":
        mode += f".{s.sides[0]}"
    return mode + ".no_yellow" if s.no_yellow[0] else mode


def record_result(s: UbongoState, seconds: float | None) -> tuple[float, bool] | None:
    """A finished solo run's result for the records: (value, higher is better), given the run's
    duration in seconds (None: unknown). None when it sets none: nothing solved in a time attack
    (V4), or a speed run (V5) the clock stopped before its last task."""
    if s.mode == "time":
        return (float(s.done), True) if s.done else None
    if s.mode != "tasks" or s.done < s.solo_size or seconds is None:
        return None
    return float(seconds), False  # V5: the run's time, from the match's start and end


# ---- action codes ----------------------------------------------------------------------------------


def _number(text: str) -> int | None:
    """A canonical non-negative decimal (no sign, no leading zero) up to MAX_COORD, else None."""
    if text.isascii() and text.isdigit() and text == str(int(text)) and int(text) <= MAX_COORD:
        return int(text)
    return None


def parse_action(code: object) -> tuple[str, tuple[Any, ...]]:
    """Split a code into (kind, args); anything that is not a canonical code is BadActionCode."""
    if not isinstance(code, str) or len(code) > 40:
        raise BadActionCode("not an action code")
    kind, *args = code.split(".")
    if kind == "place" and len(args) == 4 and args[0] in PIECE_IDS:
        o, x, y = (_number(a) for a in args[1:])
        if o is not None and o < 8 and x is not None and y is not None:
            return kind, (args[0], o, x, y)
    elif kind == "lift" and len(args) == 1 and args[0] in PIECE_IDS:
        return kind, (args[0],)
    elif kind in ("clear", "skip", "time_up") and not args:
        return kind, ()
    elif kind in ("stop", "timeout") and len(args) == 1 and _number(args[0]) is not None:
        return kind, (int(args[0]),)
    raise BadActionCode(code)


def place_code(piece: str, o: int, x: int, y: int) -> str:
    return f"place.{piece}.{o}.{x}.{y}"


# ---- the round machinery (helpers mutate the copy made in apply/setup) -------------------------------


def _start_race_round(s: UbongoState, ev: list[Event]) -> None:
    """R18/R19: from the starter clockwise each seat draws the top card; all are revealed together."""
    s.round += 1
    for i in range(s.n):
        seat = (s.starter + i) % s.n
        s.cards[seat] = s.stack.pop(0)
    _reveal(s)
    ev.append(Event("round_started", {"round": s.round, "starter": s.starter, "sides": list(s.sides)}))


def _reveal(s: UbongoState) -> None:
    s.tasks = [list(card_tasks()[s.cards[i]][s.sides[i]]) for i in range(s.n)]
    s.placed = [{} for _ in range(s.n)]
    s.solved = []
    s.phase = "solving"


def _solo_draw(s: UbongoState, ev: list[Event]) -> None:
    """V4/V5: draw the next card; house: set-aside cards are shuffled back when the stack is empty."""
    if not s.stack and s.aside:
        rng = Rng(s.rng)
        s.stack, s.aside = list(s.aside), []
        rng.shuffle(s.stack)
        s.rng = rng.state
    if not s.stack:  # all 32 tasks solved: nothing left to draw
        _game_over(s, ev, "stack")
        return
    s.round += 1
    s.cards[0] = s.stack.pop(0)
    _reveal(s)
    ev.append(Event("task_started", {"number": s.round, "side": s.sides[0]}))


def _record(s: UbongoState, reason: str, gained: list[int]) -> None:
    """Keep the finished round (or solo task) public: tasks and solutions are face up now."""
    s.history.append(
        {
            "round": s.round,
            "reason": reason,
            "cards": list(s.cards),
            "sides": list(s.sides),
            "tasks": [list(t) for t in s.tasks],
            "placed": [{p: list(v) for p, v in pl.items()} for pl in s.placed],
            "solved": list(s.solved),
            "gained": gained,
        }
    )


def _solve(s: UbongoState, seat: Seat, ev: list[Event]) -> None:
    """R20/R21 satisfied: record the solve; the first one calls "Ubongo!" (R23)."""
    s.solved.append(seat)
    ev.append(Event("solved", {"seat": seat, "order": len(s.solved), "round": s.round}))
    if s.mode != "race":
        s.done += 1
        _record(s, "solved", [1])
        if s.mode == "tasks" and s.done >= s.solo_size:  # V5: the run is complete
            _game_over(s, ev, "done")
        else:
            _solo_draw(s, ev)
        return
    if len(s.solved) == 1:
        s.phase = "countdown"
        ev.append(Event("ubongo", {"seat": seat, "round": s.round, "seconds": countdown_seconds(s)}))
    if len(s.solved) == s.n:  # house: nobody is left solving, so the countdown has nothing to wait for
        _end_round(s, "all_solved", ev)


def _end_round(s: UbongoState, reason: str, ev: list[Event]) -> None:
    """R25-R28 (V3): hand out the cards, pick the next starter, deal again or end the game (R30)."""
    gained = [0] * s.n
    if s.solved:
        first = s.solved[0]
        for seat in s.solved:  # R25: every solver keeps their own card
            s.won[seat].append(s.cards[seat])
            gained[seat] += 1
        losers = [seat for seat in range(s.n) if seat not in s.solved]
        if s.gems:  # V3: one gem for the first solver; the non-solvers' cards are discarded
            s.gems_won[first] += 1
            gained[first] += 1
        else:  # R26: the first solver also takes every non-solver's card
            s.won[first].extend(s.cards[seat] for seat in losers)
            gained[first] += len(losers)
        next_starter = (first + 1) % s.n  # R28: left of the first solver
    else:  # R27: nobody solved: the cards leave the game and nobody scores
        next_starter = (s.starter + 1) % s.n  # R28 / A7: left of the previous starter
    _record(s, reason, gained)
    ev.append(
        Event("round_over", {"round": s.round, "reason": reason, "solved": list(s.solved), "gained": gained})
    )
    s.starter = next_starter
    if s.round >= ROUNDS:  # R30
        _game_over(s, ev, "rounds")
    else:
        _start_race_round(s, ev)


def _game_over(s: UbongoState, ev: list[Event], why: str) -> None:
    s.phase = "over"
    result = RULES.outcome(s)
    assert result is not None
    ev.append(Event("game_over", {"why": why, "scores": result.scores, "winners": result.winners}))


def _place(s: UbongoState, seat: Seat, piece: str, o: int, x: int, y: int, ev: list[Event]) -> None:
    o = canonical(piece, o)  # R22 lets any index 0-7 name a shape; store one spelling of it
    s.placed[seat][piece] = [o, x, y]
    ev.append(Event("placed", {"seat": seat, "piece": piece, "o": o, "x": x, "y": y}, to=(seat,)))
    cells = task_cells(s, seat)
    if len(covered(s, seat)) != len(cells):
        return
    placements = [(p, *v) for p, v in s.placed[seat].items()]
    if is_solution(cells, placements, need(s, seat)):  # type: ignore[arg-type]
        _solve(s, seat, ev)
    else:  # R21 / E2: covered, but with the wrong number of pieces
        ev.append(Event("not_a_solution", {"seat": seat, "pieces": len(placements)}, to=(seat,)))


def _clone(s: UbongoState) -> UbongoState:
    """Cheap copy for apply (never mutates its input). Rows, [o, x, y] lists and history entries are
    never changed in place, so sharing them is safe."""
    return dataclasses.replace(
        s,
        sides=list(s.sides),
        no_yellow=list(s.no_yellow),
        stack=list(s.stack),
        cards=list(s.cards),
        tasks=list(s.tasks),
        placed=[dict(p) for p in s.placed],
        solved=list(s.solved),
        won=[list(w) for w in s.won],
        gems_won=list(s.gems_won),
        history=list(s.history),
        aside=list(s.aside),
    )


# ---- options ----------------------------------------------------------------------------------------


def _seat_set(value: str, n: int) -> list[bool]:
    """ "none" / "all" / 1-based seat digits ("13") -> a flag per seat (seats beyond n are ignored)."""
    if value == "all":
        return [True] * n
    return [str(i + 1) in value for i in range(n)] if value != "none" else [False] * n


def _option(options: dict[str, Any], name: str) -> Any:
    value = options.get(name)
    opt = next(o for o in UbongoRules.options if o.name == name)
    if value is None:
        return opt.fallback if isinstance(opt, Choice) else opt.default
    ok = (
        value in opt.choices
        if isinstance(opt, Choice)
        else isinstance(value, bool)
        if isinstance(opt, Flag)
        else opt.accepts(value)
    )
    if not ok:
        raise IllegalAction("bad option", option=name, value=value)
    return value


# ---- the Rules object --------------------------------------------------------------------------------


class UbongoRules:
    name = "ubongo"
    min_players = 1
    max_players = 4
    options = (
        Choice("side", ("A", "B", "mixed"), "A"),  # R13; "mixed" is V2
        Choice("b_seats", SEAT_SETS, "none"),  # V2: the seats that play side B when side is "mixed"
        Choice("no_yellow", SEAT_SETS, "none"),  # V1: the seats without the yellow I3
        # seconds; 0 (the default) = the rules' own. Chosen ones are bounded to what can be played:
        # a 1 s round limit would end every round before a piece is down
        Integer("countdown", 0, 5, 120),  # R23: 0 = 20 (A) / 30 (B)
        Integer("round_limit", 0, 30, 1800),  # R27: 0 = 180 (A) / 300 (B)
        Flag("gems", False),  # V3
        Choice("solo", SOLO_MODES, "time"),  # V4 / V5, with one player
        Choice("solo_size", SOLO_SIZES, "5"),  # minutes (V4) or tasks (V5)
    )

    def setup(self, n_players: int, seed: int, options: dict[str, Any]) -> UbongoState:
        if not self.min_players <= n_players <= self.max_players:
            raise IllegalAction("bad setup", n=n_players)
        opt = {o.name: _option(options, o.name) for o in self.options}
        side = opt["side"]
        b_seats = _seat_set(opt["b_seats"], n_players)
        sides = [("B" if b else "A") if side == "mixed" else side for b in b_seats]
        solo = n_players == 1
        rng = Rng(seed)
        stack = list(range(N_CARDS))
        rng.shuffle(stack)  # R14: drawn at random, unseen
        if not solo:
            stack = stack[: ROUNDS * n_players]  # R14: 16 / 24 / 32 cards, the rest out of play
        s = UbongoState(
            n=n_players,
            mode=opt["solo"] if solo else "race",
            rng=rng.state,
            sides=sides,
            no_yellow=_seat_set(opt["no_yellow"], n_players),
            countdown=opt["countdown"],
            limit=opt["round_limit"],
            gems=opt["gems"],
            solo_size=int(opt["solo_size"]) if solo else 0,
            stack=stack,
            starter=rng.below(n_players),  # R17 / A10: a random first starter
            cards=[0] * n_players,
            won=[[] for _ in range(n_players)],
            gems_won=[0] * n_players,
        )
        s.rng = rng.state
        ev: list[Event] = []
        if solo:
            _solo_draw(s, ev)
        else:
            _start_race_round(s, ev)
        return s

    def to_move(self, s: UbongoState) -> frozenset[Seat]:
        """Every seat still solving acts at once (R19, R24); a seat that solved waits (R25)."""
        if s.phase == "over":
            return frozenset()
        return frozenset(seat for seat in range(s.n) if seat not in s.solved)

    def turn_starts(self, before: UbongoState, after: UbongoState) -> frozenset[Seat]:
        """A new round is everyone's new puzzle (R19), also for a seat that never solved the last one
        (it stayed to move): each is pinged. Within a round, only a seat that may act again."""
        if after.round != before.round:
            return self.to_move(after)
        return self.to_move(after) - self.to_move(before)

    def system_actions(self, s: UbongoState) -> list[str]:
        return [t.action for t in self.timers(s) if t.action]

    def legal_actions(self, s: UbongoState, seat: Seat) -> list[str]:
        """Placements in canonical orientation that fit the free cells, then lift/clear/skip; for the
        SYSTEM seat, the actions of the running timers."""
        if seat == SYSTEM:
            return self.system_actions(s)
        if seat not in self.to_move(s):
            return []
        placed = s.placed[seat]
        task, down = _workspace(s, seat)
        out = [code for p in allowed(s, seat) if p not in placed for code in _spots(task, down, p)]
        out += [f"lift.{p}" for p in placed]
        if placed:
            out.append("clear")
        if s.mode != "race":
            out.append("skip")
        return out

    def apply(self, s: UbongoState, seat: Seat, action: str) -> tuple[UbongoState, list[Event]]:
        kind, args = parse_action(action)
        if s.phase == "over":
            raise MatchOver(action)
        if kind in SYSTEM_KINDS:
            return self._apply_system(s, seat, action, kind)
        if seat not in self.to_move(s):
            raise NotYourTurn(action, seat=seat)
        self._check(s, seat, kind, args, action)
        t, ev = _clone(s), []
        if kind == "place":
            _place(t, seat, *args, ev)
        elif kind == "lift":
            del t.placed[seat][args[0]]
            ev.append(Event("lifted", {"seat": seat, "piece": args[0]}, to=(seat,)))
        elif kind == "clear":
            t.placed[seat] = {}
            ev.append(Event("cleared", {"seat": seat}, to=(seat,)))
        else:  # skip (V4/V5): set the card aside and draw a new one
            t.aside.append(t.cards[0])
            ev.append(Event("skipped", {"number": t.round}))
            _record(t, "skipped", [0])
            _solo_draw(t, ev)
        return t, ev

    def _check(self, s: UbongoState, seat: Seat, kind: str, args: tuple[Any, ...], action: str) -> None:
        """Raise IllegalAction (with a ``reason`` the UI can explain) before anything changes."""
        reason = None
        if kind == "place":
            reason = placement_problem(s, seat, *args)
        elif kind == "lift" and args[0] not in s.placed[seat]:
            reason = "not_placed"
        elif kind == "clear" and not s.placed[seat]:
            reason = "nothing_placed"
        elif kind == "skip" and s.mode == "race":
            reason = "solo_only"  # V4: skipping is a solo rule
        if reason:
            raise IllegalAction(action, reason=reason)

    def _apply_system(
        self, s: UbongoState, seat: Seat, action: str, kind: str
    ) -> tuple[UbongoState, list[Event]]:
        """The running timers' own actions: SYSTEM only, and only the ones declared now."""
        if seat != SYSTEM:
            raise IllegalAction(action, reason="system_only")
        if action not in self.system_actions(s):
            raise IllegalAction(action, reason="no_such_timer")
        t, ev = _clone(s), []
        if kind == "time_up":  # V4/V5: the solo clock ran out; the task in hand does not count
            _game_over(t, ev, "time")
        else:  # R25 countdown over / R27 round limit reached
            _end_round(t, "countdown" if kind == "stop" else "limit", ev)
        return t, ev

    def timers(self, s: UbongoState) -> list[Timer]:
        """The round's clock: the round limit while nobody has solved (R27), the countdown after the
        first solve (R23), or the solo clock (V4/V5). Names carry the round so that a new round's
        timer never inherits the previous round's due time."""
        if s.phase == "over":
            return []
        if s.mode != "race":
            return [Timer("solo_clock", seconds=solo_seconds(s), action="time_up")]
        if s.phase == "countdown":
            r = s.round
            return [Timer(f"countdown.{r}", seconds=countdown_seconds(s), action=f"stop.{r}")]
        return [Timer(f"round_limit.{s.round}", seconds=limit_seconds(s), action=f"timeout.{s.round}")]

    def outcome(self, s: UbongoState) -> Outcome | None:
        if s.phase != "over":
            return None
        if s.mode != "race":  # solo: the tasks solved are the score; the player always "wins"
            return Outcome([s.done], [0])
        pts = points(s)
        return Outcome(pts, [seat for seat in range(s.n) if pts[seat] == max(pts)])  # R31/R32

    def view(self, s: UbongoState, seat: Seat | None) -> dict[str, Any]:
        """Public keys: game, n, mode ("race" | "time" | "tasks"), phase ("solving" | "countdown" |
        "over"), round, rounds (8, or the solo size), starter, sides, no_yellow, gems_variant, solved
        (seats in solve order), countdown (its seconds while it runs, else None), round_limit
        (seconds), scores, cards_won, gems, history (finished rounds or solo tasks, face up: tasks,
        placed, solved, gained, reason), solo ({mode, size, done, skipped} or None), seat, over,
        winners, task (None). A seat's own view while the game runs adds its workspace: task (R6
        rows), side, need (pieces a solution uses), placed ({piece: [o, x, y]}), allowed (its set
        under V1), pieces (still in hand) and done_round. Never another seat's task or workspace."""
        me = seat if seat is not None and 0 <= seat < s.n else None
        result = self.outcome(s)
        out: dict[str, Any] = {
            "game": self.name,
            "n": s.n,
            "mode": s.mode,
            "phase": s.phase,
            "round": s.round,
            "rounds": ROUNDS if s.mode == "race" else s.solo_size,
            "starter": s.starter,
            "sides": list(s.sides),
            "no_yellow": list(s.no_yellow),
            "gems_variant": s.gems,
            "solved": list(s.solved),
            "countdown": countdown_seconds(s) if s.phase == "countdown" else None,
            "round_limit": limit_seconds(s),
            "scores": points(s),
            "cards_won": [len(w) for w in s.won],
            "gems": list(s.gems_won),
            "history": [json.loads(json.dumps(h)) for h in s.history],
            "solo": None
            if s.mode == "race"
            else {"mode": s.mode, "size": s.solo_size, "done": s.done, "skipped": len(s.history) - s.done},
            "seat": me,
            "over": s.phase == "over",
            "winners": result.winners if result else None,
            "task": None,
        }
        if me is not None and s.phase != "over":
            out.update(self._workspace(s, me))
        return out

    def _workspace(self, s: UbongoState, me: Seat) -> dict[str, Any]:
        placed = s.placed[me]
        return {
            "task": list(s.tasks[me]),
            "side": s.sides[me],
            "need": need(s, me),
            "placed": {p: list(v) for p, v in placed.items()},
            "allowed": list(allowed(s, me)),
            "pieces": [p for p in allowed(s, me) if p not in placed],  # still in hand
            "done_round": me in s.solved,
        }

    def dump(self, s: UbongoState) -> dict[str, Any]:
        t = _clone(s)  # fresh lists, so the caller may keep or change the dump freely
        d = {f.name: getattr(t, f.name) for f in _FIELDS}
        d.update(
            placed=[{p: list(v) for p, v in pl.items()} for pl in s.placed],
            tasks=[list(r) for r in s.tasks],
            history=json.loads(json.dumps(s.history)),
        )
        return d

    def load(self, d: dict[str, Any]) -> UbongoState:
        s = UbongoState(**d)
        s.placed = [{p: list(v) for p, v in pl.items()} for pl in s.placed]
        return _clone(s)


_FIELDS = dataclasses.fields(UbongoState)
RULES = UbongoRules()
