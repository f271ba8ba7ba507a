"""Issue 22: a SIGKILLed bot must leave no process behind, neither its computer players' worker nor
multiprocessing's resource tracker (which exits once the worker has). Real processes, read in /proc."""

from __future__ import annotations

import contextlib
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="reads /proc")

ROOT = Path(__file__).resolve().parents[2]

# a bot reduced to its computer players: one job through the pool, then wait to be killed
BOT = """
import asyncio, os, sys
from engine import compute
print(asyncio.run(compute.run(os.getpid)), flush=True)
sys.stdin.read()
"""


def _stat(pid: int) -> list[str] | None:
    """/proc/<pid>/stat from the state field on (the name before it may hold spaces)."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    return text.rsplit(")", 1)[1].split()


def _descendants(pid: int) -> dict[int, str]:
    """Every process below ``pid``, by pid, with its start time (so a reused pid is not mistaken)."""
    found: dict[int, str] = {}
    todo = [pid]
    while todo:
        for task in Path(f"/proc/{todo.pop()}/task").iterdir():
            with contextlib.suppress(FileNotFoundError, ProcessLookupError):
                for child in map(int, (task / "children").read_text().split()):
                    if (stat := _stat(child)) is not None:
                        found[child] = stat[19]
                        todo.append(child)
    return found


def _alive(pid: int, started: str) -> bool:
    stat = _stat(pid)
    return stat is not None and stat[19] == started and stat[0] not in "ZX"  # a zombie holds no memory


def _semaphores(pid: int) -> set[Path]:
    """multiprocessing's named semaphores that ``pid`` maps (glibc maps them under a temporary
    name: matched by inode)."""
    lines = Path(f"/proc/{pid}/maps").read_text().splitlines()
    inodes = {int(line.split()[4]) for line in lines if "/dev/shm/sem." in line}
    return {path for path in Path("/dev/shm").glob("sem.mp-*") if path.stat().st_ino in inodes}


def test_sigkilled_bot_leaves_no_child(tmp_path):
    stderr = (tmp_path / "stderr").open("w+")
    bot = subprocess.Popen(
        [sys.executable, "-c", BOT],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=stderr,
        text=True,
    )
    family: dict[int, str] = {}
    names: dict[int, bytes] = {}
    try:
        # not read to EOF: the bot's children share its stdout
        ready, _, _ = select.select([bot.stdout], [], [], 20)
        line = bot.stdout.readline() if ready else ""
        stderr.seek(0)
        assert line.strip().isdigit(), f"the bot did not run its job: {stderr.read()}"
        family = _descendants(bot.pid)
        names = {pid: Path(f"/proc/{pid}/cmdline").read_bytes() for pid in family}
        assert int(line) in family, names  # the worker
        assert any(b"resource_tracker" in name for name in names.values()), names
        assert len(family) == 2, names
        semaphores = _semaphores(bot.pid)
        assert semaphores  # the pool's queues' locks, which only the tracker unlinks after a kill

        bot.kill()
        bot.wait()
        deadline = time.monotonic() + 5
        while (left := [p for p, t in family.items() if _alive(p, t)]) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not left, {p: names[p] for p in left}
        assert not {path for path in semaphores if path.exists()}  # the tracker exited normally
    finally:
        bot.kill()
        bot.wait()
        _reap(family, names)
        stderr.close()


def _reap(family: dict[int, str], names: dict[int, bytes]) -> None:
    """A failed run must not leave them either: the worker first, so that the tracker can still
    unlink the pool's semaphores (in /dev/shm) before it exits."""
    tracker = [p for p in family if b"resource_tracker" in names.get(p, b"")]
    for pid in sorted(family, key=tracker.__contains__):
        deadline = time.monotonic() + 2
        while pid in tracker and _alive(pid, family[pid]) and time.monotonic() < deadline:
            time.sleep(0.05)
        if _alive(pid, family[pid]):
            os.kill(pid, signal.SIGKILL)


# the worker gets a parent-death signal only from the main thread: the kernel sends it when the
# spawning *thread* exits, which would kill (and make run() replace) a worker a thread had spawned
SPAWNED_BY_A_THREAD = """
import asyncio, os, threading, time
from engine import compute
pids = []
thread = threading.Thread(target=lambda: pids.append(asyncio.run(compute.run(os.getpid))))
thread.start()
thread.join()
time.sleep(0.3)  # the thread's exit reaches the kernel a little after join() returns
pids.append(asyncio.run(compute.run(os.getpid)))
compute.shutdown()
print(*pids)
"""


def test_worker_outlives_the_thread_that_spawned_it():
    out = subprocess.run(
        [sys.executable, "-c", SPAWNED_BY_A_THREAD], cwd=ROOT, capture_output=True, text=True, timeout=30
    )
    assert out.returncode == 0, out.stderr
    first, second = out.stdout.split()
    assert first == second  # the same worker served both jobs
