"""Explicit registry of games, the engine's part: each game's rules and computer player (and how the
ladder plays it), one line per game. The rest of a game (its Discord face, pictures, texts) is
registered by the bot (``bot.games``), from this part."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.core import Computer, Rules
from engine.games import honga, honga_ai, ubongo, ubongo_ai, ugah, ugah_ai, uonga, uonga_ai


@dataclass(frozen=True)
class EngineSpec:
    """A game as the engine knows it."""

    rules: Rules[Any]
    computer: Computer[Any]
    sides: tuple[dict[str, Any], ...] = ({},)
    """Options that rotate with the seats in the ladder (a game's sides)."""
    openings: int = 0
    """Seeded random first actions of a ladder game, where the computers are deterministic."""

    @property
    def name(self) -> str:
        return self.rules.name


SPECS: dict[str, EngineSpec] = {
    spec.name: spec
    for spec in (
        EngineSpec(ugah.RULES, ugah_ai.COMPUTER),
        EngineSpec(ubongo.RULES, ubongo_ai.COMPUTER),
        EngineSpec(honga.RULES, honga_ai.COMPUTER),
        # the first turn (Hunter, Youngling, Mastodon): 13,800 openings, no two ladder games alike
        EngineSpec(uonga.RULES, uonga_ai.COMPUTER, ({"side": "cavemen"}, {"side": "mastodons"}), openings=3),
    )
}
GAMES: dict[str, Rules[Any]] = {name: spec.rules for name, spec in SPECS.items()}
COMPUTERS: dict[str, Computer[Any]] = {name: spec.computer for name, spec in SPECS.items()}


def register(spec: EngineSpec, setitem: Callable[[Any, str, Any], None] = dict.__setitem__) -> None:
    """Add a game at run time (the test-only game, through ``bot.games.register``); ``setitem``: a
    test's ``monkeypatch.setitem``, so that the game is gone after the test."""
    setitem(SPECS, spec.name, spec)
    setitem(GAMES, spec.name, spec.rules)
    setitem(COMPUTERS, spec.name, spec.computer)


def rules_for(name: str) -> Rules[Any]:
    return GAMES[name]


def computer_for(name: str) -> Computer[Any]:
    return COMPUTERS[name]
