"""What a commit changes besides the state, worked out from the state before and after (pure): which
surfaces went stale, whose turn began, the single legal actions played for a human, and who seems
away. engine.writer applies them to the row it commits."""

from __future__ import annotations

from typing import Any

from engine import compute
from engine.core import Event, Rules
from engine.store import LoggedAction, MatchRow


def log_action(m: MatchRow, seat: int, action: str, source: str) -> LoggedAction:
    """An action for the log: it takes the match's next version."""
    m.version += 1
    return LoggedAction(m.version, seat, action, source)


def forced(
    rules: Rules[Any], m: MatchRow, state: Any, events: list[Event], logged: list[LoggedAction]
) -> Any:
    """A human left with exactly one legal action is not asked to click it (for games whose rules
    say such a choice reveals nothing: ``auto_single``); it is played, logged and announced."""
    if m.status != "active" or not rules.auto_single:
        return state
    for _ in range(compute.MAX_AUTO_STEPS):
        movers = sorted(rules.to_move(state))
        if len(movers) != 1 or m.seats[movers[0]].ai:
            return state
        seat = movers[0]
        legal = rules.legal_actions(state, seat)
        if len(legal) != 1:
            return state
        state, more = rules.apply(state, seat, legal[0])
        events.append(Event("forced", {"seat": seat}))
        events.extend(more)
        logged.append(log_action(m, seat, legal[0], "forced"))
    return state


def bump_surfaces(
    rules: Rules[Any], m: MatchRow, before: Any, state: Any, events: list[Event], acted: int | None
) -> None:
    """Staleness per viewer: a seat's private surface is outdated when what that seat may do
    changed (or it acted itself); the public one when the public view changed."""
    for seat, info in enumerate(m.seats):
        if (
            before is None
            or seat == acted
            or rules.legal_actions(before, seat) != rules.legal_actions(state, seat)
        ):
            info.version = m.version
    if (
        before is None
        or m.status != "active"
        or any(e.visible_to(None) for e in events)  # the story lines on the message change
        or rules.view(before, None) != rules.view(state, None)
    ):
        m.public_version = m.version


def turn_starts(rules: Rules[Any], before: Any, state: Any) -> list[int]:
    """The seats whose turn begins with this commit."""
    if before is None:
        return sorted(rules.to_move(state))
    return sorted(rules.turn_starts(before, state))


def gone_away(m: MatchRow, movers: frozenset[int]) -> list[Event]:
    """A rules timer (a round's clock) ran out on humans who never acted since their turn began:
    they seem away, said once; the turn ping leaves them out until they act again. (A turn limit
    has its own path: the computer plays the turn and says so.)"""
    out = []
    for seat in sorted(movers):
        info = m.seats[seat] if 0 <= seat < len(m.seats) else None
        if info is not None and info.idle and not info.ai and not info.away:
            info.away = True
            out.append(Event("away", {"seat": seat}))
    return out
