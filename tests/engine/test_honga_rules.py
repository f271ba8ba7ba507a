"""Clause tests for Honga (docs/rules/honga.md): one or more per clause R1-R45 and example E1-E7.

States come from ``setup`` and are then arranged by hand (HongaState is a plain dataclass): the
start player, the disk in hand, resources and the herd are set so each test controls its situation.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest

from engine.errors import BadActionCode, IllegalAction, MatchOver, NotYourTurn
from engine.games import honga_data as D
from engine.games.honga import RULES, parse_action
from engine.games.honga_turn import HongaState, feeds_honga, hands_by_field


def disk_with(pattern: tuple[int, ...], colour: str = D.GREY) -> int:
    return next(i for i, (col, p) in enumerate(D.DISKS) if p == tuple(pattern) and col == colour)


def make(n: int = 3, seed: int = 1, pattern: tuple[int, ...] = (2, 1, 1, 0), **opts: str) -> HongaState:
    """A fresh game with seat 0 to move as start player, holding a disk of ``pattern``."""
    s = RULES.setup(n, seed, opts)
    s.start = s.current = 0
    s.phase = "place"
    s.disk[0] = disk_with(pattern, D.GREY if sum(pattern) == 4 else D.RED)
    return s


def play(s: HongaState, *codes: str) -> HongaState:
    for code in codes:
        s, _ = RULES.apply(s, s.current, code)
    return s


def placed(pattern: tuple[int, ...], space: str, rot: int, **kw: object) -> HongaState:
    s = make(pattern=pattern)
    for k, v in kw.items():
        setattr(s, k, v)
    return play(s, f"place.{space}.{rot}")


# a grey 2-1-1-0 on SE with rotation 0: 2 towards HONGA, 1 spring, 1 mammoths (HONGA fed)
SE_MAMMOTH = ((2, 1, 1, 0), "se", 0)
# 2-1-1-0 on NW, rotation 0: 2 trade, 1 mountain, 1 HONGA (fed)
NW_TRADE = ((2, 1, 1, 0), "nw", 0)


# ---- 1. components ---------------------------------------------------------------------------------


def test_R1_board_is_3x3_with_honga_in_the_centre():
    assert len(D.GRID) == 3 and all(len(row) == 3 for row in D.GRID)
    assert D.GRID[1][1] == D.HONGA and len(set(D.FIELDS)) == 9


def test_R2_four_spaces_each_touch_four_fields_including_honga():
    assert len(D.SPACES) == 4
    for nb in D.NEIGHBOURS.values():
        assert len(set(nb)) == 4 and D.HONGA in nb


def test_R3_trade_top_left_and_one_space_touches_berries_mountain_trade():
    assert D.GRID[0][0] == D.TRADE
    assert any({D.BERRIES, D.MOUNTAIN, D.TRADE} <= set(nb) for nb in D.NEIGHBOURS.values())


def test_R4_neighbours_are_the_grid_corners_and_edge_fields_reach_two_spaces():
    assert D.NEIGHBOURS["nw"] == (D.TRADE, D.MOUNTAIN, D.HONGA, D.BERRIES)
    assert D.NEIGHBOURS["se"] == (D.HONGA, D.SPRING, D.MAMMOTHS, D.LAKE)
    reach = Counter(f for nb in D.NEIGHBOURS.values() for f in nb)
    assert {f for f in D.FIELDS if reach[f] == 2} == {D.MOUNTAIN, D.BERRIES, D.SPRING, D.LAKE}
    assert {f for f in D.FIELDS if reach[f] == 1} == {D.TRADE, D.MUSHROOMS, D.FOREST, D.MAMMOTHS}
    # geometry: every space's fields are the 2x2 block around its grid corner
    pos = {f: (r, c) for r, row in enumerate(D.GRID) for c, f in enumerate(row)}
    for nb in D.NEIGHBOURS.values():
        rows, cols = {pos[f][0] for f in nb}, {pos[f][1] for f in nb}
        assert len(rows) == 2 and len(cols) == 2


def test_R5_each_field_does_its_own_thing():
    s = placed((1, 1, 2, 0), "sw", 3)  # q0 forest, q1 berries, q2 HONGA... see hands_by_field
    fields = hands_by_field("sw", 3, (1, 1, 2, 0))
    assert fields == {D.FOREST: 1, D.BERRIES: 1, D.HONGA: 2, D.LAKE: 0}
    codes = RULES.legal_actions(s, 0)
    assert "draw" in codes and "berry" in codes and "fish" not in codes
    s = play(s, "berry", "draw")
    assert s.res[0][1] == 2 and len(s.pending[0]) == 1


def test_R6_scores_start_at_zero_and_are_not_capped():
    s = make()
    assert s.scores == [0, 0, 0]
    s.scores[0] = 120
    s.cards[0] = [D.VP2]
    s = play(s, "place.nw.0", "card.vp2")
    assert s.scores[0] == 122


def test_R7_46_disks_28_grey_with_4_hands_18_red_with_5():
    colours = Counter(col for col, _ in D.DISKS)
    assert colours == {D.GREY: 28, D.RED: 18}
    assert {sum(p) for col, p in D.DISKS if col == D.GREY} == {4}
    assert {sum(p) for col, p in D.DISKS if col == D.RED} == {5}


def test_R8_hands_on_two_or_three_quarters_at_most_four_per_quarter():
    for _, p in D.DISKS:
        assert 2 <= sum(1 for h in p if h) <= 3 and max(p) <= 4


def test_R9_layout_table_counts_and_mirror_images_are_distinct():
    assert D.GREY_PATTERNS[(2, 1, 1, 0)] == 4 and D.GREY_PATTERNS[(3, 0, 1, 0)] == 3
    assert D.RED_PATTERNS[(4, 0, 1, 0)] == 1 and sum(D.RED_PATTERNS.values()) == 18
    assert (2, 1, 1, 0) in D.GREY_PATTERNS and (1, 1, 2, 0) in D.GREY_PATTERNS


def test_R10_sixteen_placements_and_quarter_i_points_at_neighbour_i_plus_r():
    s = make()
    codes = RULES.legal_actions(s, 0)
    assert len(codes) == 16 and codes[0] == "place.nw.0"
    assert hands_by_field("ne", 2, (1, 2, 3, 4)) == {D.SPRING: 1, D.HONGA: 2, D.MOUNTAIN: 3, D.MUSHROOMS: 4}


def test_R11_25_bonus_cards_of_10_kinds():
    assert len(D.BONUS_DECK) == 25 and len(set(D.BONUS_DECK)) == 10
    assert Counter(D.BONUS_DECK)[D.BARTER] == 3 and Counter(D.BONUS_DECK)[D.EXTRA] == 2


def test_R12_32_trade_cards_reward_follows_the_formula():
    assert len(D.TRADE_CARDS) == 32
    for food, k, vp in D.TRADE_CARDS.values():
        assert vp == len(food) + max(0, len(food) - 3) + 4 * k
    assert D.TRADE_CARDS["T01"] == ("ffb", 0, 3) and D.TRADE_CARDS["T31"] == ("f", 2, 9)


def test_R13_each_player_has_six_mammoths_and_a_caveman():
    s = RULES.setup(5, 3, {})
    assert s.supply == [6] * 5 and s.board == [0] * 5 and s.steps == [0] * 5


def test_R14_tracks_are_capped_at_nine_unless_the_option_lifts_it():
    s = make()
    s.res[0][0] = 9
    s = play(s, "place.se.3")  # 2-1-1-0 on SE rot 3: q0 lake(2), q1 HONGA(1), q2 spring(1)
    s = play(s, "fish")
    assert s.res[0][0] == 9
    s = make(track_cap="none")
    s.res[0][0] = 9
    s = play(s, "place.se.3", "fish")
    assert s.res[0][0] == 10


def test_R15_mountain_has_steps_zero_to_five_starting_at_zero():
    assert D.MOUNTAIN_TOP == 5 and D.STEP_VP == (0, 1, 2, 3, 4, 5)
    assert RULES.setup(2, 1, {}).steps == [0, 0]


@pytest.mark.parametrize(("n", "cap"), [(2, 3), (3, 3), (4, 4), (5, 5)])
def test_R16_herd_capacity_by_player_count(n, cap):
    assert RULES.setup(n, 1, {}).herd_cap == cap


# ---- 2. setup ----------------------------------------------------------------------------------------


def test_R17_grey_and_red_disks_shuffled_into_separate_piles():
    a, b = RULES.setup(3, 1, {}), RULES.setup(3, 2, {})
    assert {D.DISKS[d][0] for d in a.piles[D.GREY]} == {D.GREY}
    assert sorted(a.piles[D.RED]) == list(D.DISK_IDS[D.RED])
    assert a.piles[D.RED] != b.piles[D.RED]


def test_R18_three_trade_cards_face_up_rest_in_the_pile():
    s = RULES.setup(3, 1, {})
    assert len(s.slots) == 3 and None not in s.slots and len(s.trade_pile) == 29
    assert sorted(s.slots + s.trade_pile) == sorted(D.TRADE_CARDS)


def test_R19_bonus_cards_shuffled_face_down():
    a, b = RULES.setup(3, 1, {}), RULES.setup(3, 2, {})
    assert Counter(a.bonus_pile) == Counter(D.BONUS_DECK) and a.bonus_pile != b.bonus_pile


def test_R20_each_player_starts_with_one_food_of_each_kind_no_water_score_zero():
    s = RULES.setup(4, 1, {})
    assert s.res == [[1, 1, 1, 0]] * 4 and s.scores == [0] * 4


def test_R21_tusk_on_the_field_honga_on_his_field_herd_empty():
    s = RULES.setup(4, 1, {})
    assert s.tusk is None and s.honga is None and s.herd == []


def test_R22_random_start_player_and_everyone_holds_a_grey_disk():
    starts = {RULES.setup(4, seed, {}).start for seed in range(40)}
    assert starts == {0, 1, 2, 3}
    s = RULES.setup(4, 5, {})
    assert s.current == s.start and all(D.DISKS[d][0] == D.GREY for d in s.disk)
    assert len(s.piles[D.GREY]) == 28 - 4


# ---- 3. the turn ------------------------------------------------------------------------------------


def test_R23_disk_goes_on_top_and_covered_disks_have_no_effect():
    s = placed(*SE_MAMMOTH)
    first = s.stacks["se"][-1][0]
    s = play(s, "end")  # seat 1 now
    s.disk[1] = disk_with((3, 1, 0, 0))
    s = play(s, "place.se.1")  # q0 (3) spring, q1 (1) mammoths
    assert [d for d, _ in s.stacks["se"]] == [first, s.placed[2]]
    assert s.left == {D.SPRING: 3, D.MAMMOTHS: 1}
    assert RULES.view(s, None)["spaces"]["se"]["top"]["id"] == s.placed[2]


def test_R24_honga_on_your_board_eats_even_if_you_feed_him():
    s = make()
    s.honga = 0
    s = play(s, *["place." + "se.0"])  # fed (2 hands towards HONGA)
    assert s.honga == 0 and s.res[0] == [0, 1, 1, 0]


def test_R25_ignored_honga_comes_from_another_board_and_eats_at_once():
    s = make()
    s.honga = 2
    assert not feeds_honga("se", 1, s.disk[0])
    s = play(s, "place.se.1")  # q0 spring(2), q1 mammoths(1), q2 lake(1), q3 HONGA(0)
    fields = hands_by_field("se", 1, (2, 1, 1, 0))
    assert fields[D.HONGA] == 0
    assert s.honga == 0 and s.res[0][0] == 0


def test_R25_fed_honga_elsewhere_stays_where_he_is():
    s = make()
    s.honga = 2
    s = play(s, "place.se.0")
    assert s.honga == 2 and s.res[0] == [1, 1, 1, 0] and s.res[2] == [1, 1, 1, 0]


def test_R26_eating_order_fish_berry_mushroom_water_mammoth_then_nothing():
    for res, board, after, board_after in [
        ([0, 1, 1, 2], 1, [0, 0, 1, 2], 1),
        ([0, 0, 1, 2], 1, [0, 0, 0, 2], 1),
        ([0, 0, 0, 2], 1, [0, 0, 0, 1], 1),
        ([0, 0, 0, 0], 1, [0, 0, 0, 0], 0),
        ([0, 0, 0, 0], 0, [0, 0, 0, 0], 0),
    ]:
        s = make()
        s.res[0], s.board[0], s.supply[0] = list(res), board, 6 - board
        s = play(s, "place.se.1")  # ignores HONGA
        assert (s.res[0], s.board[0]) == (after, board_after)
        assert s.board[0] + s.supply[0] == 6


def test_R26_never_more_than_one_item_per_turn():
    s = make()
    s.res[0] = [3, 3, 3, 3]
    s.honga = 0
    s = play(s, "place.se.1")  # already with us and ignored again: still one item (A11)
    assert s.res[0] == [2, 3, 3, 3]


def test_R27_uses_interleave_with_cards_and_each_use_may_be_declined():
    s = make()
    s.cards[0] = [D.VP2]
    s = play(s, "place.se.0", "skip.spring", "card.vp2")
    assert s.left == {D.MAMMOTHS: 1} and s.scores[0] == 2
    assert "skip.mammoths" in RULES.legal_actions(s, 0) and "end" in RULES.legal_actions(s, 0)
    assert D.HONGA not in s.left  # hands towards HONGA have no action
    with pytest.raises(IllegalAction):
        RULES.apply(s, 0, "water")  # the spring hand was declined


def test_R28_gathering_fields_add_one_per_hand():
    s = make(pattern=(1, 3, 0, 0))
    s = play(s, "place.ne.1")  # q0 mushrooms(1), q1 spring(3), HONGA 0 -> HONGA comes and eats a fish
    s = play(s, "mushroom", "water", "water", "water")
    assert s.res[0] == [0, 1, 2, 3]


def test_R29_forest_cards_are_pending_and_join_the_hand_next_turn():
    s = make(pattern=(3, 1, 0, 0))
    s = play(s, "place.sw.3")  # q0 forest(3), q1 berries(1)
    top = s.bonus_pile[-1]
    s = play(s, "draw")
    assert s.pending[0] == [top] and s.cards[0] == []
    assert not any(c.startswith("card.") for c in RULES.legal_actions(s, 0))
    s = play(s, "end")
    for seat in (1, 2):
        s.disk[seat] = disk_with((2, 1, 1, 0))
        s = play(s, "place.se.0", "end")
    assert s.current == 0 and s.cards[0] == [top] and s.pending[0] == []


def _lure_state(herd: list[int], n: int = 3) -> HongaState:
    s = make(n=n)
    s.herd = list(herd)
    s.res[0] = [2, 2, 2, 0]
    for seat in range(n):
        s.supply[seat] = 6 - herd.count(seat)
    from engine.games.honga_turn import update_tusk

    update_tusk(s)
    return play(s, "place.se.0")


def test_R30_lure_pays_fbm_and_pushes_the_oldest_home():
    s = _lure_state([1, 2, 1])
    s = play(s, "lure.fbm")
    assert s.res[0] == [1, 1, 1, 0] and s.herd == [0, 1, 2] and s.board[1] == 1
    assert s.supply[0] == 5


def test_R30_no_mammoth_in_supply_no_luring():
    s = _lure_state([])
    s.supply[0] = 0
    assert not any(c.startswith("lure") for c in RULES.legal_actions(s, 0))
    s.supply[0] = 1
    s.res[0] = [1, 0, 1, 0]
    assert not any(c.startswith("lure") for c in RULES.legal_actions(s, 0))  # cannot pay


def test_R31_tusk_to_the_majority_and_an_empty_herd_returns_it():
    s = _lure_state([1, 1])
    assert s.tusk == 1
    s = play(s, "lure.fbm")
    assert s.tusk == 1  # [0, 1, 1]
    s2 = make()
    s2.herd, s2.tusk, s2.supply[0] = [0], 0, 5
    s2.slots[0] = "T23"  # 1 mammoth + F
    s2 = play(s2, "place.nw.0", "trade.1.f1")
    assert s2.herd == [] and s2.tusk is None


def test_R32_each_mountain_hand_climbs_one_step():
    s = make(pattern=(3, 1, 0, 0))
    s = play(s, "place.nw.1", "climb", "climb")  # q0 mountain(3), q1 HONGA(1)
    assert s.steps[0] == 2 and s.left == {D.MOUNTAIN: 1}


def test_R33_trade_pays_scores_and_leaves_the_slot_empty_until_step_4():
    s = make()
    s.slots[1] = "T01"  # FFB, 3 VP
    s.res[0] = [2, 1, 0, 0]
    s = play(s, *["place." + "nw.0"], "trade.2.ffb")
    assert s.scores[0] == 3 and s.res[0] == [0, 0, 0, 0] and s.slots[1] is None
    assert s.trade_discard == ["T01"]
    s = play(s, "end")
    assert s.slots[1] is not None


def test_R34_trade_mammoths_from_board_and_herd_return_to_supply():
    s = make()
    s.slots[0] = "T30"  # 2 mammoths, 8 VP
    s.herd, s.board[0], s.supply[0] = [1, 0, 0], 1, 3
    s.supply[1] = 5
    s.tusk = 0
    s = play(s, "place.nw.0")
    codes = [c for c in RULES.legal_actions(s, 0) if c.startswith("trade.1.")]
    assert sorted(codes) == ["trade.1.23", "trade.1.x2", "trade.1.x3"]
    s = play(s, "trade.1.x2")
    assert s.herd == [1, 0] and s.board[0] == 0 and s.supply[0] == 5
    assert s.tusk == 1  # tie 1-1 in [1, 0]: seat 1's mammoth entered last (R31)


def test_R34_tusk_recomputed_after_herd_closes_up():
    s = make()
    s.slots[0] = "T23"
    s.herd, s.supply[0], s.supply[1] = [1, 0, 0], 4, 5
    s.tusk = 0
    s = play(s, "place.nw.0", "trade.1.f2")
    assert s.herd == [1, 0] and s.tusk == 1


def test_R35_two_water_replace_one_food_only_when_paying():
    s = make()
    s.slots[0] = "T01"  # FFB
    s.res[0] = [1, 1, 0, 2]
    s = play(s, "place.nw.0")
    assert "trade.1.fbww" in RULES.legal_actions(s, 0)
    s = play(s, "trade.1.fbww")
    assert s.res[0] == [0, 0, 0, 0]


def test_R36_at_most_two_cards_from_hand_after_step_2():
    s = make()
    s.cards[0] = [D.VP2, D.VP2, D.VP2]
    assert not any(c.startswith("card.") for c in RULES.legal_actions(s, 0))  # before placing
    s = play(s, "place.se.0", "card.vp2", "card.vp2")
    with pytest.raises(IllegalAction):
        RULES.apply(s, 0, "card.vp2")
    s = play(s, "end")
    assert s.bonus_discard[-2:] == [D.VP2, D.VP2] and s.cards[0] == [D.VP2]


def test_R36_chase_needs_honga_on_your_board():
    s = make()
    s.cards[0] = [D.CHASE]
    s = play(s, "place.se.0")
    assert "card.chase" not in RULES.legal_actions(s, 0)
    s = make()
    s.cards[0] = [D.CHASE]
    s = play(s, "place.se.1", "card.chase")  # ignored him: he came and ate, now he goes
    assert s.honga is None


def test_R36_buy_vp_takes_any_raw_material_one_vp_each():
    s = make()
    s.cards[0] = [D.BUY_VP]
    s.res[0] = [0, 1, 0, 3]
    s = play(s, "place.se.0")
    codes = [c for c in RULES.legal_actions(s, 0) if c.startswith("card.buyvp")]
    assert "card.buyvp.bww" in codes and "card.buyvp.www" in codes and len(codes) == 6
    s = play(s, "card.buyvp.bww")
    assert s.scores[0] == 3 and s.res[0] == [0, 0, 0, 1]


def test_R37_lucky_hand_on_an_empty_quarter_works_towards_honga_does_nothing():
    s = make()
    s.cards[0] = [D.LUCKY, D.LUCKY_OR_CHASE]
    s = play(s, "place.se.0", "card.lucky.lake")  # q3 (0 hands) points at the lake
    assert s.left[D.LAKE] == 1
    s = play(s, "card.loc.honga")
    assert D.HONGA not in s.left and s.left[D.LAKE] == 1
    s = play(s, "fish")
    assert s.res[0][0] == 2


def test_R38_tusk_holder_draws_red_otherwise_grey():
    s = make()
    s.tusk = 0
    red_top = s.piles[D.RED][-1]
    s = play(s, "place.se.0", "end")
    assert s.disk[0] == red_top
    s.disk[1] = disk_with((2, 1, 1, 0))
    grey_top = s.piles[D.GREY][-1]
    s = play(s, "place.se.0", "end")
    assert s.disk[1] == grey_top


def test_R38_extra_disk_draws_two_keeps_one_and_puts_the_other_under_the_pile():
    s = make()
    s.cards[0] = [D.EXTRA]
    a, b = s.piles[D.GREY][-1], s.piles[D.GREY][-2]
    s = play(s, "place.se.0", "card.extra", "end")
    assert s.phase == "keep" and s.drawn == [a, b] and s.current == 0
    assert RULES.view(s, 0)["drawn"][1]["id"] == b and RULES.view(s, 1)["drawn"] is None
    s = play(s, "keep.1")
    assert s.disk[0] == b and s.piles[D.GREY][0] == a and s.current == 1


def test_R39_end_refills_slots_and_discards_played_cards():
    s = make()
    s.cards[0] = [D.VP2]
    s.slots[2] = None
    top = s.trade_pile[-1]
    s = play(s, "place.se.0", "card.vp2")
    assert s.bonus_discard == [] and s.played == [D.VP2]
    s = play(s, "end")
    assert s.slots[2] == top and s.bonus_discard == [D.VP2]


def test_R40_empty_bonus_pile_is_rebuilt_from_the_discards():
    s = make(pattern=(3, 1, 0, 0))
    s.bonus_discard, s.bonus_pile = list(s.bonus_pile), []
    s = play(s, "place.sw.3", "draw")
    assert len(s.pending[0]) == 1 and len(s.bonus_pile) == 24 and s.bonus_discard == []


def test_R40_empty_disk_pile_takes_that_colour_from_the_board():
    s = make()
    s.tusk = 0
    reds = list(s.piles[D.RED])
    s.piles[D.RED] = []
    s.stacks["ne"] = [[reds[0], 0], [disk_with((2, 1, 1, 0)), 1], [reds[1], 2]]
    s = play(s, "place.se.0", "end")
    assert s.disk[0] in reds[:2] and len(s.piles[D.RED]) == 1
    assert [d for d, _ in s.stacks["ne"]] == [disk_with((2, 1, 1, 0))]


def test_R40_nothing_to_draw_when_pile_and_discards_are_empty():
    s = make(pattern=(3, 1, 0, 0))
    s.bonus_pile = []
    s = play(s, "place.sw.3")
    assert "draw" not in RULES.legal_actions(s, 0) and "skip.forest" in RULES.legal_actions(s, 0)


@pytest.mark.parametrize(("n", "target"), [(2, 40), (3, 35), (4, 30), (5, 30)])
def test_R41_target_by_player_count(n, target):
    assert RULES.setup(n, 1, {}).target == target
    assert RULES.setup(n, 1, {"target": "short"}).target == D.SHORT_TARGET


def test_R42_target_reached_through_someone_elses_climb_starts_the_last_round():
    s = make(pattern=(3, 1, 0, 0))
    s.steps = [4, 4, 0]
    s.scores = [0, 31, 0]
    s = play(s, "place.nw.1", "climb")
    assert s.scores == [5, 35, 0] and s.final


def test_R43_cards_left_in_hand_score_nothing():
    s = make(n=2)
    s.start = 0
    s.cards[0] = [D.VP2, D.VP2]
    s.pending[0] = [D.VP2]
    s.scores = [39, 30]
    s.slots[0] = "T23"
    s.board[0], s.supply[0] = 1, 5
    s = play(s, "place.nw.0", "trade.1.fx", "end")
    s.disk[1] = disk_with((2, 1, 1, 0))
    s = play(s, "place.se.0", "end")
    out = RULES.outcome(s)
    assert out is not None and out.scores == [44, 30] and out.winners == [0]


def _finish(scores: list[int], res: list[list[int]]) -> HongaState:
    s = make(n=2)
    s.final = True
    s.scores, s.res = list(scores), [list(r) for r in res]
    s.current = 1
    s.disk[1] = disk_with((2, 1, 1, 0))
    return play(s, "place.se.0", "end")


def test_R44_tie_broken_by_raw_materials_without_mammoths():
    s = _finish([40, 40], [[1, 1, 1, 1], [3, 3, 0, 0]])  # seat 1's turn: SE rot 0 feeds HONGA
    out = RULES.outcome(s)
    assert out is not None and out.winners == [1] and out.reason == "win"
    assert RULES.view(s, None)["tiebreak"] == "resources"


def test_R44_still_tied_is_a_shared_victory():
    s = _finish([40, 40], [[1, 1, 1, 1], [2, 2, 0, 0]])
    out = RULES.outcome(s)
    assert out is not None and out.winners == [0, 1] and out.reason == "draw"


def test_R45_views_hide_other_hands_pending_cards_and_pile_order():
    s = make()
    s.cards[1] = [D.CHASE]
    s.pending[2] = [D.VP2]
    v0, v1, public = RULES.view(s, 0), RULES.view(s, 1), RULES.view(s, None)
    assert v0["disk"]["id"] == s.disk[0] and v1["cards"] == [D.CHASE] and v0["cards"] == []
    assert public["disk"] is None and public["cards"] is None
    assert v0["players"][1]["cards"] == 1 and v0["players"][2]["pending"] == 1
    text = json.dumps(v0)
    assert "vp2" not in text and "chase" not in text.replace("card", "")
    assert "rng" not in v0 and v0["piles"]["bonus"] == len(s.bonus_pile)


# ---- worked examples ------------------------------------------------------------------------------------


def test_E1_grey_2110_on_nw_rotation_1():
    assert hands_by_field("nw", 1, (2, 1, 1, 0)) == {
        D.MOUNTAIN: 2,
        D.HONGA: 1,
        D.BERRIES: 1,
        D.TRADE: 0,
    }
    s = make()
    s = play(s, "place.nw.1")
    assert s.honga is None  # fed
    s = play(s, "climb", "climb", "berry")
    assert s.steps[0] == 2 and s.res[0] == [1, 2, 1, 0]


def test_E2_honga_moves_to_p3_eats_and_eats_again_next_turn():
    s = make()
    s.current = 2
    s.honga = 1
    s.disk[2] = disk_with((2, 1, 1, 0))
    s.res[2] = [1, 1, 1, 0]
    s = play(s, "place.se.1")  # no hand towards HONGA
    assert s.honga == 2 and s.res[2][0] == 0
    s = play(s, "end")
    for seat in (0, 1):
        s.disk[seat] = disk_with((2, 1, 1, 0))
        s = play(s, "place.se.0", "end")  # both feed HONGA: he stays with P3
    s.disk[2] = disk_with((2, 1, 1, 0))
    s = play(s, "place.se.0")  # P3 feeds him now: he still eats a berry
    assert s.honga == 2 and s.res[2] == [0, 0, 1, 0]


def test_E3_lure_takes_the_tusk_and_pushes_the_oldest_home():
    s = make()
    s.current = 1
    s.disk[1] = disk_with((2, 1, 1, 0))
    s.herd, s.supply[0], s.supply[1] = [0, 1, 0], 4, 5
    s.tusk = 0
    s.res[1] = [1, 1, 1, 0]
    s = play(s, "place.se.0", "lure.fbm")
    assert s.herd == [1, 0, 1] and s.board[0] == 1 and s.tusk == 1


def test_E4_tie_goes_to_the_newest():
    s = make()
    s.current = 2
    s.disk[2] = disk_with((2, 1, 1, 0))
    s.herd, s.supply[0] = [0], 5
    s.tusk = 0
    s = play(s, "place.se.0", "lure.fbm")
    assert s.herd == [2, 0] and s.tusk == 2


def test_E5_summit_scores_everyone_and_the_second_step_is_lost():
    s = make(pattern=(3, 1, 0, 0))
    s.steps = [4, 3, 1]
    s = play(s, "place.nw.1", "climb")
    assert s.scores == [5, 3, 1] and s.steps == [0, 0, 0]
    assert "climb" not in RULES.legal_actions(s, 0)


def test_E6_water_replaces_the_berry():
    s = make()
    s.slots[0] = "T12"  # FFBM
    assert D.TRADE_CARDS["T12"] == ("ffbm", 0, 5)
    s.res[0] = [2, 0, 1, 2]
    s = play(s, "place.nw.0", "trade.1.ffmww")
    assert s.res[0] == [0, 0, 0, 0] and s.scores[0] == 5


def test_E7_last_round_ends_after_the_player_right_of_the_start_player():
    s = make(n=4)
    s.res = [[3, 3, 3, 3] for _ in range(4)]
    seen = []
    for turn in range(7):
        seat = s.current
        seen.append(seat)
        s.disk[seat] = disk_with((2, 1, 1, 0))
        if turn == 1:
            s.scores[1] = 28
            s.cards[1] = [D.VP2]
            s = play(s, "place.se.0", "card.vp2", "end")
        else:
            s = play(s, "place.se.0", "end")
        if s.phase == "over":
            break
    assert seen == [0, 1, 2, 3] and s.phase == "over"
    with pytest.raises(MatchOver):
        RULES.apply(s, 0, "end")


# ---- codes and errors ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "bad", ["", "place.xx.0", "place.nw.4", "trade.4.f", "lure.bf", "trade.1.f21", "card.zzz"]
)
def test_R27_malformed_codes_are_bad_action_codes(bad):
    with pytest.raises(BadActionCode):
        parse_action(bad)


def test_R23_out_of_turn_and_illegal_codes_change_nothing():
    s = make()
    before = RULES.dump(s)
    with pytest.raises(NotYourTurn):
        RULES.apply(s, 1, "place.nw.0")
    with pytest.raises(IllegalAction):
        RULES.apply(s, 0, "end")
    assert RULES.dump(s) == before


def test_R33_unaffordable_trade_is_refused():
    s = make()
    s.slots = ["T22", "T22", "T22"]
    s = play(s, "place.nw.0")
    assert not any(c.startswith("trade") for c in RULES.legal_actions(s, 0))
    with pytest.raises(IllegalAction):
        RULES.apply(s, 0, "trade.1.ffbbmm")


def test_R11_swap_and_barter_and_frugal_change_what_pays():
    s = make()
    s.cards[0] = [D.SWAP, D.BARTER]
    s.slots[0] = "T03"  # BBM
    s.res[0] = [0, 0, 1, 0]
    s = play(s, "place.nw.0")
    assert not any(c.startswith("trade.1") for c in RULES.legal_actions(s, 0))
    s = play(s, "card.swap", "card.barter")
    assert "trade.1.mgg" in RULES.legal_actions(s, 0)
    s = play(s, "trade.1.mgg")
    assert s.scores[0] == 3 and s.barter == 0
    s = make()
    s.cards[0] = [D.FRUGAL]
    s.res[0] = [0, 0, 1, 0]
    s = play(s, "place.se.0", "card.frugal", "lure.m")
    assert s.herd == [0] and s.res[0] == [0, 0, 0, 0]


def test_R11_climb2_or_chase_climbs_two_steps():
    s = make()
    s.cards[0] = [D.CLIMB_OR_CHASE]
    s = play(s, "place.se.0", "card.coc.climb")
    assert s.steps[0] == 2


def test_R35_seed_water_may_be_exchanged_at_any_moment_of_step_3():
    """Seed over spec: "podrás cambiar siempre" 2 water for a food, not only when paying (A14).
    It matters at the track cap: exchange first, then the new water is not lost."""
    s = make(pattern=(1, 3, 0, 0))
    s.res[0] = [3, 1, 1, 9]
    s = play(s, "place.ne.1")  # mushrooms 1, spring 3; HONGA comes and eats a fish
    assert "convert.b" in RULES.legal_actions(s, 0)
    s = play(s, "convert.b", "water", "water")
    assert s.res[0] == [2, 2, 1, 9]
    s.res[0][3] = 1
    assert not any(c.startswith("convert") for c in RULES.legal_actions(s, 0))


def test_R36_a_pending_card_cannot_be_played_and_a_hand_cannot_be_used_twice():
    s = make(pattern=(3, 1, 0, 0))
    s.pending[0] = [D.VP2]
    s = play(s, "place.se.3")  # q0 lake (3), q1 HONGA (1)
    with pytest.raises(IllegalAction):
        RULES.apply(s, 0, "card.vp2")
    s = play(s, "fish", "fish", "fish")
    with pytest.raises(IllegalAction):
        RULES.apply(s, 0, "fish")
