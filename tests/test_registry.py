"""The registry of games (bot.games.SPECS, engine.registry.SPECS): one spec per game that every list
reads, and a game registered at run time (the test-only game) reaches each of them."""

from __future__ import annotations

import pytest

from bot.games import SPECS, UIS
from bot.locales import en
from engine import registry
from toy.ui import SPEC as TOY
from toy.ui import register


def test_the_bot_and_the_engine_list_the_same_games():
    assert list(UIS) == list(SPECS) and set(SPECS) == set(registry.SPECS)
    for name, spec in SPECS.items():
        assert spec.name == spec.renderer.game == spec.engine.name == name


@pytest.mark.parametrize("game", list(SPECS))
def test_the_catalogue_holds_each_game_s_texts_and_picture_words(game):
    spec = SPECS[game]
    assert {k: en.MESSAGES.get(k) for k in spec.messages} == dict(spec.messages)
    missing = [k for k in spec.renderer.labels if f"render.{game}.{k}" not in en.MESSAGES]
    assert not missing, f"{game}: the catalogue lacks the picture words {missing}"


def test_the_toy_game_is_registered_by_its_spec_alone(monkeypatch):
    with monkeypatch.context() as patch:
        register(patch)
        assert SPECS["toy"] is TOY and UIS["toy"] is TOY.ui
        assert (
            registry.rules_for("toy") is TOY.engine.rules
            and registry.computer_for("toy") is TOY.engine.computer
        )
        assert en.MESSAGES["game.toy"] == "Tally"
    assert "toy" not in SPECS and "toy" not in registry.GAMES and "game.toy" not in en.MESSAGES
