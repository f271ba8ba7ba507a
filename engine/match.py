"""The async match engine: one writer per match.

Every click, command and timer goes through ``Matches`` under that match's lock, in this order:
load -> version check -> user-to-seat -> apply (pure rules) -> commit snapshot + log + deadline in one
transaction -> swap the cache. Callers show the returned ``Update`` only after the commit.
Deadlines live in the database and are re-armed by ``recover()`` at start-up.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from engine.core import Event, Rules
from engine.errors import (
    ChannelBusy,
    EngineError,
    LobbyError,
    MatchNotFound,
    MatchOver,
    NotInMatch,
    NotYourTurn,
    StaleAction,
)
from engine.registry import rules_for
from engine.store import LIVE, LoggedAction, MatchRow, SeatInfo, Store

log = logging.getLogger(__name__)

LOBBY_SECONDS = 15 * 60
AWAY_SECONDS = 20  # an away player's turn: long enough to click and take over, short for the others
CACHE_LIMIT = 2000  # decoded matches kept in memory; live ones always stay
MAX_AUTO_STEPS = 1000  # guard against a game whose computer never hands the turn back


@dataclass
class Update:
    """What a caller shows after a commit."""

    match: MatchRow
    state: Any  # the game's state object (None in the lobby)
    events: list[Event] = field(default_factory=list)


def _new_seed() -> int:
    return random.SystemRandom().getrandbits(63)


class Matches:
    def __init__(
        self,
        store: Store,
        now: Callable[[], float],
        *,
        turn_seconds: int = 120,
        on_timer_update: Callable[[Update], Awaitable[None]] | None = None,
    ) -> None:
        self.store = store
        self.now = now
        self.turn_seconds = turn_seconds
        self.on_timer_update = on_timer_update
        self._locks: dict[int, asyncio.Lock] = {}
        self._cache: dict[int, tuple[MatchRow, Any]] = {}
        self._timers: dict[int, asyncio.Task[None]] = {}

    # ---- loading -------------------------------------------------------------------------------

    def lock(self, match_id: int) -> asyncio.Lock:
        return self._locks.setdefault(match_id, asyncio.Lock())

    async def get(self, match_id: int) -> tuple[MatchRow, Any]:
        cached = self._cache.get(match_id)
        if cached:
            return cached
        m = await self.store.get(match_id)
        if m is None:
            raise MatchNotFound()
        state = rules_for(m.game).load(m.state) if m.state is not None else None
        self._remember(m, state)
        return m, state

    async def live_in_channel(self, channel_id: int) -> MatchRow | None:
        return await self.store.live_in_channel(channel_id)

    @staticmethod
    def seat_of(m: MatchRow, user_id: int) -> int | None:
        for i, s in enumerate(m.seats):
            if s.user_id == user_id and not s.ai:
                return i
        return None

    @contextlib.asynccontextmanager
    async def _writing(self, match_id: int) -> AsyncIterator[tuple[MatchRow, Any]]:
        """The one writer of a match: its lock, its current row and state. Engine errors are raised
        before anything changes; any other failure may leave the cached copy half-changed, so it is
        dropped and the next access reloads the committed truth from the database."""
        async with self.lock(match_id):
            m, state = await self.get(match_id)
            try:
                yield m, state
            except EngineError:
                raise
            except BaseException:
                self._cache.pop(match_id, None)
                raise

    # ---- committing ----------------------------------------------------------------------------

    async def _commit(self, m: MatchRow, state: Any, actions: list[LoggedAction]) -> None:
        rules = rules_for(m.game)
        m.state = rules.dump(state) if state is not None else None
        m.deadline = self._deadline_for(m, state)
        try:
            await self.store.commit(m, actions, self.now())
        except BaseException:
            self._cache.pop(m.id, None)  # the cached copy may be ahead of the database now
            raise
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

    def _deadline_for(self, m: MatchRow, state: Any) -> float | None:
        if m.status == "lobby":
            return m.deadline
        if m.status != "active":
            return None
        waiting = [m.seats[s] for s in rules_for(m.game).to_move(state)]
        if not waiting:
            return None
        limit = int(m.options.get("turn_seconds") or self.turn_seconds)
        if all(s.away for s in waiting):
            limit = min(limit, AWAY_SECONDS)
        return self.now() + limit

    def _next_version(self, m: MatchRow) -> int:
        m.version += 1
        return m.version

    # ---- lobby ---------------------------------------------------------------------------------

    async def open_lobby(
        self,
        game: str,
        guild_id: int | None,
        channel_id: int,
        host_id: int,
        host_name: str,
        options: dict[str, Any],
        *,
        seed: int | None = None,
        meta: dict[str, Any] | None = None,
    ) -> Update:
        rules = rules_for(game)  # unknown game -> KeyError, a programming error
        for option in rules.options:  # refuse a bad option now, not when the host clicks Start
            if option.name in options and options[option.name] not in option.choices:
                raise LobbyError("lobby.bad_option", name=option.name, choices=", ".join(option.choices))
        m = MatchRow(
            id=0,
            game=game,
            guild_id=guild_id,
            channel_id=channel_id,
            message_id=None,
            host_id=host_id,
            status="lobby",
            version=1,
            seed=_new_seed() if seed is None else seed,
            seats=[SeatInfo(host_id, host_name)],
            options=options,
            state=None,
            meta=dict(meta or {}),
            deadline=self.now() + LOBBY_SECONDS,
        )
        try:
            await self.store.create(m, self.now())
        except sqlite3.IntegrityError:
            raise ChannelBusy() from None
        self._remember(m, None)
        self._arm(m)
        return Update(m, None)

    async def attach_message(self, match_id: int, message_id: int | None) -> None:
        async with self._writing(match_id) as (m, _):
            m.message_id = message_id
            await self.store.set_message(match_id, message_id)

    async def lobby(
        self, match_id: int, version: int, user_id: int, name: str, op: str, *, moderator: bool = False
    ) -> Update:
        async with self._writing(match_id) as (m, _):
            if m.status != "lobby":
                raise LobbyError("lobby.closed")
            if version != m.version:
                raise StaleAction()
            rules = rules_for(m.game)
            seat = self.seat_of(m, user_id)
            is_host = user_id == m.host_id
            if op == "join":
                if seat is not None:
                    raise LobbyError("lobby.already_seated")
                if len(m.seats) >= rules.max_players:
                    raise LobbyError("lobby.full", max=rules.max_players)
                m.seats.append(SeatInfo(user_id, name))
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
                m.seats.append(SeatInfo(None, f"Computer {sum(s.ai for s in m.seats) + 1}", ai=True))
            elif op == "start":
                if not is_host:
                    raise LobbyError("lobby.host_only")
                if len(m.seats) < rules.min_players:
                    raise LobbyError("lobby.too_few", min=rules.min_players)
                return await self._start(m, rules)
            elif op == "cancel":
                if not (is_host or moderator):
                    raise LobbyError("lobby.host_only")
                m.status = "cancelled"
                m.meta = {**m.meta, "ended_by": user_id}
            else:
                raise LobbyError("lobby.unknown")
            self._next_version(m)
            await self._commit(m, None, [])
            return Update(m, None)

    async def _start(self, m: MatchRow, rules: Rules[Any]) -> Update:
        state = rules.setup(len(m.seats), m.seed, m.options)  # may refuse: before anything changes
        m.status = "active"
        self._next_version(m)
        return await self._after(m, state, [Event("started")], [])

    # ---- play ----------------------------------------------------------------------------------

    async def act(self, match_id: int, version: int, user_id: int, action: str) -> Update:
        async with self._writing(match_id) as (m, state):
            seat = self.seat_of(m, user_id)
            if m.status == "lobby":
                raise LobbyError("lobby.not_started")
            if m.status != "active":
                raise MatchOver()
            if seat is None:
                raise NotInMatch()
            if version != m.version:
                raise StaleAction()
            rules = rules_for(m.game)
            if seat not in rules.to_move(state):
                raise NotYourTurn()
            state, events = rules.apply(state, seat, action)  # raises before anything changes
            m.seats[seat].away = False
            return await self._after(m, state, events, [self._logged(m, seat, action, "player")])

    def _logged(self, m: MatchRow, seat: int, action: str, source: str) -> LoggedAction:
        return LoggedAction(self._next_version(m), seat, action, source)

    async def _after(
        self, m: MatchRow, state: Any, events: list[Event], logged: list[LoggedAction]
    ) -> Update:
        """Commit the player's move, then let computer seats play, each move its own commit."""
        await self._commit_moves(m, state, events, logged)
        state = await self._run_computers(m, state, events)
        return Update(m, state, events)

    async def _commit_moves(
        self, m: MatchRow, state: Any, events: list[Event], logged: list[LoggedAction]
    ) -> None:
        """Commit moves with what happened (for captions and re-posts); close a game that is over."""
        if m.status == "active" and rules_for(m.game).outcome(state) is not None:
            m.status = "finished"
        m.meta = {**m.meta, "events": [e.dump() for e in events]}
        await self._commit(m, state, logged)

    async def _run_computers(self, m: MatchRow, state: Any, events: list[Event]) -> Any:
        rules = rules_for(m.game)
        for _ in range(MAX_AUTO_STEPS):
            ai = [s for s in sorted(rules.to_move(state)) if m.seats[s].ai]
            if not ai:
                return state
            seat = ai[0]
            action = await asyncio.to_thread(rules.computer_action, state, seat)  # CPU work off the loop
            state, more = rules.apply(state, seat, action)
            events.extend(more)
            await self._commit_moves(m, state, events, [self._logged(m, seat, action, "computer")])
        raise RuntimeError(f"match {m.id}: computer players did not hand the turn back")

    async def resign(self, match_id: int, user_id: int) -> Update:
        """A player leaves a running game: the computer takes the seat over so the others can finish."""
        async with self._writing(match_id) as (m, state):
            seat = self.seat_of(m, user_id)
            if seat is None:
                raise NotInMatch()
            if m.status == "lobby":
                raise LobbyError("lobby.use_leave")
            if m.status != "active":
                raise MatchOver()
            m.seats[seat].ai = True
            events = [Event("resigned", {"seat": seat})]
            if not any(not s.ai for s in m.seats):
                return await self._cancel(m, state, events[0], ended_by=user_id)
            self._next_version(m)  # the seat changed hands: the board must be redrawn
            return await self._after(m, state, events, [])

    async def end(self, match_id: int, user_id: int, *, moderator: bool) -> Update:
        async with self._writing(match_id) as (m, state):
            if m.status not in LIVE:
                raise MatchOver()
            if not (user_id == m.host_id or moderator):
                raise LobbyError("end.not_allowed")
            return await self._cancel(m, state, Event("ended", {"by": user_id}), ended_by=user_id)

    async def _cancel(self, m: MatchRow, state: Any, event: Event, **meta: Any) -> Update:
        """Close a live match for good (ended, abandoned, expired, channel gone), saying why."""
        m.status = "cancelled"
        m.meta = {**m.meta, **meta, "events": [event.dump()]}
        self._next_version(m)
        await self._commit(m, state, [])
        return Update(m, state, [event])

    async def close_gone(self, match_id: int) -> None:
        """The match's channel was deleted: close it so it never blocks or fires again."""
        async with self._writing(match_id) as (m, state):
            if m.status in LIVE:
                await self._cancel(m, state, Event("channel_gone"))

    async def close_channel(self, channel_id: int) -> int | None:
        m = await self.store.live_in_channel(channel_id)
        if m is None:
            return None
        await self.close_gone(m.id)
        return m.id

    # ---- timers --------------------------------------------------------------------------------

    async def expire(self, match_id: int) -> Update | None:
        """Deadline passed: a lobby closes; a waiting seat's turn is played by the computer."""
        async with self._writing(match_id) as (m, state):
            if m.deadline is None or m.deadline > self.now() + 0.001:
                return None
            if m.status == "lobby":
                return await self._cancel(m, None, Event("lobby_expired"))
            if m.status != "active":
                return None
            rules = rules_for(m.game)
            events: list[Event] = []
            logged: list[LoggedAction] = []
            for seat in sorted(rules.to_move(state)):
                m.seats[seat].away = True
                events.append(Event("timeout", {"seat": seat}))
                for _ in range(MAX_AUTO_STEPS):  # the computer finishes this seat's turn
                    if seat not in rules.to_move(state):
                        break
                    action = await asyncio.to_thread(rules.computer_action, state, seat)
                    state, more = rules.apply(state, seat, action)
                    events.extend(more)
                    logged.append(self._logged(m, seat, action, "timeout"))
            return await self._after(m, state, events, logged)

    def _arm(self, m: MatchRow) -> None:
        task = self._timers.pop(m.id, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()
        if m.deadline is not None and m.status in LIVE:
            self._timers[m.id] = asyncio.get_running_loop().create_task(self._timer(m.id, m.deadline))

    async def _timer(self, match_id: int, deadline: float) -> None:
        await asyncio.sleep(max(0.0, deadline - self.now()))
        try:
            update = await self.expire(match_id)
        except EngineError:
            return
        except Exception:
            log.exception("timer of match %s failed", match_id)
            return
        if update is not None and self.on_timer_update is not None:
            await self.on_timer_update(update)

    async def recover(self) -> int:
        """Reload every live match and re-arm its deadline (overdue ones fire at once)."""
        live = await self.store.live_matches()
        for m in live:
            self._cache.pop(m.id, None)
            self._arm(m)
        return len(live)

    async def close(self) -> None:
        for task in self._timers.values():
            task.cancel()
        for task in list(self._timers.values()):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._timers.clear()

    async def replay(self, match_id: int) -> Any:
        """Rebuild a match's state from its seed and action log (used by tests and checks)."""
        m, _ = await self.get(match_id)
        rules = rules_for(m.game)
        state = rules.setup(len(m.seats), m.seed, m.options)
        for a in await self.store.actions(match_id):
            state, _ = rules.apply(state, a.seat, a.action)
        return state
