"""The playground's preview pages: what each one showed, and keeping them true while they are open
(private API of simcord 3.2.1's preview, pinned exactly).

A page's clicks name a control by its position in a message and the page revision the person saw.
SimCord refuses a click made on an older revision ("stale-revision", shown as "Action was not
completed."), and a page publishes a new revision whenever anything on it changes: the clock, a
click on another page (another seat's DM), the other tab. On Discord a click is delivered whatever
happened to the page meanwhile, and the bot judges it by its custom_id. ``Revisions`` remembers which
custom_id each control had in each revision, so a click made on an older revision is delivered when
that button (that custom_id) is still on its message, wherever it now sits, and a click on a button
that is gone is delivered with the custom_id the person saw (``sent_as_seen``), for the bot to
answer as on Discord.

A page shows relative times ("runs out in 2 minutes") against its presentation time, and the page's
script redraws a message only when the message changed: ``Revisions`` marks each message showing a
relative time with the time it is presented at, so a page published again redraws its countdowns.
"""

from __future__ import annotations

import contextlib
import json
import math
import re
import zlib
from collections import OrderedDict
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from urllib.parse import urlsplit

from simcord import SetupError
from simcord.actors import _component_interaction
from simcord.preview import _actions as preview_actions
from simcord.preview._action_plans import _component_key, _component_paths
from simcord.preview._actions import ACTION_SPECS

KEPT_REVISIONS = 64  # a page's older revisions a click can still be made on (about a minute's worth)
RELATIVE = re.compile(r"<t:(-?\d+):R>")
POSITIONAL = frozenset({"click", "select"})  # the kinds whose control_key names a place in a message
STRING_SELECT = 3  # (Discord's component type)
REVISION_BOUND = frozenset(kind for kind, spec in ACTION_SPECS.items() if spec.revision_bound)


def _controls(snapshot: Mapping[str, Any], chosen: Mapping[str, int]) -> dict[str, tuple[str, int]]:
    """control_key -> (custom_id, component type) of every control the snapshot shows. A string
    select's key is made its own per custom_id and per choice made in it (``@…``): the page keeps
    what was chosen in a select by its key, so the same select on the next turn showed the last
    choice, and choosing it again sent nothing, where Discord shows the select afresh."""
    found: dict[str, tuple[str, int]] = {}
    stack: list[Any] = [m.get("components") for m in (snapshot.get("messages") or {}).values()]
    while stack:
        item = stack.pop()
        if isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, dict):
            key, custom_id = item.get("control_key"), item.get("custom_id")
            if isinstance(key, str) and isinstance(custom_id, str):
                if item.get("type") == STRING_SELECT:
                    key = item["control_key"] = (
                        f"{key}@{zlib.crc32(custom_id.encode()):x}.{chosen.get(key, 0)}"
                    )
                found[key] = (custom_id, int(item.get("type") or 0))
            stack.extend(item.get(k) for k in ("components", "accessory", "component") if item.get(k))
    return found


@dataclass
class Revisions:
    """Per preview: what each of its page contexts (tabs) showed in its recent revisions."""

    preview: Any
    shown: dict[str, OrderedDict[int, dict[str, tuple[str, int]]]] = field(default_factory=dict)
    relative: dict[str, list[int]] = field(default_factory=dict)  # tab -> the relative times it shows
    chosen: dict[str, int] = field(default_factory=dict)  # a string select's key -> choices made in it

    def install(self) -> None:
        original = self.preview._publish

        def publish(page: Any, **kwargs: Any) -> None:
            original(page, **kwargs)
            self.published(page)

        self.preview._publish = publish

    def published(self, page: Any) -> None:
        snapshot = page.snapshot or {}
        history = self.shown.setdefault(page.id, OrderedDict())
        history[page.revision] = _controls(snapshot, self.chosen)
        while len(history) > KEPT_REVISIONS:
            history.popitem(last=False)
        times: list[int] = []
        presented = str(snapshot.get("profile", {}).get("presentationTime", ""))
        for message in (snapshot.get("messages") or {}).values():
            shown = [int(t) for t in RELATIVE.findall(json.dumps(message))]
            if shown:  # (the page's script redraws a message only when its JSON changed)
                message["presentedAt"] = presented
                times += shown
        self.relative[page.id] = times
        for gone in set(self.shown) - set(self.preview._pages) - {page.id}:  # (a new tab joins after)
            self.shown.pop(gone, None)
            self.relative.pop(gone, None)

    def reads_otherwise(self, shown_at: datetime, now: datetime) -> bool:
        """Whether a relative time on any tab reads differently at ``now`` than at ``shown_at``,
        as the page words it (Intl.RelativeTimeFormat: whole seconds below a minute, then rounded
        minutes, hours...)."""
        return any(
            _reads(t - shown_at.timestamp()) != _reads(t - now.timestamp())
            for shown in self.relative.values()
            for t in shown
        )

    def current(self, context_id: str | None, body: Mapping[str, Any]) -> Mapping[str, Any]:
        """The action as it would be made on the tab's current revision, if it means the same
        there: a click or a choice names the same custom_id on the same message."""
        page = self.preview._pages.get(context_id) if context_id else None
        seen = body.get("published_revision") if isinstance(body, Mapping) else None
        if page is None or body.get("kind") not in REVISION_BOUND or not isinstance(seen, int):
            return body
        if isinstance(seen, bool) or (seen == page.revision and body["kind"] not in POSITIONAL):
            return body
        if body["kind"] not in POSITIONAL:
            return {**body, "published_revision": page.revision}
        # (a click on the current revision too: the bot may have changed the message since it
        # was published, and SimCord clicks whatever sits at that place now)
        key = body.get("control_key")
        if not isinstance(key, str):
            return body
        base = key.split("@")[0]  # (SimCord's own key)
        history = self.shown.get(page.id, {})
        control = history.get(seen, {}).get(key)
        if control is None:
            # (under load a tab once sent a key its revision's record lacked, not understood yet:
            # the newest revision that showed it names the control)
            control = next((shown[key] for shown in reversed(history.values()) if key in shown), None)
        if control is None:
            return {**body, "control_key": base}  # not a revision this tab showed lately: SimCord judges
        if body["kind"] == "select":
            self.chosen[base] = self.chosen.get(base, 0) + 1
        moved = self._key_now(page, base, control[0])
        if moved is not None:
            return {**body, "control_key": moved, "published_revision": page.revision}
        # gone from its message: delivered with the custom_id the person saw (``sent_as_seen``)
        return {**body, "control_key": base, "published_revision": page.revision, SEEN: list(control)}

    def _key_now(self, page: Any, key: str, custom_id: str) -> str | None:
        match = re.match(r"message:(\d+):component:", key)
        if match is None:
            return None
        try:
            message = self.preview.env.backend.get_message(page.channel_id, int(match[1]))
        except Exception:  # (the message was deleted)
            return None
        for root_index, root in enumerate(message.components):
            for path, component in _component_paths(root, str(root_index)):
                if component.get("custom_id") == custom_id and not component.get("disabled"):
                    return _component_key(component, path, message.id)
        return None


SEEN = "playground_seen"  # an action's mark: (custom_id, type) of a control no longer on its message


@contextlib.contextmanager
def sent_as_seen() -> Iterator[None]:
    """Make SimCord's preview deliver a click or a choice marked ``SEEN`` with the custom_id the
    person saw, as Discord does with a click on a message that changed meanwhile; the bot answers
    it (a stale control is refused with the surface as it is now). SimCord itself only clicks the
    controls a message has now."""
    name = "_prepare_component_action"  # (looked up in simcord.preview._actions at each action)
    original = getattr(preview_actions, name)

    def prepare(preview: Any, page: Any, kind: str, body: Mapping[str, Any], actor: Any, message: Any) -> Any:
        seen = body.get(SEEN)
        if not isinstance(seen, list):
            return original(preview, page, kind, body, actor, message)
        data: dict[str, Any] = {"custom_id": str(seen[0]), "component_type": int(seen[1])}
        if kind == "select":
            values = body.get("values")
            if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
                raise SetupError("select values must be strings")
            data["values"] = values

        async def run(action: Any, cursor: int) -> dict[str, Any]:
            delivered = _component_interaction(actor, message, data)
            return await preview._run_interaction_action(page, action, cursor, delivered)

        return run

    setattr(preview_actions, name, prepare)
    try:
        yield
    finally:
        setattr(preview_actions, name, original)


def _reads(seconds: float) -> tuple[str, int]:
    """How the page's script words a time ``seconds`` away (static/text.js, style R)."""
    for unit, size, below in (("s", 1, 60), ("min", 60, 3600), ("h", 3600, 86400), ("d", 86400, 604800)):
        if abs(seconds) < below:
            return unit, math.floor(seconds / size + 0.5)  # (Math.round)
    return "w", math.floor(seconds / 604800 + 0.5)


class PreviewFanout:
    """Stands in for ``env._preview`` while several previews are open.

    SimCord 3.2.1 allows one preview per Env (a preview is tied to one channel) and keeps it in
    ``env._preview`` only to flag mutations made by that preview's running action. The playground
    needs one preview per channel (``#games``, each DM, each thread), so this forwards the flag to
    all of them (each ignores it unless the action is its own) and reports "closed" so
    ``env.preview()`` admits the next one.
    """

    def __init__(self) -> None:
        self.previews: list[Any] = []
        self._closed = True  # read by env.preview(): "no active preview", let another one open

    def _mark_action_dispatched(self) -> None:
        for preview in self.previews:
            preview._mark_action_dispatched()


@dataclass
class Page:
    """One served preview: its name for people, the preview, what its tabs showed, and the
    simulated time it was last presented at."""

    name: str
    preview: Any
    revisions: Revisions
    presented: datetime | None = None  # the simulated time it last published at

    @property
    def url(self) -> str:
        return self.preview.url

    @property
    def port(self) -> int:
        return int(urlsplit(self.url).port or 0)

    def tabs(self) -> Iterator[Any]:
        yield from tuple(self.preview._pages.values())
