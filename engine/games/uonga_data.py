"""Uonga board geometry (rules: docs/rules/uonga.md R1, R7, R8, R20, R21, R23), computed once.

Squares are indices 0..24, ``index = rank * 5 + file`` (file a-e = 0-4, rank 1-5 = 0-4, rank 1 on
the Cavemen player's side). Every table is a tuple of tuples so that it is shared read-only.
"""

from __future__ import annotations

SIZE = 5
N_SQUARES = SIZE * SIZE
FILES = "abcde"
SQUARES: tuple[str, ...] = tuple(f"{FILES[i % SIZE]}{i // SIZE + 1}" for i in range(N_SQUARES))
INDEX: dict[str, int] = {name: i for i, name in enumerate(SQUARES)}

EMPTY, HUNTER, YOUNGLING, MASTODON = ".", "H", "Y", "M"
CAVEMEN = frozenset((HUNTER, YOUNGLING))
VALUE = {YOUNGLING: 1, HUNTER: 2, MASTODON: 3}  # R5
PIECES_EACH = 5  # R2: five pieces of each size
PLACEMENT_TURNS = 5  # R14/R15: each side's first five turns
TARGET = 9  # R34
TARGET_V1_MASTODONS = 10  # V1

ORTHO = ((1, 0), (-1, 0), (0, 1), (0, -1))
DIAG = ((1, 1), (1, -1), (-1, 1), (-1, -1))
KING = ORTHO + DIAG


def _on(f: int, r: int) -> bool:
    return 0 <= f < SIZE and 0 <= r < SIZE


def _steps(i: int, dirs: tuple[tuple[int, int], ...], length: int) -> tuple[tuple[int, ...], ...]:
    """Per direction, the squares walked from ``i`` (at most ``length`` of them, off-board cut)."""
    f0, r0 = i % SIZE, i // SIZE
    rays = []
    for df, dr in dirs:
        ray = []
        for k in range(1, length + 1):
            f, r = f0 + k * df, r0 + k * dr
            if not _on(f, r):
                break
            ray.append(r * SIZE + f)
        if ray:
            rays.append(tuple(ray))
    return tuple(rays)


# R7: the up to 8 surrounding squares; R8: the up to 4 edge neighbours.
NEIGH8: tuple[tuple[int, ...], ...] = tuple(
    tuple(ray[0] for ray in _steps(i, KING, 1)) for i in range(N_SQUARES)
)
NEIGH4: tuple[tuple[int, ...], ...] = tuple(
    tuple(ray[0] for ray in _steps(i, ORTHO, 1)) for i in range(N_SQUARES)
)
# R20/R21: Youngling one step, Hunter one or two in a straight line (8 directions).
KING_RAYS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(_steps(i, KING, 2) for i in range(N_SQUARES))
# R23: Mastodon rook rays along the 4 orthogonal directions.
ROOK_RAYS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(_steps(i, ORTHO, SIZE) for i in range(N_SQUARES))
