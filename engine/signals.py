"""What the engine tells the rest of the process, and the one way to hear it.

``Signals.subscribe`` registers a listener; the engine publishes typed events to every listener in the
order they subscribed. Listeners run synchronously on the event loop and must not block: one that has
work to do schedules it. A listener that raises is logged and the others still hear the event, so a
broken surface can never stop a commit or a timer.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.core import Event
from engine.store import MatchRow

log = logging.getLogger(__name__)


@dataclass
class Update:
    """What a caller shows after a commit."""

    match: MatchRow
    state: Any  # the game's state object (None in the lobby)
    events: list[Event] = field(default_factory=list)


@dataclass(frozen=True)
class Committed:
    """A match was committed (a move, a lobby's change, a command, a timer): whatever shows it may be
    stale now. Published during the commit, in the committing task, after the cache holds the row."""

    match_id: int
    version: int


@dataclass(frozen=True)
class Committing:
    """A commit is about to be written: its row and state are final but not yet durable, so nothing
    may be shown from them. A listener may begin costly work whose result it shows only once the
    commit lands (the board's picture, drawn while the database writes). It must not keep ``match``:
    the writer goes on with it."""

    match: MatchRow
    state: Any


@dataclass(frozen=True)
class Heard:
    """Another process committed a match (a shared database): what follows a match's end in this
    process (a tournament's result) learns of it too. Surfaces do not: the committing process shows it."""

    match_id: int
    version: int


@dataclass(frozen=True)
class TimerHeld:
    """A due timer cannot fire for a while (``held``), or fires at last (not ``held``)."""

    match_id: int
    held: bool


@dataclass(frozen=True)
class SetAside:
    """A stored match could not be decoded and was closed; ``channel_id``: where it was played."""

    match_id: int
    channel_id: int | None


Signal = Committing | Committed | Heard | TimerHeld | SetAside
Listener = Callable[[Signal], None]


class Signals:
    def __init__(self) -> None:
        self._listeners: list[Listener] = []

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Hear every signal from now on; returns the call that stops it."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def publish(self, signal: Signal) -> None:
        for listener in list(self._listeners):
            try:
                listener(signal)
            except Exception:
                log.exception("a listener failed on %r", signal)
