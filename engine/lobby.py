"""Lobbies: opening one, its operations (join, leave, a computer seat, start, cancel, and a rematch
offer's accept and decline), and rematches. An operation arrives as text (``ai.hard``: a custom_id's
argument), is parsed once into an ``Op`` and a level, and runs the handler the table ``OPS`` names;
a handler either returns the update of a game it started, or changes the private copy of the row,
which is then committed as a new version of the lobby."""

from __future__ import annotations

import contextlib
import copy
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from engine import options, pace, timers
from engine.core import Event
from engine.errors import ChannelBusy, DatabaseBusy, DatabaseUnsure, LobbyError, NotInMatch, StaleAction
from engine.meta import MatchMeta
from engine.registry import computer_for, rules_for
from engine.signals import Update
from engine.store import ChannelTaken, MatchRow, SeatInfo, StoreBusy, StoreUnsure
from engine.writer import LOBBY_SECONDS, Writer

REMATCH_SECONDS = 10 * 60  # a rematch offer waits this long for every player's Accept


class Op(StrEnum):
    JOIN = "join"
    LEAVE = "leave"
    AI = "ai"  # a computer seat; ``ai.<level>`` names its level
    START = "start"
    CANCEL = "cancel"
    ACCEPT = "accept"  # a rematch offer's, by each invited player
    DECLINE = "decline"


SEATING = (Op.JOIN, Op.LEAVE, Op.AI)  # a rematch keeps the finished game's seats


@dataclass
class Request:
    """One operation on a lobby: the private copy of its row, and who asks."""

    m: MatchRow
    read: int  # the version it was read at
    user_id: int
    name: str
    seat: int | None
    is_host: bool
    moderator: bool
    locale: str | None
    level: str  # Op.AI's argument


def _new_seed() -> int:
    return random.SystemRandom().getrandbits(63)


def _rematch_seats(old: MatchRow, user_id: int, name: str) -> list[SeatInfo]:
    """A rematch's seats: the finished game's, in order. A player who asked to be forgotten (a seat
    that names nobody) is nobody to wait for: their seat is left out. A member who resigned left the
    game: the computer that played their seat keeps it, named as a computer."""
    levels = computer_for(old.game).levels
    used = {s.name for s in old.seats if s.ai and s.user_id is None}
    seats = []
    for s in old.seats:
        if s.ai:
            label = s.name if s.user_id is None else _free_computer_name(used)
            used.add(label)
            seats.append(SeatInfo(None, label, ai=True, level=s.level if s.level in levels else levels[0]))
        elif s.user_id is not None:
            seats.append(SeatInfo(s.user_id, name if s.user_id == user_id else s.name, locale=s.locale))
    return seats


def _free_computer_name(used: set[str]) -> str:
    n = 1
    while f"Computer {n}" in used:
        n += 1
    return f"Computer {n}"


class Lobby:
    def __init__(self, writer: Writer) -> None:
        self.writer = writer

    async def open(
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
        w = self.writer
        rules = rules_for(game)  # unknown game -> KeyError, a programming error
        opts = options.resolve(
            rules.options, raw_options, {"turn_seconds": w.turn_seconds}, real_time=rules.real_time
        )
        if pace.daily(opts):  # a daily game's players gather for days (a rematch offer's answer too)
            lobby_seconds = max(lobby_seconds, pace.LOBBY_SECONDS)
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
            timers={timers.LOBBY_KEY: w.now() + lobby_seconds},
            public_version=1,
        )
        try:
            await w.store.create(m, w.now())
        except ChannelTaken:
            raise ChannelBusy() from None
        except StoreUnsure:
            raise DatabaseUnsure() from None
        except StoreBusy:
            raise DatabaseBusy() from None
        w.remember(m, None)
        w.clock.arm(m)
        return Update(m, None)

    async def rematch(self, match_id: int, user_id: int, name: str) -> Update:
        """A player of a finished match offers a rematch: a lobby in the same channel with the same
        seats and options and a new seed, where each other human accepts (computers are ready at
        once); it starts when everyone has accepted, and closes after REMATCH_SECONDS otherwise."""
        async with self.writer.writing(match_id) as (old, state):
            update = await self._offer(old, user_id, name)
            # once only: a second Rematch on this game (the offer declined, expired or played) is refused
            old.meta.rematch = update.match.id
            old.version += 1  # a conditional write: of two processes racing to offer it, one wins
            try:
                await self.writer.commit_quietly(old, state, old.version - 1)
            except BaseException:
                with contextlib.suppress(Exception):  # an offer that cannot be recorded must not stay
                    await self.writer.close_live(update.match.id, "lobby_failed")
                raise
        if update.match.meta.pending:
            return update
        return await self.operate(update.match.id, update.match.version, user_id, name, Op.START)

    async def _offer(self, old: MatchRow, user_id: int, name: str) -> Update:
        if old.status != "finished":
            raise LobbyError("rematch.not_finished")
        if self.writer.seat_of(old, user_id) is None:
            raise NotInMatch()
        if old.meta.tournament is not None:  # (its next game is the next round's pairing)
            raise LobbyError("rematch.tournament")
        if old.meta.rematch is not None:
            raise LobbyError("rematch.once", game=old.game)
        seats = _rematch_seats(old, user_id, name)
        if len(seats) < rules_for(old.game).min_players:
            raise LobbyError("rematch.forgotten", game=old.game, min=rules_for(old.game).min_players)
        pending = [s.user_id for s in seats if s.user_id is not None and s.user_id != user_id]
        return await self.open(
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

    async def operate(
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
        """Run the lobby operation ``op`` (an ``Op``, or ``ai.<level>``) for ``user_id``."""
        w = self.writer
        text, _, level = op.partition(".")
        try:
            kind = Op(text)
        except ValueError:
            kind = None
        async with w.writing(match_id) as (m, _):
            if m.status != "lobby":
                raise LobbyError("lobby.closed")
            if version != m.version:
                raise StaleAction()
            if kind is None:
                raise LobbyError("lobby.unknown")
            seat = w.seat_of(m, user_id)
            r = Request(m, m.version, user_id, name, seat, user_id == m.host_id, moderator, locale, level)
            if m.meta.pending is not None and kind in SEATING:
                raise LobbyError("rematch.seats_fixed")
            update = await OPS[kind](self, r)
            if update is not None:
                return update
            m.version += 1
            m.public_version = m.version
            await w.commit(m, None, [], r.read)
            return Update(m, None)

    # ---- the operations: each checks who may, then changes the row (None) or starts the game ----

    async def _join(self, r: Request) -> Update | None:
        if r.seat is not None:
            raise LobbyError("lobby.already_seated")
        self._room_for_one_more(r.m)
        r.m.seats.append(SeatInfo(r.user_id, r.name, locale=r.locale))
        return None

    async def _leave(self, r: Request) -> Update | None:
        if r.seat is None:
            raise NotInMatch()
        if r.is_host:
            raise LobbyError("lobby.host_cannot_leave")
        r.m.seats.pop(r.seat)
        return None

    async def _computer(self, r: Request) -> Update | None:
        if not r.is_host:
            raise LobbyError("lobby.host_only")
        self._room_for_one_more(r.m)
        levels = computer_for(r.m.game).levels
        if r.level and r.level not in levels:
            raise LobbyError("lobby.unknown")
        n = sum(s.ai for s in r.m.seats) + 1
        r.m.seats.append(SeatInfo(None, f"Computer {n}", ai=True, level=r.level or levels[0]))
        return None

    @staticmethod
    def _room_for_one_more(m: MatchRow) -> None:
        rules = rules_for(m.game)
        if len(m.seats) >= rules.max_players:
            raise LobbyError("lobby.full", max=rules.max_players)

    async def _start(self, r: Request) -> Update | None:
        m = r.m
        if not r.is_host or m.meta.pending:
            raise LobbyError("lobby.host_only" if not r.is_host else "rematch.waiting")
        rules = rules_for(m.game)
        if len(m.seats) < rules.min_players:
            raise LobbyError("lobby.too_few", min=rules.min_players)
        state = rules.setup(len(m.seats), m.seed, m.options)  # may refuse: before anything changes
        m.status = "active"
        m.timers = {}
        return await self.writer.commit_moves(
            m, None, state, [Event("started")], [], r.read, acted=None, human=True
        )

    async def _cancel(self, r: Request) -> Update | None:
        if not (r.is_host or r.moderator):
            raise LobbyError("lobby.host_only")
        r.m.status = "cancelled"
        r.m.meta.ended_by, r.m.meta.ended_by_name = r.user_id, r.name
        return None

    async def _accept(self, r: Request) -> Update | None:
        pending = r.m.meta.pending
        if pending is None:
            return None  # (no offer to accept: the lobby only takes a new version, as it always did)
        if r.seat is None:
            raise NotInMatch()
        if r.user_id not in pending:
            raise LobbyError("rematch.already_accepted")
        r.m.meta.pending = [u for u in pending if u != r.user_id]
        if r.m.meta.pending:
            return None
        r.is_host = True  # everyone accepted: the game begins
        return await self._start(r)

    async def _decline(self, r: Request) -> Update | None:
        if r.m.meta.pending is None:
            raise LobbyError("lobby.unknown")
        if r.seat is None:
            raise NotInMatch()
        r.m.status = "cancelled"
        event = Event("rematch_declined", {"seat": r.seat})
        r.m.meta.ended_by, r.m.meta.ended_by_name, r.m.meta.events = r.user_id, r.name, [event]
        return None


OPS: dict[Op, Callable[[Lobby, Request], Awaitable[Update | None]]] = {
    Op.JOIN: Lobby._join,
    Op.LEAVE: Lobby._leave,
    Op.AI: Lobby._computer,
    Op.START: Lobby._start,
    Op.CANCEL: Lobby._cancel,
    Op.ACCEPT: Lobby._accept,
    Op.DECLINE: Lobby._decline,
}
