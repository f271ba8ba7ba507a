"""The click router: every component interaction gets exactly one answer.

A click is parsed from its custom_id (bot.components), checked against where it came from (the
match's channel, or the seat's own DM), then handed to the engine (actions), to nothing at all
(display-only clicks) or to the lobby; the answer is drawn on the surface that was clicked.
"""

from __future__ import annotations

import contextlib
import logging
from typing import TYPE_CHECKING

import discord

from bot import errors
from bot.components import DISPLAY_KINDS, OURS, PRIVATE_KINDS, REPLAY_KIND, SELECT_KINDS, Click
from bot.games import UIS
from bot.names import clean_name
from engine.errors import BadActionCode, EngineError, MatchOver, NotInMatch, NotYourTurn, StaleAction
from engine.match import PRIVATE, PUBLIC
from engine.registry import rules_for
from engine.store import MatchRow

if TYPE_CHECKING:
    from bot.client import GameBot

log = logging.getLogger(__name__)


class WrongPlace(EngineError):
    """A control used outside its match's channel or its seat's DM (copied across guilds, forged)."""

    key = "error.wrong_place"


def _came_from_its_place(
    interaction: discord.Interaction, m: MatchRow, click: Click, seat: int | None
) -> bool:
    if interaction.channel_id == m.channel_id and interaction.guild_id == m.guild_id:
        return True
    # a private control may also sit in the seat's own DM
    return (
        click.kind in PRIVATE_KINDS
        and interaction.guild_id is None
        and seat is not None
        and m.seats[seat].dm == interaction.channel_id
    )


class Router:
    def __init__(self, bot: GameBot) -> None:
        self.bot = bot

    async def on_component(self, interaction: discord.Interaction, click: Click) -> None:
        self.bot.delivery.note_locale(interaction)  # the clicker's DMs follow their language
        try:
            await self._route(interaction, click)
        except EngineError as err:
            await errors.reply_engine(interaction, err)
            if isinstance(err, StaleAction):  # the surface may be behind (a failed edit): bring it in line
                await self.bot.delivery.sync(click.match_id)
        except discord.HTTPException as err:  # Discord failed us; whatever was committed is intact
            log.warning("click %s failed at Discord: %s", click, err)
            await errors.reply(interaction, "error.discord")
        except Exception:  # a bug: say so instead of leaving "This interaction failed"
            log.exception("click %s failed", click)
            await errors.reply(interaction, "error.generic")

    async def _route(self, interaction: discord.Interaction, click: Click) -> None:
        if click.kind == REPLAY_KIND:  # a step of /replay: anyone of the match's server, nothing written
            if await self.bot.within_limits(interaction, channel=False, display=True):
                await self.bot.delivery.show_replay(interaction, click.match_id, click.version, edit=True)
            return
        user = interaction.user
        m, state = await self.bot.matches.get(click.match_id)
        seat = self.bot.matches.seat_of(m, user.id)
        if not _came_from_its_place(interaction, m, click, seat):
            raise WrongPlace()
        # players are limited per person only: people outside a game cannot use up its budget
        display = click.kind in DISPLAY_KINDS  # choosing and browsing: a budget of their own
        if not await self.bot.within_limits(interaction, channel=click.kind == "l", display=display):
            return
        if click.kind == "l" and click.arg == "rematch":
            update = await self.bot.matches.rematch(m.id, user.id, clean_name(user.display_name))
            await self.bot.delivery.post_new(interaction, update)
            return
        if click.kind == "h" and click.arg in ("watch", "help"):
            if m.status != "active":
                raise MatchOver()
            if click.arg == "watch":
                await self.bot.delivery.watch(interaction, m.id, seat)
            else:
                await self.bot.delivery.help(interaction, m.id, seat)
            return
        if click.kind == "l":
            update = await self.bot.matches.lobby(
                m.id,
                click.version,
                user.id,
                clean_name(user.display_name),
                click.arg,
                moderator=self.bot.is_moderator(interaction),
                locale=str(interaction.locale),
            )
            await self.bot.delivery.respond(interaction, update.match.id, update)
            return
        if seat is None:
            raise NotInMatch()
        if click.kind == "h":
            if state is None:
                await errors.reply(interaction, "error.hand_lobby")
                return
            await self.bot.delivery.open_panel(interaction, m.id, seat)
            return
        surface = PRIVATE if click.kind in PRIVATE_KINDS else PUBLIC
        if click.kind in DISPLAY_KINDS:
            display = click.values[0] if click.kind in SELECT_KINDS and click.values else click.arg
            await self._display(interaction, m, state, seat, click, surface, display)
            return
        action = (
            UIS[m.game].select_action(click.arg, click.values) if click.kind in SELECT_KINDS else click.arg
        )
        update = await self.bot.matches.act(m.id, click.version, user.id, action, surface=surface)
        if surface == PRIVATE:
            await self.bot.delivery.respond_private(interaction, m.id, seat)
        else:
            await self.bot.delivery.respond(interaction, m.id, update)

    async def _display(
        self,
        interaction: discord.Interaction,
        m: MatchRow,
        state: object,
        seat: int,
        click: Click,
        surface: str,
        display: str,
    ) -> None:
        """Display-only: refused like an action when stale or out of turn, but nothing is written."""
        seen = m.seats[seat].version if surface == PRIVATE else m.public_version
        if m.status != "active" or click.version != seen:
            raise StaleAction()
        if surface == PUBLIC and seat not in rules_for(m.game).to_move(state):
            raise NotYourTurn()  # the public display belongs to the player to move
        if surface == PRIVATE:
            await self.bot.delivery.respond_private(interaction, m.id, seat, display[:100])
        else:
            await self.bot.delivery.respond_display(interaction, m.id, display[:100])

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Every component interaction gets an answer, including the ones discord.py's DynamicItem
        dispatch drops silently: an id none of ours matches (forged, another bot version), and a late
        click on a control the message no longer has (a double click, a client behind an edit)."""
        self.bot.delivery.note_locale(interaction)  # any command or click: the user's DMs follow it
        if interaction.type is not discord.InteractionType.component:
            return
        custom_id = str((interaction.data or {}).get("custom_id", ""))
        if not OURS.fullmatch(custom_id):
            await errors.reply_engine(interaction, BadActionCode())
        elif interaction.message is not None and custom_id not in _ids_on(interaction.message):
            await errors.reply_engine(interaction, StaleAction())
            with contextlib.suppress(EngineError):
                await self.bot.delivery.sync(int(custom_id.split(":")[1]))


def _ids_on(message: discord.Message) -> set[str]:
    """Every custom_id on a message, however deeply its components nest (Components V2)."""
    found: set[str] = set()
    stack = list(message.components)
    while stack:
        c = stack.pop()
        if getattr(c, "custom_id", None):
            found.add(c.custom_id)
        for attr in ("children", "components", "accessory"):
            child = getattr(c, attr, None)
            if isinstance(child, list):
                stack.extend(child)
            elif child is not None:
                stack.append(child)
    return found
