"""Which cores the bot's work runs on: the event loop's thread keeps one, the drawing process that
draws every click coming alone keeps another, and the rest (the second drawing process, the render
threads, the computer's process) run anywhere.

Unpinned, the scheduler moved the loop and that drawing process between the cores as they woke each
other, and a move's work met cold caches. On the bench's 2 cores, 3 alternating runs of 150 Ugah moves:
the bot's CPU a move 5.37-5.84 ms unpinned against 4.49-5.22 pinned, its image 4.8-5.2 ms against
4.3-4.5 (issue 35). The threads the loop's thread starts (the database's, the timers') share its core.

Only a bot alone on its machine's database pins itself (SQLite: one process by construction, and the
default). Several processes on one PostgreSQL would all pin their loops to the same core: placing
those is the operator's (``taskset``, a container's cpuset). Nothing is pinned on one core, or where
the OS has no affinity (not Linux)."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable

# the cores this process could use before pin_loop(); None while nothing is pinned
_allowed: tuple[int, ...] | None = None


def pin_loop() -> bool:
    """Pin the calling thread (the event loop's, before it starts other threads: they inherit it)
    to the first of the process's cores. False: nothing pinned (one core, or no affinity here)."""
    global _allowed
    if not hasattr(os, "sched_setaffinity"):
        return False
    allowed = tuple(sorted(os.sched_getaffinity(0)))
    if len(allowed) < 2:
        return False
    try:
        os.sched_setaffinity(0, {allowed[0]})  # 0: the calling thread
    except OSError:
        return False
    _allowed = allowed
    return True


def unpin() -> None:
    """The calling thread back on every core it had before pin_loop() (a bot stopped inside a
    longer-lived process: a test)."""
    global _allowed
    if _allowed is not None:
        with contextlib.suppress(OSError):
            os.sched_setaffinity(0, set(_allowed))
        _allowed = None


def for_drawing(slot: int) -> tuple[int, ...]:
    """The cores of the drawing process in ``slot`` (empty: leave it as it is): the first keeps the
    loop's neighbour, the others may use every core."""
    if _allowed is None:
        return ()
    return (_allowed[1],) if slot == 0 else _allowed


def anywhere() -> tuple[int, ...]:
    """Every core, for a process that must not inherit the loop's one (empty: nothing pinned)."""
    return _allowed or ()


def keep(cores: Iterable[int]) -> None:
    """Called first in a child process: run on ``cores`` (nothing if empty)."""
    wanted = set(cores)
    if wanted and hasattr(os, "sched_setaffinity"):
        with contextlib.suppress(OSError):
            os.sched_setaffinity(0, wanted)
