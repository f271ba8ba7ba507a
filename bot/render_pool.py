"""Drawing off the event loop: a small low-priority thread pool (Pillow releases the GIL for most of
its work), shared by every surface, command and benchmark that draws an image."""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from bot.messages import Board


def _background_priority() -> None:
    """Render threads yield the CPU to the event loop's thread: on 2 cores a busy render thread could
    delay other handlers by a scheduler time slice (measured in bench: loop delay p99)."""
    with contextlib.suppress(OSError, AttributeError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 10)


RENDER_POOL = ThreadPoolExecutor(max_workers=2, thread_name_prefix="render", initializer=_background_priority)


async def off_loop(fn: Callable[[], bytes]) -> bytes:
    """Run CPU-heavy drawing in the render pool."""
    return await asyncio.get_running_loop().run_in_executor(RENDER_POOL, fn)


async def rendered(board: Board) -> Board:
    """The board with its image drawn (once: a board keeps its bytes)."""
    if board.draw is not None and board.png is None:
        board.png = await off_loop(board.draw)
    return board
