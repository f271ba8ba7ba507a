"""Issue 34: no process outlives its bot, however the bot ends. A real process creates the pools the
bot creates, by the same code (the drawing processes, the computer players' worker), then ends; its
children are read in /proc. Drawing processes are busy with a long drawing when the bot goes: one
that waits for its drawing to finish before it sees its closed pipe outlives the bot by that long."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, cast

import pytest

from bot import render_pool
from tests.bot.test_render_pool import _ready_process
from tests.engine.test_worker_orphans import _alive, _descendants, _reap

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="reads /proc")

ROOT = Path(__file__).resolve().parents[1]

# the bot's pools, each child busy: a drawing of a minute in each drawing process, then wait
POOLS = """
import asyncio, functools, os, sys, time
from bot import render_pool
from engine import compute
render_pool.PROCESSES = True
render_pool.warm_up()
asyncio.run(compute.run(os.getpid))
for _ in range(2):
    render_pool.RENDER_POOL.submit(render_pool.draw, functools.partial(time.sleep, 60))
time.sleep(0.5)  # both drawings handed over
print("ready", flush=True)
{ending}
"""

# start-up fails (the database turned unusable inside setup_hook) after the pools began: main()
# returns 2, and the process it ran in lives on (a supervisor, a test run)
STARTUP_FAILS = """
import asyncio, os, sys
from bot import __main__ as entry, render_pool
from bot.client import GameBot
from engine import compute
from engine.store import StoreError
render_pool.PROCESSES = True
render_pool.warm_up()
asyncio.run(compute.run(os.getpid))
def run(self, token, **kwargs):
    raise StoreError("the database went away")
GameBot.run = run
entry.check_database = lambda path, **options: None
print("ready", flush=True)
sys.stdin.readline()
print(entry.main(), flush=True)
sys.stdin.read()
"""

BOT_ENV = {"DISCORD_TOKEN": "A" * 24 + "." + "B" * 6 + "." + "C" * 27, "RENDER_PROCESSES": "1"}


def _start(script: str, tmp_path: Path) -> tuple[subprocess.Popen[str], Path]:
    err = tmp_path / "stderr"
    env = {**os.environ, **BOT_ENV, "DATABASE_PATH": str(tmp_path / "bot.db")}
    bot = subprocess.Popen(
        [sys.executable, "-c", script],
        cwd=tmp_path,  # no .env of the checkout's
        env={**env, "PYTHONPATH": str(ROOT)},
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=err.open("w"),
        text=True,
    )
    return bot, err


def _line(bot: subprocess.Popen[str], err: Path) -> str:
    assert bot.stdout is not None
    ready, _, _ = select.select([bot.stdout], [], [], 60)  # not read to EOF: children share stdout
    line = bot.stdout.readline().strip() if ready else ""
    assert line, f"the bot did not start its pools: {err.read_text()}"
    return line


def _family(bot: subprocess.Popen[str]) -> tuple[dict[int, str], dict[int, bytes]]:
    family = _descendants(bot.pid)
    names = {pid: Path(f"/proc/{pid}/cmdline").read_bytes() for pid in family}
    drawing = [p for p, name in names.items() if b"drawing_process" in name]
    assert len(drawing) == 2, names  # one per render thread
    assert any(b"resource_tracker" in name for name in names.values()), names  # and the worker's pool
    return family, names


def _none_left(family: dict[int, str], names: dict[int, bytes], seconds: float = 5) -> None:
    deadline = time.monotonic() + seconds
    while (left := [p for p, t in family.items() if _alive(p, t)]) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not left, {p: names[p] for p in left}


@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM], ids=["SIGKILL", "SIGTERM"])
def test_a_killed_bot_leaves_no_drawing_process_or_worker(tmp_path, how):
    bot, err = _start(POOLS.format(ending="sys.stdin.read()"), tmp_path)
    family: dict[int, str] = {}
    names: dict[int, bytes] = {}
    try:
        assert _line(bot, err) == "ready"
        family, names = _family(bot)
        bot.send_signal(how)
        bot.wait(10)
        _none_left(family, names)
    finally:
        bot.kill()
        bot.wait()
        _reap(family, names)


def test_a_start_up_failure_leaves_no_drawing_process_or_worker(tmp_path):
    bot, err = _start(STARTUP_FAILS, tmp_path)
    family: dict[int, str] = {}
    names: dict[int, bytes] = {}
    try:
        assert _line(bot, err) == "ready"
        family, names = _family(bot)
        assert bot.stdin is not None
        bot.stdin.write("\n")
        bot.stdin.flush()
        assert _line(bot, err) == "2", err.read_text()
        # multiprocessing's resource tracker is the process's, not the pool's: it lives as long as
        # the process does, and then ends (the killed bots above show it)
        pools = {p: t for p, t in family.items() if b"resource_tracker" not in names[p]}
        _none_left(pools, names)
        assert bot.poll() is None  # they ended before the process that started them
    finally:
        bot.kill()
        bot.wait()
        _reap(family, names)


def test_drawing_processes_ended_by_shutdown_start_again_and_are_not_counted_lost(monkeypatch):
    """A bot stopped and started again in one process (a test run) still draws in processes."""
    monkeypatch.setattr(render_pool, "PROCESSES", True)
    monkeypatch.setattr(render_pool, "_lost", [0])
    monkeypatch.setattr(render_pool, "_slots", [None] * render_pool.WORKERS)
    first = _ready_process()
    try:
        render_pool.shutdown()
        assert first.process.poll() is not None
        second = _ready_process()
        assert second is not first and second.alive()
        assert render_pool._lost == [0]
        assert render_pool.draw(cast(Any, os.getpid)) == second.process.pid  # drawn there
    finally:
        render_pool.shutdown()
