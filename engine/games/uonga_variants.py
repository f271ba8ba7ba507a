"""Uonga variants that are NOT in the rulebook (issue 37; spec: docs/rules/uonga.md section 11, clauses
X1-X4): changes to who places and moves first and to the points each side needs, measured for
balance. The rulebook's game is the default and stays exactly as R12-R16/R34 describe it.

``VARIANTS`` is the family measured by ``python -m bench.uonga --variants``; ``OFFERED`` the ones
a host can pick on ``/uonga start`` (the rulebook and the one the measurement found fair)."""

from __future__ import annotations

from dataclasses import dataclass

from engine.games.uonga_data import TARGET

RULEBOOK = "rulebook"


@dataclass(frozen=True)
class Variant:
    first_place: str = "C"  # X1: the side that places first (R12: the Cavemen)
    first_move: str = "C"  # X2: the side that makes the first move after placement (R16: the Cavemen)
    target_c: int = TARGET  # X3: points the Cavemen need (R34: 9)
    target_m: int = TARGET  # X3: points the Mastodons need (R34: 9; V1 raises it to 10)


VARIANTS: dict[str, Variant] = {
    RULEBOOK: Variant(),
    # X2: the Mastodons answer the last placement with the first move
    "mastodons_move_first": Variant(first_move="M"),
    # X1: the Mastodons start, so the Cavemen place last and the Mastodons move first (turns alternate)
    "mastodons_start": Variant(first_place="M", first_move="M"),
    # X3: the Cavemen must capture four Mastodons, not three
    "cavemen_need_12": Variant(target_c=12),
    # X2 + X3: the Mastodons move first, and 7 points of Cavemen win them the game
    "mastodons_move_first_need_7": Variant(first_move="M", target_m=7),
}
OFFERED: tuple[str, ...] = (RULEBOOK, "mastodons_move_first")


def variant_of(name: str) -> Variant:
    return VARIANTS[name or RULEBOOK]
