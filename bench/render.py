"""Board image: render + PNG encode time and size, and whether rendering stalls the event loop."""

from __future__ import annotations

import asyncio
import functools
import random
import time
from collections.abc import Awaitable, Callable

from bench import NAMES, Row, midgame_states, ms, names_for, pct
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


# ---- every game: a match's first board against a move's board ---------------------------------------


def _boards(game: str, moves: int, seed: int) -> list[tuple[dict, list[str]]]:
    """Public views of consecutive positions of seeded random games of ``game`` (what a channel sees
    move after move), with player names."""
    from bot.games import SPECS

    spec, rng, out = SPECS[game], random.Random(seed), []
    rules, players = spec.engine.rules, spec.bench.players
    while len(out) < moves:
        s = rules.setup(players, rng.getrandbits(32), {})
        while len(out) < moves and (movers := rules.to_move(s)):
            seat = min(movers)
            s, _ = rules.apply(s, seat, rng.choice(rules.legal_actions(s, seat)))
            out.append((rules.view(s, None), NAMES[:players]))
    return out


def per_game(moves: int) -> list[Row]:
    """Render + encode of each game's board: a match's first board (every band of the PNG deflated)
    and a move's (the bands the move left alone are reused: render.png), p50 and largest PNG."""
    from bot.games import SPECS

    rows = []
    for game, spec in SPECS.items():
        ui, boards = spec.ui, _boards(game, moves, seed=7)
        ui.render(*boards[0], None)  # the cached assets, once per process
        cold, warm, sizes = [], [], []
        for fresh, series in ((True, cold), (False, warm)):
            png.forget()
            for view, names in boards:
                if fresh:
                    png.forget()
                t0 = time.perf_counter()
                sizes.append(len(ui.render(view, names, None)))
                series.append(time.perf_counter() - t0)
        rows.append(
            Row(
                f"{game}: render+encode p50, first board / a move ({moves} moves); largest PNG",
                f"{ms(pct(cold, 0.5))} / {ms(pct(warm, 0.5))}; {max(sizes) / KIB:.1f} KiB",
                "≤ 25 KiB",
                max(sizes) <= 25 * KIB,
            )
        )
    return rows
