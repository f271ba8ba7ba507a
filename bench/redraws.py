"""Pictures sent again unchanged (issue 35, item 3): ``python -m bench.redraws [--quick]``.

Every game is played through SimCord with its surfaces settled after each click, and two things are
counted, both deterministic for a seed:

- **uploads**: every image an edit of a message uploads (whichever route: the channel, a click's
  answer, a token), and of them the **repeats**, whose bytes the message showed already
  (harness.uploads): a request, an upload and a phone's download that change nothing. Aim: 0.
- **drawings**: every picture drawn (``render_pool.draw``), and of them those whose bytes were drawn
  before (a picture drawn again under other inputs: an image key wider than what it draws; a lift
  back to an earlier position is one too, so this is for information).

Ugah, Uonga and Honga: two people play seeded games, as ``bench.clicks`` moves (the display-only
clicks that lead to a move counted too). Ubongo: four seats race through whole games, each solving
its task in its DM (choosing a piece, paging to its place, placing it), the seat to click chosen at
random; the clicks that solve a task (or end the round) are counted apart.
"""

from __future__ import annotations

import asyncio
import random
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import simcord

from bench import Row
from bench.clicks import MOVERS, Table, _on_the_board, _start
from bench.discord_roundtrip import _fast_idle
from bot import render_pool
from bot.games import SPECS
from engine.games.ubongo import RULES as UBONGO
from engine.games.ubongo_ai import next_placement
from harness.sim import bench_bot, board, button_id, components, custom_ids, no_recaps, setup_table
from harness.text_table import text_table
from harness.uploads import Uploads, watch_uploads

PAGE = 25  # places a select offers


@dataclass
class Counts:
    clicks: int = 0
    uploads: int = 0
    repeats: int = 0
    drawn: int = 0
    drawn_again: int = 0

    def add(self, uploads: Uploads, drawn: list[bytes], seen: set[bytes], clicks: int = 1) -> None:
        """A click's uploads and drawings (``seen``: the bytes drawn before it; grows)."""
        self.clicks += clicks
        self.uploads += uploads.count
        self.repeats += len(uploads.repeats)
        self.drawn += len(drawn)
        for png in drawn:
            self.drawn_again += png in seen
            seen.add(png)


async def _settled(env: Any, mid: int, click: Callable[[], Any]) -> None:
    """Run ``click`` and settle every surface of the match."""
    await click()
    await env.bot.surfaces.settle(mid)


async def two_player(game: str, clicks: int, seed: int = 35) -> Counts:
    """Seeded games of ``game`` (two people, moving as bench.clicks does) for ``clicks`` clicks."""
    out, seen = Counts(), set[bytes]()
    with (
        tempfile.TemporaryDirectory() as tmp,
        _fast_idle(),
        no_recaps(),
        render_pool.drawn_pictures() as drawn,
    ):
        bot = bench_bot(str(Path(tmp) / "bench.db"))
        try:
            async with simcord.run(bot) as env:
                guild, channel, players = setup_table(env, 2)
                spectator = guild.add_member(env.create_user("spectator"))
                t = Table(env, channel, players, spectator, game, random.Random(seed))
                with watch_uploads(env) as uploads:
                    while out.clicks < clicks:
                        if t.match_id is None or (await bot.matches.get(t.match_id))[0].status != "active":
                            await _start(t)
                        uploads.reset()
                        drawn.clear()
                        click = await MOVERS.get(game, _on_the_board)(t)  # (its display clicks too)
                        await _settled(env, t.match_id, click.run)
                        out.add(uploads, drawn, seen)
        finally:
            await bot.matches.close()
            await bot.store.close()
    return out


# ---- Ubongo: four seats solving in their DMs -------------------------------------------------------


def _workspace(player: Any) -> Any:
    return next(m for m in reversed(list(player.user.dm_channel.history())) if custom_ids(m, "y:"))


def _select(msg: Any, kind: str) -> Any:
    return next(c for c in components(msg) if getattr(c, "custom_id", "").startswith(kind + ":"))


def _offered(msg: Any) -> list[str]:
    select = next((c for c in components(msg) if getattr(c, "custom_id", "").startswith("q:")), None)
    return [o.value for o in select.options] if select is not None else []


async def _solving_click(player: Any, state: Any, seat: int) -> Callable[[], Any]:
    """The next click of a player who knows a solution (the computer's own next placement): the
    piece chosen and its page of places shown first (display only, counted with it)."""
    code = next_placement(state, seat, "hard")
    if code == "clear":
        msg = _workspace(player)
        return lambda: player.user.click(msg, custom_id=button_id(msg, "clear", "p"))
    piece = code.split(".")[1]
    await player.user.select(
        _workspace(player), [f"pc.{piece}"], custom_id=_select(_workspace(player), "y").custom_id
    )
    msg = _workspace(player)
    while code not in _offered(msg):
        pages = [c for c in custom_ids(msg, "w:") if c.split(":", 3)[3].startswith(f"pc.{piece}.")]
        target = [c for c in pages if int(c.rsplit(".", 1)[1]) % PAGE == 0]
        assert target, f"{code} is not offered: {custom_ids(msg)}"
        await player.user.click(msg, custom_id=target[-1])
        msg = _workspace(player)
    return lambda: player.user.select(msg, [code], custom_id=_select(msg, "q").custom_id)


async def ubongo(
    games: int, seed: int = 35, seats: int = 4, rounds: int | None = None
) -> tuple[Counts, Counts]:
    """``games`` four-seat races, whole or their first ``rounds``: (every click, the clicks that
    solved a task)."""
    every, solves, seen = Counts(), Counts(), set[bytes]()
    rng = random.Random(seed)
    with (
        tempfile.TemporaryDirectory() as tmp,
        _fast_idle(),
        no_recaps(),
        render_pool.drawn_pictures() as drawn,
    ):
        bot = bench_bot(str(Path(tmp) / "bench.db"))
        try:
            async with simcord.run(bot) as env:
                _, channel, players = setup_table(env, seats)
                with watch_uploads(env) as uploads:
                    for _ in range(games):
                        mid = await _start_race(env, channel, players)
                        while True:
                            m, state = await bot.matches.get(mid)
                            if m.status != "active" or (rounds is not None and state.round > rounds):
                                break
                            movers = [s for s in sorted(UBONGO.to_move(state)) if not m.seats[s].ai]
                            seat = rng.choice(movers)
                            player = next(p for p in players if p.id == m.seats[seat].user_id)
                            uploads.reset()
                            drawn.clear()
                            click = await _solving_click(player, state, seat)  # (display clicks)
                            every.add(uploads, drawn, seen, clicks=0)
                            uploads.reset()
                            drawn.clear()
                            await _settled(env, mid, click)
                            _, after = await bot.matches.get(mid)
                            if len(after.solved) > len(state.solved) or after.round != state.round:
                                solves.add(uploads, drawn, set(seen))
                            every.add(uploads, drawn, seen)
        finally:
            await bot.matches.close()
            await bot.store.close()
    return every, solves


async def _start_race(env: Any, channel: Any, players: list[Any]) -> int:
    await players[0].slash(channel, "ubongo start", side="A", countdown=120, round_limit=1800)
    for p in players[1:]:
        await p.click(board(channel), custom_id=button_id(board(channel), "join", "l"))
    await players[0].click(board(channel), custom_id=button_id(board(channel), "start", "l"))
    return (await env.bot.matches.live_in_channel(channel.id)).id


def _rows(what: str, c: Counts) -> list[Row]:
    return [
        Row(
            f"{what}: images uploaded over {c.clicks} clicks / byte-identical to what the message showed",
            f"{c.uploads} / {c.repeats}",
            "0 identical",
            c.repeats == 0,
        ),
        Row(
            f"{what}:   pictures drawn / of them bytes drawn before (a wider key, or a kept one dropped)",
            f"{c.drawn} / {c.drawn_again}",
        ),
    ]


def run(quick: bool) -> list[Row]:
    rows: list[Row] = []
    for game in SPECS:
        if game != "ubongo":
            rows += _rows(game, asyncio.run(two_player(game, 40 if quick else 150)))
    every, solves = asyncio.run(ubongo(1 if quick else 2))
    rows += _rows("ubongo, 4 seats to the end", every)
    rows += _rows("ubongo, 4 seats: the solving clicks", solves)
    return rows


if __name__ == "__main__":
    render_pool.warm_up()
    print(text_table([(r.metric, r.value, r.aim) for r in run("--quick" in sys.argv)]))
