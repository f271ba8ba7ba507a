"""Component data for Ugah Ugah! (spec R2-R5, R39), kept apart from the rules so that real counts can
replace the [house] chip table (A2) without touching engine code."""

from __future__ import annotations

# R4 [house]: chip value -> number of chips. No public source prints the real values (A2); the
# caterpillar chip has no number and is worth 1 [seed].
CHIP_COUNTS: dict[int, int] = {1: 7, 2: 6, 3: 6, 4: 5, 5: 4, 6: 3}
CATERPILLAR_VALUE = 1

# The full chip multiset, sorted; the path is a shuffle of it (R10).
CHIPS: tuple[int, ...] = tuple(v for v, k in sorted(CHIP_COUNTS.items()) for _ in range(k))
N_CHIPS = len(CHIPS)  # R2: 31

N_DICE = 5  # R2
SPOILS_POINTS = 3  # R5
SPOILS_THRESHOLD = 3  # R22: three of a kind wins the spoils card
UNCERTAIN_FACE_UP = 4  # R39

# R3: every die carries each of these once; index order is also the die-face order used by the Rng.
BONE = "bone"
SYMBOLS: tuple[str, ...] = ("bone", "dinosaur", "mammoth", "bird", "mm", "bb")
ANIMALS: tuple[str, ...] = ("dinosaur", "mammoth", "bird")
HUNTERS: tuple[str, ...] = ("mm", "bb")
# Symbols a player may name (R16), in the canonical order used by action codes.
NAMEABLE: tuple[str, ...] = ANIMALS + HUNTERS

assert N_CHIPS == 31, "R2: the path has 31 chips"
