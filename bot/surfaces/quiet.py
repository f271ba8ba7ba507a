"""Clicks on their way to a match's commit, and the wait that lets them land: a burst of simultaneous
clicks then draws a surface once, at the last of them, instead of once per commit.

Only clicks are waited for, never the engine's write lock: the engine publishes a match's row only
once its commit is in the database, so whatever a surface reads is committed, and a commit that
lands after the read (a timer's, a command's) pokes the surface again through its own fan-out; the
reconciler folds that into the step under way. A surface that waited on the lock also queued among
the match's writers."""

from __future__ import annotations

import asyncio
import collections
import contextlib
from collections.abc import Callable, Iterator

QUIET_SECONDS = 0.5  # a surface waits at most this long for clicks on their way to a commit


class Quiet:
    def __init__(self) -> None:
        # (match, user) -> that person's clicks on their way to the match's commit (a few at most)
        self._acting: collections.Counter[tuple[int, int]] = collections.Counter()
        self._calm = asyncio.Event()  # set whenever a match has none left

    @contextlib.contextmanager
    def acting(self, match_id: int, user_id: int) -> Iterator[None]:
        """Around a click's way to its commit: while any are on their way, surfaces wait (``wait``)."""
        pair = (match_id, user_id)
        self._acting[pair] += 1
        try:
            yield
        finally:
            self._acting[pair] -= 1
            if not self._acting[pair]:
                del self._acting[pair]
            self._calm.set()  # whoever waits checks again

    def still(self, match_id: int) -> bool:
        """No click of this match is on its way to its commit now."""
        return not any(match == match_id for match, _ in self._acting)

    async def calm(self) -> None:
        """Until no click of any match is on its way to a commit (bounded as ``wait``): work that
        can wait (noting what surfaces show) leaves a burst of clicks the database to themselves."""
        await self._until(lambda: bool(self._acting))

    async def wait(self, match_id: int, user_id: int | None = None) -> None:
        """Let the clicks already on their way to this match's commit land first (a burst of
        simultaneous clicks): a surface is then drawn once, at the last of them, instead of once per
        commit. With ``user_id`` only that person's clicks are waited for: a private surface's text
        answer then goes out after its own commit, not after those of three others placing at once
        (its image still waits for all: one image, the latest). Bounded: a steady stream of clicks
        delays nobody for long."""

        def busy() -> bool:
            if user_id is not None:
                return (match_id, user_id) in self._acting
            return any(match == match_id for match, _ in self._acting)

        await self._until(busy)

    async def _until(self, busy: Callable[[], bool]) -> None:
        deadline = asyncio.get_running_loop().time() + QUIET_SECONDS
        while busy():
            left = deadline - asyncio.get_running_loop().time()
            if left <= 0:
                return
            self._calm.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._calm.wait(), left)
