"""Component data for Honga (rules: docs/rules/honga.md, R1-R22), kept apart from the rules.

Every table marked [house] in the spec lives here, so real component data (disk hand layouts,
bonus-card counts, trade cards, mountain values, field positions) can replace it without touching
``engine.games.honga``. Codes are lowercase because they appear inside action codes.
"""

from __future__ import annotations

# ---- the board (R1-R5) -----------------------------------------------------------------------------

TRADE, MOUNTAIN, MUSHROOMS = "trade", "mountain", "mushrooms"
BERRIES, HONGA, SPRING = "berries", "honga", "spring"
FOREST, LAKE, MAMMOTHS = "forest", "lake", "mammoths"

# R3 [published]+[house]: the 3 x 3 grid, row by row, HONGA's field in the centre (A1).
GRID: tuple[tuple[str, str, str], ...] = (
    (TRADE, MOUNTAIN, MUSHROOMS),
    (BERRIES, HONGA, SPRING),
    (FOREST, LAKE, MAMMOTHS),
)
FIELDS: tuple[str, ...] = tuple(f for row in GRID for f in row)

# R4 [house]: the fields each placement space touches, clockwise from its upper-left field.
SPACES: tuple[str, ...] = ("nw", "ne", "se", "sw")
NEIGHBOURS: dict[str, tuple[str, str, str, str]] = {
    "nw": (TRADE, MOUNTAIN, HONGA, BERRIES),
    "ne": (MOUNTAIN, MUSHROOMS, SPRING, HONGA),
    "se": (HONGA, SPRING, MAMMOTHS, LAKE),
    "sw": (BERRIES, HONGA, LAKE, FOREST),
}
ROTATIONS = 4  # R10

# ---- raw materials (R13, R14, R20) -------------------------------------------------------------------

RESOURCES: tuple[str, ...] = ("f", "b", "m", "w")  # fish, berry, mushroom, water; index = track
FOOD: tuple[str, ...] = ("f", "b", "m")
# R28: the gathering fields and the track each one raises.
GATHER: dict[str, str] = {LAKE: "f", BERRIES: "b", MUSHROOMS: "m", SPRING: "w"}
START_RESOURCES: tuple[int, int, int, int] = (1, 1, 1, 0)  # R20
TRACK_CAP = 9  # R14 [house] (A8): gains above it are lost; option "track_cap" can lift it
WATER_PER_FOOD = 2  # R35: 2 water replace 1 food in a payment
MAMMOTHS_PER_PLAYER = 6  # R13
LURE_COST: tuple[str, ...] = ("f", "b", "m")  # R30

# R16 [seed]: herd capacity by player count.
HERD_CAPACITY: dict[int, int] = {2: 3, 3: 3, 4: 4, 5: 5}

# ---- the sacred mountain (R15, R32) [house] (A7) ----------------------------------------------------

MOUNTAIN_TOP = 5  # steps 0..5, 0 = bottom (start)
SUMMIT_VP = 5  # the climber's reward on reaching the top
# Points an *other* player gets for standing on each step when someone reaches the top.
STEP_VP: tuple[int, ...] = (0, 1, 2, 3, 4, 5)

# ---- action disks (R7-R9) [house] (A2) ---------------------------------------------------------------

GREY, RED = "grey", "red"
# pattern (hands on q0..q3, clockwise) -> number of disks
GREY_PATTERNS: dict[tuple[int, int, int, int], int] = {
    (2, 1, 1, 0): 4,
    (1, 2, 1, 0): 4,
    (1, 1, 2, 0): 4,
    (2, 2, 0, 0): 4,
    (2, 0, 2, 0): 3,
    (3, 1, 0, 0): 3,
    (1, 3, 0, 0): 3,
    (3, 0, 1, 0): 3,
}
RED_PATTERNS: dict[tuple[int, int, int, int], int] = {
    (2, 2, 1, 0): 2,
    (2, 1, 2, 0): 2,
    (1, 2, 2, 0): 2,
    (3, 1, 1, 0): 2,
    (1, 3, 1, 0): 2,
    (1, 1, 3, 0): 2,
    (3, 2, 0, 0): 1,
    (2, 3, 0, 0): 1,
    (3, 0, 2, 0): 1,
    (4, 1, 0, 0): 1,
    (1, 4, 0, 0): 1,
    (4, 0, 1, 0): 1,
}
# Every disk as (colour, pattern); a disk's id is its index here (grey first).
DISKS: tuple[tuple[str, tuple[int, int, int, int]], ...] = tuple(
    (colour, pattern)
    for colour, table in ((GREY, GREY_PATTERNS), (RED, RED_PATTERNS))
    for pattern, k in table.items()
    for _ in range(k)
)
DISK_IDS: dict[str, tuple[int, ...]] = {
    colour: tuple(i for i, (col, _) in enumerate(DISKS) if col == colour) for colour in (GREY, RED)
}

# ---- bonus cards (R11) [house] (A3-A5) ---------------------------------------------------------------

BARTER, VP2, CHASE, LUCKY = "barter", "vp2", "chase", "lucky"
EXTRA, LUCKY_OR_CHASE, SWAP, FRUGAL = "extra", "loc", "swap", "frugal"
CLIMB_OR_CHASE, BUY_VP = "coc", "buyvp"
# code -> (spec id, count)
BONUS_CARDS: dict[str, tuple[str, int]] = {
    BARTER: ("GOOD_BARTER", 3),
    VP2: ("VP2", 3),
    CHASE: ("CHASE", 3),
    LUCKY: ("LUCKY_HAND", 3),
    EXTRA: ("EXTRA_DISK", 2),
    LUCKY_OR_CHASE: ("LUCKY_OR_CHASE", 2),
    SWAP: ("SWAP_MB", 2),
    FRUGAL: ("FRUGAL_MAMMOTHS", 2),
    CLIMB_OR_CHASE: ("CLIMB2_OR_CHASE", 2),
    BUY_VP: ("BUY_VP", 3),
}
BONUS_DECK: tuple[str, ...] = tuple(code for code, (_, k) in BONUS_CARDS.items() for _ in range(k))
MAX_CARDS_PER_TURN = 2  # R36
BARTER_FOOD = 2  # A4: GOOD_BARTER counts as 2 food towards one trade
VP2_POINTS = 2
CLIMB_CARD_STEPS = 2  # CLIMB2_OR_CHASE
BUY_VP_MAX = 3  # A5: 1-3 raw materials, 1 VP each

# ---- trade cards (R12) [house] (A6): id -> (food cost, mammoths, VP) --------------------------------


def _vp(food: str, mammoths: int) -> int:
    """A6: a food is worth 1 VP, +1 per food beyond 3, a mammoth 4 VP."""
    f = len(food)
    return f + max(0, f - 3) + 4 * mammoths


_TRADE_COSTS: tuple[tuple[str, int], ...] = (
    *((food, 0) for food in ("ffb", "fbb", "bbm", "bmm", "fmm", "ffm", "fbm", "fbm")),
    *((food, 0) for food in ("ffbb", "bbmm", "ffmm", "ffbm", "fbbm", "fbmm", "fffb", "bbbm", "fmmm")),
    *((food, 0) for food in ("ffbbm", "fbbmm", "ffbmm", "fffbm")),
    ("ffbbmm", 0),
    *((food, 1) for food in ("f", "b", "m", "fb", "bm", "fm", "fbm")),
    ("", 2),
    ("f", 2),
    ("bm", 2),
)
TRADE_CARDS: dict[str, tuple[str, int, int]] = {
    f"T{i + 1:02d}": (food, k, _vp(food, k)) for i, (food, k) in enumerate(_TRADE_COSTS)
}
TRADE_SLOTS = 3  # R18

# ---- end of game (R41) -------------------------------------------------------------------------------

TARGET: dict[int, int] = {2: 40, 3: 35, 4: 30, 5: 30}
SHORT_TARGET = 20  # option target=short [house]: a quicker game for casual play and tests

assert len(DISKS) == 46 and len(DISK_IDS[GREY]) == 28, "R7: 46 disks, 28 grey"
assert all(sum(p) == (4 if col == GREY else 5) for col, p in DISKS), "R7: 4 hands grey, 5 red"
assert all(sum(1 for h in p if h) in (2, 3) and max(p) <= 4 for _, p in DISKS), "R8"
assert len(BONUS_DECK) == 25 and len(BONUS_CARDS) == 10, "R11: 25 bonus cards of 10 kinds"
assert len(TRADE_CARDS) == 32, "R12: 32 trade cards"
assert TRADE_CARDS["T22"][2] == 9 and TRADE_CARDS["T32"][2] == 10, "R12 reward formula"
