"""Honga payments: the canonical payment strings inside action codes, and every way to pay a cost.

A payment is one token of letters and digits in this order (each part may be empty):

    f* b* m*   fish, berries, mushrooms from the player board
    w*         water, always in pairs: 2 water replace 1 food (R35)
    g*         food counted from a played GOOD_BARTER card (A4, trades only, at most 2)
    x*         mammoths from the player board (R34)
    1-5        mammoths from the herd, by herd position (1 = newest), ascending (R34)

e.g. ``ffbww`` or ``fx3``. ``parse_pay`` rejects anything that is not in this canonical form, so
one payment has exactly one spelling (custom_ids and logs compare as strings).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import combinations

from engine.games.honga_data import BARTER_FOOD, WATER_PER_FOOD

_PAY_RE = re.compile(r"^(f*)(b*)(m*)(w*)(g*)(x*)([1-5]*)$")


@dataclass(frozen=True)
class Pay:
    f: int = 0
    b: int = 0
    m: int = 0
    w: int = 0
    g: int = 0  # barter food
    x: int = 0  # mammoths from the board
    herd: tuple[int, ...] = ()  # herd positions, 0-based

    @property
    def raw(self) -> tuple[int, int, int, int]:
        return (self.f, self.b, self.m, self.w)

    @property
    def mammoths(self) -> int:
        return self.x + len(self.herd)

    def code(self) -> str:
        letters = "f" * self.f + "b" * self.b + "m" * self.m + "w" * self.w + "g" * self.g + "x" * self.x
        return letters + "".join(str(i + 1) for i in self.herd)


def parse_pay(text: str) -> Pay | None:
    """The payment a canonical string spells, or None (not canonical: BadActionCode for the caller)."""
    match = _PAY_RE.match(text)
    if not match or not text:
        return None
    f, b, m, w, g, x, digits = match.groups()
    herd = tuple(int(d) - 1 for d in digits)
    if list(herd) != sorted(set(herd)):
        return None
    return Pay(len(f), len(b), len(m), len(w), len(g), len(x), herd)


def _food_ways(cost: str, have: tuple[int, ...], jokers_g: int, swap: bool) -> list[Pay]:
    """Every exact food payment of ``cost`` (letters f/b/m) from ``have`` = (F, B, M, W).

    Jokers (a water pair or a barter food) may stand for any cost item; the other items are paid
    in kind, except that with SWAP_MB a berry and a mushroom may pay for each other (R11).
    """
    need = len(cost)
    cf, cb, cm = cost.count("f"), cost.count("b"), cost.count("m")
    out = []
    for g in range(min(jokers_g, need) + 1):
        for pairs in range(min(need - g, have[3] // WATER_PER_FOOD) + 1):
            direct = need - g - pairs
            for pf in range(min(cf, have[0], direct) + 1):
                for pb in range(min(have[1], direct - pf) + 1):
                    pm = direct - pf - pb
                    if pm > have[2]:
                        continue
                    fits = pb + pm <= cb + cm if swap else (pb <= cb and pm <= cm)
                    if fits:
                        out.append(Pay(pf, pb, pm, pairs * WATER_PER_FOOD, g))
    return out


def food_payments(cost: str, have: tuple[int, ...], swap: bool = False, barter: bool = False) -> list[Pay]:
    return _food_ways(cost, have, BARTER_FOOD if barter else 0, swap)


_ONE_FOOD = (Pay(f=1), Pay(b=1), Pay(m=1))


def any_food_payments(have: tuple[int, ...]) -> list[Pay]:
    """FRUGAL_MAMMOTHS: one food of any kind (or 2 water)."""
    out = [one for one, k in zip(_ONE_FOOD, have, strict=False) if k]
    if have[3] >= WATER_PER_FOOD:
        out.append(Pay(w=WATER_PER_FOOD))
    return out


def mammoth_ways(k: int, board: int, herd_positions: list[int]) -> list[tuple[int, tuple[int, ...]]]:
    """Every (board count, herd positions) giving ``k`` own mammoths (R34)."""
    out = []
    for x in range(min(k, board) + 1):
        for chosen in combinations(herd_positions, k - x):
            out.append((x, chosen))
    return out


def trade_payments(
    cost: str,
    mammoths: int,
    have: tuple[int, ...],
    board: int,
    herd_positions: list[int],
    *,
    swap: bool = False,
    barter: bool = False,
) -> list[Pay]:
    """Every exact payment for a trade card (R33-R35, SWAP_MB, GOOD_BARTER)."""
    ways = mammoth_ways(mammoths, board, herd_positions)
    if not ways:
        return []
    foods = food_payments(cost, have, swap, barter) if cost else [Pay()]
    return [Pay(p.f, p.b, p.m, p.w, p.g, x, herd) for p in foods for x, herd in ways]


def raw_payments(have: tuple[int, ...], low: int, high: int) -> list[Pay]:
    """BUY_VP (A5): ``low``..``high`` raw materials of any kind, water counting 1 each."""
    out = []
    for f in range(min(have[0], high) + 1):
        for b in range(min(have[1], high - f) + 1):
            for m in range(min(have[2], high - f - b) + 1):
                for w in range(min(have[3], high - f - b - m) + 1):
                    if f + b + m + w >= low:
                        out.append(Pay(f, b, m, w))
    return out
