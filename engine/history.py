"""Finished matches looked back on: every state of a match rebuilt from its seed and action log
(engine.replay), and each person's costliest decisions (engine.lessons). Both are worked out off the
event loop and kept for the last HISTORIES finished matches, whose history never changes."""

from __future__ import annotations

import asyncio
import collections
from collections.abc import Awaitable, Callable
from typing import Any

from engine import compute, lessons, replay
from engine.errors import NoLessonsYet
from engine.registry import rules_for
from engine.store import LIVE, MatchRow
from engine.writer import Writer

HISTORIES = 8  # rebuilt histories of finished matches kept for /replay (stepping is then cheap)


def owned_seat(m: MatchRow, user_id: int) -> int | None:
    """The seat whose decisions ``user_id`` made, for looking back on them (lessons, /replay): their
    seat even when they resigned and the computer played it on. (Acting in a live game goes through
    ``Writer.seat_of``, which never gives a resigned member their seat back.)"""
    return next((i for i, s in enumerate(m.seats) if s.user_id == user_id), None)


class History:
    def __init__(self, writer: Writer, run: Callable[..., Awaitable[Any]] = compute.run) -> None:
        self.writer = writer
        self.run = run  # where each decision is judged (the computers' worker process by default)
        self._histories: collections.OrderedDict[int, list[replay.Step]] = collections.OrderedDict()
        self._lessons: collections.OrderedDict[int, dict[int, list[lessons.Lesson]]] = (
            collections.OrderedDict()
        )

    def knows_lessons(self, match_id: int) -> bool:
        """Whether ``lessons(match_id)`` answers at once (worked out already)."""
        return match_id in self._lessons

    async def lessons(self, match_id: int) -> dict[int, list[lessons.Lesson]]:
        """Each person's costliest decisions in a finished match (engine.lessons), by seat; worked
        out once, decision by decision in the worker process (a computer's move queued there waits
        for one valuation at most), and kept for the last HISTORIES matches. A live match has none
        yet (NoLessonsYet)."""
        cached = self._lessons.get(match_id)
        if cached is not None:
            self._lessons.move_to_end(match_id)
            return cached
        m, state = await self.writer.get(match_id)
        if m.status in LIVE or state is None or not lessons.teaches(m.game):
            raise NoLessonsYet()
        steps = await self.history(match_id)
        people = [i for i, seat in enumerate(m.seats) if seat.user_id is not None]
        found = []
        for k, before, a in lessons.decisions(steps, people):  # one decision per job
            lesson = await self.run(lessons.judge, m.game, before, a.seat, a.action, k)
            if lesson is not None:
                found.append(lesson)
        self._lessons[match_id] = best = lessons.costliest(found, people)
        while len(self._lessons) > HISTORIES:
            self._lessons.popitem(last=False)
        return best

    async def history(self, match_id: int) -> list[replay.Step]:
        """Every state of a match rebuilt from its seed and action log (engine.replay), in order: the
        start, then one per logged action. Rebuilt in a worker thread; a finished (or cancelled)
        match's history never changes, so the last HISTORIES of them are kept."""
        cached = self._histories.get(match_id)
        if cached is not None:
            self._histories.move_to_end(match_id)
            return cached
        m, _ = await self.writer.get(match_id)
        actions = await self.writer.read(self.writer.store.actions(match_id))
        rules = rules_for(m.game)
        steps = await asyncio.to_thread(replay.rebuild, rules, len(m.seats), m.seed, m.options, actions)
        if m.status not in LIVE:
            self._histories[match_id] = steps
            while len(self._histories) > HISTORIES:
                self._histories.popitem(last=False)
        return steps
