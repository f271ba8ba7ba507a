"""Shared fixtures: a bot per test on a tmp SQLite file, built for SimCord (no network, no token)."""

from __future__ import annotations

import logging
import os
import random
import zlib

import asyncpg
import pytest
import pytest_asyncio
from hypothesis import settings

from bot import render_pool
from bot.client import create_bot
from harness.sim import SIM_CLOCK_WATCH

# The engine's clock watch, longer than any test: SimCord also fires a bot timer once its delay has
# passed in real time, and a long game under load (CI's) outlasts 30 s; advancing the virtual clock to
# the watch in the middle of a click, with computers moving, could outlast the click's 5 s settle.
TEST_CLOCK_WATCH = 120 * SIM_CLOCK_WATCH

# Boards are drawn in the render threads here, not in drawing processes: two test workers on two
# cores, each with two drawing processes beside it, oversubscribe the machine and push SimCord's
# busiest tests (the 200-game bursts) past its 5 s settle limit. tests/bot/test_render_pool.py
# turns them on, one SimCord game included.
render_pool.PROCESSES = False

# CI must not fail on a case nobody has seen locally: there, hypothesis and match seeds are fixed per
# test (reproducible from the test's name); on a developer's machine they vary run to run and explore.
settings.register_profile("ci", derandomize=True, deadline=None)
if os.environ.get("CI"):
    settings.load_profile("ci")


@pytest.fixture(scope="session")
def postgres_url():
    """A PostgreSQL server for the session: TEST_POSTGRES_URL, or a throwaway one on loopback
    (harness.pgserver). Without PostgreSQL its tests are skipped, except under CI, where they fail."""
    url = os.environ.get("TEST_POSTGRES_URL")
    if url:
        yield url
        return
    from harness import pgserver

    if pgserver.binaries() is None:
        if os.environ.get("CI"):
            pytest.fail("CI must test PostgreSQL: install Debian's postgresql package (.ci/run does)")
        pytest.skip("no PostgreSQL on this machine (install Debian's postgresql package)")
    with pgserver.running() as url:
        yield url


_schemas = iter(range(10**9))


@pytest.fixture
def pg_schema():
    """A fresh schema name: each test's PostgreSQL tables start empty."""
    return f"t{os.getpid()}_{next(_schemas)}"


@pytest.fixture
async def pg_database(postgres_url, pg_schema):
    """A fresh database on the test server (the bot's own URL, as DATABASE_URL would give it)."""
    return await create_database(postgres_url, pg_schema)


async def create_database(url: str, name: str) -> str:
    """Create database ``name`` on the server of ``url``; its URL."""
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()
    return url.rsplit("/", 1)[0] + f"/{name}"


@pytest.fixture
def db_path(tmp_path):
    return str(tmp_path / "games.db")


@pytest.fixture
def bot_factory(db_path):
    """Builds bots on one database file and remembers them so teardown closes their connections."""
    made = []

    def make(**kwargs):
        # games in tests click far faster than people in virtual time; the limiter has its own tests
        kwargs.setdefault("rate_limits", False)
        kwargs.setdefault("clock_watch_seconds", TEST_CLOCK_WATCH)
        # no late-click deferral unless a test asks (tests/bot/test_punctual.py): a click slowed by a
        # loaded machine answers the same way, so results read alike however busy CI is
        kwargs.setdefault("ack_seconds", 60.0)
        bot = create_bot(db_path, **kwargs)
        made.append(bot)
        return bot

    make.made = made
    return make


@pytest_asyncio.fixture
async def simcord_bot(bot_factory, request):
    bot = bot_factory(**getattr(request, "param", {}))
    yield bot
    # SimCord does not call bot.close(); aiosqlite's worker thread would keep pytest alive.
    for b in bot_factory.made:
        await b.matches.close()
        await b.store.close()


class _ErrorLogCollector(logging.Handler):
    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.exc_info:
            self.records.append(record)

    def take(self) -> list[logging.LogRecord]:
        out, self.records = self.records, []
        return out


@pytest.fixture(autouse=True)
def logged_errors():
    """discord.py only *logs* exceptions raised in event handlers (on_interaction routes every
    click), and SimCord's error check does not see them; fail the test on such records (and on our
    own logged exceptions) unless taken."""
    collector = _ErrorLogCollector()
    loggers = [logging.getLogger(n) for n in ("discord", "bot", "engine")]
    for lg in loggers:
        lg.addHandler(collector)
    try:
        yield collector
    finally:
        for lg in loggers:
            lg.removeHandler(collector)
    leftover = collector.take()
    if leftover:
        pytest.fail(
            "unhandled exception(s) logged: "
            + "; ".join(f"{r.getMessage()}: {r.exc_info[1]!r}" for r in leftover),
            pytrace=False,
        )


@pytest.fixture(autouse=True)
def match_seeds(request, monkeypatch):
    """Under CI every new match gets a seed drawn from the test's own name."""
    if os.environ.get("CI"):
        rng = random.Random(zlib.crc32(request.node.nodeid.encode()))
        monkeypatch.setattr("engine.lobby._new_seed", lambda: rng.getrandbits(63))


@pytest.fixture(params=["click first", "bot token first"])
def click_first(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> bool:
    """How a change no click answers reaches a message: first through the latest click's token there
    (issue 35: outside the bot token's budget, so a window on the channel's route is not felt while a
    click is recent), or, as before it, by the bot token and only once that is refused by the click's
    (a game that runs for days, whose clicks are older than Discord's 15 minutes, takes that path)."""
    from bot.surfaces.redraw import Redrawn

    on = request.param == "click first"
    monkeypatch.setattr(Redrawn, "click_first", on)
    return on
