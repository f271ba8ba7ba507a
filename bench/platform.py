"""The platform's figures: four seats clicking at once through their DMs (against four simultaneous
no-op clicks in the same run), and the event loop's delay while a 3 s computer search runs in the
process pool (against the same search in a thread, which shares the GIL).

The simultaneous game is Tally (toy/), the test-only game, registered here for the run."""

from __future__ import annotations

import asyncio
import contextlib
import random
import tempfile
import time
from pathlib import Path
from typing import Any

import discord
import simcord

from bench import Row, ms, pct
from bench.discord_roundtrip import NOOP_IDS, NoopButton, _fast_idle, first_edit_aim
from engine import compute
from engine.registry import rules_for
from harness.sim import (
    bench_bot,
    board,
    button_id,
    concurrent_dm_clicks,
    custom_ids,
    no_recaps,
    setup_table,
)


class _Registry:
    """The monkeypatch-like object toy.ui.register expects, without undo (a bench process ends)."""

    @staticmethod
    def setitem(d: dict[str, Any], key: str, value: Any) -> None:
        d[key] = value


async def _four_seats(rounds: int) -> list[Row]:
    from toy.ui import register

    register(_Registry())
    with tempfile.TemporaryDirectory() as tmp, _fast_idle():
        bot = bench_bot(str(Path(tmp) / "bench.db"), NoopButton)
        async with simcord.run(bot) as env:
            _, channel, players = setup_table(env, 4)
            await players[0].slash(channel, "toy start", target=40)
            for p in players[1:]:
                await p.click(board(channel), custom_id=button_id(board(channel), "join", "l"))
            await players[0].click(board(channel), custom_id=button_id(board(channel), "start", "l"))
            noops = [p.user.dm_channel for p in players]
            for d in noops:
                await bot.get_partial_messageable(d.id, type=discord.ChannelType.private).send(
                    "no-op", view=discord.ui.View().add_item(NoopButton("edit"))
                )
            moves, baseline, refused = [], [], 0
            for _ in range(rounds):
                clicks = []
                for p in players:
                    dm = list(p.user.dm_channel.history())
                    surface = next(m for m in reversed(dm) if custom_ids(m, "p:"))
                    clicks.append((p.user, surface, button_id(surface, "add.1", "p")))
                t0 = time.perf_counter()
                results = await concurrent_dm_clicks(env, clicks)
                moves.append(time.perf_counter() - t0)
                refused += sum(1 for r in results if r.ephemeral)
                idle = [(p.user, _noop_message(p), NOOP_IDS["edit"]) for p in players]
                t0 = time.perf_counter()
                await concurrent_dm_clicks(env, idle)
                baseline.append(time.perf_counter() - t0)
            await bot.matches.close()
            await bot.store.close()
    ratio = pct(moves, 0.5) / pct(baseline, 0.5)
    return [
        Row(
            "4 seats at once via DMs: moves applied / refused",
            f"{4 * rounds - refused} / {refused}",
            "0 refused",
            refused == 0,
        ),
        Row("4 simultaneous DM moves, p50 / p99 (batch)", f"{ms(pct(moves, 0.5))} / {ms(pct(moves, 0.99))}"),
        Row("4 simultaneous DM no-op clicks, p50 (batch)", ms(pct(baseline, 0.5))),
        Row("DM move batch vs no-op batch, p50", f"{ratio:.2f}x", "≤ 3x", ratio <= 3),
    ]


def _noop_message(player: Any) -> Any:
    return next(m for m in player.user.dm_channel.history() if m.content == "no-op")


def burn(seconds: float) -> int:
    """A computer search stand-in: pure-Python CPU work that holds the GIL for ``seconds``."""
    end, n = time.perf_counter() + seconds, 0
    while time.perf_counter() < end:
        n += sum(i * i for i in range(200))
    return n


async def _lag_while(work: Any, seconds: float) -> list[float]:
    """Event-loop delays sampled every 1 ms while ``work`` runs."""
    delays: list[float] = []
    task = asyncio.ensure_future(work)
    while not task.done():
        t0 = time.perf_counter()
        await asyncio.sleep(0.001)
        delays.append(time.perf_counter() - t0 - 0.001)
    await task
    return delays


async def _loop_delay(seconds: float) -> list[Row]:
    await compute.run(burn, 0.01)  # start the worker process first: a one-off cost, not the figure
    pool = await _lag_while(compute.run(burn, seconds), seconds)
    thread = await _lag_while(asyncio.to_thread(burn, seconds), seconds)
    compute.shutdown()
    return [
        Row(
            f"loop delay p99 during a {seconds:.0f} s search, process pool",
            ms(pct(pool, 0.99)),
            "≤ 5 ms",
            pct(pool, 0.99) <= 0.005,
        ),
        Row(f"loop delay p99, {seconds:.0f} s search in a thread (comparison)", ms(pct(thread, 0.99))),
    ]


def four_seats(rounds: int) -> list[Row]:
    return asyncio.run(_four_seats(rounds))


def loop_delay(seconds: float) -> list[Row]:
    with contextlib.suppress(KeyboardInterrupt):
        return asyncio.run(_loop_delay(seconds))
    return []


async def _grid_roundtrip(game: str, clicks: int) -> tuple[list[float], list[float], list[float], list[bool]]:
    """Two people playing a public-grid game (Uonga): the player to move selects a piece or a square
    (display only) and then clicks one of the green targets (the move)."""
    from bench.discord_roundtrip import _FirstEdit, _timed

    with tempfile.TemporaryDirectory() as tmp, _fast_idle(), no_recaps():
        bot = bench_bot(str(Path(tmp) / "bench.db"), NoopButton)
        moves, displays, noops = [], [], []
        pictured: list[bool] = []  # each move's first edit brought its picture
        async with simcord.run(bot) as env:
            first = _FirstEdit(env.backend)
            _, channel, players = setup_table(env, 2)
            view = discord.ui.View(timeout=None).add_item(NoopButton("defer"))
            sent = await bot.get_partial_messageable(channel.id).send("no-op", view=view)
            noop_msg = next(m for m in channel.history() if m.id == sent.id)
            rng, mid = random.Random(3), None
            while len(moves) < clicks:
                m = (await bot.matches.get(mid))[0] if mid is not None else None
                if m is None or m.status != "active":
                    await players[0].slash(channel, f"{game} start")
                    await players[1].click(board(channel), custom_id=button_id(board(channel), "join", "l"))
                    await players[0].click(board(channel), custom_id=button_id(board(channel), "start", "l"))
                    mid = (await bot.matches.live_in_channel(channel.id)).id
                    continue
                _, state = await bot.matches.get(mid)
                seat = min(rules_for(game).to_move(state))
                actor = next(p for p in players if p.id == m.seats[seat].user_id)
                msg = board(channel)
                targets = custom_ids(msg, "g:")
                if targets:
                    dt, _, _ = await _timed(first, actor.click(msg, custom_id=rng.choice(targets)))
                    moves.append(dt)
                    pictured.append(first.pictured[-1])
                    dt, _, _ = await _timed(
                        first, players[len(noops) % 2].click(noop_msg, custom_id=NOOP_IDS["defer"])
                    )
                    noops.append(dt)
                    continue
                picks = [c for c in custom_ids(msg, "v:") if c.split(":", 3)[3].startswith(("sel.", "pl."))]
                dt, _, _ = await _timed(first, actor.click(msg, custom_id=rng.choice(picks)))
                displays.append(dt)
            await bot.matches.close()
            await bot.store.close()
    return moves, displays, noops, pictured


def grid_roundtrip(game: str, clicks: int) -> list[Row]:
    moves, displays, noops, pictured = asyncio.run(_grid_roundtrip(game, clicks))
    ratio = pct(moves, 0.5) / pct(noops, 0.5)
    aim, ok = first_edit_aim(ratio, 2, sum(pictured) * 2 > len(pictured))
    return [
        Row(
            f"{game} click round trip p50 / p99: move (n={len(moves)}; {sum(pictured)} with the picture)",
            f"{ms(pct(moves, 0.5))} / {ms(pct(moves, 0.99))}",
        ),
        Row(f"{game} display-only click (select a piece) p50", ms(pct(displays, 0.5))),
        Row(f"{game} move / no-op p50 ratio", f"{ratio:.2f}x", aim, ok),
    ]
