"""Explicit registry of games: name -> rules object, and name -> computer player."""

from __future__ import annotations

from typing import Any

from engine.core import Computer, Rules
from engine.games import honga, honga_ai, ubongo, ubongo_ai, ugah, ugah_ai, uonga, uonga_ai

GAMES: dict[str, Rules[Any]] = {
    ugah.RULES.name: ugah.RULES,
    ubongo.RULES.name: ubongo.RULES,
    honga.RULES.name: honga.RULES,
    uonga.RULES.name: uonga.RULES,
}
COMPUTERS: dict[str, Computer[Any]] = {
    ugah.RULES.name: ugah_ai.COMPUTER,
    ubongo.RULES.name: ubongo_ai.COMPUTER,
    honga.RULES.name: honga_ai.COMPUTER,
    uonga.RULES.name: uonga_ai.COMPUTER,
}


def rules_for(name: str) -> Rules[Any]:
    return GAMES[name]


def computer_for(name: str) -> Computer[Any]:
    return COMPUTERS[name]
