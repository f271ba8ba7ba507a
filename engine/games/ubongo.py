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
from typing import Any

from engine.core import SYSTEM, Choice, Event, Flag, Integer, Outcome, Rules, Seat, Timer
from engine.errors import BadActionCode, IllegalAction, MatchOver, NotYourTurn
from engine.games.ubongo_data import (
    COUNTDOWN,
    MAX_COORD,
    N_CARDS,
    NAME,
    ROUND_LIMIT,
    ROUNDS,
    SEAT_SETS,
    SOLO_MODES,
    SOLO_SIZES,
    SYSTEM_KINDS,
    TASKS_FILE,
    card_tasks,
)
from engine.games.ubongo_pieces import PIECE_IDS
from engine.games.ubongo_round import (
    end_round,
    game_over,
    outcome,
    place,
    record_round,
    solo_draw,
    start_race_round,
)
from engine.games.ubongo_state import (
    UbongoState,
    allowed,
    clone,
    countdown_seconds,
    covered,
    limit_seconds,
    need,
    piece_spots,
    place_code,
    placement_problem,
    record_mode,
    record_result,
    solo_seconds,
    spots,
    task_cells,
    workspace_key,
)
from engine.games.ubongo_view import view
from engine.rng import Rng

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


class UbongoRules(Rules[UbongoState]):
    name = NAME
    min_players = 1
    max_players = 4
    real_time = True  # every seat solves at once: its puzzles go by DM already
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
            solo_draw(s, ev)
        else:
            start_race_round(s, ev)
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
        task, down = workspace_key(s, seat)
        out = [code for p in allowed(s, seat) if p not in placed for code in spots(task, down, p)]
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
        t, ev = clone(s), []
        if kind == "place":
            place(t, seat, *args, ev=ev)
        elif kind == "lift":
            del t.placed[seat][args[0]]
            ev.append(Event("lifted", {"seat": seat, "piece": args[0]}, to=(seat,)))
        elif kind == "clear":
            t.placed[seat] = {}
            ev.append(Event("cleared", {"seat": seat}, to=(seat,)))
        else:  # skip (V4/V5): set the card aside and draw a new one
            t.aside.append(t.cards[0])
            ev.append(Event("skipped", {"number": t.round}))
            record_round(t, "skipped", [0])
            solo_draw(t, ev)
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
        t, ev = clone(s), []
        if kind == "time_up":  # V4/V5: the solo clock ran out; the task in hand does not count
            game_over(t, ev, "time")
        else:  # R25 countdown over / R27 round limit reached
            end_round(t, "countdown" if kind == "stop" else "limit", ev)
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
        return outcome(s)

    def view(self, s: UbongoState, seat: Seat | None) -> dict[str, Any]:
        """The seat's view (engine.games.ubongo_view): never another seat's task or workspace."""
        return view(s, seat)

    def dump(self, s: UbongoState) -> dict[str, Any]:
        t = clone(s)  # fresh lists, so the caller may keep or change the dump freely
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
        return clone(s)


_FIELDS = dataclasses.fields(UbongoState)
RULES = UbongoRules()
# what other code imports from here: the rules object, the state and its questions, the tables
__all__ = [
    "COUNTDOWN",
    "ROUNDS",
    "ROUND_LIMIT",
    "RULES",
    "SEAT_SETS",
    "SOLO_MODES",
    "SOLO_SIZES",
    "TASKS_FILE",
    "UbongoRules",
    "UbongoState",
    "allowed",
    "card_tasks",
    "covered",
    "need",
    "parse_action",
    "piece_spots",
    "place_code",
    "placement_problem",
    "record_mode",
    "record_result",
    "task_cells",
]
