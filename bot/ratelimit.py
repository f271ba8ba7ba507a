"""Sliding-window rate limits per user and per channel, so one member cannot flood a channel or
the bot. Time comes from the injected clock (SimCord's in tests)."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable


class RateLimiter:
    def __init__(
        self,
        now: Callable[[], float],
        per_user: tuple[int, float],
        per_channel: tuple[int, float],
        per_display: tuple[int, float] | None = None,
    ) -> None:
        self.now = now
        self.limits = {"user": per_user, "channel": per_channel, "display": per_display or per_user}
        self._hits: dict[tuple[str, int], deque[float]] = {}

    def _allow(self, scope: str, key: int, t: float) -> bool:
        count, window = self.limits[scope]
        hits = self._hits.setdefault((scope, key), deque())
        while hits and hits[0] <= t - window:
            hits.popleft()
        return len(hits) < count

    def hit(self, user_id: int, channel_id: int | None, *, display: bool = False) -> bool:
        """Record one command or click (``channel_id`` None: count it for the member only); False
        (and nothing recorded) when over a limit. A display-only click (choosing or browsing, which
        writes nothing) counts apart under its own limit, so looking around never uses up the
        budget of a fast player's moves."""
        t = self.now()
        scope = "display" if display else "user"
        if not self._allow(scope, user_id, t):
            return False
        if channel_id is not None and not self._allow("channel", channel_id, t):
            return False
        self._hits[(scope, user_id)].append(t)
        if channel_id is not None:
            self._hits[("channel", channel_id)].append(t)
        if len(self._hits) > 10_000:  # forget idle keys now and then
            self._hits = {k: v for k, v in self._hits.items() if v and v[-1] > t - 60}
        return True
