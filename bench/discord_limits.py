"""Discord's rate limits on a bot token, simulated under SimCord for bench.bucket (issue 35): a global
bucket for every bot-token request, 5 posts per 5 s in a channel, 429s with ``retry_after`` and
``global`` in their JSON, met by the bot's HTTP client as discord.py's own client meets them (SimCord
replaces that client, so a 429 would otherwise be a bare HTTPException). Wall-clock time throughout:
the bot's work is what is measured."""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
from collections.abc import Iterator
from typing import Any

import discord
from simcord.backend.errors import BackendError
from simcord.http import router

from bench.budget import kind_of

CHANNEL_POSTS, CHANNEL_SECONDS = 5, 5.0


class Bucket:
    """Tokens refilled at ``rate`` a second up to ``capacity``, on the wall clock."""

    def __init__(self, rate: float, capacity: float) -> None:
        self.rate, self.capacity, self.tokens, self.at = rate, capacity, capacity, time.perf_counter()

    def take(self, now: float | None = None) -> float:
        """0 when a token was taken, else the seconds until one is there (Discord's retry_after)."""
        now = time.perf_counter() if now is None else now
        self.tokens = min(self.capacity, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return 0.0
        return (1 - self.tokens) / self.rate


class TooMany(BackendError):
    """Discord's 429: its JSON names ``retry_after`` and whether the limit is the global one."""

    def __init__(self, retry_after: float, is_global: bool) -> None:
        super().__init__(429, 0, "You are being rate limited.")
        self.retry_after, self.is_global = retry_after, is_global

    def to_json(self) -> dict[str, Any]:
        return {**super().to_json(), "retry_after": round(self.retry_after, 3), "global": self.is_global}


_POST = re.compile(r"^/channels/(\d+)/messages$")


class Limits:
    """Discord's limits on the bot token: the global bucket and each channel's posts; the 429s given."""

    def __init__(self, per_second: float) -> None:
        self.per_second = per_second
        self.shared = Bucket(per_second, max(per_second, 1.0))  # one second of burst (at least one)
        self.channels: dict[str, Bucket] = {}
        self.requests = self.global_429 = self.channel_429 = 0

    def check(self, backend: Any, method: str, path: str) -> None:
        """Raise TooMany for a bot-token request over a limit (the request is still counted)."""
        if kind_of(backend, method, path) is None:
            return
        self.requests += 1
        now = time.perf_counter()
        wait = self.shared.take(now)
        if wait:
            self.global_429 += 1
            raise TooMany(wait, True)
        post = _POST.match(path) if method == "POST" else None
        if post:
            rate = CHANNEL_POSTS / CHANNEL_SECONDS
            wait = self.channels.setdefault(post[1], Bucket(rate, CHANNEL_POSTS)).take(now)
            if wait:
                self.channel_429 += 1
                raise TooMany(wait, False)


class Gate:
    """Where SimCord's requests meet the limits (none while ``limits`` is None: the set-up)."""

    def __init__(self) -> None:
        self.limits: Limits | None = None
        self.last: TooMany | None = None  # the 429 just raised (read at once: no await in between)
        self.over = asyncio.Event()  # cleared while a global 429 is waited out, as discord.py's
        self.over.set()

    def check(self, backend: Any, method: str, path: str) -> None:
        if self.limits is not None:
            try:
                self.limits.check(backend, method, path)
            except TooMany as err:
                self.last = err
                raise


@contextlib.contextmanager
def gated(env: Any, gate: Gate) -> Iterator[None]:
    """SimCord's router checks ``gate`` before each request; the bot's HTTP client meets a 429 as
    discord.py's own request does (SimCord replaces that, so a 429 would be a bare HTTPException)."""
    faults, http = router._check_faults, env.bot.http
    fake = http.request

    def check(backend: Any, method: str, path: str) -> None:
        gate.check(backend, method, path)
        faults(backend, method, path)

    async def request(route: Any, **kwargs: Any) -> Any:
        last: discord.HTTPException | None = None
        for _ in range(5):
            await gate.over.wait()
            try:
                return await fake(route, **kwargs)
            except discord.HTTPException as e:
                err, gate.last = gate.last, None
                if e.status != 429 or err is None:
                    raise
                setattr(e, "retry_after", err.retry_after)  # noqa: B010 (what bot.surfaces.send reads)
                limit = http.max_ratelimit_timeout
                if limit and err.retry_after > limit:
                    raise discord.RateLimited(err.retry_after) from e
                if err.is_global:
                    gate.over.clear()
                await asyncio.sleep(err.retry_after)
                gate.over.set()
                last = e
        assert last is not None
        raise last

    router._check_faults, http.request = check, request
    try:
        yield
    finally:
        router._check_faults = faults
        vars(http).pop("request", None)
