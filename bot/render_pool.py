"""Drawing off the event loop, shared by every surface, command and benchmark that draws an image:
two drawing processes (``bot.drawing_process``), and two low-priority render threads for what they
cannot take.

The event loop sends its drawings to the first free process itself and reads the answer when it
comes (``off_loop``, ``start_drawing``); while both are busy, a drawing waits for the first to be
free. A thread that draws (``draw``) does the same, waiting on the pipe with the interpreter lock
released. A drawing that cannot be pickled, or that meets no process (not started yet, or lost), is
drawn in a render thread; a process that dies is started again on the next drawing.

A board's image is drawn once per distinct picture: drawings are shared by their inputs (the board's
image key) while in flight and kept for a while after, so the click's answer, the surface reconcilers,
a spectator's copy and the match's thread never draw the same picture twice, and an unchanged picture
comes out as the very same bytes."""

from __future__ import annotations

import asyncio
import collections
import contextlib
import functools
import logging
import pickle
import subprocess
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor

from bot.drawing_process import RENDER_THREAD, Answer, Child, background_priority, read_answer
from bot.messages import Board
from engine import cores
from render import png

log = logging.getLogger(__name__)


WORKERS = 2  # render threads, and as many drawing processes


def _render_thread() -> None:
    """A render thread yields to the event loop, and may run on any core: started by a pinned loop,
    it would share the loop's alone (engine.cores), and it draws wherever no process can."""
    background_priority()
    cores.keep(cores.anywhere())


RENDER_POOL = ThreadPoolExecutor(
    max_workers=WORKERS, thread_name_prefix=RENDER_THREAD, initializer=_render_thread
)
PROCESSES = True  # False (RENDER_PROCESSES=0, bot.settings; the tests): draw in the render threads only
_forgotten = [0]  # forget_drawings() calls: a drawing process seeing a new count drops its bands too
MAX_LOST = 3  # drawing processes lost (died, or would not start) before the threads draw alone
_lost = [0]
_slots: list[Child | None] = [None] * WORKERS
_busy = [False] * WORKERS
_reading: list[asyncio.AbstractEventLoop | None] = [None] * WORKERS  # the loop awaiting a slot's answer
_slot_lock = threading.Lock()
_children: list[Child] = []
_unpicklable: set[str] = set()  # drawings said to be drawn in the threads (not pickled)
_cpu_lock = threading.Lock()
_child_cpu = [0.0]


def child_cpu() -> float:
    """CPU seconds the drawing processes spent on drawings so far (benchmarks add it to the bot's)."""
    with _cpu_lock:
        return _child_cpu[0]


@contextlib.contextmanager
def _slot() -> Iterator[int | None]:
    """The first drawing process no other drawing is using (None: all are), while inside."""
    slot = _take_slot()
    try:
        yield slot
    finally:
        if slot is not None:
            _free_slot(slot)


def _take_slot() -> int | None:
    """Take the first free drawing process. The first is taken whenever it is free, so a click alone
    always meets the process that drew the match's last picture: its kept bands hold what the move
    left alone. Taken in turn, each process missed half of them (Ugah: 3.75 against 2.63 ms of a
    process's CPU a drawing, bench/render_pool)."""
    with _slot_lock:
        for i, loop in enumerate(_reading):
            if _busy[i] and loop is not None and loop.is_closed():
                _retire(i)  # its answer will never be read: the process goes, the slot is free
        slot = next((i for i, busy in enumerate(_busy) if not busy), None)
        if slot is not None:
            _busy[slot] = True
    return slot


def _free_slot(slot: int) -> None:
    with _slot_lock:
        _busy[slot] = False
        _reading[slot] = None
    if _queued:  # a drawing waits for it: sent from its loop (this may be a render thread)
        # (IndexError: the loop took the last meanwhile; RuntimeError: that loop closed, and _next
        # drops its drawings when it runs next)
        with contextlib.suppress(IndexError, RuntimeError):
            _queued[0][1].get_loop().call_soon_threadsafe(_next)


def _retire(slot: int) -> None:
    """(Under _slot_lock) a drawing process whose answer no loop will read: ended, and started
    afresh at the next drawing (not lost: nothing is wrong with it)."""
    child = _slots[slot]
    if child is not None:
        child.stopped = True
        child.process.kill()
        with contextlib.suppress(ValueError):
            _children.remove(child)
    _busy[slot], _reading[slot] = False, None


def _child(slot: int = 0) -> Child | None:
    """The slot's drawing process, once ready (None: draw here for now)."""
    child = _slots[slot]
    if child is not None and child.stopped:
        child.conn.close()
        child = _slots[slot] = None
    try:
        if child is None and _lost[0] < MAX_LOST:
            child = _slots[slot] = Child(slot)
            _children.append(child)
        return child if child is not None and child.is_ready() else None
    except (EOFError, OSError) as exc:
        _lose(slot, exc)
        return None


def _lose(slot: int, exc: BaseException, child: Child | None = None) -> None:
    """The slot's drawing process (``child``, if it is still the slot's) died or would not start:
    draw here; start another next time (after MAX_LOST, never again: something about this host stops
    them). One ended by shutdown() was not lost."""
    if child is not None and (child.stopped or _slots[slot] is not child):
        return
    _lost[0] += 1
    log.warning("drawing process lost (%s); drawing in the render thread", exc)
    child, _slots[slot] = _slots[slot], None
    if child is not None:
        with contextlib.suppress(ValueError):
            _children.remove(child)
        with contextlib.suppress(OSError):
            child.conn.close()


def draw(fn: Callable[[], bytes]) -> bytes:
    """One drawing, from a render thread (the loop's own drawings: ``_begin``)."""
    if not PROCESSES:
        return _seen(fn())
    with _slot() as slot:
        if slot is not None and (child := _child(slot)) is not None:
            return _seen(_draw_in(slot, child, fn))
        return _seen(fn())


def _draw_in(slot: int, child: Child, fn: Callable[[], bytes]) -> bytes:
    payload = _payload(fn)
    if payload is None:
        return fn()  # not picklable (a closure): drawn here
    try:
        answer = child.run(payload)
    except (EOFError, OSError) as exc:
        _lose(slot, exc, child)
        return fn()
    return fn() if answer is None else _took(answer)


def _payload(fn: Callable[[], bytes]) -> bytes | None:
    """The drawing pickled for a drawing process (None: it does not pickle; said once per kind)."""
    try:
        return pickle.dumps((_forgotten[0], fn), protocol=pickle.HIGHEST_PROTOCOL)
    except (pickle.PicklingError, TypeError, AttributeError) as exc:
        name = getattr(getattr(fn, "func", fn), "__qualname__", type(fn).__name__)
        if name not in _unpicklable:  # said once: a game's drawing found here is a slow path to fix
            _unpicklable.add(name)
            log.info("drawing %s does not pickle (%s): drawn in the render thread", name, exc)
        return None


def _took(answer: Answer) -> bytes:
    out, error, cpu = answer
    with _cpu_lock:
        _child_cpu[0] += cpu
    if error is not None:
        raise error
    return out


def _begin(fn: Callable[[], bytes]) -> asyncio.Future[bytes]:
    """A drawing from the event loop, begun now: sent to the first free drawing process, whose answer
    the loop reads itself when it comes. A render thread used to carry it there and back; it had to
    take the interpreter lock from the busy loop at both ends (0.3-0.4 ms of CPU a drawing, and the
    drawing began only once it got the lock). While every process is busy (a burst) it waits for
    the first to be free; the render threads draw what no process can take."""
    loop = asyncio.get_running_loop()
    if PROCESSES and _lost[0] < MAX_LOST:
        drawing: asyncio.Future[bytes] = loop.create_future()
        slot = _take_slot()
        if slot is None:
            _queued.append((fn, drawing))
            return drawing
        if _send(slot, fn, drawing):
            return drawing
    # the executor's own future, not one chained to it: a simulated Discord (the tests) knows it
    return loop.run_in_executor(RENDER_POOL, _drawn_here, fn)


_queued: collections.deque[tuple[Callable[[], bytes], asyncio.Future[bytes]]] = collections.deque()


def _send(slot: int, fn: Callable[[], bytes], drawing: asyncio.Future[bytes]) -> bool:
    """The drawing sent to the slot's process (False, the slot freed: it cannot take it now)."""
    child = _child(slot)
    payload = _payload(fn) if child is not None else None
    if child is None or payload is None:
        _free_slot(slot)
        return False
    try:
        child.conn.send_bytes(payload)
    except OSError as exc:
        _lose(slot, exc, child)
        _free_slot(slot)
        return False
    loop = drawing.get_loop()
    _reading[slot] = loop
    child.answer_on(loop).add_done_callback(functools.partial(_came, slot, child, fn, drawing))
    return True


def _came(
    slot: int,
    child: Child,
    fn: Callable[[], bytes],
    drawing: asyncio.Future[bytes],
    got: asyncio.Future[bytes],
) -> None:
    """The drawing process answered (or died): the drawing is done, and the slot free for the next."""
    try:
        answer = read_answer(got.result())
    except (EOFError, OSError) as exc:
        _lose(slot, exc, child)
        answer = None
    _free_slot(slot)
    if answer is None:  # it died, or could not unpickle the drawing: a render thread draws it
        _in_thread(fn, drawing)
    elif not drawing.cancelled():
        try:
            drawing.set_result(_seen(_took(answer)))
        except Exception as exc:  # the drawing's own error
            drawing.set_exception(exc)


def _next() -> None:
    """Queued drawings go to the processes free now (on the loop that queued them)."""
    while _queued:
        fn, drawing = _queued[0]
        if drawing.get_loop().is_closed() or drawing.cancelled():
            _queued.popleft()
            continue
        slot = _take_slot()
        if slot is None:
            return
        _queued.popleft()
        if not _send(slot, fn, drawing):
            _in_thread(fn, drawing)


def _in_thread(fn: Callable[[], bytes], drawing: asyncio.Future[bytes]) -> None:
    drawn = drawing.get_loop().run_in_executor(RENDER_POOL, _drawn_here, fn)
    drawn.add_done_callback(functools.partial(_pass_on, drawing))


def _pass_on(drawing: asyncio.Future[bytes], done: asyncio.Future[bytes]) -> None:
    if not drawing.done():
        if done.cancelled():
            drawing.cancel()
        elif (exc := done.exception()) is not None:
            drawing.set_exception(exc)
        else:
            drawing.set_result(done.result())


def _drawn_here(fn: Callable[[], bytes]) -> bytes:
    return _seen(fn())


_watchers: list[list[bytes]] = []


def _seen(png: bytes) -> bytes:
    for drawn in _watchers:
        drawn.append(png)
    return png


@contextlib.contextmanager
def drawn_pictures() -> Iterator[list[bytes]]:
    """Every picture drawn while inside, in order (benchmarks count the drawings)."""
    drawn: list[bytes] = []
    _watchers.append(drawn)
    try:
        yield drawn
    finally:
        _watchers.remove(drawn)


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
    """A drawing off the event loop (in a drawing process, or else a render thread)."""
    return await _begin(fn)


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
    # sent now, not when a task wrapping it first runs: that would be only once the caller next
    # yields, i.e. after the text answer went out (measured: the drawing began ~2 ms late)
    drawing = _begin(board.draw)
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
