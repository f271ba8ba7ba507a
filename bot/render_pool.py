"""Drawing off the event loop, shared by every surface, command and benchmark that draws an image:
two low-priority render threads, handing their drawings to two drawing processes.

The drawing is Python code that holds the interpreter lock while it runs, so a render thread used
to take turns with the event loop (a 4 ms board took 10-16 ms of wall time beside a busy loop). In a
process of its own it runs on another core: the thread only pickles the inputs (a view dict, names,
a caption, a language), waits on a pipe with the lock released, and hands the PNG back. A drawing
that cannot be pickled, or whose process has died, is drawn in the thread as before; a process
that dies is started again on the next drawing.

A board's image is drawn once per distinct picture: drawings are shared by their inputs (the board's
image key) while in flight and kept for a while after, so the click's answer, the surface reconcilers,
a spectator's copy and the match's thread never draw the same picture twice, and an unchanged picture
comes out as the very same bytes."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import pickle
import socket
import subprocess
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from multiprocessing.connection import Connection
from typing import Any

from bot.messages import Board
from engine import orphans
from render import png

log = logging.getLogger(__name__)


def _background_priority() -> None:
    """Render threads and processes yield the CPU to the event loop's thread: on 2 cores a busy
    renderer could delay other handlers by a scheduler time slice (measured in bench: loop delay p99)."""
    with contextlib.suppress(OSError, AttributeError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 10)


RENDER_THREAD = "render"  # the render threads' name prefix
WORKERS = 2  # render threads, and as many drawing processes
RENDER_POOL = ThreadPoolExecutor(
    max_workers=WORKERS, thread_name_prefix=RENDER_THREAD, initializer=_background_priority
)
PROCESSES = True  # False (RENDER_PROCESSES=0, bot.settings; the tests): draw in the render threads only
_forgotten = [0]  # forget_drawings() calls: a drawing process seeing a new count drops its bands too
READY = b"ready"
NOT_HERE = b"not here"  # a drawing process's answer to a drawing it cannot unpickle
MAX_LOST = 3  # drawing processes lost (died, or would not start) before the threads draw alone
_lost = [0]
_slots: list[_Child | None] = [None] * WORKERS
_busy = [False] * WORKERS
_slot_lock = threading.Lock()
_children: list[_Child] = []
_unpicklable: set[str] = set()  # drawings said to be drawn in the threads (not pickled)
_cpu_lock = threading.Lock()
_child_cpu = [0.0]


def child_cpu() -> float:
    """CPU seconds the drawing processes spent on drawings so far (benchmarks add it to the bot's)."""
    with _cpu_lock:
        return _child_cpu[0]


def _serve(conn: Connection, parent_pid: int, pdeathsig: bool) -> None:
    """A drawing process: draw what arrives, answer (png, error, cpu seconds); end when the pipe does,
    or at once when the bot does (even mid-drawing: a SIGKILLed bot must leave no process behind)."""
    orphans.die_with_parent(parent_pid, pdeathsig=pdeathsig)
    _background_priority()
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
        except Exception:  # e.g. a function of the bot's __main__: the render thread draws it
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
        except Exception as exc:  # raised again in the render thread
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
    "import sys; from multiprocessing.connection import Connection; from bot.render_pool import _serve; "
    "_serve(Connection(int(sys.argv[1])), int(sys.argv[2]), sys.argv[3] == '1')"
)


class _Child:
    """One drawing process and the pipe to it, used by one thread at a time (``_slot``). It is started
    in the background: until it says it is ready (its imports take about a second), the thread
    draws, so no drawing waits for it. A plain Python process running ``_serve`` (not multiprocessing's
    spawn, which would run the bot's main module again in the child), on the bot's own sys.path."""

    def __init__(self) -> None:
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

    def run(self, payload: bytes) -> tuple[Any, BaseException | None, float] | None:
        """The drawing's (png, error, cpu seconds), or None if the process cannot unpickle it."""
        self.conn.send_bytes(payload)
        answer = self.conn.recv_bytes()
        return None if answer == NOT_HERE else pickle.loads(answer)


@contextlib.contextmanager
def _slot() -> Iterator[int | None]:
    """The first drawing process no other thread is using (None: all are). The first is taken
    whenever it is free, so a click alone always meets the process that drew the match's last
    picture: its kept bands hold what the move left alone. Taken in turn, each process missed half
    of them (Ugah: 3.75 against 2.63 ms of a process's CPU a drawing, bench/render_pool)."""
    with _slot_lock:
        slot = next((i for i, busy in enumerate(_busy) if not busy), None)
        if slot is not None:
            _busy[slot] = True
    try:
        yield slot
    finally:
        if slot is not None:
            with _slot_lock:
                _busy[slot] = False


def _child(slot: int = 0) -> _Child | None:
    """The slot's drawing process, once ready (None: draw here for now)."""
    child = _slots[slot]
    if child is not None and child.stopped:
        child.conn.close()
        child = _slots[slot] = None
    try:
        if child is None and _lost[0] < MAX_LOST:
            child = _slots[slot] = _Child()
            _children.append(child)
        return child if child is not None and child.is_ready() else None
    except (EOFError, OSError) as exc:
        _lose(slot, exc)
        return None


def _lose(slot: int, exc: BaseException) -> None:
    """The slot's drawing process died or would not start: draw here; start another next time
    (after MAX_LOST, never again: something about this host stops them)."""
    _lost[0] += 1
    log.warning("drawing process lost (%s); drawing in the render thread", exc)
    child, _slots[slot] = _slots[slot], None
    if child is not None:
        with contextlib.suppress(ValueError):
            _children.remove(child)
        with contextlib.suppress(OSError):
            child.conn.close()


def draw(fn: Callable[[], bytes]) -> bytes:
    """One drawing, from a render thread: every drawing goes through here (benchmarks count them)."""
    if not PROCESSES:
        return fn()
    with _slot() as slot:
        if slot is not None and (child := _child(slot)) is not None:
            return _draw_in(slot, child, fn)
        return fn()


def _draw_in(slot: int, child: _Child, fn: Callable[[], bytes]) -> bytes:
    try:
        payload = pickle.dumps((_forgotten[0], fn), protocol=pickle.HIGHEST_PROTOCOL)
    except (pickle.PicklingError, TypeError, AttributeError) as exc:
        name = getattr(getattr(fn, "func", fn), "__qualname__", type(fn).__name__)
        if name not in _unpicklable:  # said once: a game's drawing found here is a slow path to fix
            _unpicklable.add(name)
            log.info("drawing %s does not pickle (%s): drawn in the render thread", name, exc)
        return fn()  # not picklable (a closure): drawn here
    try:
        answer = child.run(payload)
    except (EOFError, OSError) as exc:
        _lose(slot, exc)
        return fn()
    if answer is None:
        return fn()
    out, error, cpu = answer
    with _cpu_lock:
        _child_cpu[0] += cpu
    if error is not None:
        raise error
    return out


def shutdown() -> None:
    """End every drawing process now (the bot is stopping, or could not start): they would end with
    the bot's process anyway, but a bot stopped inside a longer-lived process (a test) must not keep
    them. A later drawing starts them again."""
    for child in list(_children):
        child.stopped = True
        with contextlib.suppress(ValueError):
            _children.remove(child)
        child.process.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            child.process.wait(5)


def warm_up(timeout: float = 30.0) -> None:
    """Start every drawing process and wait until they are ready (benchmarks time the steady state,
    not a bot's first second). Started from the render threads: a process asks to die with the
    thread that started it, and those last as long as the bot."""
    if not PROCESSES:
        return
    barrier = threading.Barrier(WORKERS)

    def start(slot: int) -> None:
        barrier.wait(timeout)  # holds each job on a thread of its own
        deadline = time.monotonic() + timeout
        while _child(slot) is None and _lost[0] < MAX_LOST and time.monotonic() < deadline:
            time.sleep(0.02)

    for job in [RENDER_POOL.submit(start, slot) for slot in range(WORKERS)]:
        job.result()


async def off_loop(fn: Callable[[], bytes]) -> bytes:
    """Run CPU-heavy drawing in the render pool."""
    return await asyncio.get_running_loop().run_in_executor(RENDER_POOL, draw, fn)


KEPT = 64  # pictures kept after drawing: a live match's latest few (a board PNG is ~20 KiB)
_drawings: OrderedDict[str, asyncio.Future[bytes]] = OrderedDict()


def start_drawing(board: Board) -> None:
    """Begin drawing the board's image now (once), so that it is under way while the text goes out."""
    if board.draw is None or board.png is not None:
        return
    key, loop = board.image_key, asyncio.get_running_loop()
    drawing = _drawings.get(key)
    if drawing is not None and drawing.get_loop() is loop:  # (a failed one is forgotten when it fails)
        _drawings.move_to_end(key)
        return
    # submitted to the pool now, not when a task wrapping it first runs: that would be only once the
    # caller next yields, i.e. after the text answer went out (measured: the drawing began ~2 ms late)
    drawing = loop.run_in_executor(RENDER_POOL, draw, board.draw)
    drawing.add_done_callback(_forget_failed(key))
    _drawings[key] = drawing
    while len(_drawings) > KEPT:
        _drawings.popitem(last=False)


def forget_drawings(bands: bool = True) -> None:
    """Drop every kept picture, and every deflated band unless ``bands`` is False (benchmarks time
    the drawing, not its reuse; without the bands, as a picture never drawn but like the last ones)."""
    _drawings.clear()
    if bands:
        png.forget()
        _forgotten[0] += 1


def _forget_failed(key: str) -> Callable[[asyncio.Future[bytes]], None]:
    def done(drawing: asyncio.Future[bytes]) -> None:
        # a failed drawing is drawn anew next time (its exception is retrieved here: no warning)
        failed = drawing.cancelled() or drawing.exception() is not None
        if failed and _drawings.get(key) is drawing:
            del _drawings[key]

    return done


async def drawn_within(board: Board, seconds: float) -> bool:
    """Whether the board's image is drawn within ``seconds`` (then it is on the board). A drawing
    that failed is not waited for: whoever awaits it with ``rendered`` meets its error."""
    if board.draw is None:
        return False
    if board.png is None:
        start_drawing(board)
        try:
            board.png = await asyncio.wait_for(asyncio.shield(_drawings[board.image_key]), seconds)
        except Exception:  # not drawn yet (TimeoutError), or it failed
            return False
    return True


async def rendered(board: Board) -> Board:
    """The board with its image drawn (once per picture: a board keeps its bytes)."""
    if board.draw is not None and board.png is None:
        start_drawing(board)
        board.png = await asyncio.shield(_drawings[board.image_key])
    return board
