"""Engine fixtures: a virtual clock and a match engine on a temporary database (SQLite and PostgreSQL:
the store's and the engine's tests run against both), computers inline."""

from __future__ import annotations

import pytest

from engine.compute import run_inline
from engine.match import Matches
from engine.store.base import Store
from engine.store.postgres import PostgresStore
from engine.store.sqlite import SqliteStore


async def start_match(matches: Matches, channel: int, seed: int, *, ai: int = 0) -> int:
    """A basic Ugah match started in ``channel``: alice opens, bob joins, ``ai`` computer seats."""
    u = await matches.open_lobby("ugah", 1, channel, 100, "alice", {"variant": "basic"}, seed=seed)
    u = await matches.lobby(u.match.id, u.match.version, 200, "bob", "join")
    for _ in range(ai):
        u = await matches.lobby(u.match.id, u.match.version, 100, "alice", "ai")
    await matches.lobby(u.match.id, u.match.version, 100, "alice", "start")
    return u.match.id


class Clock:
    """Time that moves only when a test says so."""

    def __init__(self) -> None:
        self.t = 1_000_000.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture(params=["sqlite", "postgres"])
def backend(request):
    """Which database the engine runs on; a module that tests one backend's own faults overrides it."""
    return request.param


@pytest.fixture
def new_store(backend, tmp_path, request):
    """``new_store(name)`` -> an unopened store on the database ``name`` of this test (the same
    name reopens the same database, as a new process would)."""

    def make(name: str = "m.db") -> Store:
        if backend == "sqlite":
            return SqliteStore(str(tmp_path / name))
        url = request.getfixturevalue("postgres_url")
        schema = request.getfixturevalue("pg_schema")
        return PostgresStore(url, schema=f"{schema}_{name.replace('.', '_')}", pool_size=4)

    return make


@pytest.fixture
async def open_engine(new_store):
    """``await open_engine(name, turn_seconds)`` -> (matches, clock); all closed at teardown."""
    made: list[Matches] = []

    async def make(name: str = "m.db", turn_seconds: int = 60) -> tuple[Matches, Clock]:
        store = new_store(name)
        await store.open()
        clock = Clock()
        matches = Matches(store, clock, turn_seconds=turn_seconds, run=run_inline)
        made.append(matches)
        return matches, clock

    yield make
    for matches in made:
        await matches.close()
        await matches.store.close()
