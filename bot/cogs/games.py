"""One slash group per registered game (``/ugah start``, ``/ugah rules``...), built from the game's
typed options in the registry: its choices, bounds and defaults are declared once, in the rules."""

from __future__ import annotations

import inspect
from typing import Any

import discord
from discord import app_commands

from bot.client import GameBot
from bot.cogs.common import desc, open_lobby
from bot.games import UIS
from bot.games.base import QuickStart
from bot.i18n import english, translator
from bot.locales.en import MESSAGES
from engine import options
from engine.core import Choice, Flag, Integer, Option
from engine.registry import rules_for


def _annotation(option: Option) -> Any:
    if isinstance(option, Integer):
        low, high = option.low, option.high
        return app_commands.Range[int, low, high]
    if isinstance(option, Flag):
        return bool
    return str


def option_description(game: str, option: Option) -> app_commands.locale_str:
    key = f"opt.{game}.{option.name}"
    return desc(key if key in MESSAGES else f"opt.{option.name}")


def choice_key(game: str, option: Choice, choice: str) -> str:
    """The catalogue key of a choice's name: the game's own options', or the platform's (``pace``)."""
    return (
        f"{game}.{option.name}.{choice}"
        if option in rules_for(game).options
        else f"opt.{option.name}.{choice}"
    )


def start_command(bot: GameBot, game: str) -> app_commands.Command[Any, Any, Any]:
    rules = rules_for(game)
    declared = options.declared(rules.options, rules.real_time)

    async def start(interaction: discord.Interaction, **chosen: Any) -> None:
        await open_lobby(bot, interaction, game, {k: v for k, v in chosen.items() if v is not None})

    parameters = [
        inspect.Parameter(
            "interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction
        )
    ] + [
        inspect.Parameter(o.name, inspect.Parameter.KEYWORD_ONLY, annotation=_annotation(o), default=None)
        for o in declared
    ]
    # what discord.py reads off the callback to build the command's options (its decorators set the
    # same attributes); a game's options keep the spec's names in the engine (``v1``), and Discord
    # shows what they do
    vars(start).update(
        __signature__=inspect.Signature(parameters),
        __discord_app_commands_param_rename__=dict(UIS[game].option_names),
        __discord_app_commands_param_description__={o.name: option_description(game, o) for o in declared},
        __discord_app_commands_param_choices__={
            o.name: [app_commands.Choice(name=english(choice_key(game, o, c)), value=c) for c in o.choices]
            for o in declared
            if isinstance(o, Choice)
        },
    )
    return app_commands.Command(name="start", description=desc(f"cmd.{game}.start"), callback=start)


def rules_command(game: str) -> app_commands.Command[Any, Any, Any]:
    async def rules(interaction: discord.Interaction) -> None:
        await interaction.response.send_message(
            translator(interaction.locale)(f"rules.{game}"), ephemeral=True
        )

    return app_commands.Command(name="rules", description=desc("cmd.game.rules"), callback=rules)


def quick_start_command(bot: GameBot, game: str, quick: QuickStart) -> app_commands.Command[Any, Any, Any]:
    """``/<game> <name> <option>``: open and start at once with the options the choice stands for."""
    default = next(iter(quick.choices))

    async def quick_start(interaction: discord.Interaction, **chosen: Any) -> None:
        options = quick.choices.get(chosen.get(quick.option) or default)
        if options is None:  # Discord only sends listed choices: this one was forged
            await bot.reply_error(interaction, "error.bad_action")
            return
        await open_lobby(bot, interaction, game, dict(options), start=True)

    option = inspect.Parameter(quick.option, inspect.Parameter.KEYWORD_ONLY, annotation=str, default=None)
    interaction = inspect.Parameter(
        "interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction
    )
    vars(quick_start).update(
        __signature__=inspect.Signature([interaction, option]),
        __discord_app_commands_param_description__={
            quick.option: desc(f"opt.{game}.{quick.name}.{quick.option}")
        },
        __discord_app_commands_param_choices__={
            quick.option: [
                app_commands.Choice(name=english(f"{game}.{quick.name}.{v}"), value=v) for v in quick.choices
            ]
        },
    )
    return app_commands.Command(
        name=quick.name, description=desc(f"cmd.{game}.{quick.name}"), callback=quick_start
    )


def game_group(bot: GameBot, game: str) -> app_commands.Group:
    group = app_commands.Group(name=game, description=desc(f"cmd.{game}"))
    group.add_command(start_command(bot, game))
    group.add_command(rules_command(game))
    for quick in UIS[game].quick_starts:  # a UI may declare extra quick-start commands
        group.add_command(quick_start_command(bot, game, quick))
    return group


async def setup(bot: GameBot) -> None:
    for game in UIS:
        bot.tree.add_command(game_group(bot, game))


async def teardown(bot: GameBot) -> None:
    for game in UIS:
        bot.tree.remove_command(game)
