"""Games that run for days (option ``pace``, engine.options.DAILY; never a real-time game): pure rules
of a daily match's time, read by the writer's timer plan and by the firing of due timers.

- a daily turn's limit is ``turn_hours`` (1 to 168, 24 by default), not ``turn_seconds``; a player
  whose turn ran out is not hurried afterwards (no short turns of someone away): each turn has it all;
- when a quarter of a turn's limit is left, the player is reminded (a timer ``remind:<seat>``, due
  once per turn limit; firing it commits no move, only ``meta.reminded``, which the bot tells);
- a daily turn that runs out is played by the computer (``timeout: computer``), or, with ``timeout:
  forfeit``, the player's second time-out forfeits: their seat is resigned (engine.result: it never
  wins; with two seats the other wins at once). ``timeout: forfeit`` holds in a live game too (a
  tournament's match: a no-show forfeits), and there too a timed-out player keeps their full limit
  (they are not taken for away, whose turns are short): their second time-out is a whole turn later;
- a daily lobby stays open for seven days.

Timers are stored with their absolute due time like every other, so they survive restarts and the
clock watch re-arms them when the wall clock steps."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from engine.core import Timer

DAILY = "daily"
LOBBY_SECONDS = 7 * 24 * 3600
REMIND_LEFT = 0.25  # the reminder, when this share of a turn's limit is left
STRIKES = 2  # time-outs that forfeit a seat, with ``timeout: forfeit``
REMIND = "remind"


def daily(options: Mapping[str, Any]) -> bool:
    return options.get("pace") == DAILY


def forfeits(options: Mapping[str, Any]) -> bool:
    """A player's second time-out forfeits their seat (any pace)."""
    return options.get("timeout") == "forfeit"


def keeps_full_turns(options: Mapping[str, Any]) -> bool:
    """A player whose turn ran out is not taken for away (short turns): daily, or a forfeit rule."""
    return daily(options) or forfeits(options)


def turn_seconds(options: Mapping[str, Any], default: int) -> int:
    """The match's turn limit in seconds."""
    if daily(options):
        return int(options.get("turn_hours") or 24) * 3600
    return int(options.get("turn_seconds") or default)


def remind_key(seat: int) -> str:
    return f"{REMIND}:{seat}"


def limit_key(declared: Iterable[Timer], seat: int) -> str | None:
    """The key of ``seat``'s own turn limit among the timers a state declares (None: not to move)."""
    for t in declared:
        if t.seat == seat and t.action is None and t.seconds is None:
            return t.key
    return None


def reminders(
    declared: Iterable[Timer], planned: dict[str, float], running: dict[str, float], limit: float, now: float
) -> dict[str, float]:
    """The reminders of a daily match after a commit: one per person's turn limit (a declared timer
    of the match's limit that the plan kept for a seat), due when a quarter of it is left. A limit
    that goes on keeps its reminder, or has none once it fired; a limit that (re)starts gets a new one."""
    out: dict[str, float] = {}
    for t in declared:
        if t.seat is None or t.action is not None or t.seconds is not None or t.key not in planned:
            continue
        key, due = remind_key(t.seat), planned[t.key]
        if running.get(t.key) == due:  # the same limit goes on
            if key in running:
                out[key] = running[key]
            continue
        at = due - limit * REMIND_LEFT
        if at > now:
            out[key] = at
    return out
