"""Uonga variants that are NOT in the rulebook (issue 37; spec: docs/rules/uonga.md, "Variants not in the rulebook", clauses
V4-V6): changes to who places and moves first and to the points each side needs, measured for
balance. The rulebook's game is the default and stays exactly as R12-R16/R34 describe it.

``VARIANTS`` is the family measured by ``python -m bench.uonga --variants``; ``OFFERED`` the ones
a host can pick on ``/uonga start`` (the rulebook and the one the measurement found fair)."""

from __future__ import annotations

from dataclasses import dataclass

from engine.games.uonga_data import TARGET

RULEBOOK = "rulebook"


@dataclass(frozen=True)
class Variant:
    first_place: str = "C"  # V6a: the side that places first (R12: the Cavemen)
    first_move: str = "C"  # V6b: the side that makes the first move after placement (R16: the Cavemen)
    target_c: int = TARGET  # V6c: points the Cavemen need (R34: 9)
    target_m: int = TARGET  # V6c: points the Mastodons need (R34: 9; V1 raises it to 10)


VARIANTS: dict[str, Variant] = {
    RULEBOOK: Variant(),
    # V6b: the Mastodons answer the last placement with the first move
    "mastodons_move_first": Variant(first_move="M"),
    # V6a: the Mastodons start, so the Cavemen place last and the Mastodons move first (turns alternate)
    "mastodons_start": Variant(first_place="M", first_move="M"),
    # V6c: the Cavemen must capture four Mastodons, not three
    "cavemen_need_12": Variant(target_c=12),
    # V6b + V6c: the Mastodons move first, and 7 or 8 points of Cavemen win them the game
    "mastodons_move_first_need_7": Variant(first_move="M", target_m=7),
    "mastodons_move_first_need_8": Variant(first_move="M", target_m=8),
    # V6c both ways: four Mastodons for the Cavemen, 8 points for the Mastodons
    "cavemen_need_12_mastodons_need_8": Variant(target_c=12, target_m=8),
    "cavemen_need_12_mastodons_need_7": Variant(target_c=12, target_m=7),
    # V6b + V6c: the Mastodons move first and the Cavemen must capture four
    "mastodons_move_first_cavemen_need_12": Variant(first_move="M", target_c=12),
    # V6a + V6c: the Mastodons start (so the Cavemen place last) and the Cavemen must capture four
    "mastodons_start_cavemen_need_12": Variant(first_place="M", first_move="M", target_c=12),
    # V6b + V6c: the Mastodons move first, the Cavemen need four Mastodons and the Mastodons 10 or 12
    "mastodons_move_first_cavemen_need_12_mastodons_need_10": Variant(
        first_move="M", target_c=12, target_m=10
    ),
    "mastodons_move_first_both_need_12": Variant(first_move="M", target_c=12, target_m=12),
    "mastodons_start_cavemen_need_12_mastodons_need_10": Variant(
        first_place="M", first_move="M", target_c=12, target_m=10
    ),
}
# the one measured fair at the hard level's full budget (200 games: 52.2%, 45.4-59.1%); V5,
# offered first (fair at a quarter of the budget, 37.9% at the full one), stays playable for the
# games and rematches that chose it
OFFERED: tuple[str, ...] = (RULEBOOK, "cavemen_need_12_mastodons_need_8")


def variant_of(name: str) -> Variant:
    return VARIANTS[name or RULEBOOK]
