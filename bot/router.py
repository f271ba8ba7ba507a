"""The click router: every component interaction gets exactly one answer.

A click's custom_id is decoded once (bot.components.decode) into the surface its control belongs to
and what it means; it is checked against where it actually came from (the match's channel, the seat's
own DM, or an ephemeral panel), then handed to the engine (actions), to nothing at all (display-only
clicks) or to the lobby; the answer is drawn on the surface that was clicked (bot.surfaces.answer).
A click the engine refuses as stale is answered with the surface as it is now, repaired in the same
answer.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot import errors, messages, punctual, replay
from bot.components import (
    CHOOSE,
    DISPLAY,
    DISPLAY_CHOICE,
    LOBBY,
    OPEN,
    PRIVATE_SURFACE,
    PUBLIC_SURFACE,
    REPLAY_SURFACE,
    TOURNAMENT_SURFACE,
    Click,
    decode,
)
from bot.games import UIS
from bot.i18n import translator
from bot.names import clean_name
from bot.surfaces import Surfaces
from bot.surfaces.answer import watch, where
from bot.surfaces.names import BOARD
from engine import lessons
from engine.errors import (
    BadActionCode,
    DatabaseUnsure,
    EngineError,
    MatchOver,
    NoLessonsYet,
    NotInMatch,
    NotYourTurn,
    StaleAction,
)
from engine.history import owned_seat
from engine.match import PRIVATE, PUBLIC, Matches
from engine.registry import rules_for
from engine.store import MatchRow
from render.graphemes import cut

log = logging.getLogger(__name__)

# (interaction, lobby click?, display-only?) -> whether the clicker is within their budget (else it
# has answered them already)
Limits = Callable[..., Awaitable[bool]]
Replays = Callable[[discord.Interaction, int, int], Awaitable[None]]
Clicked = Callable[[discord.Interaction, Click], Awaitable[None]]


async def _no_tournaments(interaction: discord.Interaction, click: Click) -> None:
    await errors.reply_engine(interaction, BadActionCode())


class WrongPlace(EngineError):
    """A control used outside its match's channel or its seat's DM (copied across guilds, forged), or
    on a surface it does not belong to (a private control on the public message)."""

    key = "error.wrong_place"


def _came_from_its_place(
    interaction: discord.Interaction, m: MatchRow, click: Click, seat: int | None
) -> bool:
    if (click.surface == PUBLIC_SURFACE) != (where(interaction) == BOARD):
        return False  # a private control forged onto the board, or a public one into a DM or panel
    if interaction.channel_id == m.channel_id and interaction.guild_id == m.guild_id:
        return True
    # a private control may also sit in a DM: the seat's own (checked against the seat below)
    return click.surface == PRIVATE_SURFACE and interaction.guild_id is None and seat is not None


def is_moderator(interaction: discord.Interaction) -> bool:
    perms = interaction.permissions
    return bool(perms and perms.manage_messages)


class Router:
    def __init__(
        self,
        matches: Matches,
        surfaces: Surfaces,
        limits: Limits,
        replays: Replays,
        ack_seconds: float = punctual.ACK_SECONDS,
        tournaments: Clicked = _no_tournaments,
    ) -> None:
        self.matches = matches
        self.tournaments = tournaments  # a tournament's controls: bot.tournament answers them
        self.surfaces = surfaces
        self.limits = limits
        self.replays = replays
        self.clicks = punctual.Clicks(ack_seconds)  # each acknowledged in time (GameBot.dispatch)

    async def on_component(self, interaction: discord.Interaction, click: Click) -> None:
        """A click of ours (``on_interaction`` decoded it and noted the clicker's language)."""
        try:
            await self.clicks.handling(interaction)
            if click.surface == TOURNAMENT_SURFACE:
                await self.tournaments(interaction, click)
            else:
                await self._on_component(interaction, click)
        finally:
            self.clicks.handled(interaction)

    async def _on_component(self, interaction: discord.Interaction, click: Click) -> None:
        try:
            with (
                self.surfaces.answering()
            ):  # what the click commits, the other surfaces show after its answer
                await self._route(interaction, click)
        except discord.HTTPException as err:  # Discord failed us; whatever was committed is intact
            log.warning("click %s failed at Discord: %s", click, err)
            await errors.reply(interaction, "error.discord")
        except Exception as caught:
            err = errors.engine_error(caught)  # the engine's refusal, or the database's outage
            if err is None:  # a bug: say so instead of leaving "This interaction failed"
                log.exception("click %s failed", click)
                await errors.reply(interaction, "error.generic")
            else:
                await self._refused(interaction, click, err)

    async def _refused(self, interaction: discord.Interaction, click: Click, err: EngineError) -> None:
        """Say privately why the click was refused, or may not have been kept; the surface it came
        from is redrawn first where it is behind (over: a panel the end could not reach)."""
        over = isinstance(err, MatchOver) and where(interaction) != BOARD
        if isinstance(err, DatabaseUnsure):  # it may land yet: the surfaces show what was kept later
            self.surfaces.recheck(click.match_id)
        elif isinstance(err, StaleAction | WrongPlace) or over:
            await self._repair(interaction, click)
        await errors.reply_engine(interaction, err)

    async def _repair(self, interaction: discord.Interaction, click: Click) -> None:
        """Answer a refused click by redrawing the surface it came from as it is now (a board behind
        a failed edit, a DM a race left behind, a panel that stopped following): the player sees the
        truth at once. Only surfaces of a started match (live or over) that the clicker may see."""
        if interaction.response.is_done() or click.surface in (REPLAY_SURFACE, TOURNAMENT_SURFACE):
            return
        try:
            m, state = await self.matches.get(click.match_id)
        except EngineError:
            return
        seat = self.matches.seat_of(m, interaction.user.id)
        came_from = where(interaction)
        if state is None or (
            came_from != BOARD and (seat is None or m.seats[seat].user_id != interaction.user.id)
        ):
            return
        if came_from == BOARD and (
            interaction.channel_id != m.channel_id or interaction.guild_id != m.guild_id
        ):
            return
        try:
            await self.surfaces.answers.answer(interaction, m, state, seat, repair=True)
        except discord.HTTPException as err:
            log.info("click %s: the surface was not repaired: %s", click, err)

    async def _route(self, interaction: discord.Interaction, click: Click) -> None:
        if (
            click.surface == REPLAY_SURFACE
        ):  # a step of /replay: anyone of the match's server, nothing written
            if await self.limits(interaction, channel=False, display=True):
                await self.replays(interaction, click.match_id, click.version)
            return
        user = interaction.user
        m, state = await self.matches.get(click.match_id)
        seat = self.matches.seat_of(m, user.id)
        if not _came_from_its_place(interaction, m, click, seat):
            raise WrongPlace()
        if interaction.guild_id is None:  # a DM: it must be this seat's own
            row = await self.surfaces.addresses.dm(m, seat) if seat is not None else None
            if row is None or row.channel_id != interaction.channel_id:
                raise WrongPlace()
        # players are limited per person only: people outside a game cannot use up its budget
        display = click.intent in (DISPLAY, DISPLAY_CHOICE)  # choosing and browsing: a budget of their own
        if not await self.limits(interaction, channel=click.intent == LOBBY, display=display):
            return
        if click.intent == LOBBY:
            await self._lobby(interaction, m, click)
        elif click.intent == OPEN:
            await self._open(interaction, m, state, seat, click.arg)
        elif seat is None:
            raise NotInMatch()
        elif display:
            await self._display(interaction, m, state, seat, click)
        else:
            surface = PRIVATE if click.surface == PRIVATE_SURFACE else PUBLIC
            action = (
                UIS[m.game].select_action(click.arg, click.values) if click.intent == CHOOSE else click.arg
            )
            ahead = interaction if self.clicks.alone() else None  # (a burst: the answers first)
            with self.surfaces.acting(m.id, user.id, ahead=ahead, seat=seat):
                update = await self.matches.act(m.id, click.version, user.id, action, surface=surface)
            await self.surfaces.answers.show(interaction, update.match, update.state, seat)

    async def _lobby(self, interaction: discord.Interaction, m: MatchRow, click: Click) -> None:
        user = interaction.user
        if click.arg == "rematch":
            update = await self.matches.rematch(m.id, user.id, clean_name(user.display_name))
            await self.surfaces.post_first(interaction, update.match, update.state)
            return
        update = await self.matches.lobby(
            m.id,
            click.version,
            user.id,
            clean_name(user.display_name),
            click.arg,
            moderator=is_moderator(interaction),
            locale=str(interaction.locale),
        )
        started = m.status == "lobby" and update.match.status == "active"
        if started and update.match.options.get("thread"):
            await interaction.response.defer()  # the lobby message becomes the match's line once it moved
            if await self.surfaces.begin_thread(update.match, update.state, interaction.channel):
                return
        await self.surfaces.answers.show(interaction, update.match, update.state, None)

    async def _open(
        self, interaction: discord.Interaction, m: MatchRow, state: Any, seat: int | None, what: str
    ) -> None:
        """hand: my panel; watch: a player's panel, or a spectator's copy of the board; help: what I
        can do now. All private (ephemeral) answers."""
        if what == "lessons":
            await self._lessons(interaction, m)
            return
        if what in ("watch", "help") and m.status != "active":
            raise MatchOver()
        if what == "help":
            text = messages.help_text(m, state, seat, translator(interaction.locale))
            await interaction.response.send_message(cut(text, messages.MAX_CONTENT), ephemeral=True)
            return
        if what == "watch" and (seat is None or UIS[m.game].private is None):
            await watch(interaction, m, state)
            return
        if seat is None:
            raise NotInMatch()
        if state is None:
            await errors.reply(interaction, "error.hand_lobby")
            return
        await self.surfaces.open_panel(interaction, m, state, seat)

    async def _lessons(self, interaction: discord.Interaction, m: MatchRow) -> None:
        """🎓 on a finished board: the clicker's costliest decisions, privately (engine.lessons). The
        strongest computer reviews the whole game in the worker process, so the answer is deferred."""
        if m.status != "finished" or not lessons.teaches(m.game):
            raise NoLessonsYet()
        seat = owned_seat(m, interaction.user.id)  # a member who resigned still owns their decisions
        if seat is None:
            raise NotInMatch()
        await interaction.response.defer(ephemeral=True, thinking=True)
        found = await self.matches.lessons(m.id)
        steps = await self.matches.history(m.id)
        text = replay.lessons_text(m, steps, seat, found.get(seat, []), translator(interaction.locale))
        await interaction.followup.send(cut(text, messages.MAX_CONTENT), ephemeral=True)

    async def _display(
        self, interaction: discord.Interaction, m: MatchRow, state: Any, seat: int, click: Click
    ) -> None:
        """Display-only: refused like an action when stale or out of turn, but nothing is written."""
        private = click.surface == PRIVATE_SURFACE
        seen = m.seats[seat].version if private else m.public_version
        if m.status != "active" or click.version != seen:
            raise StaleAction()
        if not private and seat not in rules_for(m.game).to_move(state):
            raise NotYourTurn()  # the public display belongs to the player to move
        await self.surfaces.answers.answer(interaction, m, state, seat, click.display)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Every component interaction of ours is routed from here by its custom_id (bot.components:
        discord.py keeps no view to dispatch it), and every other gets an answer too: an id none of
        ours matches (forged, another bot version), and a late click on a control the message no
        longer has (a double click, a client behind an edit)."""
        self.surfaces.note_locale(interaction)  # any command or click: the user's DMs follow it
        if interaction.type is not discord.InteractionType.component:
            return
        data = interaction.data or {}
        raw = str(data.get("custom_id", ""))
        click = decode(raw)
        if click is None:
            await errors.reply_engine(interaction, BadActionCode())
            self.clicks.handled(interaction)
        elif interaction.message is not None and raw not in _ids_on(interaction.message):
            await self._repair(interaction, click)
            await errors.reply_engine(interaction, StaleAction())
            self.clicks.handled(interaction)
        else:
            values = tuple(str(v) for v in data.get("values", []))  # a select's choice; a button has none
            await self.on_component(interaction, dataclasses.replace(click, values=values))


def _ids_on(message: discord.Message) -> set[str]:
    """Every custom_id on a message, however deeply its components nest (Components V2)."""
    found: set[str] = set()
    stack: list[Any] = list(message.components)
    while stack:
        c = stack.pop()
        custom_id = getattr(c, "custom_id", None)
        if custom_id:
            found.add(custom_id)
        for attr in ("children", "components", "accessory"):
            child = getattr(c, attr, None)
            if isinstance(child, list):
                stack.extend(child)
            elif child is not None:
                stack.append(child)
    return found
