"""The async match engine: one writer per match.

Every click, command and timer goes through ``Matches`` under that match's lock, in this order:
load -> version check (of the surface the clicker saw) -> user-to-seat -> apply (pure rules) ->
commit snapshot + log + timers in one transaction -> replace the cached row. The writer changes a
private copy of the row, so no reader ever sees a row and a state that don't belong together; callers
show the returned ``Update`` only after the commit.

Time belongs to the rules (``Rules.timers``, planned in engine.timers); computer seats and expired
timers act through the same path (``tick``), after the click that caused them has been answered, with
computer decisions made in a worker process (engine.compute) while no lock is held.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import copy
import itertools
import logging
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from engine import compute, lessons, options, ratings, records, replay, timers
from engine.core import SYSTEM, Event, Outcome
from engine.errors import (
    ChannelBusy,
    DatabaseBusy,
    DatabaseUnsure,
    EngineError,
    LobbyError,
    MatchNotFound,
    MatchOver,
    NoLessonsYet,
    NotInMatch,
    NotYourTurn,
    StaleAction,
    StillPlaying,
)
from engine.meta import MatchMeta, RecordNote
from engine.registry import computer_for, rules_for
from engine.store import (
    LIVE,
    ChannelTaken,
    Forgotten,
    LiveEntry,
    LoggedAction,
    MatchRow,
    SeatedInLiveMatch,
    SeatInfo,
    Store,
    StoreBusy,
    StoreUnsure,
    WriteConflict,
)

log = logging.getLogger(__name__)

LOBBY_SECONDS = 15 * 60
REMATCH_SECONDS = 10 * 60  # a rematch offer waits this long for every player's Accept
AWAY_SECONDS = timers.AWAY_SECONDS
CACHE_LIMIT = 2000  # decoded matches kept in memory; live ones always stay
MAX_EVENTS = 300  # the story shown since the last human move (computer chains append to it)
# a timer whose firing failed keeps its due time and is retried, never dropped: fast at first, so it
# fires within a second of the database coming back (a full disk freed), then every second for five
# minutes, then slower
RETRY_SECONDS = (0.1, 0.25, 0.5, *((1.0,) * 300), 2.0, 5.0, 10.0, 30.0)
HELD_SECONDS = 3.0  # a due timer still failing after retrying this long is said in its channel
# while a timer waits, the wall clock is compared with the loop's this often: a forward step makes a
# timer due before the next look fire late by at most this. A simulated Discord (SimCord: the tests,
# the playground, the benchmarks) waits in real time for any bot timer due within its settle timeout
# (5 s), so every click would wait for the watch: there it is given a longer one (bench.sim)
CLOCK_WATCH_SECONDS = 2.0
CLOCK_STEP_SECONDS = 0.5  # a wall clock jump larger than this makes every timer wait again
PUBLIC, PRIVATE = "public", "private"
HISTORIES = 8  # rebuilt histories of finished matches kept for /replay (stepping is then cheap)
ONCE_KEYS = ("recap",)  # the MatchMeta time stamps mark_once may note


@dataclass
class Update:
    """What a caller shows after a commit."""

    match: MatchRow
    state: Any  # the game's state object (None in the lobby)
    events: list[Event] = field(default_factory=list)


class _Conflict(StaleAction):
    """The cached copy was stale: another process committed the match meanwhile."""


def _new_seed() -> int:
    return random.SystemRandom().getrandbits(63)


Chooser = Callable[..., Awaitable[Any]]


class Matches:
    def __init__(
        self,
        store: Store,
        now: Callable[[], float],
        *,
        turn_seconds: int = 120,
        on_timer_update: Callable[[Update], Awaitable[None]] | None = None,
        run: Chooser = compute.run,
        owns: Callable[[int | None], bool] = lambda guild_id: True,
        clock_watch_seconds: float = CLOCK_WATCH_SECONDS,
    ) -> None:
        self.store = store
        self.now = now
        self.turn_seconds = turn_seconds
        self.on_timer_update = on_timer_update
        self.run = run  # where computer decisions are made (a process pool by default)
        self.owns = owns  # this process's guilds (its Discord shards): only their timers run here
        self.clock_watch_seconds = clock_watch_seconds
        self.on_broken: Callable[[int, int | None], Awaitable[None]] | None = None
        # a due timer cannot fire for a while (True), or fires at last (False): said in its channel
        self.on_timer_held: Callable[[int, bool], None] | None = None
        self._locks: dict[int, asyncio.Lock] = {}
        self._cache: dict[int, tuple[MatchRow, Any]] = {}
        # per live match: a loop timer handle waiting for its deadline (cheap: no task, no frame until
        # it is due), then the task that fires it
        self._timers: dict[int, asyncio.TimerHandle | asyncio.Task[None]] = {}
        self._deadlines: dict[int, float] = {}  # the wall clock due time each handle waits for
        self._watch: asyncio.TimerHandle | None = None  # the clock watch, while any handle waits
        self._watch_from = (0.0, 0.0)  # (wall, loop) clocks when the watch last looked
        self._entries: list[LiveEntry] | None = None  # what recover() read, for check_live
        self._closing = False
        self._histories: collections.OrderedDict[int, list[replay.Step]] = collections.OrderedDict()
        self._lessons: collections.OrderedDict[int, dict[int, list[lessons.Lesson]]] = (
            collections.OrderedDict()
        )
        self._decided: dict[int, tuple[int, str, list[str]]] = {}  # a firing's decisions until committed

    # ---- loading -------------------------------------------------------------------------------

    def lock(self, match_id: int) -> asyncio.Lock:
        return self._locks.setdefault(match_id, asyncio.Lock())

    async def get(self, match_id: int) -> tuple[MatchRow, Any]:
        """The committed row and state. Callers read them and never change them. States are decoded
        on first use (start-up decodes nothing); one that cannot be decoded is set aside."""
        cached = self._cache.get(match_id)
        if cached:
            return cached
        m, state = await self._load(match_id)
        self._remember(m, state)
        return m, state

    async def _load(self, match_id: int) -> tuple[MatchRow, Any]:
        try:
            m = await self._read(self.store.get(match_id))
            if m is None:
                raise MatchNotFound()
            return m, self._decode(m)
        except (ValueError, TypeError, KeyError) as err:
            await self._set_aside(match_id, err)
            raise MatchNotFound() from None

    @staticmethod
    def _decode(m: MatchRow) -> Any:
        return rules_for(m.game).load(m.state) if m.state is not None else None

    async def _set_aside(self, match_id: int, err: Exception) -> None:
        log.error("match %s cannot be decoded (%r): set aside", match_id, err)
        channel = await self.store.set_aside(match_id, repr(err), self.now())
        old = self._timers.pop(match_id, None)
        self._deadlines.pop(match_id, None)
        if old is not None and old is not asyncio.current_task():
            old.cancel()
        if self.on_broken is not None:
            await self.on_broken(match_id, channel)

    async def _read(self, coro: Awaitable[Any]) -> Any:
        try:
            return await coro
        except StoreBusy:
            raise DatabaseBusy() from None

    async def live_in_channel(self, channel_id: int) -> MatchRow | None:
        return await self._read(self.store.live_in_channel(channel_id))

    @staticmethod
    def seat_of(m: MatchRow, user_id: int) -> int | None:
        for i, s in enumerate(m.seats):
            if s.user_id == user_id and not s.ai:
                return i
        return None

    def outcome(self, m: MatchRow, state: Any) -> Outcome | None:
        """How the game ended: by its rules, or by resignation (kept in the row's meta)."""
        if m.meta.result is not None:
            return m.meta.result
        return rules_for(m.game).outcome(state) if state is not None else None

    @contextlib.asynccontextmanager
    async def _writing(self, match_id: int) -> AsyncIterator[tuple[MatchRow, Any]]:
        """The one writer of a match: its lock, a private copy of its row, and its state (immutable:
        rules return new states). The cache changes only in ``_commit``, after the database did."""
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
                raise _Conflict() from None
            except StoreUnsure:
                self._cache.pop(match_id, None)  # the commit may land yet: read the truth next time
                raise DatabaseUnsure() from None
            except StoreBusy:
                raise DatabaseBusy() from None

    async def _revalidate(self, match_id: int) -> None:
        cached = self._cache.get(match_id)
        if cached is not None and await self._read(self.store.version_of(match_id)) != cached[0].version:
            self._cache.pop(match_id, None)  # (a notification may have dropped it meanwhile)

    # ---- committing ----------------------------------------------------------------------------

    async def _commit(
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
        await self.store.commit(m, actions, self.now(), read_version, **extra)
        self._remember(m, state)
        self._arm(m)

    def _remember(self, m: MatchRow, state: Any) -> None:
        """Cache a committed match; past CACHE_LIMIT, forget finished ones (they reload on demand)."""
        self._cache[m.id] = (m, state)
        if len(self._cache) <= CACHE_LIMIT:
            return
        for mid, (row, _) in list(self._cache.items()):
            if row.status not in LIVE and not self.lock(mid).locked():
                del self._cache[mid]
                self._locks.pop(mid, None)

    def _plan_timers(self, m: MatchRow, state: Any, acted: int | None) -> dict[str, float]:
        if m.status == "lobby":
            return {timers.LOBBY_KEY: m.timers.get(timers.LOBBY_KEY, self.now() + LOBBY_SECONDS)}
        if m.status != "active":
            return {}
        rules, computer = rules_for(m.game), computer_for(m.game)
        return timers.plan(
            rules.timers(state),
            m.timers,
            self.now(),
            acted=acted,
            turn_seconds=int(m.options.get("turn_seconds") or self.turn_seconds),
            is_ai=lambda seat: m.seats[seat].ai,
            is_away=lambda seat: m.seats[seat].away,
            think_seconds=lambda seat: computer.think_seconds(state, seat, self.level_of(m, seat)),
            to_move=rules.to_move(state),
            changed=lambda seat: m.seats[seat].version == m.version,
        )

    def level_of(self, m: MatchRow, seat: int) -> str:
        levels = computer_for(m.game).levels
        level = m.seats[seat].level
        return level if level in levels else levels[0]

    @staticmethod
    def _log(m: MatchRow, seat: int, action: str, source: str) -> LoggedAction:
        m.version += 1
        return LoggedAction(m.version, seat, action, source)

    async def _commit_moves(
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
        state = self._forced(m, state, events, logged)
        if not logged:
            m.version += 1
        if m.status == "active" and rules.outcome(state) is not None:
            m.status = "finished"
        if before is None:  # a game starts: a solo run's record to beat is shown while it runs
            m.meta.started_at = self.now()
            m.meta.record = await self._record_to_beat(m, state)
        elif m.status == "finished":  # (a solo run's duration is measured from these two)
            m.meta.finished_at = self.now()
        self._bump_surfaces(m, before, state, events, acted)
        story = [] if human else list(m.meta.events)
        story.extend(events)
        starts = getattr(rules, "turn_starts", None)  # (optional, see engine.core.Rules)
        if starts is not None and before is not None:
            newly = sorted(starts(before, state))
        else:
            newly = sorted(
                rules.to_move(state) - (rules.to_move(before) if before is not None else frozenset())
            )
        m.meta.events, m.meta.new_turn = story[-MAX_EVENTS:], newly
        for seat in newly:
            if 0 <= seat < len(m.seats) and not m.seats[seat].ai:
                m.seats[seat].idle = True
        finished = m.status == "finished"
        rated = self._rated(m, state) if finished else None
        record = records.claim(m, state) if finished else None
        await self._commit(m, state, logged, read_version, acted=acted, rated=rated, record=record)
        return Update(m, state, events)

    def _rated(self, m: MatchRow, state: Any) -> ratings.Result | None:
        """What a finishing commit changes in the players' stats and ratings (engine.ratings)."""
        outcome = self.outcome(m, state)
        return ratings.result_of(m, outcome, lambda seat: self.level_of(m, seat)) if outcome else None

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

    def _forced(self, m: MatchRow, state: Any, events: list[Event], logged: list[LoggedAction]) -> Any:
        """A human left with exactly one legal action is not asked to click it (for games whose rules
        say such a choice reveals nothing: ``auto_single``); it is played, logged and announced."""
        rules = rules_for(m.game)
        if m.status != "active" or not getattr(rules, "auto_single", False):
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
            logged.append(self._log(m, seat, legal[0], "forced"))
        return state

    def _bump_surfaces(
        self, m: MatchRow, before: Any, state: Any, events: list[Event], acted: int | None
    ) -> None:
        """Staleness per viewer: a seat's private surface is outdated when what that seat may do
        changed (or it acted itself); the public one when the public view changed."""
        rules = rules_for(m.game)
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

    # ---- lobby ---------------------------------------------------------------------------------

    async def open_lobby(
        self,
        game: str,
        guild_id: int | None,
        channel_id: int,
        host_id: int,
        host_name: str,
        raw_options: dict[str, Any],
        *,
        seed: int | None = None,
        meta: MatchMeta | None = None,
        seats: list[SeatInfo] | None = None,
        lobby_seconds: float = LOBBY_SECONDS,
        host_locale: str | None = None,
    ) -> Update:
        rules = rules_for(game)  # unknown game -> KeyError, a programming error
        opts = options.resolve(rules.options, raw_options, {"turn_seconds": self.turn_seconds})
        m = MatchRow(
            id=0,
            game=game,
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            status="lobby",
            version=1,
            seed=_new_seed() if seed is None else seed,
            seats=seats or [SeatInfo(host_id, host_name, locale=host_locale)],
            options=opts,
            state=None,
            meta=copy.deepcopy(meta) if meta is not None else MatchMeta(),
            timers={timers.LOBBY_KEY: self.now() + lobby_seconds},
            public_version=1,
        )
        try:
            await self.store.create(m, self.now())
        except ChannelTaken:
            raise ChannelBusy() from None
        except StoreUnsure:
            raise DatabaseUnsure() from None
        except StoreBusy:
            raise DatabaseBusy() from None
        self._remember(m, None)
        self._arm(m)
        return Update(m, None)

    async def rematch(self, match_id: int, user_id: int, name: str) -> Update:
        """A player of a finished match offers a rematch: a lobby in the same channel with the same
        seats and options and a new seed, where each other human accepts (computers are ready at
        once); it starts when everyone has accepted, and closes after REMATCH_SECONDS otherwise."""
        async with self._writing(match_id) as (old, state):
            update = await self._offer_rematch(old, user_id, name)
            # once only: a second Rematch on this game (the offer declined, expired or played) is refused
            old.meta.rematch = update.match.id
            old.version += 1  # a conditional write: of two processes racing to offer it, one wins
            try:
                await self.store.commit(old, [], self.now(), old.version - 1)
            except BaseException:
                with contextlib.suppress(Exception):  # an offer that cannot be recorded must not stay
                    await self.discard_lobby(update.match.id)
                raise
            self._remember(old, state)
        if update.match.meta.pending:
            return update
        return await self.lobby(update.match.id, update.match.version, user_id, name, "start")

    async def _offer_rematch(self, old: MatchRow, user_id: int, name: str) -> Update:
        if old.status != "finished":
            raise LobbyError("rematch.not_finished")
        if self.seat_of(old, user_id) is None:
            raise NotInMatch()
        if old.meta.rematch is not None:
            raise LobbyError("rematch.once", game=old.game)
        levels = computer_for(old.game).levels
        seats = [
            SeatInfo(None, s.name, ai=True, level=s.level if s.level in levels else levels[0])
            if s.ai
            else SeatInfo(s.user_id, name if s.user_id == user_id else s.name, locale=s.locale)
            for s in old.seats
        ]
        pending = [s.user_id for s in seats if not s.ai and s.user_id != user_id]
        return await self.open_lobby(
            old.game,
            old.guild_id,
            old.channel_id,
            user_id,
            name,
            dict(old.options),
            meta=MatchMeta(locale=old.meta.locale, rematch_of=old.id, pending=pending),
            seats=seats,
            lobby_seconds=REMATCH_SECONDS,
        )

    async def lobby(
        self,
        match_id: int,
        version: int,
        user_id: int,
        name: str,
        op: str,
        *,
        moderator: bool = False,
        locale: str | None = None,
    ) -> Update:
        async with self._writing(match_id) as (m, _):
            if m.status != "lobby":
                raise LobbyError("lobby.closed")
            if version != m.version:
                raise StaleAction()
            read = m.version
            rules = rules_for(m.game)
            seat = self.seat_of(m, user_id)
            is_host = user_id == m.host_id
            op, _, level = op.partition(".")
            pending = m.meta.pending
            if pending is not None and op in ("join", "leave", "ai"):
                raise LobbyError("rematch.seats_fixed")  # a rematch keeps the finished game's seats
            if pending is not None and op in ("accept", "decline"):
                if seat is None:
                    raise NotInMatch()
                if op == "decline":
                    m.status = "cancelled"
                    event = Event("rematch_declined", {"seat": seat})
                    m.meta.ended_by, m.meta.ended_by_name, m.meta.events = user_id, name, [event]
                    op = "declined"
                elif user_id not in pending:
                    raise LobbyError("rematch.already_accepted")
                else:
                    m.meta.pending = [u for u in pending if u != user_id]
                    if not m.meta.pending:
                        op, is_host = "start", True  # everyone accepted: the game begins
            if op in ("accept", "declined"):
                pass
            elif op == "join":
                if seat is not None:
                    raise LobbyError("lobby.already_seated")
                if len(m.seats) >= rules.max_players:
                    raise LobbyError("lobby.full", max=rules.max_players)
                m.seats.append(SeatInfo(user_id, name, locale=locale))
            elif op == "leave":
                if seat is None:
                    raise NotInMatch()
                if is_host:
                    raise LobbyError("lobby.host_cannot_leave")
                m.seats.pop(seat)
            elif op == "ai":
                if not is_host:
                    raise LobbyError("lobby.host_only")
                if len(m.seats) >= rules.max_players:
                    raise LobbyError("lobby.full", max=rules.max_players)
                levels = computer_for(m.game).levels
                if level and level not in levels:
                    raise LobbyError("lobby.unknown")
                n = sum(s.ai for s in m.seats) + 1
                m.seats.append(SeatInfo(None, f"Computer {n}", ai=True, level=level or levels[0]))
            elif op == "start":
                if not is_host or m.meta.pending:
                    raise LobbyError("lobby.host_only" if not is_host else "rematch.waiting")
                if len(m.seats) < rules.min_players:
                    raise LobbyError("lobby.too_few", min=rules.min_players)
                state = rules.setup(len(m.seats), m.seed, m.options)  # may refuse: before anything changes
                m.status = "active"
                m.timers = {}
                return await self._commit_moves(
                    m, None, state, [Event("started")], [], read, acted=None, human=True
                )
            elif op == "cancel":
                if not (is_host or moderator):
                    raise LobbyError("lobby.host_only")
                m.status = "cancelled"
                m.meta.ended_by, m.meta.ended_by_name = user_id, name
            else:
                raise LobbyError("lobby.unknown")
            m.version += 1
            m.public_version = m.version
            await self._commit(m, None, [], read)
            return Update(m, None)

    # ---- play ----------------------------------------------------------------------------------

    async def act(
        self, match_id: int, version: int, user_id: int, action: str, *, surface: str = PUBLIC
    ) -> Update:
        """A player's action from a click on ``surface`` rendered at ``version``: refused as stale
        only if that surface changed since (the public view, or what this seat may do). A copy that
        another process's commit made stale is read again and the click judged once more on it."""
        try:
            return await self._act(match_id, version, user_id, action, surface)
        except _Conflict:
            return await self._act(match_id, version, user_id, action, surface)

    async def _act(self, match_id: int, version: int, user_id: int, action: str, surface: str) -> Update:
        async with self._writing(match_id) as (m, state):
            seat = self.seat_of(m, user_id)
            if m.status == "lobby":
                raise LobbyError("lobby.not_started")
            if m.status != "active":
                raise MatchOver()
            if seat is None:
                raise NotInMatch()
            seen = m.seats[seat].version if surface == PRIVATE else m.public_version
            if version != seen:
                raise StaleAction()
            rules = rules_for(m.game)
            if seat not in rules.to_move(state):
                raise NotYourTurn()
            read = m.version
            new, events = rules.apply(state, seat, action)  # raises before anything changes
            m.seats[seat].away = m.seats[seat].idle = False
            logged = [self._log(m, seat, action, "player")]
            return await self._commit_moves(m, state, new, events, logged, read, acted=seat, human=True)

    async def resign(self, match_id: int, user_id: int) -> Update:
        """A player leaves a running game. With two seats the opponent wins; otherwise the computer
        takes the seat over so the others can finish (and with no human left the game closes)."""
        async with self._writing(match_id) as (m, state):
            seat = self.seat_of(m, user_id)
            if seat is None:
                raise NotInMatch()
            if m.status == "lobby":
                raise LobbyError("lobby.use_leave")
            if m.status != "active":
                raise MatchOver()
            read = m.version
            event = Event("resigned", {"seat": seat})
            if len(m.seats) == 2:
                winner = 1 - seat
                m.status = "finished"
                m.meta.result = Outcome([0, 0], [winner], "resignation")
                return await self._commit_moves(m, state, state, [event], [], read, acted=None, human=True)
            m.seats[seat].ai = True
            m.seats[seat].level = None
            if not any(not s.ai for s in m.seats):
                return await self._cancel(m, state, event, read, ended_by=(user_id, m.seats[seat].name))
            return await self._commit_moves(m, state, state, [event], [], read, acted=None, human=True)

    async def end(self, match_id: int, user_id: int, *, moderator: bool, name: str | None = None) -> Update:
        """The host or a moderator ends a live match; ``name``: theirs as shown (a moderator may not
        be seated, so the row could not name them otherwise)."""
        async with self._writing(match_id) as (m, state):
            if m.status not in LIVE:
                raise MatchOver()
            if not (user_id == m.host_id or moderator):
                raise LobbyError("end.not_allowed")
            seat = self.seat_of(m, user_id)
            if name is None and seat is not None:
                name = m.seats[seat].name
            event = Event("ended", {"by": user_id})
            return await self._cancel(m, state, event, m.version, ended_by=(user_id, name))

    async def _cancel(
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
        m.meta.events, m.meta.new_turn = [event], []
        m.version += 1
        m.public_version = m.version
        await self._commit(m, state, [], read)
        return Update(m, state, [event])

    async def discard_lobby(self, match_id: int) -> None:
        """A lobby (or a game started with it at once) whose message could not be posted: close it so
        it never blocks its channel."""
        async with self._writing(match_id) as (m, state):
            if m.status in LIVE:
                await self._cancel(m, state, Event("lobby_failed"), m.version)

    async def close_gone(self, match_id: int) -> None:
        """The match's channel was deleted: close it so it never blocks or fires again."""
        async with self._writing(match_id) as (m, state):
            if m.status in LIVE:
                await self._cancel(m, state, Event("channel_gone"), m.version)

    async def move(self, match_id: int, channel_id: int) -> Update:
        """The match now lives in ``channel_id`` (its own thread): clicks, timers and the channel's
        one-live-match rule follow it. No new version: every control stays valid."""
        async with self._writing(match_id) as (m, state):
            m.channel_id = channel_id
            await self.store.commit(m, [], self.now(), m.version)
            self._remember(m, state)
            return Update(m, state)

    async def close_channel(self, channel_id: int) -> int | None:
        m = await self.live_in_channel(channel_id)
        if m is None:
            return None
        await self.close_gone(m.id)
        return m.id

    # ---- timers: rules timers, turn limits, computer seats ---------------------------------------

    async def tick(self, match_id: int) -> Update | None:
        """Fire whatever is due, one step per commit, until nothing is; returns the last update."""
        last = None
        while not self._closing:
            m, state = await self.get(match_id)
            if m.status not in LIVE:
                break
            key = timers.due(m.timers, self.now())
            if key is None:
                break
            # decided with no lock held (a long search blocks nobody), once per version and timer: a
            # firing retried while the database fails does not search again every second
            kept = self._decided.get(match_id)
            if kept is not None and kept[:2] == (m.version, key):
                decided = kept[2]
            else:
                decided = await self._decide(m, state, key)
                self._decided[match_id] = (m.version, key, decided)
            async with self._writing(match_id) as (w, current):
                if w.version != m.version:
                    continue  # a click landed meanwhile: look again
                last = await self._fire(w, current, key, decided)
            self._decided.pop(match_id, None)
        return last

    async def _decide(self, m: MatchRow, state: Any, key: str) -> list[str]:
        """The computer's decisions a due timer needs (outside the lock, in the worker process)."""
        name, _, seat_text = key.partition(":")
        if m.status != "active" or not seat_text:
            return []
        seat = int(seat_text)
        if name == "ai" and seat in rules_for(m.game).to_move(state):
            computer = computer_for(m.game)
            return [await self.run(compute.choose, computer, state, seat, self.level_of(m, seat))]
        declared = {t.key: t for t in rules_for(m.game).timers(state)}
        timer = declared.get(key)
        if timer is not None and timer.action is None and timer.seat is not None:
            level = self.level_of(m, timer.seat)
            return await self.run(
                compute.play_turn, rules_for(m.game), computer_for(m.game), state, timer.seat, level
            )
        return []

    async def _fire(self, m: MatchRow, state: Any, key: str, decided: list[str]) -> Update:
        read = m.version
        if key == timers.LOBBY_KEY:
            return await self._cancel(m, None, Event("lobby_expired"), read)
        rules = rules_for(m.game)
        name, _, seat_text = key.partition(":")
        timer = {t.key: t for t in rules.timers(state)}.get(key)
        new, events, logged, acted = state, [], [], None
        if name == "ai" and decided:
            acted = int(seat_text)
            new, events = rules.apply(state, acted, decided[0])
            logged = [self._log(m, acted, decided[0], "computer")]
        elif timer is not None and timer.action is not None:
            new, events = rules.apply(state, SYSTEM, timer.action)
            logged = [self._log(m, SYSTEM, timer.action, "timer")]
            if rules.outcome(new) is None:  # a clock that ends the game leaves nothing to ping for
                events.extend(self._gone_away(m, rules.to_move(state)))
        elif timer is not None and timer.seat is not None:  # a turn limit: the computer plays the turn
            acted = timer.seat
            m.seats[acted].away = True
            events = [Event("timeout", {"seat": acted})]
            for action in decided:
                new, more = rules.apply(new, acted, action)
                events.extend(more)
                logged.append(self._log(m, acted, action, "timeout"))
        else:  # a timer the state no longer declares: drop it (re-planned in the commit)
            m.timers.pop(key, None)
        return await self._commit_moves(m, state, new, events, logged, read, acted=acted, human=False)

    @staticmethod
    def _gone_away(m: MatchRow, movers: frozenset[int]) -> list[Event]:
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

    def _arm(self, m: MatchRow | LiveEntry) -> None:
        """(Re)start the match's timer, if it has a deadline and its guild is this process's."""
        old = self._timers.pop(m.id, None)
        self._deadlines.pop(m.id, None)
        if old is not None and old is not asyncio.current_task():
            old.cancel()
        if m.deadline is not None and m.status in LIVE and not self._closing and self.owns(m.guild_id):
            self._wait(m.id, m.deadline)

    def _wait(self, match_id: int, deadline: float) -> None:
        """Wait for a due time of the wall clock on the loop's monotonic one: the clock watch makes
        it wait again if the wall clock steps, and a wake that finds nothing due waits again."""
        loop = asyncio.get_running_loop()
        self._deadlines[match_id] = deadline
        self._timers[match_id] = loop.call_later(max(0.0, deadline - self.now()), self._due, match_id)
        if self._watch is None:
            self._start_watch(loop)

    def _start_watch(self, loop: asyncio.AbstractEventLoop) -> None:
        self._watch_from = (self.now(), loop.time())
        self._watch = loop.call_later(self.clock_watch_seconds, self._watch_clock)

    def _watch_clock(self) -> None:
        """One callback for the whole process, while any timer waits: if the wall clock stepped
        against the loop's (an NTP correction, a resumed VM), every timer waits again for its stored
        due time (a step back would wake them early, a step forward late)."""
        self._watch = None
        if self._closing:
            return
        loop = asyncio.get_running_loop()
        wall, mono = self.now(), loop.time()
        wall0, mono0 = self._watch_from
        # the loop waited at least what it was asked (a simulated loop such as SimCord's moves its own
        # virtual time by exactly that, while loop.time() barely moves)
        step = (wall - wall0) - max(self.clock_watch_seconds, mono - mono0)
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
            self._watch = loop.call_later(self.clock_watch_seconds, self._watch_clock)

    def armed(self, match_id: int) -> bool:
        """Whether this process runs the match's timers right now."""
        return match_id in self._timers

    def _due(self, match_id: int) -> None:
        self._deadlines.pop(match_id, None)
        if not self._closing:
            self._timers[match_id] = asyncio.get_running_loop().create_task(self._timer(match_id))

    async def _timer(self, match_id: int) -> None:
        me, held, waited, update = asyncio.current_task(), False, 0.0, None
        try:
            for attempt in itertools.count():
                try:
                    update = await self.tick(match_id)
                    if self._timers.get(match_id) is me:  # nothing fired (woken early: a wall clock
                        self._arm((await self.get(match_id))[0])  # step back): wait again
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
                        self._held(match_id, True)
                    await asyncio.sleep(wait)
                    waited += wait
        finally:
            if held:
                self._held(match_id, False)
        if update is not None and self.on_timer_update is not None:
            await self.on_timer_update(update)

    def _held(self, match_id: int, held: bool) -> None:
        if self.on_timer_held is not None:
            try:
                self.on_timer_held(match_id, held)
            except Exception:  # a notice never stops a timer
                log.exception("match %s: the held clock's notice failed", match_id)

    async def recover(self, on_broken: Callable[[int, int | None], Awaitable[None]] | None = None) -> int:
        """Re-arm the timers of this process's live matches (overdue ones fire at once) from one
        query: no state is decoded, so start-up takes milliseconds whatever the number of matches.
        A match that cannot be decoded is set aside (closed, ``on_broken`` says so in its channel)
        when it is first used, or by ``check_live``. Also follows other processes' commits on a
        shared database. Returns the number of live matches of this process."""
        self.on_broken = on_broken
        await self.store.listen(self._heard)
        entries = [e for e in await self._read(self.store.live_entries()) if self.owns(e.guild_id)]
        self._entries = entries
        # _arm and _wait for each, inlined: with 10,000 live matches their calls were a third of start-up
        loop, now, closing = asyncio.get_running_loop(), self.now(), self._closing
        at, due = loop.time() - now, self._due
        for entry in entries:
            mid = entry.id
            self._cache.pop(mid, None)
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
        return len(entries)

    async def check_live(self, batch: int = 25) -> int:
        """Decode every live match of this process once (after start-up, in batches, yielding
        between them), setting aside those that cannot be decoded and planning timers for rows
        written before timers existed. Nothing is cached. Returns the number of readable ones."""
        entries = self._entries if self._entries is not None else await self._read(self.store.live_entries())
        self._entries = None
        ids = [e.id for e in entries if self.owns(e.guild_id)]
        good = 0
        for start in range(0, len(ids), batch):
            if self._closing:
                break
            chunk = ids[start : start + batch]
            try:
                rows = await self._read(self.store.get_many(chunk))
            except ValueError:  # bad bytes in a row spoil the whole read: one by one then
                rows = {}
                for mid in chunk:
                    with contextlib.suppress(MatchNotFound):
                        rows[mid] = (await self._load(mid))[0]
            except (EngineError, StoreBusy) as err:  # each is checked again at its first use
                log.warning("live matches not checked at start-up (%r)", err)
                continue
            for mid, m in rows.items():
                try:
                    if m is None:  # the row itself cannot be read
                        raise ValueError("the stored row cannot be decoded")
                    self._decode(m)  # only to know it can be: nothing is cached
                except (ValueError, TypeError, KeyError) as err:
                    await self._set_aside(mid, err)
                    continue
                good += 1
                if m.status == "active" and not m.timers:  # written before timers existed: plan them
                    with contextlib.suppress(EngineError, StoreBusy, WriteConflict):
                        async with self._writing(mid) as (w, current):
                            await self._commit(w, current, [], w.version)
                await asyncio.sleep(0)  # one decode at a time between other work: no stall
        return good

    async def _heard(self, match_id: int, version: int, guild_id: int | None) -> None:
        """Another process committed a match (shared databases): forget the cached copy and, if the
        match is this process's, re-arm its timers from the new row (-1: re-read everything)."""
        try:
            if match_id == -1:
                self._cache.clear()
                for entry in await self._read(self.store.live_entries()):
                    if self.owns(entry.guild_id):
                        self._arm(entry)
                return
            lock = self.lock(match_id)
            if lock.locked():  # a commit of ours may be on its way (this may be its own notice)
                async with lock:
                    pass
            cached = self._cache.get(match_id)
            if self._closing or (cached is not None and cached[0].version >= version):
                return  # our own commit, or one we already read
            self._cache.pop(match_id, None)
            if self.owns(guild_id):
                m, _ = await self.get(match_id)
                self._arm(m)
        except (EngineError, StoreBusy) as err:  # its own timer still fires and re-reads the row
            log.warning("match %s: could not follow another process's commit (%r)", match_id, err)
        except Exception:
            if not self._closing:  # (closing: the pool is going away under it)
                raise

    async def close(self) -> None:
        self._closing = True
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

    async def forget_user(self, user_id: int) -> Forgotten:
        """Delete what is kept about a user (``Store.forget_user``): refused with StillPlaying while
        they sit in a live match. Cached matches that named them are read again when next wanted."""
        try:
            forgotten = await self.store.forget_user(user_id, self.now())
        except SeatedInLiveMatch as err:
            raise StillPlaying(n=len(err.match_ids)) from None
        except StoreBusy:
            raise DatabaseBusy() from None
        for mid, (row, _) in list(self._cache.items()):
            if row.status not in LIVE and not self.lock(mid).locked():
                del self._cache[mid]
        return forgotten

    async def replay(self, match_id: int) -> Any:
        """Rebuild a match's state from its seed and action log (used by tests and checks)."""
        m, _ = await self.get(match_id)
        rules = rules_for(m.game)
        state = rules.setup(len(m.seats), m.seed, m.options)
        for a in await self.store.actions(match_id):
            state, _ = rules.apply(state, a.seat, a.action)
        return state

    def knows_lessons(self, match_id: int) -> bool:
        """Whether ``lessons(match_id)`` answers at once (worked out already)."""
        return match_id in self._lessons

    async def lessons(self, match_id: int) -> dict[int, list[lessons.Lesson]]:
        """Each person's costliest decisions in a finished match (engine.lessons), by seat; worked
        out once, decision by decision in the worker process (a computer's move queued there waits
        for one valuation at most), and kept for the last HISTORIES matches. A live match has none
        yet (NoLessonsYet)."""
        cached = self._lessons.get(match_id)
        if cached is not None:
            self._lessons.move_to_end(match_id)
            return cached
        m, state = await self.get(match_id)
        if m.status in LIVE or state is None or not lessons.teaches(m.game):
            raise NoLessonsYet()
        steps = await self.history(match_id)
        people = [i for i, seat in enumerate(m.seats) if seat.user_id is not None]
        found = []
        for k, before, a in lessons.decisions(steps, people):  # one decision per job
            lesson = await self.run(lessons.judge, m.game, before, a.seat, a.action, k)
            if lesson is not None:
                found.append(lesson)
        self._lessons[match_id] = best = lessons.costliest(found, people)
        while len(self._lessons) > HISTORIES:
            self._lessons.popitem(last=False)
        return best

    async def history(self, match_id: int) -> list[replay.Step]:
        """Every state of a match rebuilt from its seed and action log (engine.replay), in order: the
        start, then one per logged action. Rebuilt in a worker thread; a finished (or cancelled)
        match's history never changes, so the last HISTORIES of them are kept."""
        cached = self._histories.get(match_id)
        if cached is not None:
            self._histories.move_to_end(match_id)
            return cached
        m, _ = await self.get(match_id)
        actions = await self._read(self.store.actions(match_id))
        rules = rules_for(m.game)
        steps = await asyncio.to_thread(replay.rebuild, rules, len(m.seats), m.seed, m.options, actions)
        if m.status not in LIVE:
            self._histories[match_id] = steps
            while len(self._histories) > HISTORIES:
                self._histories.popitem(last=False)
        return steps

    async def mark_once(self, match_id: int, key: str) -> bool:
        """Note ``key`` (a time stamp of MatchMeta: ``recap``) in a finished match's meta (with the time)
        unless it is there already; True if this call noted it. For what must happen once per match even
        across restarts and processes (its recap). A new version, but not a new public one: the match's
        buttons stay valid."""
        if key not in ONCE_KEYS:
            raise ValueError(f"mark_once: {key!r} is not one of {ONCE_KEYS}")
        async with self._writing(match_id) as (m, state):
            if getattr(m.meta, key) is not None:
                return False
            setattr(m.meta, key, self.now())
            m.version += 1  # a conditional write: of two processes racing to note it, one wins
            await self.store.commit(m, [], self.now(), m.version - 1)
            self._remember(m, state)
            return True
