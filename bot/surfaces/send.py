"""The small "send" protocol the surfaces speak, its discord.py implementation, and what each Discord
error deserves: retry (rate limits, Discord's own failures), or give up cleanly (the message or
channel is gone, DMs are closed, a permission is missing, an interaction token expired)."""

from __future__ import annotations

import contextlib
import contextvars
import logging
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Protocol

import discord
from discord.http import HTTPClient, handle_message_parameters
from discord.utils import MISSING

from bot.messages import Board
from render.graphemes import ELLIPSIS, cut

log = logging.getLogger(__name__)

UNKNOWN_CHANNEL, UNKNOWN_MESSAGE, UNKNOWN_WEBHOOK = 10003, 10008, 10015
DMS_CLOSED, INVALID_TOKEN = 50007, 50027
# what became of a Discord call
RETRY, MESSAGE_GONE, CHANNEL_GONE, DMS_SHUT, FORBIDDEN, EXPIRED, FAILED = (
    "retry", "message_gone", "channel_gone", "dms_closed", "forbidden", "expired", "failed"
)  # fmt: skip
BACKOFF = (0.25, 0.5, 1.0, 1.0, 2.0, 4.0, 8.0)  # Discord's own failures (5xx): try again, slower


@dataclass(frozen=True)
class Verdict:
    what: str
    after: float | None = None  # seconds to wait before retrying (a rate limit says how long)


def verdict(err: Exception) -> Verdict:
    """How to treat a failed Discord call."""
    if isinstance(err, discord.RateLimited):
        return Verdict(RETRY, err.retry_after)
    if not isinstance(err, discord.HTTPException):
        return Verdict(FAILED)
    if err.status == 429:  # discord.py already waited out what it could: wait a second more
        retry_after = getattr(err, "retry_after", None)
        return Verdict(RETRY, float(retry_after) if retry_after else 1.0)
    if err.status >= 500:
        return Verdict(RETRY)
    if err.code == UNKNOWN_CHANNEL:
        return Verdict(CHANNEL_GONE)
    if err.code == UNKNOWN_MESSAGE:
        return Verdict(MESSAGE_GONE)
    if err.code in (UNKNOWN_WEBHOOK, INVALID_TOKEN) or err.status == 401:
        return Verdict(EXPIRED)
    if err.code == DMS_CLOSED:
        return Verdict(DMS_SHUT)
    if isinstance(err, discord.NotFound):
        return Verdict(MESSAGE_GONE)
    if isinstance(err, discord.Forbidden):
        return Verdict(FORBIDDEN)
    return Verdict(FAILED)


# discord.py meets a 429 by sleeping its retry_after and trying again, five times, before it raises. A
# surface would rather hear of it at once: it has another route (a click's interaction token), or it
# waits retry_after itself and then sends what is newest by then. Within ``hurried()`` discord.py's own
# limit on such a wait (HTTPClient.max_ratelimit_timeout, read at each 429, at least 30 s through its
# public API) is a moment, so a 429 raises discord.RateLimited at once. Discord is not pressed harder
# for it: whoever hears of the 429 still waits retry_after before trying that route again.
_HURRY: contextvars.ContextVar[bool] = contextvars.ContextVar("hurry", default=False)
HURRY_SECONDS = 0.001


@contextlib.contextmanager
def hurried() -> Iterator[None]:
    """Discord's rate limits on the calls made within are heard at once (discord.RateLimited)."""
    token = _HURRY.set(True)
    try:
        yield
    finally:
        _HURRY.reset(token)


class _PerRequest:
    """HTTPClient.max_ratelimit_timeout as discord.py reads it: a moment within ``hurried()``, else
    the client's own (None: wait out any 429)."""

    def __get__(self, http: Any, owner: Any = None) -> Any:
        if http is None:
            return self
        return HURRY_SECONDS if _HURRY.get() else vars(http).get("max_ratelimit_timeout")

    def __set__(self, http: Any, value: float | None) -> None:
        vars(http)["max_ratelimit_timeout"] = value


def _install() -> None:
    if isinstance(HTTPClient.__dict__.get("max_ratelimit_timeout"), _PerRequest):
        return
    make_bucket = HTTPClient.get_ratelimit

    def get_ratelimit(http: HTTPClient, key: str) -> Any:
        # a rate limit bucket serves every later call on its route and takes the limit it is made
        # with (its pre-emptive waits too): it keeps the client's own, whoever makes it
        token = _HURRY.set(False)
        try:
            return make_bucket(http, key)
        finally:
            _HURRY.reset(token)

    setattr(HTTPClient, "max_ratelimit_timeout", _PerRequest())  # noqa: B010
    setattr(HTTPClient, "get_ratelimit", get_ratelimit)  # noqa: B010


class Send(Protocol):
    """Everything the surfaces ask of Discord."""

    async def edit(self, channel_id: int, message_id: int, board: Board, *, image: bool = True) -> None: ...
    async def edit_by_token(
        self, token: str, message_id: int, board: Board, *, image: bool = True
    ) -> None: ...
    async def post(
        self,
        channel_id: int,
        board: Board | None = None,
        *,
        text: str | None = None,
        reply_to: int | None = None,
        mentions: tuple[int, ...] = (),
        files: list[discord.File] | None = None,
    ) -> int: ...
    async def delete(self, channel_id: int, message_id: int) -> None: ...
    async def follow_up(self, token: str, text: str, mentions: tuple[int, ...] = ()) -> int: ...
    async def delete_follow_up(self, token: str, message_id: int) -> None: ...
    async def dm_channel(self, user_id: int) -> int: ...
    async def start_thread(self, channel_id: int, message_id: int, name: str) -> int: ...
    async def open_thread(self, channel_id: int, name: str) -> int: ...
    async def archive(self, thread_id: int) -> None: ...


class DiscordSend:
    """``Send`` through a discord.py client (the real one, or SimCord's in tests)."""

    def __init__(self, client: discord.Client) -> None:
        self.client = client
        _install()  # hurried() works on every HTTP client (SimCord's too: it replaces the client's)

    def _channel(self, channel_id: int) -> discord.PartialMessageable:
        return self.client.get_partial_messageable(channel_id)

    async def edit(self, channel_id: int, message_id: int, board: Board, *, image: bool = True) -> None:
        # discord.py's PartialMessage.edit (2.7.1) without making a Message of Discord's answer, which
        # nothing reads: parsing a board's controls back cost 0.1-0.2 ms an edit
        kwargs = board.kwargs(image=image)
        state = self._channel(channel_id).get_partial_message(message_id)._state
        view = kwargs.get("view", MISSING)
        if view is not MISSING:
            state.prevent_view_updates_for(message_id)
        mentions = state.allowed_mentions if kwargs.get("content", MISSING) is not MISSING else None
        with handle_message_parameters(previous_allowed_mentions=mentions, **kwargs) as params:
            await state.http.edit_message(channel_id, message_id, params=params)
        if view and not view.is_finished() and view.is_dispatchable():
            state.store_view(view, message_id)

    async def edit_by_token(self, token: str, message_id: int, board: Board, *, image: bool = True) -> None:
        """The message an interaction answered (an ephemeral panel, or the message a clicked control
        sits on), through that interaction's token: Discord allows it for 15 minutes."""
        assert self.client.application_id is not None
        hook = discord.Webhook.partial(self.client.application_id, token, client=self.client)
        kwargs: dict[str, Any] = board.kwargs(image=image)
        if kwargs.get("content") is None:
            kwargs.pop("content", None)
        await hook.edit_message(message_id, **kwargs)

    async def post(
        self,
        channel_id: int,
        board: Board | None = None,
        *,
        text: str | None = None,
        reply_to: int | None = None,
        mentions: tuple[int, ...] = (),
        files: list[discord.File] | None = None,
    ) -> int:
        kwargs: dict[str, Any] = board.kwargs(new=True) if board is not None else {"content": text}
        if files:
            kwargs["files"] = files
        if reply_to is not None:
            kwargs["reference"] = discord.MessageReference(
                message_id=reply_to, channel_id=channel_id, fail_if_not_exists=False
            )
        if mentions:
            kwargs["allowed_mentions"] = discord.AllowedMentions(
                users=[discord.Object(u) for u in mentions], replied_user=False
            )
        return (await self._channel(channel_id).send(**kwargs)).id

    async def delete(self, channel_id: int, message_id: int) -> None:
        await self._channel(channel_id).get_partial_message(message_id).delete()

    def _hook(self, token: str) -> discord.Webhook:
        assert self.client.application_id is not None
        return discord.Webhook.partial(self.client.application_id, token, client=self.client)

    async def follow_up(self, token: str, text: str, mentions: tuple[int, ...] = ()) -> int:
        """A message in the channel of an interaction (within its 15 minutes), through its token:
        outside the bot token's request budget (issue 35). Public, mentioning ``mentions``."""
        sent = await self._hook(token).send(
            content=text,
            wait=True,
            allowed_mentions=discord.AllowedMentions(users=[discord.Object(u) for u in mentions]),
        )
        return sent.id

    async def delete_follow_up(self, token: str, message_id: int) -> None:
        await self._hook(token).delete_message(message_id)

    async def dm_channel(self, user_id: int) -> int:
        return (await self.client.create_dm(discord.Object(user_id))).id

    async def start_thread(self, channel_id: int, message_id: int, name: str) -> int:
        # straight through the HTTP client: a partial message carries no guild, and discord.py's
        # Message.create_thread refuses one without it (ValueError) before asking Discord
        data = await self.client.http.start_thread_with_message(
            channel_id, message_id, name=cut(name, 100, ELLIPSIS), auto_archive_duration=1440
        )
        return int(data["id"])

    async def open_thread(self, channel_id: int, name: str) -> int:
        """A public thread of its own in ``channel_id`` (a tournament's match), with no message."""
        data = await self.client.http.start_thread_without_message(
            channel_id,
            name=cut(name, 100, ELLIPSIS),
            auto_archive_duration=1440,
            type=discord.ChannelType.public_thread.value,
        )
        return int(data["id"])

    async def archive(self, thread_id: int) -> None:
        await self.client.http.edit_channel(thread_id, archived=True)
