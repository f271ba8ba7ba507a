"""The bot as Discord shards in several processes on one PostgreSQL database (issue 14).

Discord sends a guild's events to shard ``(guild_id >> 22) % shard_count`` and every direct-message
interaction to shard 0. Here the simulated Discord hosts two processes' worth of shards in turn: the
process running shard 1 starts an Ubongo race in a guild of shard 1; then the process running shard 0
receives the players' DM clicks (their workspaces) and plays them through the shared database, while
the shard-1 process (still running) follows its commits and keeps the match's timers."""

from __future__ import annotations

import asyncio
import contextlib

import pytest
import simcord

from bot.client import create_bot, owner
from harness.sim import SIM_CLOCK_WATCH
from tests.bot.helpers import board, button_id
from tests.bot.test_ubongo_bot import place_next
from tests.replayed import replayed

SHARDS = 2


@pytest.fixture
async def shard_process(pg_database):
    """``shard_process(ids)`` -> a bot running those shards of SHARDS, on the shared database."""
    made = []

    def make(ids: tuple[int, ...]):
        bot = create_bot(
            pg_database,
            rate_limits=False,
            shard_count=SHARDS,
            shard_ids=ids,
            clock_watch_seconds=SIM_CLOCK_WATCH,
        )
        made.append(bot)
        return bot

    yield make
    for bot in made:
        await bot.matches.close()
        await bot.store.close()


def test_a_guild_belongs_to_the_shard_discord_sends_its_events_to():
    guild_of_shard = {s: (1 << 22) * (10 + s) + 5 for s in range(4)}  # ((id >> 22) % 4) == s
    mine = owner(4, (1, 3))
    assert [mine(guild_of_shard[s]) for s in range(4)] == [False, True, False, True]
    assert owner(4, None)(guild_of_shard[2]) and owner(None, None)(123), "no SHARD_IDS: every guild"
    assert owner(2, (0,))(None), "a match without a guild belongs to shard 0"


async def until(env, check, what: str) -> None:
    """Wait (in real time: PostgreSQL's notifications cross a real socket) until ``check()``."""
    for _ in range(300):
        if await check():
            return
        await env.external_wait(asyncio.sleep(0.01), reason=what)
    raise AssertionError(f"never happened: {what}")


async def test_dm_clicks_reach_shard_0_and_play_a_match_of_a_guild_on_another_shard(shard_process):
    shard1 = shard_process((1,))
    async with simcord.run(shard1) as env:
        guild = env.create_guild(shard_id=1)
        channel = guild.create_text_channel("games")
        players = [guild.add_member(env.create_user(n)) for n in ("alice", "bob")]
        r = await players[0].slash(channel, "ubongo start", side="A")
        assert not r.ephemeral, r.response and r.response.content
        await players[1].click(board(channel), custom_id=button_id(board(channel), "join", "l"))
        await players[0].click(board(channel), custom_id=button_id(board(channel), "start", "l"))
        mid = (await shard1.matches.live_in_channel(channel.id)).id
        assert shard1.matches.clock.armed(mid), "the round limit runs in the guild's own process"
        before_board = board(channel).id

        # the process running shard 0 takes the gateway's DM traffic (in the simulation, one
        # process's connection at a time; the shard-1 process's engine keeps running meanwhile)
        shard0 = shard_process((0,))
        # a process detached from the simulation would read the machine's clock; both processes
        # share one clock in reality, so it keeps reading the simulated one
        shard1.matches.now = lambda: env.now().timestamp()
        await env.restart_bot(shard0)
        assert not shard0.matches.clock.armed(mid), "shard 0 runs no timers of shard 1's guilds"

        # a DM click: Discord delivers it to shard 0, whatever server the match is in
        version = (await shard0.matches.get(mid))[0].version
        clicks = await place_next(env, players[0], mid, 0)
        assert clicks >= 1
        m, state = await shard0.matches.get(mid)
        assert m.version > version and state.placed[0], "shard 0 applied the placement"
        assert board(channel).id == before_board, "the public board was edited in place"

        # shard 1's process heard the commit: its copy is current and it still holds the timers
        async def followed() -> bool:
            cached = shard1.matches._cache.get(mid)
            return cached is None or cached[0].version == m.version

        await until(env, followed, "shard 1 hears shard 0's commit")
        m1, state1 = await shard1.matches.get(mid)
        assert (m1.version, state1) == (m.version, state)
        assert shard1.matches.clock.armed(mid) and not shard0.matches.clock.armed(mid)

        # a solve starts the countdown (R23): a new timer, which only the owner arms
        while state.phase == "solving":
            await place_next(env, players[0], mid, 0)
            m, state = await shard0.matches.get(mid)
        assert state.phase == "countdown"

        async def countdown_armed() -> bool:
            row, _ = await shard1.matches.get(mid)
            return row.version == m.version and any(k.startswith("countdown") for k in row.timers)

        await until(env, countdown_armed, "shard 1 re-arms the countdown")
        assert shard1.matches.clock.armed(mid) and not shard0.matches.clock.armed(mid)
        assert await replayed(shard1.matches, mid) == state
        with contextlib.suppress(Exception):
            await shard1.matches.close()  # the detached process stops before the simulation does


async def test_start_up_recovers_only_the_processs_own_guilds(shard_process):
    shard1 = shard_process((1,))
    async with simcord.run(shard1) as env:
        guild = env.create_guild(shard_id=1)
        channel = guild.create_text_channel("games")
        alice = guild.add_member(env.create_user("alice"))
        await alice.slash(channel, "ugah start")
        mid = (await shard1.matches.live_in_channel(channel.id)).id
        assert shard1.matches.clock.armed(mid)  # the lobby's expiry
        shard0 = shard_process((0,))
        await env.restart_bot(shard0)
        assert await shard0.matches.recover() == 0 and not shard0.matches.clock.armed(mid)
        again = shard_process((1,))
        await shard1.matches.close()
        await env.restart_bot(again)
        assert again.matches.clock.armed(mid), "a restarted shard-1 process re-arms its guild's timers"
