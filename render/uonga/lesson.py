"""The 🎓 overlay on an Uonga board (render.lesson): a placement ("place.H.c3") outlines its square,
a move ("move.b2.c3") is an arrow from square to square with its destination outlined."""

from __future__ import annotations

from PIL import ImageDraw

from render import lesson
from render.uonga.style import cell_box, cell_centre

FILES = "abcde"


def _square(sq: str) -> tuple[int, int] | None:
    if len(sq) == 2 and sq[0] in FILES and sq[1] in "12345":
        return FILES.index(sq[0]), int(sq[1]) - 1
    return None


def draw(d: ImageDraw.ImageDraw, x: lesson.Lesson) -> None:
    for code, better in x.marks():
        kind, *args = code.split(".")
        squares = [fr for fr in map(_square, args) if fr is not None]
        if kind == "place" and len(squares) == 1:
            lesson.boxes(d, [cell_box(*squares[0])], better, radius=4)
        elif kind == "move" and len(squares) == 2:
            lesson.arrow(d, cell_centre(*squares[0]), cell_centre(*squares[1]), better)
            lesson.boxes(d, [cell_box(*squares[1])], better, radius=4)
