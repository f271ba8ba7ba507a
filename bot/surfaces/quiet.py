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
        self._working = 0  # clicks being answered, fan-outs and surfaces' workers under way
        self._calm = asyncio.Event()  # set whenever a click lands (whoever waits checks again)
        self._idle = asyncio.Event()  # set whenever nothing at all is on its way (``calm``)

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
            self._check_idle()

    @contextlib.contextmanager
    def working(self) -> Iterator[None]:
        """Around a click's answer, a commit's fan-out, or a surface's worker: what surfaces show is
        noted meanwhile, and written once all of it is done (``calm``), in one transaction, not one
        per note."""
        self.begin()
        try:
            yield
        finally:
            self.end()

    def begin(self) -> None:
        """``working`` for work that begins now and ends in another task (a fan-out)."""
        self._working += 1

    def end(self) -> None:
        self._working -= 1
        self._check_idle()

    def _busy(self) -> bool:
        return self._working > 0 or bool(self._acting)

    def _check_idle(self) -> None:
        if not self._busy():  # (not at every step: a waiter woken would only wait again)
            self._idle.set()

    def still(self, match_id: int) -> bool:
        """No click of this match is on its way to its commit now."""
        return not any(match == match_id for match, _ in self._acting)

    async def calm(self) -> None:
        """Until no click of any match is on its way to a commit, is being answered, nor any surface
        being brought in line (bounded as ``wait``): work that can wait (noting what surfaces show)
        leaves a burst of clicks the database to themselves, and what a move's answer and its
        fan-out noted goes in one transaction."""
        await self._until(self._busy, self._idle)

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

        await self._until(busy, self._calm)

    @staticmethod
    async def _until(busy: Callable[[], bool], changed: asyncio.Event) -> None:
        deadline = asyncio.get_running_loop().time() + QUIET_SECONDS
        while busy():
            left = deadline - asyncio.get_running_loop().time()
            if left <= 0:
                return
            changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(changed.wait(), left)
