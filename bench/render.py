"""Board image: render + PNG encode time and size, and whether rendering stalls the event loop."""

from __future__ import annotations

import asyncio
import functools
import time
from collections.abc import Awaitable, Callable

from bench import Row, midgame_states, ms, names_for, pct
from bot.render_pool import off_loop
from engine.games.ugah import RULES
from render import png
from render.ugah import render_ugah

KIB = 1024
TICK = 0.005


def public_views(count: int) -> list[dict]:
    return [RULES.view(s, None) for s in midgame_states(count, seed=3)]  # what the channel shows


def render_time(views: list[dict], rounds: int) -> list[Row]:
    t0 = time.perf_counter()
    render_ugah(views[0], names_for(views[0]))  # builds the cached assets once per process
    cold = time.perf_counter() - t0
    times, sizes = [], []
    for _ in range(rounds):
        for view in views:
            png.forget()  # unrelated states: every band deflated, as on a match's first board
            t0 = time.perf_counter()
            image = render_ugah(view, names_for(view))
            times.append(time.perf_counter() - t0)
            sizes.append(len(image))
    p50, p99, big = pct(times, 0.5), pct(times, 0.99), max(sizes)
    return [
        Row(f"render+encode p50 ({len(views)} states x {rounds})", ms(p50), "≤ 12 ms", p50 <= 0.012),
        Row("render+encode p99", ms(p99), "≤ 30 ms", p99 <= 0.030),
        Row(
            "render PNG size max / p50",
            f"{big / KIB:.1f} / {pct(sizes, 0.5) / KIB:.1f} KiB",
            "≤ 25 KiB",
            big <= 25 * KIB,
        ),
        Row("first render (builds cached assets)", ms(cold)),
    ]


async def _ticker_delays(load: Callable[[], Awaitable[None]] | None) -> list[float]:
    """Added delay of a periodic sleep(TICK) (actual - expected) while ``load`` runs (or idle for 1 s)."""
    delays: list[float] = []
    done = asyncio.Event()

    async def tick() -> None:
        while not done.is_set():
            t0 = time.perf_counter()
            await asyncio.sleep(TICK)
            delays.append(time.perf_counter() - t0 - TICK)

    ticker = asyncio.create_task(tick())
    if load is None:
        await asyncio.sleep(1.0)
    else:
        await load()
    done.set()
    await ticker
    return delays


def loop_stall(views: list[dict], rounds: int) -> list[Row]:
    async def in_thread() -> None:  # what the delivery does: the low-priority render pool
        for _ in range(rounds):
            for view in views:
                await off_loop(functools.partial(render_ugah, view, names_for(view)))

    async def on_loop() -> None:  # the contrast: render straight in the handler
        for _ in range(rounds):
            for view in views:
                render_ugah(view, names_for(view))
                await asyncio.sleep(0)

    idle, threaded, blocking = (asyncio.run(_ticker_delays(load)) for load in (None, in_thread, on_loop))
    p99 = pct(threaded, 0.99)
    return [
        Row("loop delay p99 while rendering in the render pool", ms(p99), "≤ 5 ms", p99 <= 0.005),
        Row(
            "  same, rendering on the loop / idle loop", f"{ms(pct(blocking, 0.99))} / {ms(pct(idle, 0.99))}"
        ),
    ]
