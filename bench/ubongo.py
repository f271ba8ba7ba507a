"""Ubongo benchmarks: ``python -m bench.ubongo`` prints one table (metric | result | aim).

Solver figures of issue 10 (generate all 64 tasks, check a submission, count the solving piece sets
of the hardest B task), the rules' own costs on the click path, and the two images (render + PNG
encode time, bytes). Solver caches are cleared before each timed count, so every count pays for
building its placements, as the first click on a fresh task would.

The SimCord part plays a four-seat race in the DMs: a placement click (**Place here** on a DM
workspace) timed to the first message edit, against a no-op DM button that edits its message, in the
same run; then the four seats clicking at once, batch by batch. A seat never completes its task (it
clears after two pieces), so the round stands still and every sample is the same kind of click.
"""

from __future__ import annotations

import asyncio
import io
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import discord
import simcord

from bench.discord_roundtrip import NOOP_IDS, MadeOnClick, NoopButton, _fast_idle, _FirstEdit, _timed
from bot import render_pool
from bot.games import ubongo as ui_module
from engine.games.ubongo import (
    RULES,
    UbongoState,
    allowed,
    card_tasks,
    need,
    piece_spots,
    place_code,
    task_cells,
)
from engine.games.ubongo_ai import COMPUTER
from engine.games.ubongo_generate import generate
from engine.games.ubongo_solver import Cells, is_solution, parse_rows, prepare, solve, solving_sets
from harness.sim import (
    bench_bot,
    board,
    button_id,
    components,
    concurrent_clicks,
    concurrent_dm_clicks,
    custom_ids,
    setup_table,
)
from harness.text_table import text_table
from render.ubongo import render_table, render_task, samples

KIB = 1024
NAMES = ["alice", "bob", "carol", "dave"]


def pct(samples: Sequence[float], q: float) -> float:
    s = sorted(samples)
    return s[max(0, round(q * len(s) + 0.5) - 1)]


def ms(seconds: float) -> str:
    return f"{seconds * 1e3:.2f} ms"


def timed(fn: Callable[[], object], repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t0)
    return out


def _generate_cold() -> None:
    prepare.cache_clear()  # every candidate shape pays for its placements, as on a first run
    generate()


def _count_cold(cells: Cells) -> float:
    prepare.cache_clear()
    t0 = time.perf_counter()
    solving_sets(cells, 4)
    return time.perf_counter() - t0


def solver_rows() -> list[tuple[str, str, str]]:
    gen = min(timed(_generate_cold, 3))
    b_tasks = [parse_rows(card["B"]) for card in card_tasks()]
    counts = {cells: min(_count_cold(cells) for _ in range(3)) for cells in b_tasks}
    hardest = max(counts, key=counts.__getitem__)
    t = min(timed(lambda: _count_cold(hardest), 5))
    sol = solve(hardest, 4)
    assert sol is not None
    checks = timed(lambda: is_solution(hardest, sol, 4), 2000)
    return [
        ("generate all 64 tasks (R11, best of 3)", f"{gen:.2f} s", "≤ 2 s"),
        (
            "check a submission (is_solution) p50 / p99",
            f"{ms(pct(checks, 0.5))} / {ms(pct(checks, 0.99))}",
            "≤ 1 ms",
        ),
        ("count solving sets, hardest B task (cold)", ms(t), "≤ 15 ms"),
        ("count solving sets, B tasks p50 (cold)", ms(pct(list(counts.values()), 0.5)), "-"),
    ]


def _midround(n: int, seed: int, placed: int) -> UbongoState:
    """A race state in round 1 with ``placed`` pieces of a solution down for every seat."""
    s = RULES.setup(n, seed, {"side": "B" if seed % 2 else "A"})
    for seat in range(n):
        found = solve(task_cells(s, seat), need(s, seat), allowed(s, seat)) or []
        for p in found[: min(placed, need(s, seat) - 1)]:
            s, _ = RULES.apply(s, seat, place_code(*p))
    return s


def rules_rows() -> list[tuple[str, str, str]]:
    states = [_midround(4, seed, seed % 3) for seed in range(12)]
    legal = [x for s in states for x in timed(lambda s=s: RULES.legal_actions(s, 0), 20)]
    apply = []
    for s in states:
        code = RULES.legal_actions(s, 1)[0]
        apply += timed(lambda s=s, code=code: RULES.apply(s, 1, code), 50)
    think = [x for s in states for x in timed(lambda s=s: COMPUTER.choose(s, 2, "hard"), 5)]
    return [
        ("rules: legal_actions p50 / p99", f"{ms(pct(legal, 0.5))} / {ms(pct(legal, 0.99))}", "-"),
        ("rules: apply a placement p50 / p99", f"{ms(pct(apply, 0.5))} / {ms(pct(apply, 0.99))}", "-"),
        ("computer: choose a placement p50 / p99", f"{ms(pct(think, 0.5))} / {ms(pct(think, 0.99))}", "-"),
    ]


def render_rows(rounds: int = 5) -> list[tuple[str, str, str]]:
    states = [_midround(4, seed, seed % 4) for seed in range(8)]
    task_views = [RULES.view(s, seat) for s in states for seat in range(4)]
    table_views = [RULES.view(s, None) for s in (*states, samples.table_state(), samples.final_state())]
    render_task(task_views[0], 0)  # palette and fonts, once per process
    rows = []
    for what, views, draw in (
        ("workspace", task_views, lambda v: render_task(v, v["seat"])),
        ("table", table_views, lambda v: render_table(v, NAMES)),
    ):
        times, sizes = [], []
        for _ in range(rounds):
            for view in views:
                t0 = time.perf_counter()
                sizes.append(len(draw(view)))
                times.append(time.perf_counter() - t0)
        rows += [
            (f"render {what} p50 / p99", f"{ms(pct(times, 0.5))} / {ms(pct(times, 0.99))}", "≤ 15 ms"),
            (f"render {what} PNG max", f"{max(sizes) / KIB:.1f} KiB", "≤ 25 KiB"),
        ]
    return rows


# ---- SimCord: DM workspace clicks -----------------------------------------------------------------


class _EditTimes:
    """The first MESSAGE_UPDATE of each message after ``start()``: each click's own answer time when
    several clicks on different messages are in flight at once."""

    def __init__(self, backend: Any) -> None:
        self.at: dict[int, float] = {}
        emit = backend.emit

        def recording_emit(event: str, payload: Any) -> None:
            if event == "MESSAGE_UPDATE":
                self.at.setdefault(int(payload["id"]), time.perf_counter())
            emit(event, payload)

        backend.emit = recording_emit

    def start(self) -> float:
        self.at.clear()
        return time.perf_counter()


SHAPE_ID = "bench:shape"


class ShapeButton(MadeOnClick, discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"bench:shape"):
    """The requests of a placement's answer and nothing else: its text (an interaction response
    editing the message), then a workspace-sized PNG drawn beforehand (an edit through the
    interaction's webhook, with the upload). No commit, no drawing: four seats clicking it at once
    are the least four placements at once can cost against this simulated Discord."""

    png = b""

    def __init__(self) -> None:
        super().__init__(discord.ui.Button(label="shape", custom_id=SHAPE_ID))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.edit_message(content="placed")
        await interaction.edit_original_response(
            attachments=[discord.File(io.BytesIO(ShapeButton.png), "ubongo_task.png")]
        )


def _shape(player: Any) -> Any:
    return next(m for m in player.user.dm_channel.history() if m.content in ("shape", "placed"))


def _workspace(player: Any) -> Any:
    """The player's DM workspace: their latest DM holding workspace controls (not the no-op)."""
    return next(m for m in reversed(list(player.user.dm_channel.history())) if custom_ids(m, "y:"))


def _noop(player: Any) -> Any:
    return next(m for m in player.user.dm_channel.history() if m.content == "no-op")


async def _ready_to_place(env: Any, player: Any, mid: int, seat: int) -> tuple[Any, str]:
    """Untimed: clear the workspace when two pieces are down (or nothing fits), so the next placement
    never solves; choose a piece that fits (display only). Returns (workspace, its Place here id)."""
    _, state = await env.bot.matches.get(mid)
    fitting = [p for p in RULES.view(state, seat)["pieces"] if piece_spots(state, seat, p)]
    if len(state.placed[seat]) >= 2 or not fitting:
        await player.user.click(_workspace(player), custom_id=button_id(_workspace(player), "clear", "p"))
        _, state = await env.bot.matches.get(mid)
        fitting = [p for p in RULES.view(state, seat)["pieces"] if piece_spots(state, seat, p)]
    msg = _workspace(player)
    pieces = next(c for c in components(msg) if getattr(c, "custom_id", "").startswith("y:"))
    await player.user.select(msg, [f"pc.{fitting[0]}"], custom_id=pieces.custom_id)
    msg = _workspace(player)
    return msg, button_id(msg, piece_spots(state, seat, fitting[0])[0], "p")


async def _race(env: Any, bot: Any) -> tuple[list[Any], int, Any]:
    _, channel, players = setup_table(env, 4)
    await players[0].slash(channel, "ubongo start", side="A", round_limit=1800)
    for p in players[1:]:
        await p.click(board(channel), custom_id=button_id(board(channel), "join", "l"))
    await players[0].click(board(channel), custom_id=button_id(board(channel), "start", "l"))
    for p in players:  # the no-op DM button each seat clicks for the baseline
        dm = bot.get_partial_messageable(p.user.dm_channel.id, type=discord.ChannelType.private)
        await dm.send("no-op", view=discord.ui.View(timeout=None).add_item(NoopButton("edit")))
        await dm.send("shape", view=discord.ui.View(timeout=None).add_item(ShapeButton()))
    return players, (await bot.matches.live_in_channel(channel.id)).id, channel


async def _dm_clicks(single: int, batches: int) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {
        "place": [],
        "place_fixed": [],
        "noop": [],
        "batch": [],
        "in_batch": [],
        "noop_batch": [],
        "shape_batch": [],
        "refused_batch": [],
        "drawn": [],
        "duplicates": [],
        "changed": [],
    }
    fixed = render_task(RULES.view(_midround(1, 1, 1), 0), 0)  # the "no render" series sends this PNG
    ShapeButton.png = fixed
    task_image = ui_module._task_image
    render_pool.warm_up()
    with tempfile.TemporaryDirectory() as tmp, _fast_idle():
        bot = bench_bot(str(Path(tmp) / "bench.db"), NoopButton, ShapeButton)
        async with simcord.run(bot) as env:
            first, edits = _FirstEdit(env.backend), _EditTimes(env.backend)
            players, mid, channel = await _race(env, bot)
            spectator = players[0].guild.add_member(env.create_user("spectator"))
            for i in range(single):  # one click at a time: no-op, placement, placement with a fixed PNG
                seat = i % 4
                noop = players[seat].user.click(_noop(players[seat]), custom_id=NOOP_IDS["edit"])
                out["noop"].append((await _timed(first, noop))[0])
                for series, draw in (("place", task_image), ("place_fixed", lambda *a, **k: fixed)):
                    ui_module._task_image = draw
                    msg, place = await _ready_to_place(env, players[seat], mid, seat)
                    dt, _, r = await _timed(first, players[seat].user.click(msg, custom_id=place))
                    assert r.acknowledged and not r.ephemeral, r.response and r.response.content
                    out[series].append(dt)
                ui_module._task_image = task_image
            for _ in range(batches):  # the four seats at once
                clicks = []
                for seat, p in enumerate(players):
                    msg, place = await _ready_to_place(env, p, mid, seat)
                    clicks.append((p.user, msg, place))
                shown = await _images(players, channel)
                # the placements repeat (first piece, first spot): time drawing them, not their reuse
                render_pool.forget_drawings()
                with render_pool.drawn_pictures() as drawn:
                    t0 = edits.start()
                    results = await concurrent_dm_clicks(env, clicks)
                    out["batch"].append(time.perf_counter() - t0)
                    out["in_batch"] += [
                        edits.at.get(msg.id, time.perf_counter()) - t0 for _, msg, _ in clicks
                    ]
                    await bot.surfaces.settle(mid)
                after = await _images(players, channel)
                out["drawn"].append(len(drawn))
                out["duplicates"].append(sum(1 for png in drawn if png in shown.values()))
                out["changed"].append(sum(1 for k, png in after.items() if shown.get(k) != png))
                assert all(r.acknowledged and not r.ephemeral for r in results), "a click was refused"
                t0 = time.perf_counter()
                await concurrent_dm_clicks(env, [(p.user, _noop(p), NOOP_IDS["edit"]) for p in players])
                out["noop_batch"].append(time.perf_counter() - t0)
                t0 = time.perf_counter()
                await concurrent_dm_clicks(env, [(p.user, _shape(p), SHAPE_ID) for p in players])
                out["shape_batch"].append(time.perf_counter() - t0)
                refused = [(spectator, board(channel), button_id(board(channel), "hand", "h"))] * 4
                t0 = time.perf_counter()
                results = await concurrent_clicks(env, refused)
                out["refused_batch"].append(time.perf_counter() - t0)
                assert all(r.ephemeral for r in results), "a spectator's clicks are refused"
            await bot.matches.close()
            await bot.store.close()
    return out


async def _images(players: list[Any], channel: Any) -> dict[str, bytes]:
    """The image each surface shows now: every seat's DM workspace, and the board."""
    out = {"board": await board(channel).attachments[0].read()}
    for p in players:
        msg = _workspace(p)
        out[f"dm{p.id}"] = await msg.attachments[0].read() if msg.attachments else b""
    return out


def dm_rows(single: int = 80, batches: int = 30) -> list[tuple[str, str, str]]:
    t = asyncio.run(_dm_clicks(single, batches))

    def p50_p99(series: list[float]) -> str:
        return f"{ms(pct(series, 0.5))} / {ms(pct(series, 0.99))}"

    ratio = pct(t["place"], 0.5) / pct(t["noop"], 0.5)
    batch_ratio = pct(t["batch"], 0.5) / pct(t["noop_batch"], 0.5)
    refused_ratio = pct(t["batch"], 0.5) / pct(t["refused_batch"], 0.5)
    shape_ratio = pct(t["shape_batch"], 0.5) / pct(t["refused_batch"], 0.5)
    placement_ratio = pct(t["batch"], 0.5) / pct(t["shape_batch"], 0.5)
    return [
        (f"DM placement click to first edit p50 / p99 (n={single})", p50_p99(t["place"]), "-"),
        ("DM no-op button (edits its message) p50 / p99", p50_p99(t["noop"]), "-"),
        ("DM placement / no-op p50 ratio", f"{ratio:.2f}x", "-"),
        ("  DM placement p50 with a fixed PNG (no render)", ms(pct(t["place_fixed"], 0.5)), "-"),
        (f"4 seats placing at once, batch p50 / p99 (n={batches})", p50_p99(t["batch"]), "-"),
        ("  each click of a batch to its first edit p50 / p99", p50_p99(t["in_batch"]), "-"),
        ("4 seats clicking a no-op at once, batch p50 / p99", p50_p99(t["noop_batch"]), "-"),
        ("4-seat placement batch / no-op batch p50 ratio", f"{batch_ratio:.2f}x", "-"),
        ("4 refused clicks at once (a spectator's), batch p50", ms(pct(t["refused_batch"], 0.5)), "-"),
        ("4-seat placement batch / 4 refused clicks p50 ratio", f"{refused_ratio:.2f}x", "≤ 3x"),
        (
            "  4 seats clicking a button that only makes a placement's requests, batch p50",
            ms(pct(t["shape_batch"], 0.5)),
            "-",
        ),
        ("  that request floor / 4 refused clicks p50 ratio", f"{shape_ratio:.2f}x", "-"),
        ("  4-seat placement batch / that request floor p50 ratio", f"{placement_ratio:.2f}x", "-"),
        (
            "images drawn per 4-placement batch (mean) / surfaces whose image changed",
            f"{sum(t['drawn']) / len(t['drawn']):.2f} / {sum(t['changed']) / len(t['changed']):.2f}",
            "equal",
        ),
        ("  images drawn identical to what a surface already showed", str(sum(t["duplicates"])), "0"),
    ]


def run() -> list[tuple[str, str, str]]:
    return solver_rows() + rules_rows() + render_rows() + dm_rows()


if __name__ == "__main__":
    print(text_table(run()))
