"""A game as the bot knows it: one ``GameSpec`` per game, listed once in ``bot.games.SPECS``. Every
list of games (the commands, the sample images, the translation tool, the benches, the ladder, the
tests that check each game) reads that registry."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.games.base import GameUI
from bot.i18n import Template
from engine.registry import SPECS as ENGINE_SPECS
from engine.registry import EngineSpec
from render.renderer import Renderer


@dataclass(frozen=True)
class BenchKit:
    """How the benches set a game up (``python -m bench``)."""

    options: Mapping[str, Any] = field(default_factory=dict)
    """Start options of a bench table (the move clicks), besides a day per turn."""
    players: int = 3
    """Seats of the seeded random games whose boards the render bench draws."""
    cpu_per_move: float = 0.006
    """The aim for the bot's CPU (seconds) per move click (issue 35)."""


@dataclass(frozen=True)
class GameSpec:
    ui: GameUI
    """Its Discord face (``bot/games/<game>.py``), which names its renderer (``render/<game>/``:
    the board, private pictures and the README images)."""
    messages: Mapping[str, Template]
    """Its English catalogue (``bot/locales/en_<game>.py``); the words its pictures draw are the
    renderer's ``labels``."""
    bench: BenchKit = BenchKit()

    @property
    def name(self) -> str:
        return self.ui.game

    @property
    def engine(self) -> EngineSpec:
        """The engine's part (``engine.registry``): rules, computer player, how the ladder plays it."""
        return ENGINE_SPECS[self.name]

    @property
    def renderer(self) -> Renderer:
        return self.ui.renderer
