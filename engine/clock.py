"""The match clock: when each live match's next timer is due, and firing it then.

One loop timer handle per live match waits for its deadline (cheap: no task, no frame until it is
due), then a task calls ``fire`` (engine.firing: computers, turn limits, rules timers). Deadlines are
wall-clock times (they are stored, and survive restarts); the loop waits on its monotonic clock, so a
clock watch makes every handle wait again when the wall clock steps (NTP, a resumed VM). A firing that
fails keeps its due time and is retried, never dropped; one still failing after HELD_SECONDS is said
(``TimerHeld``), and again when it fires at last. What a firing commits is published by the writer.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from collections.abc import Awaitable, Callable, Iterable

from engine.errors import EngineError, MatchNotFound
from engine.signals import Signals, TimerHeld
from engine.store import LIVE, LiveEntry, MatchRow

log = logging.getLogger(__name__)

# a timer whose firing failed keeps its due time and is retried, never dropped: fast at first, so it
# fires within a second of the database coming back (a full disk freed), then every second for five
# minutes, then slower
RETRY_SECONDS = (0.1, 0.25, 0.5, *((1.0,) * 300), 2.0, 5.0, 10.0, 30.0)
HELD_SECONDS = 3.0  # a due timer still failing after retrying this long is said in its channel
# while a timer waits, the wall clock is compared with the loop's this often: a forward step makes a
# timer due before the next look fire late by at most this. A simulated Discord (SimCord: the tests,
# the playground, the benchmarks) waits in real time for any bot timer due within its settle timeout
# (5 s), so every click would wait for the watch: there it is given a longer one (harness)
CLOCK_WATCH_SECONDS = 2.0
CLOCK_STEP_SECONDS = 0.5  # a wall clock jump larger than this makes every timer wait again

Fire = Callable[[int], Awaitable[object]]


class MatchClock:
    def __init__(
        self,
        now: Callable[[], float],
        fire: Fire,
        reload: Callable[[int], Awaitable[MatchRow]],
        signals: Signals,
        *,
        owns: Callable[[int | None], bool] = lambda guild_id: True,
        watch_seconds: float = CLOCK_WATCH_SECONDS,
    ) -> None:
        self.now = now
        self.fire = fire  # fires whatever is due in a match; None when nothing was
        self.reload = reload  # the match's committed row (to wait again after an early wake)
        self.signals = signals
        self.owns = owns  # this process's guilds (its Discord shards): only their timers run here
        self.watch_seconds = watch_seconds
        self.closing = False
        self._timers: dict[int, asyncio.Handle | asyncio.Task[None]] = {}
        self._deadlines: dict[int, float] = {}  # the wall clock due time each handle waits for
        self._watch: asyncio.TimerHandle | None = None  # the clock watch, while any handle waits
        self._watch_from = (0.0, 0.0)  # (wall, loop) clocks when the watch last looked

    def armed(self, match_id: int) -> bool:
        """Whether this process runs the match's timers right now."""
        return match_id in self._timers

    def arm(self, m: MatchRow | LiveEntry) -> None:
        """(Re)start the match's timer, if it has a deadline and its guild is this process's."""
        self.drop(m.id)
        if m.deadline is not None and m.status in LIVE and not self.closing and self.owns(m.guild_id):
            self._wait(m.id, m.deadline)

    def drop(self, match_id: int) -> None:
        """Stop waiting for the match (unless called from its own firing, which ends by itself)."""
        old = self._timers.pop(match_id, None)
        self._deadlines.pop(match_id, None)
        if old is not None and old is not asyncio.current_task():
            old.cancel()

    def arm_all(self, entries: Iterable[LiveEntry]) -> None:
        """``arm`` for each, inlined: with 10,000 live matches their calls were a third of start-up."""
        loop, now, closing = asyncio.get_running_loop(), self.now(), self.closing
        at, due = loop.time() - now, self._due
        for entry in entries:
            mid = entry.id
            old = self._timers.pop(mid, None)
            if old is not None:
                old.cancel()
            deadline = min(entry.timers.values()) if entry.timers else None
            if deadline is None or entry.status not in LIVE or closing:
                self._deadlines.pop(mid, None)
                continue
            self._deadlines[mid] = deadline
            self._timers[mid] = loop.call_at(at + max(now, deadline), due, mid)
        if self._deadlines and self._watch is None:
            self._start_watch(loop)

    def _wait(self, match_id: int, deadline: float) -> None:
        """Wait for a due time of the wall clock on the loop's monotonic one: the clock watch makes
        it wait again if the wall clock steps, and a wake that finds nothing due waits again."""
        loop = asyncio.get_running_loop()
        self._deadlines[match_id] = deadline
        wait = deadline - self.now()
        # due already (a computer's move): the next turn of the loop, no timer (a simulated loop such
        # as SimCord's treats a timer due now as one to fire, and can spin on it while busy elsewhere)
        self._timers[match_id] = (
            loop.call_later(wait, self._due, match_id) if wait > 0 else loop.call_soon(self._due, match_id)
        )
        if self._watch is None:
            self._start_watch(loop)

    def _start_watch(self, loop: asyncio.AbstractEventLoop) -> None:
        self._watch_from = (self.now(), loop.time())
        self._watch = loop.call_later(self.watch_seconds, self._watch_clock)

    def _watch_clock(self) -> None:
        """One callback for the whole process, while any timer waits: if the wall clock stepped
        against the loop's (an NTP correction, a resumed VM), every timer waits again for its stored
        due time (a step back would wake them early, a step forward late)."""
        self._watch = None
        if self.closing:
            return
        loop = asyncio.get_running_loop()
        wall, mono = self.now(), loop.time()
        wall0, mono0 = self._watch_from
        # the loop waited at least what it was asked (a simulated loop such as SimCord's moves its own
        # virtual time by exactly that, while loop.time() barely moves)
        step = (wall - wall0) - max(self.watch_seconds, mono - mono0)
        if abs(step) > CLOCK_STEP_SECONDS:
            waiting = 0
            for mid, deadline in list(self._deadlines.items()):
                handle = self._timers.get(mid)
                if isinstance(handle, asyncio.TimerHandle):
                    handle.cancel()
                    self._wait(mid, deadline)
                    waiting += 1
                else:  # (its wait ended some other way)
                    del self._deadlines[mid]
            log.warning(
                "the wall clock stepped %+.1fs: %d timer(s) wait again for their due times", step, waiting
            )
        if self._watch is None and self._deadlines:
            self._watch_from = (wall, mono)
            self._watch = loop.call_later(self.watch_seconds, self._watch_clock)

    def _due(self, match_id: int) -> None:
        self._deadlines.pop(match_id, None)
        if not self.closing:
            self._timers[match_id] = asyncio.get_running_loop().create_task(self._timer(match_id))

    async def _timer(self, match_id: int) -> None:
        me, held, waited = asyncio.current_task(), False, 0.0
        try:
            for attempt in itertools.count():
                try:
                    await self.fire(match_id)
                    if self._timers.get(match_id) is me:  # nothing fired (woken early: a wall clock
                        self.arm(await self.reload(match_id))  # step back): wait again
                    break
                except MatchNotFound:
                    if self._timers.get(match_id) is me:
                        del self._timers[match_id]
                    return
                except Exception as err:  # retried, keeping its due time: no match is left stuck
                    wait = RETRY_SECONDS[min(attempt, len(RETRY_SECONDS) - 1)]
                    if attempt < 3 or attempt % 60 == 0:  # (not a line a second while a disk is full)
                        why = err.key if isinstance(err, EngineError) else repr(err)
                        log.warning("timer of match %s failed (%s); retrying in %ss", match_id, why, wait)
                    if not held and waited >= HELD_SECONDS:
                        held = True
                        self.signals.publish(TimerHeld(match_id, True))
                    await asyncio.sleep(wait)
                    waited += wait
        finally:
            if held:
                self.signals.publish(TimerHeld(match_id, False))

    async def close(self) -> None:
        self.closing = True
        if self._watch is not None:
            self._watch.cancel()
            self._watch = None
        for timer in self._timers.values():
            timer.cancel()
        for timer in list(self._timers.values()):
            if isinstance(timer, asyncio.Task):
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await timer
        self._timers.clear()
        self._deadlines.clear()
