"""The small surface every game implements (after OpenSpiel / boardgame.io).

Actions are short canonical text codes (``pick.bird.mm``, ``first.bb``, ``keep.mm.2``) used in
custom_ids, the action log and tests alike. States are plain dataclasses, JSON round-tripped by
``dump``/``load``; randomness lives in the state (engine.rng), so seed + action log replays a match.

Time belongs to the rules: ``timers(s)`` declares the timers that run in a state (a turn limit, a
countdown, a round limit). The match engine keeps each one's absolute due time across commits,
stores it, re-arms it after a restart and, when it runs out, applies the timer's action as an
ordinary logged action of the ``SYSTEM`` seat (or lets the computer play the seat's turn).
Computer players live outside the rules (``Computer``), one module per game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

S = TypeVar("S")
S_contra = TypeVar("S_contra", contravariant=True)  # a computer only reads states
Seat = int
SYSTEM: Seat = -1  # the seat of actions the rules' own timers take (logged like any other action)


@dataclass(frozen=True)
class Event:
    """Something that happened. ``to`` is None for public events, else the seats that may see it."""

    kind: str
    data: dict[str, Any] = field(default_factory=dict)
    to: tuple[Seat, ...] | None = None

    def visible_to(self, seat: Seat | None) -> bool:
        return self.to is None or (seat is not None and seat in self.to)

    def dump(self) -> dict[str, Any]:
        return {"kind": self.kind, "data": self.data, "to": list(self.to) if self.to is not None else None}

    @staticmethod
    def load(d: dict[str, Any]) -> Event:
        to = d.get("to")
        return Event(d["kind"], d.get("data", {}), tuple(to) if to is not None else None)


REASONS = ("win", "draw", "resignation", "timeout")


@dataclass(frozen=True)
class Outcome:
    """How a game ended: points per seat, the winners (every seat in a draw) and why."""

    scores: list[int]
    winners: list[Seat]
    reason: str = "win"  # one of REASONS


@dataclass(frozen=True)
class Timer:
    """A timer the rules want running in a state.

    The engine identifies a timer by ``(name, seat)``: while a state keeps declaring it, its due time
    stays where it was (a commit does not move a running countdown); ``per_move`` restarts it each
    time ``seat`` acts (a limit per decision). When it runs out the engine applies ``action`` as the
    SYSTEM seat, or, with no action, lets the computer play ``seat`` until it no longer has to act
    (the turn limit). ``seconds=None`` means the match's turn limit (option ``turn_seconds``).
    """

    name: str
    seat: Seat | None = None
    seconds: float | None = None
    action: str | None = None
    per_move: bool = False

    @property
    def key(self) -> str:
        return f"{self.name}:{'' if self.seat is None else self.seat}"


# ---- typed options: declared once per game, validated in one place (engine.options) ------------


@dataclass(frozen=True)
class Choice:
    """One of ``choices``; the default is ``default`` or else the first choice."""

    name: str
    choices: tuple[str, ...]
    default: str | None = None

    @property
    def fallback(self) -> str:
        return self.default if self.default is not None else self.choices[0]


@dataclass(frozen=True)
class Integer:
    """A whole number in [low, high], or its default (which may mean "by the rules", such as 0)."""

    name: str
    default: int
    low: int
    high: int

    def accepts(self, value: object) -> bool:
        # bool is an int in Python; a JSON "true" must not pass as 1
        if not isinstance(value, int) or isinstance(value, bool):
            return False
        return value == self.default or self.low <= value <= self.high


@dataclass(frozen=True)
class Flag:
    name: str
    default: bool = False


Option = Choice | Integer | Flag


class Rules(Protocol[S]):
    """A game's rules. A game's class subclasses it (``class XRules(Rules[XState])``) to take the
    defaults below (``auto_single``, ``turn_starts``); the rest each game implements."""

    name: str
    min_players: int
    max_players: int

    options: tuple[Option, ...]

    # True when a player left with a single legal action learns nothing by choosing it: the engine
    # then plays it for them (and says so) instead of asking for a click.
    auto_single: bool = False

    # True for a game every seat plays at once against a clock (Ubongo): no turn notices by DM, and no
    # daily pace (engine.options.PACE).
    real_time: bool = False

    def setup(self, n_players: int, seed: int, options: dict[str, Any]) -> S: ...

    def to_move(self, s: S) -> frozenset[Seat]:
        """Seats that may act now (several at once for real-time games; empty when over)."""
        ...

    def legal_actions(self, s: S, seat: Seat) -> list[str]: ...

    def apply(self, s: S, seat: Seat, action: str) -> tuple[S, list[Event]]:
        """Return the next state; raise an engine.errors error and leave ``s`` untouched if not legal.
        ``seat`` is SYSTEM for a timer's action."""
        ...

    def timers(self, s: S) -> list[Timer]:
        """The timers running in ``s`` (see Timer); usually a turn limit for each seat to move."""
        ...

    def turn_starts(self, before: S, after: S) -> frozenset[Seat]:
        """The seats whose turn begins with a move (their ping): by default those that may act after
        and could not before. A game where seats stay to move while their task changes (a new round's
        puzzle) overrides it."""
        return self.to_move(after) - self.to_move(before)

    def outcome(self, s: S) -> Outcome | None: ...

    def view(self, s: S, seat: Seat | None) -> dict[str, Any]:
        """JSON-safe picture of the state as ``seat`` may know it (None = spectator/public)."""
        ...

    def dump(self, s: S) -> dict[str, Any]: ...

    def load(self, d: dict[str, Any]) -> S: ...


class Computer(Protocol[S_contra]):
    """A game's computer player, outside the rules. Runs in a worker process: keep it picklable."""

    @property
    def levels(self) -> tuple[str, ...]:  # read-only: a game's class attribute satisfies it
        """Offered by Add AI; the first is the default (and plays for absent seats)."""
        ...

    def choose(self, s: S_contra, seat: Seat, level: str) -> str:
        """A legal action for ``seat``, decided from what that seat may know."""
        ...

    def think_seconds(self, s: S_contra, seat: Seat, level: str) -> float:
        """How long the computer appears to think before it acts (0: at once)."""
        ...
