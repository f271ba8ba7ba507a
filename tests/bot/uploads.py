"""What the bot uploads to messages it edits (harness.uploads: an attachment sent again to a message
that shows those very bytes already), and a late click (a custom_id the message no longer carries),
which the tests of what a refused click repairs need."""

from __future__ import annotations

from typing import Any

from simcord import InteractionResult
from simcord.actors import _visible_message
from simcord.enums import ComponentType

from harness.sim import emit_component
from harness.uploads import Repeat, Uploads, watch_uploads

__all__ = ["Repeat", "Uploads", "late_click", "watch_uploads"]


async def late_click(
    env: Any, actor: Any, message: Any, custom_id: str, values: tuple[str, ...] = (), *, dm: bool = False
) -> InteractionResult:
    """A click carrying a custom_id the message no longer has (a client behind an edit, the second
    half of a double click): SimCord's own click only presses controls that are on the message, so
    the INTERACTION_CREATE is emitted by hand, as harness.sim.concurrent_clicks does."""
    env._begin_operation("late_click")
    try:
        stored = _visible_message(actor, message)
        kind = ComponentType.STRING_SELECT if values else ComponentType.BUTTON
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": kind}
        if values:
            data["values"] = list(values)
        record = emit_component(env, actor, stored, data, dm=dm)
        await env._settle_internal(dispatch="INTERACTION_CREATE late")
        return InteractionResult(env, record)
    finally:
        env._end_operation()
