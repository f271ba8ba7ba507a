"""A drawing process: the bot's pictures drawn on another core, and the pipe to it.

The drawing is Python code that holds the interpreter lock while it runs, so drawn in the bot's own
process it took turns with the event loop (a 4 ms board took 10-16 ms of wall time beside a busy
loop). A drawing process gets the pickled drawing (a view dict, names, a caption, a language) and
answers the PNG. ``bot.render_pool`` decides which drawing goes where."""

from __future__ import annotations

import asyncio
import contextlib
import os
import pickle
import socket
import subprocess
import sys
import threading
import time
from multiprocessing.connection import Connection
from typing import Any

from engine import cores, orphans
from render import png

RENDER_THREAD = "render"  # the render threads' name prefix (bot.render_pool)
READY = b"ready"
NOT_HERE = b"not here"  # a drawing process's answer to a drawing it cannot unpickle
Answer = tuple[Any, BaseException | None, float]  # (png, error, cpu seconds)


def background_priority() -> None:
    """Render threads and processes yield the CPU to the event loop's thread: on 2 cores a busy
    renderer could delay other handlers by a scheduler time slice (measured in bench: loop delay p99)."""
    with contextlib.suppress(OSError, AttributeError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 10)


def serve(conn: Connection, parent_pid: int, pdeathsig: bool, on_cores: tuple[int, ...] = ()) -> None:
    """A drawing process: draw what arrives, answer (png, error, cpu seconds); end when the pipe does,
    or at once when the bot does (even mid-drawing: a SIGKILLed bot must leave no process behind).
    ``on_cores``: where it runs (``engine.cores``; empty: where it was started)."""
    orphans.die_with_parent(parent_pid, pdeathsig=pdeathsig)
    cores.keep(on_cores)
    background_priority()
    with contextlib.suppress(OSError):  # (the bot is gone already: the loop below ends at once)
        conn.send_bytes(READY)  # imports done: drawings may come
    forgotten = 0
    while True:
        try:
            data = conn.recv_bytes()
        except (EOFError, OSError):  # the bot ended, or was killed
            return
        c0 = time.process_time()
        try:
            generation, job = pickle.loads(data)
        except Exception:  # e.g. a function of the bot's __main__: a render thread draws it
            with contextlib.suppress(OSError):
                conn.send_bytes(NOT_HERE)
            continue
        if generation != forgotten:
            forgotten = generation
            png.forget()
        out: Any = None
        error: BaseException | None = None
        try:
            out = job()
        except Exception as exc:  # raised again where the drawing was asked for
            error = exc
        answer = (out, error, time.process_time() - c0)
        try:
            data = pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception:  # an exception that does not pickle: its text does
            data = pickle.dumps((None, RuntimeError(repr(error)), answer[2]))
        try:
            conn.send_bytes(data)
        except OSError:
            return


_MAIN = (
    "import sys; from multiprocessing.connection import Connection; from bot.drawing_process import serve; "
    "serve(Connection(int(sys.argv[1])), int(sys.argv[2]), sys.argv[3] == '1', "
    "tuple(int(c) for c in sys.argv[4].split(',') if c))"
)


class Child:
    """One drawing process and the pipe to it, used by one drawing at a time (``bot.render_pool``'s
    slots). It is started in the background: until it says it is ready (its imports take about a
    second), a render thread draws, so no drawing waits for it. A plain Python process running
    ``serve`` (not multiprocessing's spawn, which would run the bot's main module again in the
    child), on the bot's own sys.path. ``slot``: which of bot.render_pool's (``engine.cores`` places
    the first apart from the event loop)."""

    def __init__(self, slot: int = 0) -> None:
        ours, theirs = socket.socketpair()
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
        # the parent-death signal follows the spawning thread: only one that lasts as long as the
        # bot (a render thread, which ends with the pool; the main thread) may ask for it
        thread = threading.current_thread()
        lasting = thread is threading.main_thread() or thread.name.startswith(RENDER_THREAD)
        with theirs:
            self.process = subprocess.Popen(
                [
                    sys.executable,
                    "-c",
                    _MAIN,
                    str(theirs.fileno()),
                    str(os.getpid()),
                    "1" if lasting else "0",
                    ",".join(map(str, cores.for_drawing(slot))),
                ],
                pass_fds=[theirs.fileno()],
                stdin=subprocess.DEVNULL,
                env=env,
            )
        self.conn = Connection(ours.detach())
        self.ready = False
        self.stopped = False  # by shutdown(): the next drawing starts another, not counted as lost

    def alive(self) -> bool:
        return self.process.poll() is None

    def is_ready(self) -> bool:
        if not self.ready and self.conn.poll(0):
            self.ready = self.conn.recv_bytes() == READY  # EOFError: it died starting
        return self.ready

    def run(self, payload: bytes) -> Answer | None:
        """The drawing's (png, error, cpu seconds), or None if the process cannot unpickle it."""
        self.conn.send_bytes(payload)
        return read_answer(self.conn.recv_bytes())

    def answer_on(self, loop: asyncio.AbstractEventLoop) -> asyncio.Future[bytes]:
        """The answer to the drawing just sent, read by ``loop`` as it arrives (no thread waits on the
        pipe): the pipe's framing is multiprocessing's, a 4-byte length and the bytes (EOFError: the
        process died)."""
        answer: asyncio.Future[bytes] = loop.create_future()
        fd, got = self.conn.fileno(), bytearray()

        def readable() -> None:
            try:
                chunk = os.read(fd, 1 << 20)  # what has arrived (the pipe is readable: no wait)
                if not chunk:
                    raise EOFError("the drawing process ended")
            except (EOFError, OSError) as exc:
                loop.remove_reader(fd)
                if not answer.done():
                    answer.set_exception(exc)
                return
            got.extend(chunk)
            if len(got) >= 4 and len(got) >= 4 + (size := int.from_bytes(got[:4], "big", signed=True)):
                loop.remove_reader(fd)
                if not answer.done():
                    answer.set_result(bytes(got[4 : 4 + size]))

        loop.add_reader(fd, readable)
        return answer


def read_answer(data: bytes) -> Answer | None:
    """A drawing process's answer: (png, error, cpu seconds), or None if it could not unpickle it."""
    return None if data == NOT_HERE else pickle.loads(data)
