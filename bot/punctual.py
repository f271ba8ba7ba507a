"""A click acknowledged within Discord's 3 s however busy the bot is.

Discord shows "This interaction failed" when a click gets no answer within 3 s. A click normally
answers by redrawing its message at once; on a loaded machine (a burst of clicks, drawing processes
sharing the cores) the commit before that answer can take longer. So if no answer has gone out
``seconds`` after the click arrived, it is acknowledged with a deferred update (Discord shows nothing
failed, the message stays as it is) and the answer, when ready, edits the message instead: the click's
response calls are routed through ``Punctual``, which turns them into their after-deferral twins. A
lock orders the deferral and the answer, so Discord never gets two acknowledgements of one click.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import heapq
import itertools
import logging
import threading
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any

import discord
from discord.utils import MISSING
from discord.webhook.async_ import async_context, interaction_message_response_params

log = logging.getLogger(__name__)

ACK_SECONDS = 2.0  # leaves a second of Discord's 3 for the gateway's delivery and the deferral itself
_deferring: set[asyncio.Task[None]] = set()  # (the loop keeps only weak references to tasks)


@dataclass(frozen=True)
class _Sent:
    """What ``send_message`` returns that callers read: the new message's id."""

    message_id: int


class Punctual(discord.InteractionResponse):  # pyright: ignore[reportMissingTypeArgument]
    """An interaction's response that may have been acknowledged already by ``acknowledge``."""

    __slots__ = ("_deferred", "_lock")

    def __init__(self, parent: discord.Interaction) -> None:
        super().__init__(parent)
        self._lock = asyncio.Lock()
        self._deferred = False  # acknowledged by the deferral, not by an answer

    async def acknowledge(self) -> None:
        """The deferred update, unless an answer went out meanwhile."""
        async with self._lock:
            if self.is_done():
                return
            try:
                await super().defer()
            except discord.HTTPException as err:  # the answer, when it comes, says what it can
                log.info("a late click could not be deferred: %s", err)
                return
            self._deferred = True
            log.info("click %s acknowledged late: answer deferred", self._parent.id)

    async def defer(self, *, ephemeral: bool = False, thinking: bool = False) -> Any:
        async with self._lock:
            if not self._deferred:
                return await super().defer(ephemeral=ephemeral, thinking=thinking)
        return None  # acknowledged already: what follows goes out as a follow-up anyway

    async def send_message(self, content: Any = None, **kwargs: Any) -> Any:
        async with self._lock:
            if not self._deferred:
                return await super().send_message(content, **kwargs)
        kwargs.pop("delete_after", None)
        message = await self._parent.followup.send(content, wait=True, **kwargs)
        return _Sent(message.id)

    async def edit_message(self, **kwargs: Any) -> Any:
        async with self._lock:
            if not self._deferred:
                if kwargs.keys() <= _LEAN_EDIT:
                    return await self._update_message(**kwargs)
                return await super().edit_message(**kwargs)
        kwargs.pop("delete_after", None)
        kwargs.pop("suppress_embeds", None)
        await self._parent.edit_original_response(**kwargs)
        return None

    async def _update_message(self, **kwargs: Any) -> None:
        """discord.py's ``edit_message`` (2.7.1) without making a ``Message`` of Discord's answer: the
        bot never reads it, and parsing a board's controls back took a tenth of a move's CPU (Uonga's
        25 squares: 0.4 ms a move). Same request, same checks, same view bookkeeping."""
        if self._response_type:
            raise discord.InteractionResponded(self._parent)
        parent = self._parent
        if parent.type not in (discord.InteractionType.component, discord.InteractionType.modal_submit):
            return  # (discord.py's answer too: nothing to edit)
        state = parent._state
        message_id = parent.message.id if parent.message is not None else None
        view = kwargs.get("view", MISSING)
        if view is not MISSING and message_id is not None:
            state.prevent_view_updates_for(message_id)
        params = interaction_message_response_params(
            type=discord.InteractionResponseType.message_update.value,
            previous_allowed_mentions=state.allowed_mentions,
            **kwargs,
        )
        http = state.http
        data = await async_context.get().create_interaction_response(
            parent.id, parent.token, session=parent._session, proxy=http.proxy, proxy_auth=http.proxy_auth,
            params=params,
        )  # fmt: skip
        self._response_type = discord.InteractionResponseType.message_update
        if view and not view.is_finished() and view.is_dispatchable():
            answered = ((data or {}).get("interaction") or {}).get("response_message_id")
            state.store_view(view, message_id or (int(answered) if answered else None))


# what the lean edit takes; anything else (delete_after, suppress_embeds) goes through discord.py's own
_LEAN_EDIT = {"content", "embed", "embeds", "attachments", "view", "allowed_mentions"}


class _Watch:
    """One thread that hands a callback back to its loop once its real time has come: Discord's 3 s
    are real time whatever clock the loop keeps (a simulated Discord's virtual one, in tests, only
    moves once the bot is idle, and a busy bot is the case here), and one thread serves every click."""

    def __init__(self) -> None:
        self._due: list[tuple[float, int, _Entry]] = []
        self._order = itertools.count()
        self._changed = threading.Condition()
        self._thread: threading.Thread | None = None

    def call_later(
        self, seconds: float, loop: asyncio.AbstractEventLoop, callback: Callable[[], None]
    ) -> _Entry:
        entry = _Entry(loop, callback, contextvars.copy_context())  # (where discord.py keeps its HTTP)
        with self._changed:
            heapq.heappush(self._due, (time.perf_counter() + seconds, next(self._order), entry))
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="punctual", daemon=True)
                self._thread.start()
            self._changed.notify()
        return entry

    def _run(self) -> None:
        with self._changed:
            while True:
                if not self._due:
                    self._changed.wait()
                    continue
                at, _, entry = self._due[0]
                if at > time.perf_counter():
                    self._changed.wait(at - time.perf_counter())
                    continue
                heapq.heappop(self._due)
                if not entry.cancelled:
                    with contextlib.suppress(RuntimeError):  # (its loop closed meanwhile)
                        entry.loop.call_soon_threadsafe(entry.fire, context=entry.context)


@dataclass
class _Entry:
    loop: asyncio.AbstractEventLoop
    callback: Callable[[], None]
    context: contextvars.Context
    cancelled: bool = False

    def fire(self) -> None:
        if not self.cancelled:
            self.callback()

    def cancel(self) -> None:
        self.cancelled = True


_watch = _Watch()


class Clicks:
    """The clicks this bot is handling, each acknowledged in time: ``seconds`` after Discord made it
    if nothing answered it by then, or at once when so many clicks are waiting for their answers that
    the event loop will not reach them all in time (a burst: the deferral of each goes out before the
    handlers' work, which a loop turn per step would otherwise queue behind). 0: every click at once,
    before it is handled (the tests of the deferred way)."""

    def __init__(self, seconds: float = ACK_SECONDS) -> None:
        self.seconds = seconds
        self._open: dict[int, tuple[Punctual, _Entry | None]] = {}

    def arrived(self, interaction: discord.Interaction) -> None:
        """A click just parsed (bot.client.GameBot.dispatch), before any handler runs. (discord.py
        keeps the response in the ``_cs_response`` slot of its cached property: setting it is how
        every ``interaction.response`` call reaches ``Punctual``.)"""
        response = Punctual(interaction)
        interaction._cs_response = response  # pyright: ignore[reportAttributeAccessIssue]
        waiting = sum(1 for r, _ in self._open.values() if not r.is_done())
        key = interaction.id
        entry = None
        if waiting >= CROWD and self.seconds > 0:
            _spawn(response.acknowledge())
        elif self.seconds > 0:
            # how long ago Discord made it (its id's timestamp), 0 to ``seconds``: a clock set wrong
            # either way at most defers a click at once
            age = (discord.utils.utcnow() - discord.utils.snowflake_time(key)).total_seconds()
            entry = _watch.call_later(
                self.seconds - min(max(age, 0.0), self.seconds), asyncio.get_running_loop(),
                lambda: self._late(key),
            )  # fmt: skip
        self._open[key] = (response, entry)

    def _late(self, key: int) -> None:
        response, _ = self._open.pop(key, (None, None))
        if response is not None:
            _spawn(response.acknowledge())

    async def handling(self, interaction: discord.Interaction) -> None:
        """The click's handler starts: with ``seconds`` 0 it is acknowledged first."""
        if self.seconds <= 0 and isinstance(interaction.response, Punctual):
            await interaction.response.acknowledge()

    def alone(self) -> bool:
        """Whether this is the only click being handled: a burst's clicks share the CPU, and work
        that can wait (a picture drawn ahead of its commit) waits."""
        return len(self._open) <= 1

    def handled(self, interaction: discord.Interaction) -> None:
        """The click's handler is done: its watch ends."""
        _, entry = self._open.pop(interaction.id, (None, None))
        if entry is not None:
            entry.cancel()


CROWD = 16  # clicks waiting for their answers beyond which a new one is acknowledged at once


def _spawn(coro: Coroutine[Any, Any, None]) -> None:
    task = asyncio.get_running_loop().create_task(coro)
    _deferring.add(task)
    task.add_done_callback(_deferring.discard)
