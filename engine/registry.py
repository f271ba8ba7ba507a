"""Explicit registry of games: name -> rules object."""

from __future__ import annotations

from typing import Any

from engine.core import Rules
from engine.games import ugah

GAMES: dict[str, Rules[Any]] = {ugah.RULES.name: ugah.RULES}


def rules_for(name: str) -> Rules[Any]:
    return GAMES[name]
