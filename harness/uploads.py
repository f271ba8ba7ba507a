"""What the bot uploads to messages it edits, watched in the simulated Discord: an attachment sent
again to a message that shows those very bytes already is a wasted upload (Discord counts the bytes,
and a phone downloads the picture again). Every edit of a message, whichever route the bot took
(the channel, an interaction's answer, a webhook token), goes through SimCord's one ``edit_message``,
so the watch wraps that; posting a new message is never a repeat. Shared by the tests and the
benchmarks (bench.redraws)."""

from __future__ import annotations

import contextlib
import hashlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Repeat", "Uploads", "watch_uploads"]


@dataclass(frozen=True)
class Repeat:
    """One attachment uploaded to a message that showed the same bytes already."""

    channel_id: int
    message_id: int
    filename: str
    size: int


@dataclass
class Uploads:
    """The attachments uploaded by edits while watched: ``count`` of them, and the ``repeats``."""

    count: int = 0
    repeats: list[Repeat] = field(default_factory=list)
    by_message: dict[int, int] = field(default_factory=dict)  # message id -> uploads to it

    def to(self, message_id: int) -> int:
        """Uploads to that message."""
        return self.by_message.get(message_id, 0)

    def reset(self) -> None:
        self.count, self.repeats, self.by_message = 0, [], {}


def _digests(backend: Any, attachments: list[dict[str, Any]]) -> dict[str, str]:
    """Attachment id -> digest of its bytes (as the simulated CDN keeps them)."""
    out = {}
    for a in attachments:
        data = backend.cdn.get(a.get("url", ""))
        if data is not None:
            out[str(a.get("id"))] = hashlib.sha256(data).hexdigest()
    return out


@contextlib.contextmanager
def watch_uploads(env: Any) -> Iterator[Uploads]:
    """Count, while inside, every attachment an edit uploads and those that repeat the message's own
    bytes. Survives ``env.restart_bot`` (the simulated Discord stays)."""
    backend, seen = env.backend, Uploads()
    edit = backend.edit_message

    def watched(channel_id: int, message_id: int, fields: dict[str, Any]) -> Any:
        before = _digests(backend, list(backend.get_message(channel_id, message_id).attachments))
        message = edit(channel_id, message_id, fields)
        after = _digests(backend, list(message.attachments))
        shown = set(before.values())
        for a in message.attachments:
            key = str(a.get("id"))
            if key in before or key not in after:
                continue  # kept, not uploaded
            seen.count += 1
            seen.by_message[message_id] = seen.by_message.get(message_id, 0) + 1
            if after[key] in shown:
                seen.repeats.append(Repeat(channel_id, message_id, a.get("filename", ""), a.get("size", 0)))
        return message

    backend.edit_message = watched
    try:
        yield seen
    finally:
        backend.edit_message = edit
