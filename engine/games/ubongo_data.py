"""Ubongo Fun-Size tables (rules: docs/rules/ubongo.md): the numbers of the rules and options, and the
32 cards of the committed task file (R11)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

NAME = "ubongo"
TASKS_FILE = Path(__file__).with_name("ubongo_tasks.json")
N_CARDS = 32  # R2
ROUNDS = 8  # R30
SIDES = ("A", "B")
PIECES_NEEDED = {"A": 3, "B": 4}  # R2, R21
COUNTDOWN = {"A": 20, "B": 30}  # R23 seconds
ROUND_LIMIT = {"A": 180, "B": 300}  # R27 seconds
SOLO_MODES = ("time", "tasks")  # V4 time attack, V5 speed run
SOLO_SIZES = ("5", "10", "20")  # minutes (V4) or tasks (V5)
# V1/V2 name players by their 1-based seat number; "none"/"all" read best in a select
SEAT_SETS = (
    "none",
    "all",
    "1",
    "2",
    "3",
    "4",
    "12",
    "13",
    "14",
    "23",
    "24",
    "34",
    "123",
    "124",
    "134",
    "234",
)
SYSTEM_KINDS = ("stop", "timeout", "time_up")
MAX_COORD = 99  # two digits: no task is wider than 6; longer numbers are forged codes


@cache
def card_tasks() -> tuple[dict[str, tuple[str, ...]], ...]:
    """The 32 cards of the committed task file: card i -> {"A": rows, "B": rows}."""
    data = json.loads(TASKS_FILE.read_text(encoding="utf-8"))
    return tuple({side: tuple(card[side]) for side in SIDES} for card in data["cards"])
