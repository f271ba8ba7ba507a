"""The game database failing the bot (issue 34, items 1 and 2), on a PostgreSQL server of the test's
own that it stops or whose sessions it ends: every command and every click is played, or gets the
same clear, private answer ("the game database did not answer in time ... nothing was changed"),
never "Something went wrong", and nothing changes meanwhile.

(A start command reads the server's thread setting before its lobby opens: that read's StoreBusy
escaped raw and was answered as a bug. The store's errors now become the engine's in one place,
bot.errors.engine_error, for clicks and commands alike.)"""

from __future__ import annotations

import random

import asyncpg
import pytest

from bot.games import UIS
from bot.i18n import translator
from engine.errors import DatabaseBusy
from engine.store import StoreBusy
from harness import pgserver
from tests.bot.helpers import board, custom_ids, open_and_start, play_one, public_messages, setup_table
from tests.conftest import create_database
from tests.engine.test_pg_faults import END_IDLE
from tests.replayed import replayed

TR = translator("en")
# SimCord records every error the commands' handler is given, handled or not; those are read below
pytestmark = pytest.mark.simcord(check_errors=False)


@pytest.fixture(scope="module")
def server():
    if pgserver.binaries() is None:
        pytest.skip("no PostgreSQL on this machine (install Debian's postgresql package)")
    with pgserver.controlled() as s:
        yield s


@pytest.fixture
async def db_path(server, pg_schema):
    """The bot's database (conftest's bot_factory opens it): one of its own on the server here."""
    return await create_database(server.url, pg_schema)


def start_commands() -> list[str]:
    """Every game's start command, and its quick starts (``/ubongo solo``)."""
    return [f"{g} {c}" for g, ui in UIS.items() for c in ("start", *(q.name for q in ui.quick_starts))]


async def test_every_command_and_click_while_the_database_is_down_is_answered_busy(
    simcord_env, server, monkeypatch
):
    # each call gives up sooner than Discord's 3 s need it to: what is answered is the point here (how
    # fast, tests/engine/test_pg_faults.py's)
    monkeypatch.setattr("engine.store.postgres.CALL_SECONDS", 0.5)
    env = simcord_env
    guild, channel, players = setup_table(env, 2)
    mid = await open_and_start(env, channel, players)
    m, state = await env.bot.matches.get(mid)
    shown = board(channel)
    empty = guild.create_text_channel("quiet")
    server.stop("fast")
    try:
        answers = {}
        for command in start_commands():
            answers[f"/{command}"] = await players[0].slash(empty, command)
        answers["/game board"] = await players[0].slash(channel, "game board")
        answers["/stats"] = await players[1].slash(channel, "stats")
        answers["/leaderboard"] = await players[1].slash(channel, "leaderboard", game="ugah")
        actor = next(p for p in players if p.id == m.seats[state.current].user_id)
        answers["a move"] = await actor.click(
            shown, custom_id=random.Random(2).choice(custom_ids(shown, "g:"))
        )
    finally:
        server.start()
    for what, r in answers.items():
        assert r.ephemeral and r.response.content == TR("error.db_busy"), (what, r.response.content)
    assert all(isinstance(getattr(e, "original", e), StoreBusy | DatabaseBusy) for e in env.errors), (
        env.errors
    )
    # nothing changed: no lobby in the quiet channel, the game and its board as they were
    assert public_messages(empty) == []
    assert await env.bot.matches.live_in_channel(empty.id) is None
    assert (await env.bot.store.get(mid)).version == m.version
    assert board(channel).id == shown.id


async def test_moves_clicked_as_the_server_ends_its_idle_sessions_play_or_are_busy(simcord_env, server):
    """Item 1 through the bot: the server ends the pooled connections while they sit idle, and a
    move is clicked at once, 10 times; 4-5 of 10 answered "Something went wrong" before."""
    env = simcord_env
    _, channel, players = setup_table(env, 2)
    mid = await open_and_start(env, channel, players)
    rng, played = random.Random(34), 0
    admin = await asyncpg.connect(server.url)
    try:
        for _ in range(10):
            await admin.fetchval(END_IDLE)
            r = await play_one(env, channel, players, mid, rng)
            assert r.acknowledged
            if r.ephemeral:
                assert r.response.content == TR("error.db_busy"), r.response.content
            played += not r.ephemeral
    finally:
        await admin.close()
    assert played, "a fresh connection serves the click"
    assert await replayed(env.bot.matches, mid) == (await env.bot.matches.get(mid))[1]
    assert env.errors == []
