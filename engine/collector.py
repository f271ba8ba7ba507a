"""Python's garbage collector set for a bot: young collections far apart, and what start-up made
kept out of full collections.

With Python's defaults (a young collection every 700 net allocations) the bench's process ran a
young collection about four times a click, and a full one over its ~147,000 objects (57 ms) every ~75
clicks: 2.1 ms of collecting a move, on average, and 57 ms pauses of the event loop. With young
collections every 10,000 and middle ones every 20 of them, 100 Ugah moves took 0.4 ms a move and
paused the loop 3.2 ms at most (issue 35). Objects are still freed the moment their last reference
goes: only cycles wait for a collection, and a bot's are few and small.

``settle`` freezes the objects alive after start-up (modules, catalogues, the commands): a full
collection then walks only what the bot made since, and none of it is ever walked again. It is for
a bot's own process (``python -m bot``), not one shared with a test run."""

from __future__ import annotations

import gc

THRESHOLDS = (10_000, 20, 10)  # young, middle, old (Python's: 700, 10, 10)


def tune() -> tuple[int, int, int]:
    """Set the bot's thresholds; the ones before, to put back."""
    before = gc.get_threshold()
    gc.set_threshold(*THRESHOLDS)
    return before


def restore(thresholds: tuple[int, int, int]) -> None:
    """Python's collector as it was before ``tune`` (and nothing frozen): a bot stopped inside a
    longer-lived process, a test."""
    gc.set_threshold(*thresholds)
    gc.unfreeze()


def settle() -> None:
    """After start-up: collect once, then keep everything alive now out of later collections."""
    gc.collect()
    gc.freeze()
