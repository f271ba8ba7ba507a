"""Text every game's UI shares: the story of a commit as message lines."""

from __future__ import annotations

from collections.abc import Callable

from bot.games.base import Ctx
from bot.games.labels import image_labels
from engine.core import Event

__all__ = ["MAX_ALT", "MAX_LABEL", "MAX_OPTION", "MAX_PLACEHOLDER", "image_labels", "story_lines"]

GENERIC = ("started", "timeout", "resigned", "forced", "away")
# Discord's limits, counted in code points; texts are cut to them only between grapheme clusters
# (render.graphemes), and texts naming every player shorten the names first (fit_names)
MAX_LABEL = 80  # a button label
MAX_OPTION = 100  # a select option's label or description
MAX_PLACEHOLDER = 150  # a select's placeholder
MAX_ALT = 1024  # an image description (alt text)


def story_lines(
    events: list[Event],
    ctx: Ctx,
    *,
    line: Callable[[Event], str | None],
    actor: Callable[[Event], int | None],
    is_result: Callable[[Event], bool],
) -> list[str]:
    """Every line about a human seat; each computer turn as one line naming its results (a
    computer's micro-steps would push the humans' lines off the message)."""
    out: list[str] = []
    names, tr = ctx.shown_names, ctx.tr
    current: int | None = None
    pending: list[str] = []  # the results of the computer turn being summarised

    def flush() -> None:
        if current is not None and pending is not None and _is_ai(ctx, current):
            text = "; ".join(pending) if pending else f"{names[current]} {tr('ev.computer_played')}"
            out.append(tr("ev.computer_turn", name=names[current], text=text))
        pending.clear()

    for e in events:
        if e.kind in GENERIC:
            flush()
            current = None
            name = names[e.data["seat"]] if "seat" in e.data else ""
            out.append(tr(_generic_key(e, ctx), name=name))
            continue
        who = actor(e)
        if who is not None and who != current:
            flush()
            current = who
        if current is not None and _is_ai(ctx, current):
            if is_result(e) and (text := line(e)):
                pending.append(text)
        elif text := line(e):
            out.append(text)
    flush()
    return out


def _generic_key(e: Event, ctx: Ctx) -> str:
    """A resignation that ended the game (two seats) says so; otherwise a computer took the seat."""
    result = ctx.m.meta.result
    if e.kind == "resigned" and result is not None and result.reason == "resignation":
        return "ev.resigned_lost"
    return f"ev.{e.kind}"


def _is_ai(ctx: Ctx, seat: int) -> bool:
    return 0 <= seat < len(ctx.m.seats) and ctx.m.seats[seat].ai
