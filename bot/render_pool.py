"""Drawing off the event loop: a small low-priority thread pool (Pillow releases the GIL for most of
its work), shared by every surface, command and benchmark that draws an image.

A board's image is drawn once per distinct picture: drawings are shared by their inputs (the board's
image key) while in flight and kept for a while after, so the click's answer, the surface reconcilers,
a spectator's copy and the match's thread never draw the same picture twice, and an unchanged picture
comes out as the very same bytes."""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from bot.messages import Board
from render import png


def _background_priority() -> None:
    """Render threads yield the CPU to the event loop's thread: on 2 cores a busy render thread could
    delay other handlers by a scheduler time slice (measured in bench: loop delay p99)."""
    with contextlib.suppress(OSError, AttributeError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 10)


RENDER_POOL = ThreadPoolExecutor(max_workers=2, thread_name_prefix="render", initializer=_background_priority)


def draw(fn: Callable[[], bytes]) -> bytes:
    """One drawing, on a render thread: every drawing goes through here (benchmarks count them)."""
    return fn()


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


def forget_drawings() -> None:
    """Drop every kept picture and deflated band (benchmarks time the drawing, not its reuse)."""
    _drawings.clear()
    png.forget()


def _forget_failed(key: str) -> Callable[[asyncio.Future[bytes]], None]:
    def done(drawing: asyncio.Future[bytes]) -> None:
        # a failed drawing is drawn anew next time (its exception is retrieved here: no warning)
        failed = drawing.cancelled() or drawing.exception() is not None
        if failed and _drawings.get(key) is drawing:
            del _drawings[key]

    return done


async def rendered(board: Board) -> Board:
    """The board with its image drawn (once per picture: a board keeps its bytes)."""
    if board.draw is not None and board.png is None:
        start_drawing(board)
        board.png = await asyncio.shield(_drawings[board.image_key])
    return board
