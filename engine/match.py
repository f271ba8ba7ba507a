"""The async match engine's front: ``Matches`` is what the bot holds.

It is the one writer of every match (engine.writer: locks, cache, commits) with the commands a player
or host gives (act, resign, end), recovery at start-up and other processes' commits heard, and the
parts it is built from: the lobby (engine.lobby), the match clock (engine.clock) which fires due timers
through engine.firing, and history (engine.history). What happens that nobody called for (a timer's
commits, a held timer, a match set aside) is published on ``signals`` (engine.signals).

Time belongs to the rules (``Rules.timers``, planned in engine.timers); computer seats and expired
timers act through the same writer, after the click that caused them has been answered, with
computer decisions made in a worker process (engine.compute) while no lock is held.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from engine import compute, lessons, replay
from engine.clock import CLOCK_WATCH_SECONDS, MatchClock
from engine.core import Event, Outcome
from engine.errors import (
    DatabaseBusy,
    EngineError,
    LobbyError,
    MatchNotFound,
    MatchOver,
    NotInMatch,
    NotYourTurn,
    StaleAction,
    StillPlaying,
    StillResigned,
)
from engine.firing import Firing
from engine.history import HISTORIES, History
from engine.lobby import LOBBY_SECONDS, REMATCH_SECONDS, Lobby
from engine.options import TURN_SECONDS
from engine.registry import rules_for
from engine.signals import Heard, Signals, Update
from engine.staleness import log_action
from engine.store import LIVE, Forgotten, LiveEntry, MatchRow, SeatedInLiveMatch, StoreBusy, WriteConflict
from engine.store.base import Store
from engine.timers import AWAY_SECONDS
from engine.writer import Conflict, Writer

__all__ = [
    "AWAY_SECONDS",
    "CLOCK_WATCH_SECONDS",
    "HISTORIES",
    "LOBBY_SECONDS",
    "PRIVATE",
    "PUBLIC",
    "REMATCH_SECONDS",
    "Matches",
    "Update",
]

log = logging.getLogger(__name__)

PUBLIC, PRIVATE = "public", "private"  # the surface a click was made on


class Matches(Writer):
    def __init__(
        self,
        store: Store,
        now: Callable[[], float],
        *,
        turn_seconds: int = TURN_SECONDS.default,
        run: Callable[..., Awaitable[Any]] = compute.run,
        owns: Callable[[int | None], bool] = lambda guild_id: True,
        clock_watch_seconds: float = CLOCK_WATCH_SECONDS,
    ) -> None:
        signals = Signals()
        # the clock reads the engine's wall clock through it: a test may step or replace it
        clock = MatchClock(
            lambda: self.now(),
            self._fire,
            self._reload,
            signals,
            owns=owns,
            watch_seconds=clock_watch_seconds,
        )
        super().__init__(store, now, clock, signals, turn_seconds=turn_seconds)
        self.owns = owns  # this process's guilds (its Discord shards): only their timers run here
        self.firing = Firing(self, run)
        self.lobbies = Lobby(self)
        self.histories = History(self, run)
        self._entries: list[LiveEntry] | None = None  # what recover() read, for check_live

    @property
    def clock_watch_seconds(self) -> float:
        return self.clock.watch_seconds

    @clock_watch_seconds.setter
    def clock_watch_seconds(self, seconds: float) -> None:
        self.clock.watch_seconds = seconds

    @property
    def run(self) -> Callable[..., Awaitable[Any]]:
        """Where computer decisions and lessons are worked out (a process pool by default)."""
        return self.firing.run

    @run.setter
    def run(self, run: Callable[..., Awaitable[Any]]) -> None:
        self.firing.run = self.histories.run = run

    async def _fire(self, match_id: int) -> Update | None:
        return await self.firing.tick(match_id)

    async def _reload(self, match_id: int) -> Any:
        return (await self.get(match_id))[0]

    # ---- the parts, as the bot calls them ------------------------------------------------------

    async def open_lobby(self, game: str, guild_id: int | None, channel_id: int, host_id: int, host_name: str,
                         raw_options: dict[str, Any], **kw: Any) -> Update:  # fmt: skip
        """A new lobby (engine.lobby.Lobby.open)."""
        return await self.lobbies.open(game, guild_id, channel_id, host_id, host_name, raw_options, **kw)

    async def lobby(self, match_id: int, version: int, user_id: int, name: str, op: str, **kw: Any) -> Update:
        """A lobby operation (engine.lobby.Op, or ``ai.<level>``)."""
        return await self.lobbies.operate(match_id, version, user_id, name, op, **kw)

    async def rematch(self, match_id: int, user_id: int, name: str) -> Update:
        return await self.lobbies.rematch(match_id, user_id, name)

    async def history(self, match_id: int) -> list[replay.Step]:
        return await self.histories.history(match_id)

    async def lessons(self, match_id: int) -> dict[int, list[lessons.Lesson]]:
        return await self.histories.lessons(match_id)

    def knows_lessons(self, match_id: int) -> bool:
        return self.histories.knows_lessons(match_id)

    # ---- play ----------------------------------------------------------------------------------

    async def act(
        self, match_id: int, version: int, user_id: int, action: str, *, surface: str = PUBLIC
    ) -> Update:
        """A player's action from a click on ``surface`` rendered at ``version``: refused as stale
        only if that surface changed since (the public view, or what this seat may do). A copy that
        another process's commit made stale is read again and the click judged once more on it."""
        try:
            return await self._act(match_id, version, user_id, action, surface)
        except Conflict:
            return await self._act(match_id, version, user_id, action, surface)

    async def _act(self, match_id: int, version: int, user_id: int, action: str, surface: str) -> Update:
        async with self.writing(match_id) as (m, state):
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
            logged = [log_action(m, seat, action, "player")]
            return await self.commit_moves(m, state, new, events, logged, read, acted=seat, human=True)

    async def resign(self, match_id: int, user_id: int) -> Update:
        """A player leaves a running game. With two seats the opponent wins; otherwise the computer
        takes the seat over so the others can finish (and with no human left the game closes)."""
        async with self.writing(match_id) as (m, state):
            seat = self.seat_of(m, user_id)
            if seat is None:
                raise NotInMatch()
            if m.status == "lobby":
                raise self.not_started(m, user_id)
            if m.status != "active":
                raise MatchOver()
            read = m.version
            event = Event("resigned", {"seat": seat})
            m.meta.resigned = sorted({*m.meta.resigned, seat})  # never a winner (engine.result)
            if len(m.seats) == 2:
                winner = 1 - seat
                m.status = "finished"
                m.meta.result = Outcome([0, 0], [winner], "resignation")
                return await self.commit_moves(m, state, state, [event], [], read, acted=None, human=True)
            m.seats[seat].ai = True
            m.seats[seat].level = None
            if not any(not s.ai for s in m.seats):
                return await self.cancel(m, state, event, read, ended_by=(user_id, m.seats[seat].name))
            return await self.commit_moves(m, state, state, [event], [], read, acted=None, human=True)

    @staticmethod
    def not_started(m: MatchRow, user_id: int) -> LobbyError:
        """What resigning from a lobby says: a player leaves with Leave, the host closes it with Cancel."""
        return LobbyError("lobby.use_cancel" if user_id == m.host_id else "lobby.use_leave")

    async def end(self, match_id: int, user_id: int, *, moderator: bool, name: str | None = None) -> Update:
        """The host or a moderator ends a live match; ``name``: theirs as shown (a moderator may not
        be seated, so the row could not name them otherwise)."""
        async with self.writing(match_id) as (m, state):
            if m.status not in LIVE:
                raise MatchOver()
            if not (user_id == m.host_id or moderator):
                raise LobbyError("end.not_allowed")
            seat = self.seat_of(m, user_id)
            if name is None and seat is not None:
                name = m.seats[seat].name
            event = Event("ended", {"by": user_id})
            return await self.cancel(m, state, event, m.version, ended_by=(user_id, name))

    async def hurry(self, match_id: int) -> None:
        """A tournament round's time is up: every member of this match still running counts as away,
        so a turn not taken within AWAY_SECONDS is played by the computer (a click takes it back, as
        after any time-out), and time-outs no longer forfeit: the match soon ends, with a result that
        counts, even if nobody is there."""
        async with self.writing(match_id) as (m, state):
            if m.status != "active":
                return
            read, soon = m.version, self.now() + AWAY_SECONDS
            if "timeout" in m.options:  # (a real-time race has no time-out rule)
                m.options = {**m.options, "timeout": "computer"}
            for s in m.seats:
                s.away = s.away or not s.ai
            limits = {
                t.key for t in rules_for(m.game).timers(state) if t.seat is not None and t.action is None
            }
            m.timers = {k: min(due, soon) if k in limits else due for k, due in m.timers.items()}
            await self.commit(m, state, [], read)

    async def discard_lobby(self, match_id: int) -> None:
        """A lobby (or a game started with it at once) whose message could not be posted: close it so
        it never blocks its channel."""
        await self.close_live(match_id, "lobby_failed")

    async def close_gone(self, match_id: int) -> None:
        """The match's channel was deleted: close it so it never blocks or fires again."""
        await self.close_live(match_id, "channel_gone")

    async def close_channel(self, channel_id: int) -> int | None:
        m = await self.live_in_channel(channel_id)
        if m is None:
            return None
        await self.close_gone(m.id)
        return m.id

    async def move(self, match_id: int, channel_id: int) -> Update:
        """The match now lives in ``channel_id`` (its own thread): clicks, timers and the channel's
        one-live-match rule follow it. No new version: every control stays valid."""
        async with self.writing(match_id) as (m, state):
            m.channel_id = channel_id
            await self.commit_quietly(m, state, m.version)
            return Update(m, state)

    async def live_of(self, user_id: int) -> list[tuple[MatchRow, Any]]:
        """The live matches (lobbies and games) where ``user_id`` sits and has not resigned, with their
        states, in every server and channel (``/game mine``); a match that cannot be read is left out."""
        out = []
        for mid in await self.read(self.store.live_ids_of(user_id)):
            try:
                m, state = await self.get(mid)
            except MatchNotFound:  # gone, or set aside as it was read
                continue
            if m.status in LIVE and self.seat_of(m, user_id) is not None:
                out.append((m, state))
        return out

    async def forget_user(self, user_id: int) -> Forgotten:
        """Delete what is kept about a user (``Store.forget_user``): refused with StillPlaying while
        they sit in a live match. Cached matches that named them are read again when next wanted."""
        try:
            forgotten = await self.store.forget_user(user_id, self.now())
        except SeatedInLiveMatch as err:
            raise await self._still_seated(user_id, err.match_ids) from None
        except StoreBusy:
            raise DatabaseBusy() from None
        self.forget_finished()
        return forgotten

    async def _still_seated(self, user_id: int, match_ids: list[int]) -> StillPlaying:
        """Why forget-me waits: a live game to finish or leave, or only games the user resigned
        (nothing left to leave: the computer plays their seat until the game ends)."""
        try:
            rows = [(await self.get(mid))[0] for mid in match_ids]
        except EngineError:
            return StillPlaying(n=len(match_ids))
        resigned = all(self.seat_of(m, user_id) is None for m in rows)
        return (StillResigned if resigned else StillPlaying)(n=len(match_ids))

    # ---- recovery ------------------------------------------------------------------------------

    async def recover(self) -> int:
        """Re-arm the timers of this process's live matches (overdue ones fire at once) from one
        query: no state is decoded, so start-up takes milliseconds whatever the number of matches.
        A match that cannot be decoded is set aside (closed, and ``SetAside`` published) when it is
        first used, or by ``check_live``. Also follows other processes' commits on a shared database.
        Returns the number of live matches of this process."""
        await self.store.listen(self._heard)
        entries = [e for e in await self.read(self.store.live_entries()) if self.owns(e.guild_id)]
        self._entries = entries
        for entry in entries:
            self._cache.pop(entry.id, None)
        self.clock.arm_all(entries)
        return len(entries)

    async def check_live(self, batch: int = 25) -> int:
        """Decode every live match of this process once (after start-up, in batches, yielding
        between them), setting aside those that cannot be decoded and planning timers for rows
        written before timers existed. Nothing is cached. Returns the number of readable ones."""
        entries = self._entries if self._entries is not None else await self.read(self.store.live_entries())
        self._entries = None
        ids = [e.id for e in entries if self.owns(e.guild_id)]
        good = 0
        for start in range(0, len(ids), batch):
            if self.clock.closing:
                break
            try:
                rows = await self._read_rows(ids[start : start + batch])
            except (EngineError, StoreBusy) as err:  # each is checked again at its first use
                log.warning("live matches not checked at start-up (%r)", err)
                continue
            for mid, m in rows.items():
                try:
                    if m is None:  # the row itself cannot be read
                        raise ValueError("the stored row cannot be decoded")
                    self.decode(m)  # only to know it can be: nothing is cached
                except (ValueError, TypeError, KeyError) as err:
                    await self.set_aside(mid, err)
                    continue
                good += 1
                if m.status == "active" and not m.timers:  # written before timers existed: plan them
                    with contextlib.suppress(EngineError, StoreBusy, WriteConflict):
                        async with self.writing(mid) as (w, current):
                            await self.commit(w, current, [], w.version)
                await asyncio.sleep(0)  # one decode at a time between other work: no stall
        return good

    async def _read_rows(self, chunk: list[int]) -> dict[int, Any]:
        try:
            return await self.read(self.store.get_many(chunk))
        except ValueError:  # bad bytes in a row spoil the whole read: one by one then
            rows = {}
            for mid in chunk:
                with contextlib.suppress(MatchNotFound):
                    rows[mid] = (await self.load(mid))[0]
            return rows

    async def _heard(self, match_id: int, version: int, guild_id: int | None) -> None:
        """Another process committed a match (shared databases): forget the cached copy and, if the
        match is this process's, re-arm its timers from the new row (-1: re-read everything)."""
        try:
            if match_id == -1:
                self._cache.clear()
                for entry in await self.read(self.store.live_entries()):
                    if self.owns(entry.guild_id):
                        self.clock.arm(entry)
                return
            if self.held(match_id):  # a commit of ours may be on its way (this may be its own notice)
                async with self.lock(match_id):
                    pass
            cached = self._cache.get(match_id)
            if self.clock.closing or (cached is not None and cached[0].version >= version):
                return  # our own commit, or one we already read
            self._cache.pop(match_id, None)
            self.signals.publish(Heard(match_id, version))
            if self.owns(guild_id):
                m, _ = await self.get(match_id)
                self.clock.arm(m)
        except (EngineError, StoreBusy) as err:  # its own timer still fires and re-reads the row
            log.warning("match %s: could not follow another process's commit (%r)", match_id, err)
        except Exception:
            if not self.clock.closing:  # (closing: the pool is going away under it)
                raise

    async def close(self) -> None:
        await self.clock.close()
