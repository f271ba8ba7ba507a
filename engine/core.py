"""The small surface every game implements (after OpenSpiel / boardgame.io).

Actions are short canonical text codes (``pick.mm.bird``, ``first.bb``, ``keep.mm.2``) used in
custom_ids, the action log and tests alike. States are plain dataclasses, JSON round-tripped by
``dump``/``load``; randomness lives in the state (engine.rng), so seed + action log replays a match.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

S = TypeVar("S")
Seat = int


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


@dataclass(frozen=True)
class Outcome:
    scores: list[int]
    winners: list[Seat]


@dataclass(frozen=True)
class Option:
    """A game option offered on ``/<game> start``: name -> allowed choices, first is default."""

    name: str
    choices: tuple[str, ...]


class Rules(Protocol[S]):
    name: str
    min_players: int
    max_players: int
    options: tuple[Option, ...]

    def setup(self, n_players: int, seed: int, options: dict[str, str]) -> S: ...

    def to_move(self, s: S) -> frozenset[Seat]:
        """Seats that may act now (several at once for real-time games; empty when over)."""

    def legal_actions(self, s: S, seat: Seat) -> list[str]: ...

    def apply(self, s: S, seat: Seat, action: str) -> tuple[S, list[Event]]:
        """Return the next state; raise an engine.errors error and leave ``s`` untouched if not legal."""

    def computer_action(self, s: S, seat: Seat) -> str:
        """What the computer plays for ``seat`` (AI seats and expired turn timers)."""

    def outcome(self, s: S) -> Outcome | None: ...

    def view(self, s: S, seat: Seat | None) -> dict[str, Any]:
        """JSON-safe picture of the state as ``seat`` may know it (None = spectator/public)."""

    def dump(self, s: S) -> dict[str, Any]: ...

    def load(self, d: dict[str, Any]) -> S: ...
