"""Issue 35: how ``python -m bot`` sets up its process. A bot alone on its database (SQLite) keeps a
core for its event loop and another for the drawing process that draws lone clicks; the rest run
anywhere (engine.cores). Its garbage collector collects young objects far apart, and leaves what
start-up made out of later collections (engine.collector). A real process runs main() up to the
point where it would connect to Discord, starts the pools there by the bot's own code, and says
where each part may run (read from the kernel) and how it collects."""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
import simcord

from engine import collector, cores

ROOT = Path(__file__).resolve().parents[1]
CORES = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
needs_cores = pytest.mark.skipif(len(CORES) < 2, reason="pinning needs two cores and Linux's affinity")

# main() with Discord's connection replaced by a report of every part's cores
WHERE = """
import asyncio, gc, json, os, threading
from bot import __main__ as entry, render_pool
from bot.client import GameBot
from engine import compute
render_pool.PROCESSES = True
entry.check_database = lambda path, **options: None  # (PostgreSQL: no server is asked)
def cores(pid=0):
    return sorted(os.sched_getaffinity(pid))
def run(self, token, **kwargs):
    render_pool.warm_up()
    asyncio.run(compute.run(os.getpid))
    seen = {}
    started = threading.Thread(target=lambda: seen.update(thread=cores()))
    started.start(); started.join()
    seen.update(
        loop=cores(),
        drawing=[cores(child.process.pid) for child in render_pool._slots],
        computer=[cores(pid) for pid in compute.pool()._processes],
        render_thread=render_pool.RENDER_POOL.submit(cores).result(),
        thresholds=gc.get_threshold(),
        settles=self.settles_heap,
    )
    print(json.dumps(seen), flush=True)
GameBot.run = run
before = gc.get_threshold()
entry.main()
print(json.dumps({"after": cores(), "thresholds after": gc.get_threshold() == before}), flush=True)
"""


def _where(tmp_path: Path, **env: str) -> dict[str, list]:
    token = "A" * 24 + "." + "B" * 6 + "." + "C" * 27
    done = subprocess.run(
        [sys.executable, "-c", WHERE],
        cwd=tmp_path,  # no .env of the checkout's
        env={**os.environ, "DISCORD_TOKEN": token, "PYTHONPATH": str(ROOT), **env},
        capture_output=True,
        text=True,
        timeout=120,
    )
    lines = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    assert len(lines) == 2, done.stderr
    return lines[0] | lines[1]


@needs_cores
def test_a_bot_on_sqlite_keeps_one_core_for_its_loop_and_one_for_its_first_drawing_process(tmp_path):
    seen = _where(tmp_path, DATABASE_PATH=str(tmp_path / "bot.db"))
    first, second = CORES[0], CORES[1]
    assert seen["loop"] == [first]
    assert seen["thread"] == [first]  # the threads it starts (the database's) share it
    assert seen["drawing"] == [[second], CORES]  # lone clicks' drawing apart; the second anywhere
    assert seen["computer"] == [CORES]  # the computer's search never on the loop's core alone
    assert seen["render_thread"] == CORES  # (what draws where no drawing process can)
    assert seen["after"] == CORES  # a bot stopped inside a longer-lived process gives its core back
    assert seen["thresholds"] == list(collector.THRESHOLDS) and seen["settles"]
    assert seen["thresholds after"]  # (and the collector as it was)


@needs_cores
def test_bots_on_postgresql_are_placed_by_their_operator_not_pinned(tmp_path):
    # several processes share one PostgreSQL: pinned, each would put its loop on the same core
    seen = _where(tmp_path, DATABASE_URL="postgresql://stoneage:pw@localhost:1/stoneage")
    assert seen["loop"] == seen["thread"] == seen["after"] == CORES
    assert seen["drawing"] == [CORES, CORES]
    assert seen["computer"] == [CORES]
    assert seen["thresholds"] == list(collector.THRESHOLDS) and seen["settles"]  # (not tied to a core)


async def test_a_bot_that_settles_its_heap_freezes_what_start_up_made(bot_factory):
    bot = bot_factory()
    bot.settles_heap = True
    assert gc.get_freeze_count() == 0
    try:
        async with simcord.run(bot):
            frozen = gc.get_freeze_count()
    finally:
        gc.unfreeze()  # (the test run's own objects: collected as before)
        await bot.matches.close()
        await bot.store.close()
    assert frozen > 10_000  # modules, catalogues, the commands: never walked by a collection again


@needs_cores
def test_pinning_is_per_thread_and_given_back():
    seen: dict[str, object] = {}

    def pinned() -> None:
        seen["pinned"] = cores.pin_loop()
        seen["loop"] = sorted(os.sched_getaffinity(0))
        seen["for drawing"] = [cores.for_drawing(0), cores.for_drawing(1)]
        seen["anywhere"] = cores.anywhere()
        cores.unpin()
        seen["after"] = sorted(os.sched_getaffinity(0))
        seen["unpinned for drawing"] = cores.for_drawing(0)

    thread = threading.Thread(target=pinned)
    thread.start()
    thread.join()
    assert seen == {
        "pinned": True,
        "loop": [CORES[0]],
        "for drawing": [(CORES[1],), tuple(CORES)],
        "anywhere": tuple(CORES),
        "after": CORES,
        "unpinned for drawing": (),
    }
    assert sorted(os.sched_getaffinity(0)) == CORES  # the test's own thread was never pinned
