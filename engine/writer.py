"""The one writer of every match: its lock, a cache of committed rows, and the commit.

Every click, command and timer changes a match under that match's lock, in this order: load ->
version check (of the surface the clicker saw) -> user-to-seat -> apply (pure rules) -> commit
snapshot + log + timers in one transaction -> replace the cached row. The writer changes a private
copy of the row, so no reader ever sees a row and a state that don't belong together; callers show
the returned ``Update`` only after the commit. After each commit the match clock waits for the new
row's next deadline, and ``Committed`` is published (engine.signals): the one way to hear of commits.
(A change of the row alone, ``commit_quietly``, is not a commit of the game and publishes nothing.)
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from engine import pace, ratings, records, result, staleness, timers
from engine.clock import MatchClock
from engine.core import Event, Outcome
from engine.errors import DatabaseBusy, DatabaseUnsure, MatchNotFound, StaleAction
from engine.meta import RecordNote
from engine.options import TURN_SECONDS
from engine.registry import computer_for, rules_for
from engine.signals import Committed, Committing, SetAside, Signals, Update
from engine.store import LIVE, LoggedAction, MatchRow, StoreBusy, StoreUnsure, WriteConflict
from engine.store.base import Store

log = logging.getLogger(__name__)

LOBBY_SECONDS = 15 * 60
CACHE_LIMIT = 2000  # decoded matches kept in memory; live ones always stay
MAX_EVENTS = 300  # the story shown since the last human move (computer chains append to it)


class Conflict(StaleAction):
    """The cached copy was stale: another process committed the match meanwhile."""


class Writer:
    def __init__(
        self,
        store: Store,
        now: Callable[[], float],
        clock: MatchClock,
        signals: Signals,
        *,
        turn_seconds: int = TURN_SECONDS.default,
    ) -> None:
        self.store = store
        self.now = now
        self.clock = clock
        self.signals = signals
        self.turn_seconds = turn_seconds
        self._locks: dict[int, asyncio.Lock] = {}
        self._cache: dict[int, tuple[MatchRow, Any]] = {}
        self._kept = 0  # matches left in the cache by the last forgetting (remember)

    # ---- reading -------------------------------------------------------------------------------

    def lock(self, match_id: int) -> asyncio.Lock:
        lock = self._locks.get(match_id)
        if lock is None:  # (made only when missing: every get, click and commit heard asks)
            lock = self._locks[match_id] = asyncio.Lock()
        return lock

    def held(self, match_id: int) -> bool:
        """Whether a writer holds the match now (asking makes no lock: a match only read has none)."""
        lock = self._locks.get(match_id)
        return lock is not None and lock.locked()

    async def get(self, match_id: int) -> tuple[MatchRow, Any]:
        """The committed row and state. Callers read them and never change them. States are decoded
        on first use (start-up decodes nothing); one that cannot be decoded is set aside."""
        cached = self._cache.get(match_id)
        if cached:
            return cached
        m, state = await self.load(match_id)
        self.remember(m, state)
        return m, state

    async def load(self, match_id: int) -> tuple[MatchRow, Any]:
        try:
            m = await self.read(self.store.get(match_id))
            if m is None:
                raise MatchNotFound()
            return m, self.decode(m)
        except (ValueError, TypeError, KeyError) as err:
            await self.set_aside(match_id, err)
            raise MatchNotFound() from None

    @staticmethod
    def decode(m: MatchRow) -> Any:
        return rules_for(m.game).load(m.state) if m.state is not None else None

    async def set_aside(self, match_id: int, err: Exception) -> None:
        log.error("match %s cannot be decoded (%r): set aside", match_id, err)
        channel = await self.store.set_aside(match_id, repr(err), self.now())
        self.clock.drop(match_id)
        self.signals.publish(SetAside(match_id, channel))

    async def read(self, coro: Awaitable[Any]) -> Any:
        try:
            return await coro
        except StoreBusy:
            raise DatabaseBusy() from None

    async def live_in_channel(self, channel_id: int) -> MatchRow | None:
        return await self.read(self.store.live_in_channel(channel_id))

    @staticmethod
    def seat_of(m: MatchRow, user_id: int) -> int | None:
        for i, s in enumerate(m.seats):
            if s.user_id == user_id and not s.ai:
                return i
        return None

    @staticmethod
    def final(m: MatchRow, state: Any) -> result.Final | None:
        """How a match that is over ended, decided once (engine.result): who won (never a member who
        resigned), who resigned, and whose seats the computer played to the end."""
        return result.final(m, state)

    def outcome(self, m: MatchRow, state: Any) -> Outcome | None:
        """How the game ended (its decided result: by its rules, or by resignation)."""
        decided = self.final(m, state)
        return decided.outcome() if decided is not None else None

    def level_of(self, m: MatchRow, seat: int) -> str:
        levels = computer_for(m.game).levels
        level = m.seats[seat].level
        return level if level in levels else levels[0]

    # ---- writing -------------------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def writing(self, match_id: int) -> AsyncIterator[tuple[MatchRow, Any]]:
        """The one writer of a match: its lock, a private copy of its row, and its state (immutable:
        rules return new states). The cache changes only in ``commit``, after the database did."""
        async with self.lock(match_id):
            # another process may have written it: check the cache is current, unless its commits'
            # notices reach us (they drop our copy; one racing its notice meets the conditional write)
            if self.store.shared and not self.store.listening:
                await self._revalidate(match_id)
            m, state = await self.get(match_id)
            try:
                yield m.copy(), state
            except WriteConflict:
                self._cache.pop(match_id, None)  # another process wrote it: reload the truth
                raise Conflict() from None
            except StoreUnsure:
                self._cache.pop(match_id, None)  # the commit may land yet: read the truth next time
                raise DatabaseUnsure() from None
            except StoreBusy:
                raise DatabaseBusy() from None

    async def _revalidate(self, match_id: int) -> None:
        cached = self._cache.get(match_id)
        if cached is not None and await self.read(self.store.version_of(match_id)) != cached[0].version:
            self._cache.pop(match_id, None)  # (a notification may have dropped it meanwhile)

    async def commit(
        self,
        m: MatchRow,
        state: Any,
        actions: list[LoggedAction],
        read_version: int,
        *,
        acted: int | None = None,
        rated: ratings.Result | None = None,
        record: records.Claim | None = None,
    ) -> None:
        rules = rules_for(m.game)
        m.state = rules.dump(state) if state is not None else None
        m.timers = self._plan_timers(m, state, acted)
        extra: dict[str, Any] = {"rated": rated} if rated is not None else {}  # a finishing commit rates
        if record is not None:  # ... and keeps a solo run's personal record
            extra["record"] = record
        self.signals.publish(Committing(m, state))
        await self.store.commit(m, actions, self.now(), read_version, **extra)
        self.remember(m, state)
        self.clock.arm(m)
        self.signals.publish(Committed(m.id, m.version))

    async def commit_quietly(self, m: MatchRow, state: Any, read_version: int) -> None:
        """A change of the row alone (no move, no timers planned again), written only if the match is
        still at ``read_version`` (of two processes racing to write it, one wins)."""
        await self.store.commit(m, [], self.now(), read_version)
        self.remember(m, state)

    def remember(self, m: MatchRow, state: Any) -> None:
        """Cache a committed match; past CACHE_LIMIT, forget finished ones (they reload on demand).
        With more live matches than that, only once half the limit more is cached than the last
        forgetting left: every commit looking through them all, with 10,000 live, set off a full
        garbage collection (~200 ms) every ~18 moves (bench.scale)."""
        self._cache[m.id] = (m, state)
        if len(self._cache) > max(CACHE_LIMIT, self._kept + CACHE_LIMIT // 2):
            self.forget_finished(locks=True)
            self._kept = len(self._cache)

    def forget_finished(self, *, locks: bool = False) -> None:
        """Drop the cached finished matches no writer holds (and their locks too, with ``locks``)."""
        for mid, (row, _) in list(self._cache.items()):
            if row.status not in LIVE and not self.held(mid):
                del self._cache[mid]
                if locks:
                    self._locks.pop(mid, None)

    def _plan_timers(self, m: MatchRow, state: Any, acted: int | None) -> dict[str, float]:
        daily = pace.daily(m.options)
        if m.status == "lobby":
            lobby = pace.LOBBY_SECONDS if daily else LOBBY_SECONDS
            return {timers.LOBBY_KEY: m.timers.get(timers.LOBBY_KEY, self.now() + lobby)}
        if m.status != "active":
            return {}
        rules, computer = rules_for(m.game), computer_for(m.game)
        limit = pace.turn_seconds(m.options, self.turn_seconds)
        declared = rules.timers(state)
        planned = timers.plan(
            declared,
            m.timers,
            self.now(),
            acted=acted,
            turn_seconds=limit,
            is_ai=lambda seat: m.seats[seat].ai,
            is_away=lambda seat: m.seats[seat].away and not daily,  # (a daily turn has all its time)
            think_seconds=lambda seat: computer.think_seconds(state, seat, self.level_of(m, seat)),
            to_move=rules.to_move(state),
            changed=lambda seat: m.seats[seat].version == m.version,
        )
        if daily:
            planned.update(pace.reminders(declared, planned, m.timers, limit, self.now()))
        return planned

    async def commit_moves(
        self,
        m: MatchRow,
        before: Any,
        state: Any,
        events: list[Event],
        logged: list[LoggedAction],
        read_version: int,
        *,
        acted: int | None,
        human: bool,
    ) -> Update:
        """Commit applied moves: close a game that is over, bump the surfaces whose content changed,
        and keep the story for captions (a human move starts it anew, computers and timers add to it)."""
        rules = rules_for(m.game)
        state = staleness.forced(rules, m, state, events, logged)
        if not logged:
            m.version += 1
        if m.status == "active" and rules.outcome(state) is not None:
            m.status = "finished"
        if before is None:  # a game starts: a solo run's record to beat is shown while it runs
            m.meta.started_at = self.now()
            m.meta.record = await self._record_to_beat(m, state)
        elif m.status == "finished":  # (a solo run's duration is measured from these two)
            m.meta.finished_at = self.now()
        staleness.bump_surfaces(rules, m, before, state, events, acted)
        story = [] if human else list(m.meta.events)
        story.extend(events)
        newly = staleness.turn_starts(rules, before, state)
        m.meta.events, m.meta.new_turn, m.meta.reminded = story[-MAX_EVENTS:], newly, []
        for seat in newly:
            if 0 <= seat < len(m.seats) and not m.seats[seat].ai:
                m.seats[seat].idle = True
        finished = m.status == "finished"
        rated = self._rated(m, state) if finished else None
        record = records.claim(m, state) if finished else None
        await self.commit(m, state, logged, read_version, acted=acted, rated=rated, record=record)
        return Update(m, state, events)

    def _rated(self, m: MatchRow, state: Any) -> ratings.Result | None:
        """What a finishing commit changes in the players' stats and ratings (engine.ratings)."""
        decided = self.final(m, state)
        return ratings.result_of(m, decided, lambda seat: self.level_of(m, seat)) if decided else None

    async def _record_to_beat(self, m: MatchRow, state: Any) -> RecordNote | None:
        """The personal record a solo run starts against (engine.records), None when it counts for
        none. A database too busy to tell never blocks the start: records are extras."""
        who = records.holder(m, state)
        if who is None:
            return None
        try:
            old = await self.store.record(who[0], m.game, who[1])
        except StoreBusy:
            log.warning("match %s: the record to beat could not be read (database busy)", m.id)
            return None
        return RecordNote(best=old.best if old is not None else None)

    async def cancel(
        self,
        m: MatchRow,
        state: Any,
        event: Event,
        read: int,
        *,
        ended_by: tuple[int, str | None] | None = None,
    ) -> Update:
        """Close a live match for good (ended, abandoned, expired, channel gone), saying why (and who
        ended it: their user id and name)."""
        m.status = "cancelled"
        if ended_by is not None:
            m.meta.ended_by, m.meta.ended_by_name = ended_by
        m.meta.events, m.meta.new_turn, m.meta.reminded = [event], [], []
        m.version += 1
        m.public_version = m.version
        await self.commit(m, state, [], read)
        return Update(m, state, [event])

    async def close_live(self, match_id: int, why: str) -> None:
        """Close the match if it is still live, with the event ``why`` (a lobby whose message could
        not be posted, a deleted channel)."""
        async with self.writing(match_id) as (m, state):
            if m.status in LIVE:
                await self.cancel(m, state, Event(why), m.version)
