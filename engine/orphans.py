"""A child process of the bot (the computer players' worker, a drawing process) ends with its bot,
however the bot ends: a SIGKILLed bot shuts nothing down, and a child busy with a long job would
notice its closed pipe only after the job (or never, if it holds that pipe's other end itself).

Linux: the kernel sends SIGKILL the moment the parent goes (``PR_SET_PDEATHSIG``), even while the
child holds the interpreter lock. The kernel ties that signal to the spawning *thread*: the caller
asks for it only when that thread lives as long as the child should. Everywhere, and in case the
parent died before the request: a watch thread that exits once the parent has gone (its pipe's
sentinel, or the child re-parented)."""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing.connection
import os
import signal
import sys
import threading

PR_SET_PDEATHSIG = 1  # <linux/prctl.h>
WATCH_SECONDS = 0.5  # how often the watch thread looks at its parent's pid


def die_with_parent(parent_pid: int, *, pdeathsig: bool, sentinel: int | None = None) -> None:
    """Called first thing in the child: end it (at once, no clean-up) when ``parent_pid`` ends.
    ``sentinel``: a handle that becomes ready when the parent goes (multiprocessing's)."""
    if pdeathsig and sys.platform == "linux":
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent_pid:  # gone before the request: no signal will come
        os._exit(1)
    threading.Thread(target=_watch, args=(parent_pid, sentinel), name="parent-watch", daemon=True).start()


def _watch(parent_pid: int, sentinel: int | None) -> None:
    while True:
        if sentinel is not None:
            if multiprocessing.connection.wait([sentinel], WATCH_SECONDS):
                os._exit(1)
        else:
            threading.Event().wait(WATCH_SECONDS)
        if os.getppid() != parent_pid:  # re-parented to init (or a subreaper)
            os._exit(1)
