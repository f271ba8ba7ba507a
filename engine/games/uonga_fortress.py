"""The hard computer's static evaluation on 25-bit boards, with fortress knowledge (issue 37).

A Mastodon is *out of reach* when it has fewer non-Mastodon neighbours than the Cavemen needed to
capture it (3 alone, 4 in a herd: R28/R29), or when fewer Cavemen than that are left: a corner L
(a1 b1 a2), a corner pair (d5 e5: e5 has two free neighbours), a Mastodon diagonal to another in a
corner. When fewer Mastodons are within reach than the Cavemen still need, the Cavemen cannot win
as things stand and the 40-turn quiet rule (R38) will end the game in a draw: their lead is then
worth little, so the Mastodons seek such a fortress when behind, and the Cavemen avoid letting one
form. The value also drifts towards the draw (0) as the quiet count nears the move limit.
Values are from the Cavemen's point of view, in the units of ``uonga_eval`` (100 = one point).
"""

from __future__ import annotations

from engine.games.uonga_bits import BIT, N4, N8, RAY_MASKS, RAYS, squares
from engine.games.uonga_data import N_SQUARES
from engine.games.uonga_eval import POINT, PRESSURE, RING2

RING2_BITS = tuple(sum(BIT[j] for j in RING2[i]) for i in range(N_SQUARES))
OUT_OF_REACH = 35  # a Mastodon nobody can surround is worth this much to the Mastodons
FORTRESS_SHARE = 4  # a Cavemen lead that cannot become a win counts a quarter
DRIFT = 20  # over the last this many quiet turns before the move limit the value drifts to 0


def reachable(m: int, cavemen: int, i: int) -> bool:
    """Whether the Mastodon on ``i`` could ever be captured where it stands (R28/R29)."""
    need = 4 if N4[i] & m else 3
    return cavemen >= need and (N8[i] & ~m).bit_count() >= need


def _within(m: int, n_cav: int) -> int:
    """How many Mastodons could still be captured where they stand."""
    return sum(1 for i in squares(m) if reachable(m, n_cav, i))


def holds(h: int, y: int, m: int, short: int) -> bool:
    """Whether the Mastodons can move (R19: they must) and keep fewer than ``short`` Mastodons within
    reach: a formation whose every move opens it is no fortress (a corner L of the last three)."""
    cav = h | y
    occ = cav | m
    n_cav = cav.bit_count()
    x = m
    while x:
        low = x & -x
        x ^= low
        for ray in RAYS[low.bit_length() - 1]:
            for bit, _ in ray:
                if occ & bit:
                    break  # a capture changes the count: the search judges it, not the fortress
                if _within(m ^ low | bit, n_cav) < short:
                    return True
    return False


def evaluate(h: int, y: int, m: int, side: str, target_c: int) -> int:
    """Material, pressure around Mastodons within reach, Cavemen closing in, Cavemen on an open
    Mastodon line (worse with the Mastodons to move), then the fortress."""
    cav = h | y
    n_cav = cav.bit_count()
    nm = m.bit_count()
    cav_points = 3 * (5 - nm)
    score = POINT * (cav_points - 2 * (5 - h.bit_count()) - (5 - y.bit_count()))
    hang_h, hang_y = (50, 25) if side == "M" else (25, 12)
    occ = cav | m
    within = firsts = 0
    x = m
    while x:
        low = x & -x
        x ^= low
        i = low.bit_length() - 1
        herd = N4[i] & m
        need = 4 if herd else 3
        if n_cav >= need and (N8[i] & ~m).bit_count() >= need:
            within += 1
            score += PRESSURE[need][(N8[i] & cav).bit_count()]
        else:
            score -= OUT_OF_REACH
        score += 4 * (RING2_BITS[i] & cav).bit_count()
        for mask, up in RAY_MASKS[i]:  # the first piece on each rook ray
            hit = mask & occ
            if hit:
                firsts |= hit & -hit if up else 1 << (hit.bit_length() - 1)
    score -= hang_h * (firsts & h).bit_count() + hang_y * (firsts & y).bit_count()  # Cavemen in reach
    short = -(-(target_c - cav_points) // 3)  # Mastodons the Cavemen still need
    if score > 0 and within < short and holds(h, y, m, short):
        score //= FORTRESS_SHARE  # the Cavemen cannot reach their target as things stand
    return score


def drift(score: int, quiet: int, limit: int) -> int:
    """R38: a value nears the draw's 0 as the quiet count nears the move limit."""
    if limit and quiet > limit - DRIFT:
        return score * (limit - quiet) // DRIFT
    return score
