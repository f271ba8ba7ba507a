"""Click-to-edited-message round trip in SimCord: a real Ugah move against a no-op button, same run.

The round trip ends when the clicked message is first edited (SimCord emits MESSAGE_UPDATE): for a
move that is the interaction response carrying the new text and controls; the new board image
follows through the interaction webhook, and the time until everything settled is reported too.
The no-op is a DynamicItem registered on this bot instance that answers by editing its message with
the same content. The bot answers any
component id it does not own with an error reply (``GameBot.on_interaction``); the bench lets the no-op
id through on this instance, so the no-op does no work beyond discord.py's dispatch and one callback.
Clicks rotate (no-op, move, move with the board image swapped for a fixed PNG, ...) so machine noise
hits all alike; the third series shows how much of a move is the render.

SimCord's settle loop polls every 50 ms when only loop callbacks remain, which a lone ``defer`` hits
and a move does not: the no-op would read ~51 ms. As SimCord's example test set-up does
(SIMCORD_FAST_IDLE, private API of the pinned SimCord) the bench lowers that poll to 1 ms.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import random
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any, Self

import discord
import simcord
import simcord.env

from bench import Row, ms, pct
from bot.games import UIS
from harness.sim import bench_bot, next_click, no_recaps, open_and_start, setup_table

NOOP_IDS = {"defer": "bench:noop:defer", "edit": "bench:noop:edit"}


class MadeOnClick:
    """For a bench button with one fixed custom id: discord.py builds it again from each click, with
    no arguments (put first among the bases, before ``discord.ui.DynamicItem``)."""

    @classmethod
    async def from_custom_id(cls, interaction: Any, item: Any, match: Any) -> Self:
        return cls()


class NoopButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"bench:noop:(?P<how>defer|edit)"):
    """``defer``: acknowledge only (the literal no-op). ``edit``: answer by editing the message with its
    own content, the cheapest click that, like a move, edits the message (a stricter baseline)."""

    def __init__(self, how: str) -> None:
        self.how = how
        super().__init__(discord.ui.Button(label=f"no-op {how}", custom_id=NOOP_IDS[how]))

    @classmethod
    async def from_custom_id(cls, interaction: Any, item: Any, match: Any) -> NoopButton:
        return cls(match["how"])

    async def callback(self, interaction: discord.Interaction) -> None:
        if self.how == "defer":
            await interaction.response.defer()
        else:
            content = interaction.message.content if interaction.message else "no-op"
            await interaction.response.edit_message(content=content)


@contextlib.contextmanager
def _fast_idle(idle: float = 0.001) -> Iterator[None]:
    original = simcord.env.Env._settle_internal
    simcord.env.Env._settle_internal = functools.partialmethod(original, idle=idle)
    try:
        yield
    finally:
        simcord.env.Env._settle_internal = original


class _FirstEdit:
    """Timestamps the first MESSAGE_UPDATE the simulated Discord emits after ``start()``, and notes
    whether that edit changed the message's attachment (a move's answer that carries its picture)."""

    def __init__(self, backend: Any) -> None:
        self.at: float | None = None
        self.pictured: list[bool] = []  # per timed click: its first edit brought a new attachment
        self._attachments: dict[Any, list[Any]] = {}
        emit = backend.emit

        def recording_emit(event: str, payload: Any) -> None:
            if event == "MESSAGE_UPDATE":
                shown = [a.get("id") for a in payload.get("attachments") or []]
                before = self._attachments.get(payload.get("id"))
                if self.at is None:
                    self.at = time.perf_counter()
                    self.pictured.append(before is not None and shown != before)
                self._attachments[payload.get("id")] = shown
            emit(event, payload)

        backend.emit = recording_emit

    def start(self) -> None:
        self.at = None


def first_edit_aim(ratio: float, limit: float, pictured: bool) -> tuple[str, bool | None]:
    """A first edit of text alone is held to ``limit`` times a no-op's; one that carries the move's
    picture is the whole answer, judged by the image rows (bench.clicks) instead."""
    return f"≤ {limit:g}x (text alone)", None if pictured else ratio <= limit


async def noop_table(env: Any, bot: Any) -> tuple[Any, list[Any], Any]:
    """Two players at a table, and the message with both no-op buttons posted in its channel."""
    _, channel, players = setup_table(env, 2)
    view = discord.ui.View(timeout=None).add_item(NoopButton("defer")).add_item(NoopButton("edit"))
    sent = await bot.get_partial_messageable(channel.id).send("no-op", view=view)
    return channel, players, next(m for m in channel.history() if m.id == sent.id)


async def live_matches(
    bot: Any, new_game: Callable[[], Awaitable[int]], more: Callable[[], bool]
) -> AsyncIterator[tuple[int, bool]]:
    """The match to click in, round after round while ``more()``: a new game whenever the last one
    is over (then the flag is true), so a bench runs as many clicks as it asks for."""
    mid: int | None = None
    while more():
        new = mid is None or (await bot.matches.get(mid))[0].status != "active"
        if new:
            mid = await new_game()
        assert mid is not None
        yield mid, new


async def _timed(first: _FirstEdit, coro: Any) -> tuple[float, float, Any]:
    """(seconds to the first message edit, seconds until the bot settled, result)."""
    first.start()
    t0 = time.perf_counter()
    result = await coro
    done = time.perf_counter()
    return (first.at or done) - t0, done - t0, result


async def _run(db_path: str, clicks: int) -> tuple[Any, ...]:
    bot = bench_bot(db_path, NoopButton)  # as in tests: SimCord time stands still between clicks
    ui = UIS["ugah"]

    class KeepPng:
        """The real render, keeping its last PNG for the fixed-PNG series. One object with a fixed
        repr: what it draws is keyed by its arguments only, as for the real render (bot.surfaces
        keys an image by its drawing's inputs, closures included)."""

        png = b""

        def __call__(self, *args: Any) -> bytes:
            KeepPng.png = type(ui).render(ui, *args)
            return KeepPng.png

        def __repr__(self) -> str:
            return "KeepPng()"

    keep_png = KeepPng()

    moves, prerendered, settled, ending, games, rng = [], [], [], [], 0, random.Random(5)
    moves_pictured: list[bool] = []
    noops: dict[str, list[float]] = {"defer": [], "edit": []}
    try:
        async with simcord.run(bot) as env:
            first = _FirstEdit(env.backend)
            channel, players, noop_msg = await noop_table(env, bot)
            pictured = first.pictured
            new_game = functools.partial(open_and_start, env, channel, players)
            async for mid, new in live_matches(bot, new_game, lambda: len(moves) < clicks):
                games += new
                for how, series in noops.items():
                    click = players[len(series) % 2].click(noop_msg, custom_id=NOOP_IDS[how])
                    dt, _, r = await _timed(first, click)
                    assert r.acknowledged and not r.ephemeral, r.response and r.response.content
                    series.append(dt)
                for series, render in ((moves, keep_png), (prerendered, lambda *_: KeepPng.png)):
                    if (await bot.matches.get(mid))[0].status == "active":
                        ui.render = render
                        click = await next_click(env, channel, players, mid, rng)
                        dt, total, r = await _timed(first, click())
                        assert r.acknowledged and not r.ephemeral, r.response and r.response.content
                        series.append(dt)
                        if series is moves:
                            moves_pictured.append(pictured[-1])
                        # the click that ends a game is timed apart (the recap follows it)
                        over = (await bot.matches.get(mid))[0].status != "active"
                        if series is moves:
                            (ending if over else settled).append(total)
    finally:
        vars(ui).pop("render", None)
        await bot.matches.close()
        await bot.store.close()
    return moves, noops, prerendered, settled, ending, games, moves_pictured


def roundtrip(clicks: int) -> list[Row]:
    with tempfile.TemporaryDirectory() as tmp, _fast_idle(), no_recaps():
        moves, noops, prerendered, settled, ending, games, pictured = asyncio.run(
            _run(str(Path(tmp) / "bench.db"), clicks)
        )
    move, defer, edit = pct(moves, 0.5), pct(noops["defer"], 0.5), pct(noops["edit"], 0.5)
    aim, ok = first_edit_aim(move / defer, 2, sum(pictured) * 2 > len(pictured))
    return [
        Row(
            f"click round trip p50: Ugah move (n={len(moves)}, {games} games; {sum(pictured)} with the picture)",
            ms(move),
        ),
        Row("click round trip p50: no-op button (defer)", ms(defer)),
        Row("move / no-op p50 ratio", f"{move / defer:.2f}x", aim, ok),
        Row("  p99: move / no-op", f"{ms(pct(moves, 0.99))} / {ms(pct(noops['defer'], 0.99))}"),
        Row("  no-op that edits its message p50 (stricter)", f"{ms(edit)} ({move / edit:.2f}x)"),
        Row("  move p50 until the new image is shown too", ms(pct(settled, 0.5))),
        Row("  move p50 with a fixed PNG (no render)", ms(pct(prerendered, 0.5))),
        *_ending_rows(settled, ending),
    ]


def _ending_rows(settled: list[float], ending: list[float]) -> list[Row]:
    """The click that ends a game, until the bot settled, against a normal move in the same run: the
    recap is built later, off that click's path."""
    if not ending:
        return [Row("game-ending click until settled", "no game ended: raise the click count")]
    ratio = pct(ending, 0.5) / pct(settled, 0.5)
    return [
        Row(f"game-ending click until settled p50 (n={len(ending)})", ms(pct(ending, 0.5))),
        Row("game-ending click / normal move, until settled, p50", f"{ratio:.2f}x", "≤ 2x", ratio <= 2),
    ]
