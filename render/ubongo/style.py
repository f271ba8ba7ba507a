"""The look of the Ubongo images: sizes, colours (R4's piece colours), the palette and the labels.

Every word drawn comes from a labels dict keyed as ``EN_LABELS`` (English defaults); a missing or
broken label falls back to English, so a partial translation never breaks an image.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from render import common as c

W = 600  # Discord shrinks wide images on phones: 600 px keeps 16 px text readable
# zlib-ng level (common.encode_png): the table and task images are small and mostly flat; level 2 keeps
# the bench's 151 under 9.3 KiB (the system zlib's level 3: 10.4 KiB, in twice the time).
PNG_LEVEL = 2
HEADER_H = 46
STATUS_H = 34
PAD = 16

# R4 colours, chosen to stay apart from each other and from the cream task cells
PIECE_RGB: dict[str, c.RGB] = {
    "I2": (104, 190, 232),  # light blue
    "I3": (244, 200, 30),  # yellow
    "V3": (210, 58, 48),  # red
    "O4": (44, 92, 190),  # blue
    "L4": (62, 150, 66),  # green
    "T4": (238, 132, 36),  # orange
    "S4": (132, 78, 176),  # purple
    "P5": (236, 118, 170),  # pink
}
DARK_TEXT = {"I2", "I3", "T4", "P5"}  # light fills: ink letters read better than white
TASK: c.RGB = (255, 249, 232)  # the light building area
BOARD: c.RGB = (120, 94, 70)  # the card around it
GRID: c.RGB = (214, 196, 160)
SEATS: tuple[c.RGB, ...] = ((52, 120, 200), (200, 70, 60), (60, 150, 80), (170, 110, 30))
OK_GREEN: c.RGB = (40, 140, 70)


def edge(rgb: c.RGB) -> c.RGB:
    """The darker outline of a piece colour."""
    return c.blend(rgb, c.INK, 0.45)


def faded(rgb: c.RGB) -> c.RGB:
    """A placed piece in the tray, or a candidate placement on the grid."""
    return c.blend(rgb, c.PAPER, 0.6)


def _palette_colours() -> list[c.RGB]:
    cols = [*c.BASE_COLOURS, TASK, BOARD, GRID, OK_GREEN, *SEATS]
    for rgb in PIECE_RGB.values():
        cols += [rgb, edge(rgb), faded(rgb)]
    return cols


def _blend_pairs() -> list[tuple[c.RGB, c.RGB]]:
    """Antialiased text edges: ink and white letters on every background they are drawn on, most
    visible first (the palette keeps the first 64 colours)."""
    pairs = [(c.INK if p in DARK_TEXT else c.WHITE, rgb) for p, rgb in PIECE_RGB.items()]
    pairs += [(c.INK, c.PAPER), (c.CREAM, c.BAR), (c.INK, TASK), (c.MUTED, c.PAPER), (c.WHITE, BOARD)]
    pairs += [(c.CREAM, BOARD), (c.INK, c.SAND), (c.RED, c.PAPER), (OK_GREEN, c.PAPER), (c.WHITE, c.RED)]
    pairs += [(c.WHITE, s) for s in SEATS] + [(c.INK, c.GOLD), (c.WHITE, OK_GREEN), (c.INK, c.HILITE)]
    return pairs


PALETTE = c.Once(lambda: c.build_palette(_palette_colours(), _blend_pairs()))

EN_LABELS: dict[str, str] = {
    "title": "UBONGO",
    "round": "Round {n} of {total}",
    "task_number": "Task {n}",
    "side": "Side {side}",
    "your_task": "Your puzzle",
    "need": "Cover every light square with exactly {k} pieces",
    "need_countdown": "Ubongo! The countdown runs: {k} pieces, keep going",
    "solved": "Solved, {order}! Wait for the round to end",
    "no_task": "No puzzle right now",
    "in_hand": "Your pieces",
    "no_yellow": "no yellow",
    "cursor_ok": "{piece} fits here: corner at x {x}, y {y}, shape {o}",
    "cursor_bad": "{piece} does not fit here: corner at x {x}, y {y}, shape {o}",
    "axes": "x →  y ↓",
    "solving": "{count} still solving",
    "ubongo": "Ubongo! {name} solved first: {seconds} s countdown",
    "round_limit": "Round limit {seconds} s",
    "time_attack": "Solo time attack: {size} minutes",
    "speed_run": "Solo speed run: {size} tasks",
    "solo_score": "{done} solved, {skipped} set aside",
    "final": "Final result",
    "over": "Game over",
    "winner": "Game over: {names} wins",
    "winners": "Game over: {names} win",
    "ended": "Game ended",
    "waiting": "solving…",
    "order_1": "1st",
    "order_2": "2nd",
    "order_3": "3rd",
    "order_4": "4th",
    "gems": "cards: {cards} · gems: {gems}",  # no number before a noun: labels have no number forms
    "last_round": "Round {n}: the solutions",
    "last_task": "Last task: the solution",
    "unsolved": "not solved",
    "player": "Player {n}",
}


def label(labels: Mapping[str, str] | None, key: str, **fields: Any) -> str:
    """``labels[key]`` filled in, English when missing or broken (render.common.label)."""
    return c.clean_text(c.label(labels, EN_LABELS, key, **fields))


def order_label(labels: Mapping[str, str] | None, order: int) -> str:
    return label(labels, f"order_{order}") if 1 <= order <= 4 else str(order)
