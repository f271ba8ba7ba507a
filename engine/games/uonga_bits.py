"""Uonga's board rules on 25-bit boards, for the hard computer's search (rules: docs/rules/uonga.md
R7-R32). A position is three ints, one bit per square (``index = rank * 5 + file``): the Hunters,
the Younglings and the Mastodons. Moves, captures and neighbour counts become a few mask operations
instead of string scans; the rules module keeps the readable string board, and a test checks that
both agree on every move of random games."""

from __future__ import annotations

from engine.games.uonga_data import (
    EMPTY,
    HUNTER,
    KING_RAYS,
    MASTODON,
    N_SQUARES,
    NEIGH4,
    NEIGH8,
    ROOK_RAYS,
    YOUNGLING,
)

Bits = tuple[int, int, int]  # (hunters, younglings, mastodons)
FULL = (1 << N_SQUARES) - 1
BIT = tuple(1 << i for i in range(N_SQUARES))
N8 = tuple(sum(BIT[j] for j in NEIGH8[i]) for i in range(N_SQUARES))  # R7
N4 = tuple(sum(BIT[j] for j in NEIGH4[i]) for i in range(N_SQUARES))  # R8
# R20/R21: per direction (bit, square) of the first step and, for a Hunter, of the second (0, -1 if none)
STEPS = tuple(
    tuple((BIT[r[0]], r[0], BIT[r[1]] if len(r) > 1 else 0, r[1] if len(r) > 1 else -1) for r in KING_RAYS[i])
    for i in range(N_SQUARES)
)
# R23: the rook rays as (bit, square) pairs
RAYS = tuple(tuple(tuple((BIT[j], j) for j in ray) for ray in ROOK_RAYS[i]) for i in range(N_SQUARES))
# R21 backwards: per square, (bit of a square two steps away, that square, bit of the square between)
TWO_BACK = tuple(
    tuple((BIT[r[1]], r[1], BIT[r[0]]) for r in KING_RAYS[i] if len(r) > 1) for i in range(N_SQUARES)
)
# R23 as masks: per square, each rook ray's squares and whether it runs towards higher indices (its
# first piece is then the lowest set bit of the ray's occupied squares, else the highest)
RAY_MASKS = tuple(
    tuple((sum(BIT[j] for j in ray), ray[0] > i) for ray in ROOK_RAYS[i]) for i in range(N_SQUARES)
)
NOT_A = FULL & ~sum(BIT[r * 5] for r in range(5))  # shifting left by one must not wrap from file e
NOT_E = FULL & ~sum(BIT[r * 5 + 4] for r in range(5))


def squares(x: int) -> list[int]:
    """The set bits of ``x`` as square indices, lowest first."""
    out = []
    while x:
        low = x & -x
        out.append(low.bit_length() - 1)
        x ^= low
    return out


def from_board(board: str) -> Bits:
    h = y = m = 0
    for i, p in enumerate(board):
        if p == HUNTER:
            h |= BIT[i]
        elif p == YOUNGLING:
            y |= BIT[i]
        elif p == MASTODON:
            m |= BIT[i]
    return h, y, m


def to_board(h: int, y: int, m: int) -> str:
    return "".join(
        HUNTER if h >> i & 1 else YOUNGLING if y >> i & 1 else MASTODON if m >> i & 1 else EMPTY
        for i in range(N_SQUARES)
    )


def group(m: int, seed: int) -> int:
    """R9/A1: the orthogonally connected Mastodons holding the bit ``seed``."""
    g = seed
    while True:
        grown = (g | (g << 5) | (g >> 5) | ((g & NOT_E) << 1) | ((g & NOT_A) >> 1)) & m
        if grown == g:
            return g
        g = grown


def moves(h: int, y: int, m: int, side: str) -> list[tuple[int, int]]:
    """Every (from, to) move of ``side`` (R20-R23): the same set as ``uonga_board.side_moves``."""
    occ = h | y | m
    out: list[tuple[int, int]] = []
    if side == "M":
        for a in squares(m):
            for ray in RAYS[a]:
                for bit, j in ray:
                    if occ & bit:
                        if not m & bit:
                            out.append((a, j))  # R24: landing on a Caveman captures it
                        break
                    out.append((a, j))
        return out
    for a in squares(h | y):
        hunter = h >> a & 1
        for b1, j1, b2, j2 in STEPS[a]:
            if occ & b1:
                continue
            out.append((a, j1))
            if hunter and b2 and not occ & b2:
                out.append((a, j2))
    return out


def threatens(h: int, y: int, m: int, a: int, b: int) -> bool:
    """Whether the Caveman move a->b captures (R27-R29), without playing it: a lone Mastodon next to
    ``b`` reaching 3 Cavemen, or a herd member there reaching 4 (a herd always loses someone then)."""
    near = N8[b] & m
    if not near:
        return False
    cav = ((h | y) & ~BIT[a]) | BIT[b]
    for i in squares(near):
        n = (N8[i] & cav).bit_count()
        if n >= 4 or (n == 3 and not N4[i] & m):
            return True
    return False


def captures(h: int, y: int, m: int) -> list[tuple[int, int]]:
    """Every Caveman move that captures (R27-R29), found backwards: from each Mastodon one Caveman
    short of its capture count (3 alone, 4 in a herd), through its empty neighbours, to the Cavemen
    that reach them. A Caveman already next to it adds nothing by stepping around it, unless the
    count is already met (R27: then any move next to it captures)."""
    cav = h | y
    occ = cav | m
    out: set[tuple[int, int]] = set()
    x = m
    while x:
        low = x & -x
        x ^= low
        i = low.bit_length() - 1
        need = 4 if N4[i] & m else 3
        c = (N8[i] & cav).bit_count()
        if c + 1 < need:
            continue
        inside = c >= need
        around = N8[i]
        for b in squares(around & ~occ):
            for a in squares(N8[b] & cav):
                if inside or not BIT[a] & around:
                    out.add((a, b))
            for bit, a, mid in TWO_BACK[b]:
                if h & bit and not occ & mid and (inside or not bit & around):
                    out.add((a, b))
    return sorted(out)


def fallen(h: int, y: int, m: int, b: int) -> tuple[int, list[int]]:
    """R27-R31 right after a Caveman reached ``b``: (the sure captures as a mask, the tied herds as
    masks). Same reading as ``uonga_board.captures_after`` (A3: only members next to the mover)."""
    near = N8[b] & m
    cav = h | y
    sure, ties, done = 0, [], 0
    while near:
        low = near & -near
        near ^= low
        if done & low:
            continue
        g = group(m, low)
        done |= g
        if g == low:  # R28: a lone Mastodon falls to 3
            if (N8[low.bit_length() - 1] & cav).bit_count() >= 3:
                sure |= low
            continue
        best, top = 3, 0  # R29: the member next to the mover with the most Cavemen, at least 4
        for i in squares(g & N8[b]):
            n = (N8[i] & cav).bit_count()
            if n > best:
                best, top = n, BIT[i]
            elif n == best and top:
                top |= BIT[i]
        if top & (top - 1):
            ties.append(top)  # R30: a choice between tied members
        elif top:
            sure |= top
    return sure, ties
