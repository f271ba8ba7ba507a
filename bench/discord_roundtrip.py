"""Click-to-edited-message round trip in SimCord: a real Ugah move against a no-op button, same run.

The no-op is a DynamicItem registered on this bot instance that only defers. The bot answers any
component id it does not own with an error reply (``GameBot.on_interaction``); the bench lets the no-op
id through on this instance, so the no-op does no work beyond discord.py's dispatch and one callback.
Clicks rotate (no-op, move, move with the board image swapped for a fixed PNG, ...) so machine noise
hits all alike; the third series shows how much of a move is the render.

SimCord's settle loop polls every 50 ms when only loop callbacks remain, which a lone ``defer`` hits
and a move does not: the no-op would read ~51 ms. As in shared/testing/conftest_example.py
(SIMCORD_FAST_IDLE, private API of the pinned SimCord) the bench lowers that poll to 1 ms.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import random
import re
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import discord
import simcord
import simcord.env

from bench import Row, ms, pct
from bot.client import create_bot
from bot.games import UIS
from tests.bot.helpers import open_and_start, play_one, setup_table

NOOP_ID = "bench:noop"


class NoopButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=re.escape(NOOP_ID)):
    def __init__(self) -> None:
        super().__init__(discord.ui.Button(label="no-op", custom_id=NOOP_ID))

    @classmethod
    async def from_custom_id(cls, interaction: Any, item: Any, match: Any) -> NoopButton:
        return cls()

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()


def _let_noop_through(bot: Any) -> None:
    unknown_id_reply = bot.on_interaction

    async def on_interaction(interaction: discord.Interaction) -> None:
        if (interaction.data or {}).get("custom_id") != NOOP_ID:
            await unknown_id_reply(interaction)

    bot.on_interaction = on_interaction


@contextlib.contextmanager
def _fast_idle(idle: float = 0.001) -> Iterator[None]:
    original = simcord.env.Env._settle_internal
    simcord.env.Env._settle_internal = functools.partialmethod(original, idle=idle)
    try:
        yield
    finally:
        simcord.env.Env._settle_internal = original


async def _timed(coro: Any) -> tuple[float, Any]:
    t0 = time.perf_counter()
    result = await coro
    return time.perf_counter() - t0, result


async def _run(db_path: str, clicks: int) -> tuple[list[float], list[float], list[float], int]:
    bot = create_bot(db_path, rate_limits=False)  # as in tests: SimCord time stands still between clicks
    bot.add_dynamic_items(NoopButton)
    _let_noop_through(bot)
    ui, png = UIS["ugah"], b""

    def keep_png(*args: Any) -> bytes:
        nonlocal png
        png = type(ui).render(ui, *args)
        return png

    moves, noops, prerendered, games = [], [], [], 0
    try:
        async with simcord.run(bot) as env:
            _, channel, players = setup_table(env, 2)
            view = discord.ui.View(timeout=None).add_item(NoopButton())
            sent = await bot.get_partial_messageable(channel.id).send("no-op", view=view)
            noop_msg = next(m for m in channel.history() if m.id == sent.id)
            rng, mid = random.Random(5), None
            while len(moves) < clicks:
                if mid is None or (await bot.matches.get(mid))[0].status != "active":
                    mid, games = await open_and_start(env, channel, players), games + 1
                dt, r = await _timed(players[len(noops) % 2].click(noop_msg, custom_id=NOOP_ID))
                assert r.deferred and not r.ephemeral, r.response and r.response.content
                noops.append(dt)
                for series, render in ((moves, keep_png), (prerendered, lambda *_: png)):
                    if (await bot.matches.get(mid))[0].status == "active":
                        ui.render = render
                        dt, r = await _timed(play_one(env, channel, players, mid, rng))
                        assert r.acknowledged and not r.ephemeral, r.response and r.response.content
                        series.append(dt)
    finally:
        vars(ui).pop("render", None)
        await bot.matches.close()
        await bot.store.close()
    return moves, noops, prerendered, games


def roundtrip(clicks: int) -> list[Row]:
    with tempfile.TemporaryDirectory() as tmp, _fast_idle():
        moves, noops, prerendered, games = asyncio.run(_run(str(Path(tmp) / "bench.db"), clicks))
    move, noop = pct(moves, 0.5), pct(noops, 0.5)
    ratio = move / noop
    return [
        Row(f"click round trip p50: Ugah move (n={len(moves)}, {games} games)", ms(move)),
        Row("click round trip p50: no-op button (defer)", ms(noop)),
        Row("move / no-op p50 ratio", f"{ratio:.2f}x", "≤ 2x", ratio <= 2),
        Row("  p99: move / no-op", f"{ms(pct(moves, 0.99))} / {ms(pct(noops, 0.99))}"),
        Row("  move p50 with a fixed PNG (no render)", ms(pct(prerendered, 0.5))),
    ]
