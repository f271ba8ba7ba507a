"""Running tournaments: the one writer of each tournament's record (engine.tournament), and what it
makes happen on Discord.

Every change reads the stored record under the tournament's lock, applies a pure change
(engine.tournament.flow) and commits it conditionally on the version read; nothing is cached, so a
restart (or another process) loses nothing. After each commit ``advance`` brings the world in line
with the record, and may be run again at any time: it opens the round's matches (a thread each, then
the match, each step recorded before the next, so a crash never opens a table twice), takes the
results of matches that are over (heard as the engine commits them, and read again at start-up),
posts the standings once a round is complete, pairs the next round, and keeps the tournament's
message current. Its timer (sign-up deadline, round end) runs on a match clock of its own, which
re-arms from the stored due time after a restart or a wall clock step.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Iterable
from typing import Any

import discord

from bot import errors
from bot.components import Click
from bot.i18n import translator
from bot.messages import Board
from bot.names import clean_name
from bot.render_pool import rendered
from bot.surfaces.coordinator import Surfaces
from bot.surfaces.send import CHANNEL_GONE, Send, verdict
from bot.tournament import texts
from engine import options as options_of
from engine.clock import MatchClock
from engine.core import Choice
from engine.errors import EngineError, MatchNotFound
from engine.match import Matches
from engine.meta import MatchMeta
from engine.ratings import user_key
from engine.registry import rules_for
from engine.signals import Committed, Heard, Signal, Signals
from engine.store import LIVE, LiveEntry, SeatInfo, StoreError, WriteConflict
from engine.store.base import Store
from engine.tournament import flow, places
from engine.tournament.flow import TournamentError
from engine.tournament.model import FINISHED, OPEN, RUNNING, SIGNUP, Game, Tournament

log = logging.getLogger(__name__)

# Discord (or the database) refused a step: advance tries again after these, then every 5 minutes
RETRY_SECONDS = (1.0, 5.0, 15.0, 60.0, 300.0)
Change = Callable[[Tournament], object]


class Tournaments:
    def __init__(
        self,
        store: Store,
        matches: Matches,
        surfaces: Surfaces,
        send: Send,
        now: Callable[[], float],
        owns: Callable[[int | None], bool],
    ) -> None:
        self.store, self.matches, self.surfaces, self.send, self.now = store, matches, surfaces, send, now
        self.owns = owns
        self.clock = MatchClock(
            now, self._fire, self._entry_of, Signals(), owns=owns, watch_seconds=matches.clock_watch_seconds
        )
        self._locks: dict[int, asyncio.Lock] = {}
        self._of_match: dict[int, int] = {}  # match id -> tournament id, for open tournaments' tables
        self._advancing: dict[int, asyncio.Task[None]] = {}
        self._again: set[int] = set()
        self._checks: set[asyncio.Task[None]] = set()  # a table's commit, looked at off the commit
        self._shown: dict[int, str] = {}  # what each tournament's message shows (no needless edits)
        matches.signals.subscribe(self._heard)

    # ---- the record ------------------------------------------------------------------------------

    def lock(self, tournament_id: int) -> asyncio.Lock:
        return self._locks.setdefault(tournament_id, asyncio.Lock())

    async def get(self, tournament_id: int) -> Tournament:
        t = await self.store.tournament(tournament_id)
        if t is None:
            raise TournamentError("tournament.unknown")
        return t

    async def change(self, tournament_id: int, fn: Change) -> Tournament:
        """Apply ``fn`` to the stored record and commit it (once more on a write conflict: another
        process wrote it meanwhile); ``fn`` raising TournamentError changes nothing."""
        for attempt in (0, 1):
            async with self.lock(tournament_id):
                t = await self.get(tournament_id)
                read = t.version
                fn(t)
                t.version += 1
                try:
                    await self.store.commit_tournament(t, read, self.now())
                except WriteConflict:
                    if attempt:
                        raise
                    continue
            self._committed(t)
            return t
        raise AssertionError("unreachable")

    async def create(self, t: Tournament) -> Tournament:
        await self.store.create_tournament(t, self.now())
        self._committed(t)
        return t

    def _committed(self, t: Tournament) -> None:
        for g in t.games:
            if g.match_id is not None:
                if t.status in OPEN and g.places is None:
                    self._of_match[g.match_id] = t.id
                else:
                    self._of_match.pop(g.match_id, None)
        self.clock.arm(self._entry(t))
        self.kick(t.id)

    @staticmethod
    def _entry(t: Tournament) -> LiveEntry:
        """What the clock needs: the tournament's due time, as a live entry of its own."""
        deadline = t.deadline
        status = LIVE[1] if deadline is not None else FINISHED
        return LiveEntry(t.id, t.guild_id, t.channel_id, status, {"due": deadline} if deadline else {})

    async def _entry_of(self, tournament_id: int) -> Any:
        t = await self.store.tournament(tournament_id)
        if t is None:
            raise MatchNotFound()
        return self._entry(t)

    async def recover(self) -> int:
        """Start-up: re-arm every open tournament of this process and bring it in line."""
        found = [t for t in await self.store.open_tournaments() if self.owns(t.guild_id)]
        for t in found:
            self._committed(t)
            if t.status == RUNNING and t.round_deadline is None:  # its time ran out before a crash
                await self._hurry(t, again=True)
        return len(found)

    async def _hurry(self, t: Tournament, *, again: bool = False) -> None:
        """The round's time is up: hurry its matches still running (``again``: those not hurried yet,
        as far as the row tells: their time-out rule is still the tournament's)."""
        for g in t.of_round(t.round):
            if g.match_id is None or g.places is not None:
                continue
            with contextlib.suppress(EngineError, StoreError):
                if again and (await self.matches.get(g.match_id))[0].options.get("timeout") != "forfeit":
                    continue
                await self.matches.hurry(g.match_id)

    async def close(self) -> None:
        await self.clock.close()
        for task in [*self._advancing.values(), *self._checks]:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    # ---- what happens by itself ------------------------------------------------------------------

    def _heard(self, signal: Signal) -> None:
        """A table's match was committed: once it is over, its result is taken (a move is not
        looked at further: the cached row says the match goes on)."""
        if isinstance(signal, Committed | Heard) and signal.match_id in self._of_match:
            task = asyncio.get_running_loop().create_task(self._over(signal.match_id))
            self._checks.add(task)
            task.add_done_callback(self._checks.discard)

    async def _over(self, match_id: int) -> None:
        try:
            m, _ = await self.matches.get(match_id)
        except (EngineError, StoreError):
            m = None  # (gone or unreadable: advance finds out)
        tournament_id = self._of_match.get(match_id)
        if tournament_id is not None and (m is None or m.status not in LIVE):
            self.kick(tournament_id)

    async def _fire(self, tournament_id: int) -> None:
        """The tournament's timer: sign-up closes (it starts, or closes with too few players), or the
        round's time is up (the matches still running are hurried: engine.match.Matches.hurry)."""
        t = await self.get(tournament_id)
        if t.deadline is None or t.deadline > self.now():
            return
        if t.status == SIGNUP:
            minimum = rules_for(t.game).min_players
            try:
                await self.change(t.id, lambda x: flow.start(x, self.now(), minimum, has_sides(x.game)))
            except TournamentError:
                await self.change(t.id, lambda x: setattr(x, "status", "cancelled"))
            return
        if t.status == RUNNING:
            t = await self.change(t.id, lambda x: setattr(x, "round_deadline", None))
            await self._hurry(t)

    def kick(self, tournament_id: int) -> None:
        """Bring the tournament in line soon (once more if it is being brought in line now)."""
        if tournament_id in self._advancing:
            self._again.add(tournament_id)
            return
        task = asyncio.get_running_loop().create_task(self._advance_loop(tournament_id))
        self._advancing[tournament_id] = task

    async def _advance_loop(self, tournament_id: int) -> None:
        failures = 0
        try:
            while True:
                self._again.discard(tournament_id)
                try:
                    await self.advance(tournament_id)
                    failures = 0
                except (discord.HTTPException, StoreError, EngineError) as err:
                    if isinstance(err, discord.HTTPException) and verdict(err).what == CHANNEL_GONE:
                        await self.channel_gone(tournament_id)
                        break
                    wait = RETRY_SECONDS[min(failures, len(RETRY_SECONDS) - 1)]
                    failures += 1
                    log.warning(
                        "tournament %s: not brought in line yet (%r); again in %ss", tournament_id, err, wait
                    )
                    await asyncio.sleep(wait)
                    self._again.add(tournament_id)
                except Exception:
                    log.exception("tournament %s could not be brought in line", tournament_id)
                if tournament_id not in self._again:
                    break
        finally:
            self._advancing.pop(tournament_id, None)

    async def channel_gone(self, tournament_id: int) -> None:
        """The tournament's channel was deleted, its threads with it: it ends where it stands, and the
        matches still running in those threads are closed."""

        def close(t: Tournament) -> None:
            if t.status in OPEN:
                t.status = "cancelled" if t.status == SIGNUP else FINISHED
                t.round_deadline = None

        with contextlib.suppress(EngineError, StoreError):
            t = await self.change(tournament_id, close)
            for g in t.of_round(t.round):  # their threads went with the channel
                if g.match_id is not None and g.places is None:
                    await self.matches.close_gone(g.match_id)
        log.info("tournament %s closed: its channel is gone", tournament_id)

    async def close_channel(self, channel_id: int) -> None:
        """A channel was deleted: its open tournaments end (``/tournament`` can no longer reach them)."""
        for t in await self.store.tournaments_in(channel_id):
            if t.status in OPEN:
                await self.channel_gone(t.id)

    async def advance(self, tournament_id: int) -> None:
        t = await self.get(tournament_id)
        if t.status == RUNNING or t.status == "paused":
            for g in t.of_round(t.round):
                if g.bye:
                    continue
                if g.match_id is None:
                    t = await self._open_table(t, g)
                elif g.places is None:
                    t = await self._take_result(t, g)
            if t.status == RUNNING and t.round_over():
                t = await self._round_complete(t)
        if t.status == FINISHED and t.posted >= 0:
            await self._post(t, final=True)
            t = await self.change(t.id, lambda x: setattr(x, "posted", -1))
        await self._show(t)

    async def _open_table(self, t: Tournament, g: Game) -> Tournament:
        tr = translator(t.locale)
        thread_id = g.thread_id
        if thread_id is None:
            name = tr("tournament.thread", round=g.round, table=g.table, title=t.title)
            thread_id = await self.send.open_thread(t.channel_id, name)
            t = await self.change(t.id, lambda x: setattr(_game(x, g), "thread_id", thread_id))
            call = tr("tournament.your_match", names=" ".join(f"<@{u}>" for u in g.players), round=g.round,
                      title=discord.utils.escape_markdown(t.title))  # fmt: skip
            with contextlib.suppress(discord.HTTPException):  # (the board pings the one to move anyway)
                await self.send.post(thread_id, text=call, mentions=tuple(g.players))
        found = await self.matches.live_in_channel(thread_id)
        if found is not None and found.meta.tournament == t.id:  # opened before a restart: adopt it
            match_id = found.id
            row = await self.surfaces.board_row(found)
            if row is None or row.message_id is None:  # (its board was never posted)
                m, state = await self.matches.get(match_id)
                await self.surfaces.post_in(m, state, thread_id)
        else:
            match_id = await self._open_match(t, g, thread_id)
        t = await self.change(t.id, lambda x: setattr(_game(x, g), "match_id", match_id))
        return t

    async def _open_match(self, t: Tournament, g: Game, thread_id: int) -> int:
        by_id = {p.id: p for p in t.players}
        seats = [SeatInfo(u, by_id[u].name, locale=by_id[u].locale) for u in g.players]
        rules = rules_for(t.game)
        known = {o.name for o in options_of.declared(rules.options, rules.real_time)}
        options = {k: v for k, v in t.options.items() if k in known}  # (a race has no time-out rule)
        side = side_option(t.game)
        if side is not None:  # seat 0 plays the game's first side: the pairing balanced who sits there
            options.setdefault("side", side.choices[0])
        with self.surfaces.answering():  # the board first, then the other surfaces (the turn's ping)
            opened = await self.matches.open_lobby(
                t.game, t.guild_id, thread_id, t.creator_id, t.creator_name, options,
                meta=MatchMeta(locale=t.locale, tournament=t.id), seats=seats,
            )  # fmt: skip
            started = await self.matches.lobby(
                opened.match.id, opened.match.version, t.creator_id, t.creator_name, "start"
            )
            self._of_match[started.match.id] = t.id
            await self.surfaces.post_in(started.match, started.state, thread_id)
        return started.match.id

    async def _take_result(self, t: Tournament, g: Game) -> Tournament:
        assert g.match_id is not None
        try:
            m, state = await self.matches.get(g.match_id)
        except MatchNotFound:  # gone (set aside): a draw, as a match ended without a result
            placed = [0] * len(g.players)
        else:
            if m.status in LIVE:
                return t
            placed = places.places(m, state)
        match_id = g.match_id
        return await self.change(t.id, lambda x: flow.record(x, match_id, placed))

    async def _round_complete(self, t: Tournament) -> Tournament:
        """Post the round's standings (once: recorded with the next round's pairing), pair the next."""
        if t.posted < t.round:
            await self._post(t, final=False)
        minimum = rules_for(t.game).min_players

        def next_round(x: Tournament) -> None:
            if x.status == RUNNING and x.round_over():
                x.posted = x.round
                flow.next_round(x, self.now(), minimum, has_sides(x.game))

        return await self.change(t.id, next_round)

    async def _post(self, t: Tournament, *, final: bool) -> None:
        tr = translator(t.locale)
        if not final and t.round >= t.rounds:
            return  # the last round's standings are the final ones, posted with the podium
        board = await rendered(texts.standings_board(t, tr, final=final))
        await self.send.post(t.channel_id, board)

    async def _show(self, t: Tournament) -> None:
        """The tournament's message as the record says (edited only when it changed)."""
        if t.message_id is None:
            return
        board = texts.message(t, translator(t.locale), self.now())
        if self._shown.get(t.id) == board.content + str(t.status):
            return
        try:
            await self.send.edit(t.channel_id, t.message_id, board)
        except discord.NotFound:
            log.info("tournament %s: its message is gone", t.id)
        self._shown[t.id] = board.content + str(t.status)

    async def show_again(self, tournament_ids: Iterable[int]) -> None:
        """Tournaments whose record a forgotten player left (privacy: forget-me): their messages
        say so now, not at the next change."""
        for tid in tournament_ids:
            try:
                t = await self.get(tid)
                if self.owns(t.guild_id):
                    await self._show(t)
            except (TournamentError, discord.HTTPException) as err:
                log.info("tournament %s: its message was not shown again: %s", tid, err)

    # ---- players' clicks on the tournament's message -----------------------------------------------

    async def click(self, interaction: discord.Interaction, click: Click) -> None:
        try:
            await self._click(interaction, click)
        except EngineError as err:
            await errors.reply_engine(interaction, err)
        except StoreError:
            await errors.reply(interaction, "error.db_busy")

    async def _click(self, interaction: discord.Interaction, click: Click) -> None:
        t = await self.get(click.match_id)
        if interaction.channel_id != t.channel_id or interaction.guild_id != t.guild_id:
            raise TournamentError("error.wrong_place")
        user, op, now = interaction.user, click.arg, self.now()
        name, locale = clean_name(user.display_name), str(interaction.locale)
        if op == "show":
            board = await rendered(texts.standings_board(t, translator(interaction.locale), final=False))
            await interaction.response.send_message(ephemeral=True, **board.kwargs(new=True))
            return
        if op == "join":
            rating = await self.rating(t, user.id)
            t = await self.change(t.id, lambda x: flow.join(x, user.id, name, rating, locale))
        elif op == "leave":
            t = await self.change(t.id, lambda x: flow.leave(x, user.id))
        elif op in ("start", "cancel"):
            if not self.manages(interaction, t):
                raise TournamentError("tournament.managers_only")
            minimum = rules_for(t.game).min_players
            act = (
                (lambda x: flow.start(x, now, minimum, has_sides(t.game)))
                if op == "start"
                else (lambda x: flow.cancel(x, user.id))
            )
            t = await self.change(t.id, act)
        else:
            raise TournamentError("error.bad_action")
        board = texts.message(t, translator(t.locale), now)
        self._shown[t.id] = board.content + str(t.status)
        await interaction.response.edit_message(**board.kwargs(image=False))

    @staticmethod
    def manages(interaction: discord.Interaction, t: Tournament) -> bool:
        perms = interaction.permissions
        return interaction.user.id == t.creator_id or bool(perms and perms.manage_guild)

    async def rating(self, t: Tournament, user_id: int) -> float:
        """Seeding: the player's rating of the game on this server (openskill's ordinal; 0 unrated)."""
        if t.guild_id is None:
            return 0.0
        standing = (await self.store.standings(t.guild_id, user_key(user_id))).get(t.game)
        return round(standing.ordinal, 3) if standing is not None else 0.0

    async def post_message(self, t: Tournament, board: Board, message_id: int) -> Tournament:
        """The command that created ``t`` posted its message: remember it."""
        self._shown[t.id] = board.content + str(t.status)
        return await self.change(t.id, lambda x: setattr(x, "message_id", message_id))


def side_option(game: str) -> Choice | None:
    """A two-seat game whose seats are sides (Uonga: ``side``, seat 0's side): the tournament fixes seat
    0 to the game's first side, and its pairing balances who plays which."""
    rules = rules_for(game)
    found = next((o for o in rules.options if o.name == "side" and isinstance(o, Choice)), None)
    return found if found is not None and rules.max_players == 2 else None


def has_sides(game: str) -> bool:
    return side_option(game) is not None


def _game(t: Tournament, g: Game) -> Game:
    """The same table in a freshly read record."""
    return next(x for x in t.games if x.round == g.round and x.table == g.table)
