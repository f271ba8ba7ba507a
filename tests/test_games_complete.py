"""Every registered game is complete: rules, computer, Discord UI, slash commands, catalogue keys,
sample images and a test kit. A game added to the engine registry alone fails here."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.games import UIS
from bot.locales.en import MESSAGES
from engine import options
from engine.core import Choice
from engine.registry import COMPUTERS, GAMES
from tests.bot.test_kits import KITS

ROOT = Path(__file__).resolve().parents[1]


def test_the_registries_agree():
    assert set(GAMES) == set(COMPUTERS) == set(UIS)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_catalogue_has_every_key_the_game_needs(game):
    rules, computer, ui = GAMES[game], COMPUTERS[game], UIS[game]
    keys = [f"game.{game}", f"cmd.{game}", f"cmd.{game}.start", f"rules.{game}"]
    keys += [f"level.{level}" for level in computer.levels]
    if ui.private is not None:
        keys.append(f"button.hand.{game}")
    for option in options.declared(rules.options, rules.real_time):
        assert f"opt.{game}.{option.name}" in MESSAGES or f"opt.{option.name}" in MESSAGES, option.name
        if isinstance(option, Choice):  # (a platform option's choices are named by the platform)
            where = game if option in rules.options else "opt"
            keys += [f"{where}.{option.name}.{choice}" for choice in option.choices]
    missing = [k for k in keys if k not in MESSAGES]
    assert not missing, f"{game}: catalogue lacks {missing}"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_game_has_sample_images_and_a_kit(game):
    assert list((ROOT / "docs" / "images").glob(f"{game}_*.png")), f"{game}: no sample image"
    assert game in {k.game for k in KITS}, f"{game}: no test kit in tests/bot/test_kits.py"
    assert UIS[game].private in (None, "dm", "panel") and UIS[game].layout in ("classic", "v2")


async def test_every_game_has_its_slash_commands(simcord_env):
    names = {c.qualified_name for c in simcord_env.bot.tree.walk_commands()}
    for game in GAMES:
        assert {f"{game} start", f"{game} rules"} <= names, game
