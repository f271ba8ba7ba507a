"""The 🎓 overlay on an Ugah Ugah! board (render.lesson): where a decision's choice lies on it.

A pick ("pick.bird.mm") marks every die of the throw showing a picked symbol (picking a symbol sets
aside all of them); the first hunter ("first.mm") marks that hunter's figure on the ring; keeping a
chip ("keep.mm.2") marks the chip kept, under that hunter, and the row of the player given the other.
"""

from __future__ import annotations

from typing import Any

from PIL import ImageDraw

from render import lesson
from render.common import Box


def targets(code: str, spots: dict[str, Any]) -> list[Box]:
    """The boxes of the board that show choice ``code`` (none for a code it does not show)."""
    kind, *args = code.split(".")
    if kind == "pick":
        return [box for face, box in spots.get("dice", []) if face in args]
    if kind == "first" and args:
        pin = spots.get("pins", {}).get(args[0])
        return [pin] if pin else []
    if kind == "keep" and len(args) == 2 and args[1].isdigit():
        found = [spots.get("keep", {}).get(args[0]), spots.get("rows", {}).get(int(args[1]))]
        return [box for box in found if box]
    return []


def draw(d: ImageDraw.ImageDraw, spots: dict[str, Any], x: lesson.Lesson) -> None:
    for code, better in x.marks():
        lesson.boxes(d, targets(code, spots), better)
