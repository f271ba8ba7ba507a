"""SimCord made live for the playground (private API of simcord 3.2.1, pinned exactly).

SimCord is built for tests: every operation (a click, a command, advancing the clock) ends by
*settling*, waiting until all of the bot's work is done (drawing, the computer's think timers and
process, the recap, every timer due within its 5 s limit), and fails past that limit. In a
playground that runs for an hour with the clock moving and computers thinking, that made a click
wait for unrelated work (1.5-9 s under load), fail with "Action was not completed." or "outcome
uncertain" when the work outlived 5 s, and made clock ticks fail with "bot did not settle while
advancing time". On Discord a click is answered when the bot answers it; what follows (the image,
the DMs, the computer's move) arrives as it is ready. ``LiveSettle`` makes SimCord do that: its
settle runs the timers that are due and waits only until every interaction sent so far is answered;
the bot's other work goes on in the background and the pages catch up on the clock's next tick.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from typing import Any

from simcord._settlement import _run_due_virtual_callbacks

log = logging.getLogger("playground")

# Discord gives a bot 3 s to answer an interaction; past this much longer bound the click is
# reported as timed out (a bot that never answers), instead of waiting forever
ANSWER_LIMIT = 30.0


class LiveSettle:
    """Replaces ``env._settle_internal`` (what every SimCord operation awaits at its end)."""

    def __init__(self, env: Any) -> None:
        self.env = env
        self.unanswered: list[Any] = []  # SimCord's interaction records, as they are dispatched
        self._unregister = env._register_dispatch_observer(self.unanswered.append)
        self.live(True)

    def live(self, on: bool) -> None:
        """On: this settle. Off: SimCord's own, which waits for all of the bot's work (a tool that
        drives SimCord directly, as the tests do; closing the session)."""
        if on:
            self.env._settle_internal = self.settle
        else:
            vars(self.env).pop("_settle_internal", None)

    def close(self) -> None:
        self._unregister()
        self.live(False)

    def run_due_timers(self) -> None:
        """Fire the bot's timers that are due on the virtual clock (SimCord's settle does this
        first; a few rounds, as a firing timer may start another one that is due at once)."""
        loop = asyncio.get_running_loop()
        for _ in range(8):
            state = self.env._settlement_state()
            due = [
                r
                for r in state.work.callbacks
                if r.when is not None and r.when <= state.virtual_time and r.handle is not None
            ]
            if not any(not r.handle.cancelled() for r in due):
                return
            _run_due_virtual_callbacks(state, loop.time() + 0.05)

    async def settle(self, *, dispatch: str | None = None, **_: Any) -> None:
        """Due timers fired, then wait until every interaction dispatched so far is answered (the
        bot's answer, a deferral or a modal: what Discord waits for); never for the bot's other
        work. Only the operation holding SimCord (a click, a command, a tick) waits for answers: a
        timer SimCord fires by itself in real time advances the clock from a task of its own."""
        env, loop = self.env, asyncio.get_running_loop()
        env._last_dispatch = dispatch
        self.run_due_timers()
        await asyncio.sleep(0)
        if env._operation_task is not asyncio.current_task():
            return
        limit = loop.time() + ANSWER_LIMIT
        while True:
            self.unanswered[:] = [i for i in self.unanswered if not i.responded]
            if not self.unanswered:
                break
            if loop.time() >= limit:
                stuck, self.unanswered[:] = len(self.unanswered), []
                raise TimeoutError(f"the bot did not answer {stuck} interaction(s) within {ANSWER_LIMIT:g} s")
            self.run_due_timers()
            await asyncio.sleep(0.002)
        self.run_due_timers()


class Changes:
    """Which channels the bot changed since it was last asked: what the gateway was told (messages
    created, edited, deleted in a channel, threads) and the ephemeral messages it edited through an
    interaction's token, which Discord tells nobody but the person who sees them. The clock
    republishes only the pages of those channels: republishing every page on every change of any
    held the pages for up to 1.6 s at a time on a busy machine."""

    TOKEN_PATH = re.compile(r"^/(?:webhooks/\d+|interactions/\d+)/([^/]+)")

    def __init__(self, env: Any) -> None:
        self.env = env
        self.dirty: set[int] = set()
        self._read = len(env.http_requests)
        env.backend.subscribers.append(self._told)

    def close(self) -> None:
        with contextlib.suppress(ValueError):
            self.env.backend.subscribers.remove(self._told)

    def _told(self, event: str, payload: Any) -> None:
        if isinstance(payload, dict):
            for key in (
                ("channel_id", "parent_id", "id")
                if event.startswith(("THREAD", "CHANNEL"))
                else ("channel_id",)
            ):
                if payload.get(key) is not None:
                    with contextlib.suppress(TypeError, ValueError):
                        self.dirty.add(int(payload[key]))

    def take(self) -> set[int]:
        """The channels changed since the last call."""
        requests = self.env.http_requests
        tokens = {m[1] for r in requests[self._read :] if (m := self.TOKEN_PATH.match(r.path.split("?")[0]))}
        self._read = len(requests)
        if tokens:
            for record in self.env.backend.interactions.values():
                if record.token in tokens:
                    self.dirty.add(int(record.channel_id))
        dirty, self.dirty = self.dirty, set()
        return dirty
