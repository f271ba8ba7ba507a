"""The registry of games: one line per game (its ``GameSpec``), in the order players see them. The
engine's part of each game is registered in ``engine.registry``; ``docs/adding-a-game.md`` says
what a new game needs."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.games.base import GameUI
from bot.games.honga import HongaUI
from bot.games.spec import BenchKit, GameSpec
from bot.games.ubongo import UbongoUI
from bot.games.ugah import UgahUI
from bot.games.uonga import UongaUI
from bot.locales import en, en_honga, en_ubongo, en_ugah, en_uonga
from engine import registry

SPECS: dict[str, GameSpec] = {
    spec.name: spec
    for spec in (
        GameSpec(UgahUI(), en_ugah.MESSAGES),
        GameSpec(HongaUI(), en_honga.MESSAGES, BenchKit({"target": "short"})),
        GameSpec(UongaUI(), en_uonga.MESSAGES, BenchKit(players=2)),
        GameSpec(
            UbongoUI(), en_ubongo.MESSAGES, BenchKit({"side": "A", "round_limit": 1800}, cpu_per_move=0.008)
        ),
    )
}
UIS: dict[str, GameUI] = {name: spec.ui for name, spec in SPECS.items()}


def register(
    spec: GameSpec, engine: registry.EngineSpec, setitem: Callable[[Any, str, Any], None] = dict.__setitem__
) -> None:
    """Add a game at run time, to every registry the bot reads (the test-only game: ``setitem`` is
    then a test's ``monkeypatch.setitem``, which takes it away again after the test)."""
    registry.register(engine, setitem)
    setitem(SPECS, spec.name, spec)
    setitem(UIS, spec.name, spec.ui)
    for key, text in spec.messages.items():
        setitem(en.MESSAGES, key, text)
    for key, text in spec.renderer.labels.items():
        setitem(en.MESSAGES, f"render.{spec.name}.{key}", text)
