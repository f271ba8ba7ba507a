"""The Uonga computer's static evaluation, from the Cavemen's point of view: material, pressure
around each Mastodon, Cavemen on an open Mastodon line and Cavemen closing in."""

from __future__ import annotations

from engine.games.uonga_data import CAVEMEN, EMPTY, MASTODON, N_SQUARES, NEIGH4, NEIGH8, ROOK_RAYS, VALUE

WIN = 100_000
POINT = 100  # one captured point in evaluation units
# pressure on a Mastodon by the Cavemen around it: index = cav count (capped), per threshold 3 / 4
PRESSURE = {3: (0, 6, 22, 45, 45, 45, 45, 45, 45), 4: (0, 3, 9, 24, 45, 45, 45, 45, 45)}
HANGING = 0.25  # a Caveman on an open Mastodon line: this share of its value (the search sees more)


def cav_points(board: str) -> int:
    return VALUE[MASTODON] * (5 - board.count(MASTODON))


def mast_points(board: str) -> int:
    return VALUE["H"] * (5 - board.count("H")) + VALUE["Y"] * (5 - board.count("Y"))


def _ring2(i: int) -> tuple[int, ...]:
    f, r = i % 5, i // 5
    return tuple(j for j in range(N_SQUARES) if max(abs(j % 5 - f), abs(j // 5 - r)) == 2)


RING2 = tuple(_ring2(i) for i in range(N_SQUARES))


def evaluate(board: str, side: str, hanging: bool = True) -> int:
    """Static value for the Cavemen: material, pressure around each Mastodon, Cavemen standing on an
    open Mastodon line (worse when the Mastodons move next) and Cavemen two squares from a Mastodon
    (so that quiet moves still close in)."""
    score = POINT * (cav_points(board) - mast_points(board))
    hang = HANGING * (2 if side == "M" else 1) * POINT * hanging
    for m in range(N_SQUARES):
        if board[m] != MASTODON:
            continue
        herd = False
        for j in NEIGH4[m]:
            if board[j] == MASTODON:
                herd = True
                break
        cav = 0
        for j in NEIGH8[m]:
            if board[j] in CAVEMEN:
                cav += 1
        score += PRESSURE[4 if herd else 3][cav]
        for j in RING2[m]:
            if board[j] in CAVEMEN:
                score += 4
        for ray in ROOK_RAYS[m]:  # Cavemen a Mastodon could land on next
            for j in ray:
                p = board[j]
                if p != EMPTY:
                    if p in CAVEMEN:
                        score -= int(VALUE[p] * hang)
                    break
    return score
