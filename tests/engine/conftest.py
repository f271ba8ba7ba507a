"""Engine fixtures: a virtual clock and a match engine on a temporary database, computers inline."""

from __future__ import annotations

import pytest

from engine.compute import run_inline
from engine.match import Matches
from engine.store import Store


class Clock:
    """Time that moves only when a test says so."""

    def __init__(self) -> None:
        self.t = 1_000_000.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture
async def open_engine(tmp_path):
    """``await open_engine(name, turn_seconds)`` -> (matches, clock); all closed at teardown."""
    made: list[Matches] = []

    async def make(name: str = "m.db", turn_seconds: int = 60) -> tuple[Matches, Clock]:
        store = Store(str(tmp_path / name))
        await store.open()
        clock = Clock()
        matches = Matches(store, clock, turn_seconds=turn_seconds, run=run_inline)
        made.append(matches)
        return matches, clock

    yield make
    for matches in made:
        await matches.close()
        await matches.store.close()
