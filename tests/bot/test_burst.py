"""A burst (issue 22, point 2): one server, 200 games, one click in each at the same instant, on
SQLite and on PostgreSQL. Every click is answered within Discord's 3 s, none with "busy" (nobody else
holds the database), and every move is kept exactly once.

The clicks are emitted together, as Discord delivers interactions that arrive while handlers still
await I/O (harness.sim.concurrent_clicks); when each got its answer is read from the simulated
Discord's interaction records (real time: the bot's work is what is measured)."""

from __future__ import annotations

import random
import time

import pytest
import simcord

from bot import render_pool
from bot.client import create_bot
from bot.i18n import translator
from bot.punctual import ACK_SECONDS
from harness.sim import SIM_CLOCK_WATCH, not_pings
from tests.bot.concurrent import concurrent_clicks
from tests.bot.helpers import board, button_id, custom_ids, stamp_answers
from tests.conftest import create_database
from tests.replayed import replayed

GAMES = int(__import__("os").environ.get("BURST_GAMES", 200))
TR = translator("en")

# the engine's clock watch, longer than the whole test: SimCord also fires a bot timer once its delay
# has passed in real time, and the 600 set-up clicks take about 32 s, so a 30 s watch fired in the
# middle of them, where advancing SimCord's clock to it at times outlasted a click's 5 s settle
BURST_WATCH = 10 * SIM_CLOCK_WATCH


def player_moves(log):
    return [a for a in log if a.source == "player"]


@pytest.fixture(params=["sqlite", "postgres", "sqlite, drawing processes"])
async def database(request, tmp_path, monkeypatch):
    if request.param.startswith("sqlite"):
        if "processes" in request.param:  # as in production: the boards drawn beside the bot, which
            monkeypatch.setattr(render_pool, "PROCESSES", True)  # shares the 2 cores with them
        return str(tmp_path / "burst.db")
    url, schema = request.getfixturevalue("postgres_url"), request.getfixturevalue("pg_schema")
    return await create_database(url, schema)


async def start_games(env, n: int) -> list[tuple]:
    """n channels of one server, each with a started two-player Ugah game: (channel, players, id)."""
    guild = env.create_guild()
    out = []
    for i in range(n):
        channel = guild.create_text_channel(f"games{i}")
        players = [guild.add_member(env.create_user(f"p{i}{name}")) for name in ("a", "b")]
        host = players[0]
        await host.slash(channel, "ugah start")
        await players[1].click(board(channel), custom_id=button_id(board(channel), "join", "l"))
        await host.click(board(channel), custom_id=button_id(board(channel), "start", "l"))
        mid = int(button_id(board(channel), "hand", "h").split(":")[1])
        out.append((channel, players, mid))
    return out


async def test_a_burst_of_clicks_in_200_games_is_answered_in_time_and_never_busy(database):
    # turns that never run out here: SimCord fires a bot timer once its delay has passed in real time
    # too, and setting up 200 games can outlast the 120 s default, every game's timer due at once
    bot = create_bot(
        database,
        rate_limits=False,
        clock_watch_seconds=BURST_WATCH,
        turn_seconds=86400,
        ack_seconds=ACK_SECONDS,
    )
    try:
        async with simcord.run(bot) as env:
            # the bot settles the burst's other surfaces (200 boards redrawn) in more than SimCord's
            # 5 s, and on a loaded machine a set-up click can take that long too; below the clock
            # watch, as SimCord waits in real time for timers within this limit
            env.settle_timeout = 28
            assert env.settle_timeout < SIM_CLOCK_WATCH < BURST_WATCH
            t = time.perf_counter()
            games = await start_games(env, GAMES)
            print(f"setup {time.perf_counter() - t:.1f}s")
            rng = random.Random(22)
            clicks, before = [], {}
            for channel, players, mid in games:
                m, state = await bot.matches.get(mid)
                actor = next(p for p in players if p.id == m.seats[state.current].user_id)
                clicks.append((actor, board(channel), rng.choice(custom_ids(board(channel), "g:"))))
                before[mid] = len(player_moves(await bot.store.actions(mid)))
            records = stamp_answers(env)
            started = time.perf_counter()
            results = await concurrent_clicks(env, clicks, answers_first=True)
            answered = [r.answered_at for r in records]
            print(
                f"settled {time.perf_counter() - started:.2f}s; answers",
                sorted(a - started for a in answered if a)[::20],
            )
            assert all(at is not None for at in answered), "every click is answered"
            slowest = max(answered) - started
            busy = [r for r in results if r.ephemeral and r.response.content == TR("error.db_busy")]
            refused = [r.response.content for r in results if r.ephemeral]
            refused += [f.content for r in results for f in not_pings(r.followups)]  # (after a deferral)
            print(f"{sum(r.deferred for r in results)} of {GAMES} acknowledged by a deferral first")
            assert not busy, f"{len(busy)} of {GAMES} answered busy"
            assert not refused, refused[:3]
            assert slowest < 3.0, f"the slowest answer took {slowest:.2f} s (Discord allows 3 s)"
            for _, _, mid in games:  # each move kept exactly once
                assert len(player_moves(await bot.store.actions(mid))) == before[mid] + 1
                assert await replayed(bot.matches, mid) == (await bot.matches.get(mid))[1]
    finally:
        await bot.matches.close()
        await bot.store.close()
