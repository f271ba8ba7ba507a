"""Whose CPU a click took: the bot's, or the simulated Discord's and the bench's own (issue 35, item 2).

A click in the bench runs the bot against SimCord in one process, so the process's CPU is both. The
split is a sampling profile of the event loop's thread: a wall-clock timer (``ITIMER_REAL``, every
``INTERVAL`` s) interrupts it, and the signal handler, which Python runs on that thread, looks at the
stack it interrupted. From the innermost frame out, the first one in SimCord, the harness or the bench
makes the sample theirs; the first one in the bot (``bot/``, ``engine/``, ``render/``) or in
discord.py (which a bot runs in production too) makes it the bot's; frames of the standard library and
other packages belong to whoever called them, and the loop's own machinery, found under neither, to
the bot. A sample taken while the loop waits in ``select`` is idle and not counted.

The simulated Discord's CPU is then the loop thread's CPU (``time.thread_time``, exact) times the
share of its busy samples that were theirs; the handler's own time is taken out first. Every other
thread (the database's, the drawing pool's pipes) and the drawing processes are the bot's.
"""

from __future__ import annotations

import collections
import functools
import signal
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from types import FrameType

INTERVAL = 0.0002
ROOT = str(Path(__file__).resolve().parents[1]) + "/"
THEIRS = tuple(ROOT + d for d in ("harness/", "bench/", "toy/"))
OURS = tuple(ROOT + d for d in ("bot/", "engine/", "render/"))
IDLE = ("selectors.py",)  # the loop waiting for something to happen


def _owner(frame: FrameType | None) -> str:
    top = frame
    if top is not None and top.f_code.co_filename.endswith(IDLE):
        return "idle"
    while frame is not None:
        name = frame.f_code.co_filename
        if name.startswith(OURS) or "/site-packages/discord/" in name:
            return "bot"
        if name.startswith(THEIRS) or "/site-packages/simcord/" in name:
            return "theirs"
        frame = frame.f_back
    return "bot"


# set (python -m bench --profile GAME): the bot's samples counted by where they were taken
RECORD: collections.Counter[tuple[str, str]] | None = None


def _where(frame: FrameType | None) -> tuple[str, str]:
    """(the innermost frame, the innermost of this project's) of a sample: what ran, and for which
    part of the bot."""
    top, ours = _name(frame), "(the loop, discord.py)"
    while frame is not None:
        if frame.f_code.co_filename.startswith(OURS):
            ours = _name(frame)
            break
        frame = frame.f_back
    return top, ours


def _name(frame: FrameType | None) -> str:
    if frame is None:
        return "?"
    path = frame.f_code.co_filename
    short = path.removeprefix(ROOT) if path.startswith(ROOT) else "/".join(path.split("/")[-2:])
    return f"{frame.f_code.co_name} ({short}:{frame.f_code.co_firstlineno})"


@dataclass
class Split:
    """One sampled stretch: the loop thread's CPU, and its busy samples by owner."""

    thread_cpu: float = 0.0
    handler: float = 0.0  # seconds spent in the sampler itself (taken out of thread_cpu)
    bot: int = 0
    theirs: int = 0

    @property
    def theirs_cpu(self) -> float:
        busy = self.bot + self.theirs
        return max(0.0, self.thread_cpu - self.handler) * self.theirs / busy if busy else 0.0


class Sampler:
    """``with Sampler() as s: ...`` on the loop's thread (the main thread: signals run there)."""

    def __enter__(self) -> Split:
        assert threading.current_thread() is threading.main_thread()
        self.split = split = Split()
        overhead = _overhead()

        def sample(_signum: int, frame: FrameType | None) -> None:
            t0 = time.perf_counter()
            owner = _owner(frame)
            if owner == "bot":
                split.bot += 1
                if RECORD is not None:
                    RECORD[_where(frame)] += 1
            elif owner == "theirs":
                split.theirs += 1
            split.handler += time.perf_counter() - t0 + overhead

        self.old = signal.signal(signal.SIGALRM, sample)
        self.t0 = time.thread_time()
        signal.setitimer(signal.ITIMER_REAL, INTERVAL, INTERVAL)
        return split

    def __exit__(self, *exc: object) -> None:
        signal.setitimer(signal.ITIMER_REAL, 0)
        self.split.thread_cpu = time.thread_time() - self.t0
        signal.signal(signal.SIGALRM, self.old)


@functools.cache
def _overhead() -> float:
    """A signal's delivery and the handler's call, around what the handler times itself (measured)."""
    count = 2000
    old = signal.signal(signal.SIGUSR2, lambda *_: None)
    t0 = time.thread_time()
    for _ in range(count):
        signal.raise_signal(signal.SIGUSR2)
    spent = time.thread_time() - t0
    signal.signal(signal.SIGUSR2, old)
    return spent / count
