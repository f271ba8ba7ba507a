"""Computer players run in a process pool: a search that holds the GIL for seconds must not stall
the event loop (measured in bench: loop delay p99 while a search runs). States are plain dataclasses,
so they pickle, and so do the rules and computer objects (by reference to their module)."""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import signal
import threading
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from engine import cores, orphans
from engine.core import Computer, Rules, Seat

MAX_AUTO_STEPS = 1000  # guard against a computer that never hands the turn back

_pool: ProcessPoolExecutor | None = None


def _worker_init(pdeathsig: bool = False, on_cores: tuple[int, ...] = ()) -> None:
    cores.keep(on_cores)  # not the event loop's core, which it inherited (engine.cores)
    with contextlib.suppress(OSError):
        os.nice(5)  # the event loop's process keeps priority on a small machine
    # Ctrl-C reaches the whole process group: the bot shuts the pool down, the worker must not
    # print a KeyboardInterrupt traceback of its own
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    parent = multiprocessing.parent_process()
    if parent is not None:  # a spawned worker (not called directly)
        # a SIGKILLed bot shuts nothing down, and the worker waits on a queue whose write end it
        # holds itself: it would run on under init, and so would the resource tracker (which
        # exits, unlinking the pool's semaphores, only once every process holding its pipe has
        # gone). The parent holds its end of the spawn pipe until it joins this worker or dies.
        orphans.die_with_parent(parent.pid or os.getppid(), pdeathsig=pdeathsig, sentinel=parent.sentinel)


def pool() -> ProcessPoolExecutor:
    global _pool
    if _pool is None:
        # spawn, not fork: the bot process has threads (aiosqlite, render pool) that fork would copy mid-lock
        ctx = multiprocessing.get_context("spawn")
        main = threading.current_thread() is threading.main_thread()
        _pool = ProcessPoolExecutor(
            max_workers=1, mp_context=ctx, initializer=_worker_init, initargs=(main, cores.anywhere())
        )
        # spawn the one worker now, from this thread (submit spawns on the calling thread): a
        # parent-death signal must not follow a short-lived thread that happened to submit first
        _pool.submit(int)
    return _pool


def shutdown() -> None:
    global _pool
    if _pool is not None:
        _pool.shutdown(wait=False, cancel_futures=True)
        _pool = None


def choose(computer: Computer[Any], state: Any, seat: Seat, level: str) -> str:
    return computer.choose(state, seat, level)


def play_turn(rules: Rules[Any], computer: Computer[Any], state: Any, seat: Seat, level: str) -> list[str]:
    """The computer finishes ``seat``'s turn for an absent player: every decision until it is no
    longer that seat's move (checked by applying each one)."""
    actions = []
    for _ in range(MAX_AUTO_STEPS):
        if seat not in rules.to_move(state):
            return actions
        action = computer.choose(state, seat, level)
        state, _ = rules.apply(state, seat, action)
        actions.append(action)
    raise RuntimeError(f"{rules.name}: the computer did not end seat {seat}'s turn")


async def run(fn: Any, *args: Any) -> Any:
    """``fn(*args)`` in the worker process; a pool that died (a killed worker) is replaced once."""
    loop = asyncio.get_running_loop()
    try:
        return await loop.run_in_executor(pool(), fn, *args)
    except BrokenProcessPool:
        shutdown()
        return await loop.run_in_executor(pool(), fn, *args)


async def run_inline(fn: Any, *args: Any) -> Any:
    """``fn(*args)`` on the calling thread: for engine tests and benchmarks that measure the rules."""
    return fn(*args)
