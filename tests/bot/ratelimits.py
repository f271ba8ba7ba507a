"""A window of 429s on channel message edits, answered as Discord answers them (a JSON body naming
``retry_after``) and handled by discord.py's own HTTP client.

SimCord's transport replaces ``HTTPClient.request`` and turns an injected 429 into an exception at
once, so what discord.py does with a real one (sleep ``retry_after`` and try again, five times, unless
``max_ratelimit_timeout`` says to raise ``RateLimited`` at once) never runs there. While the window is
open, a channel message edit here runs discord.py's real ``HTTPClient.request`` over a wire that
answers each try with a 429 (recorded in ``env.http_requests`` like any request); a try made after the
window closed goes on to SimCord as usual. Nothing of discord.py is replaced: only the network under it.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from discord.http import HTTPClient, Route
from simcord.types import HttpLogEntry

EDIT = ("PATCH", "/channels/{channel_id}/messages/{message_id}")
WAIT = "discord.py sleeping out a 429"


class _Through(Exception):
    """The window closed before this try: it goes to SimCord."""


class _TooMany:
    """Discord's answer to a rate-limited call (``Via``: from Discord's limiter, not Cloudflare's)."""

    status, reason = 429, "Too Many Requests"

    def __init__(self, retry_after: float) -> None:
        self.headers = {"Via": "1.1 google", "content-type": "application/json"}
        self.body = json.dumps(
            {"message": "You are being rate limited.", "retry_after": retry_after, "global": False}
        )

    async def text(self, encoding: str = "utf-8") -> str:
        return self.body

    async def __aenter__(self) -> _TooMany:
        return self

    async def __aexit__(self, *exc: object) -> None:
        return None


class Window:
    """429s with ``retry_after`` on every channel message edit while open (``open()``/``close()``)."""

    def __init__(self, env: Any, monkeypatch: pytest.MonkeyPatch, retry_after: float) -> None:
        self.env, self.retry_after, self.is_open = env, retry_after, False
        http = env.bot.http
        fake = http.request  # SimCord's

        async def request(route: Route, **kwargs: Any) -> Any:
            if not self.is_open or (route.method, route.path) != EDIT:
                return await fake(route, **kwargs)
            try:
                # discord.py's own; its waits (retry_after, a bucket another call holds) are on the
                # virtual clock, and end through env.advance_time
                return await env.external_wait(HTTPClient.request(http, route, **kwargs), reason=WAIT)
            except _Through:
                return await fake(route, **kwargs)

        monkeypatch.setattr(http, "request", request)
        # the session discord.py's request sends through (SimCord leaves it None: nothing else uses it)
        monkeypatch.setattr(http, "_HTTPClient__session", self, raising=False)
        if not isinstance(http._global_over, asyncio.Event):  # set at login, which SimCord does its own way
            over = asyncio.Event()
            over.set()
            monkeypatch.setattr(http, "_global_over", over)

    def request(self, method: str, url: str, **kwargs: Any) -> _TooMany:
        """One try on the wire."""
        if not self.is_open:
            raise _Through
        path = url.removeprefix(Route.BASE)
        self.env.backend.http_requests.append(HttpLogEntry(method, path, {}, None, None))
        return _TooMany(self.retry_after)

    def open(self) -> None:
        self.is_open = True

    def close(self) -> None:
        self.is_open = False
