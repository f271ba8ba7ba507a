"""Clause tests for Uonga (docs/rules/uonga.md): one or more per clause R1-R39, variant V1-V3,
worked example E1-E8 and the newer decisions A12-A17.

Positions are built by hand (UongaState is a plain dataclass): ``pos({"c3": "M", "b2": "Y"})`` is a
movement-phase board with the Cavemen (seat 0) to move. Hand-built positions start with an empty
repetition record, so only positions reached by ``apply`` are counted (A14).

Spec and seed disagree once: A3 lets a herd lose a member that is not next to the mover, the seed
says a Mastodon is captured "only if [it] is adjacent to the Caveman that just moved". The engine
follows the seed (test_R29_seed_over_spec_A3_only_members_next_to_the_mover_can_fall).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine.core import Event
from engine.errors import BadActionCode, IllegalAction, MatchOver, NotYourTurn
from engine.games.uonga import (
    RULES,
    UongaState,
    can_move,
    cav_count,
    group_of,
    herds,
    parse_action,
    piece_moves,
    resign,
)
from engine.games.uonga_data import INDEX, N_SQUARES, NEIGH4, NEIGH8, SQUARES
from engine.games.uonga_turn import _start_turn
from engine.games.uonga_variants import OFFERED, VARIANTS

CAV, MAST = 0, 1  # in ``pos`` the Cavemen player is seat 0


def board_of(pieces: dict[str, str]) -> str:
    cells = ["."] * N_SQUARES
    for sq, p in pieces.items():
        cells[INDEX[sq]] = p
    return "".join(cells)


def pos(pieces: dict[str, str], side: str = "C", cav_seat: int = 0, **kw: Any) -> UongaState:
    return UongaState(cav_seat, 7, board=board_of(pieces), side=side, phase="move", turn=11, **kw)


def play(s: UongaState, *codes: str) -> tuple[UongaState, list[Event]]:
    """Apply codes in turn, each by the (single) seat to move; returns the state and all events."""
    events: list[Event] = []
    for code in codes:
        (seat,) = RULES.to_move(s)
        s, ev = RULES.apply(s, seat, code)
        events += ev
    return s, events


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def dests(s: UongaState, sq: str) -> set[str]:
    return {SQUARES[j] for j in piece_moves(s.board, INDEX[sq])}


def full_placement(cav: list[tuple[str, str]], mast: list[str], **options: Any) -> UongaState:
    """Play the whole placement phase: five (Hunter, Youngling) pairs and five Mastodon squares."""
    s = RULES.setup(2, 1, {"side": "cavemen", **options})
    for (h, y), m in zip(cav, mast, strict=True):
        s, _ = play(s, f"place.H.{h}", f"place.Y.{y}", f"place.M.{m}")
    return s


STANDARD_CAV = [("a1", "b1"), ("c1", "d1"), ("e1", "a2"), ("b2", "c2"), ("d2", "e2")]
STANDARD_MAST = ["a5", "b5", "c5", "d5", "e5"]


# ---- 1. components and board ---------------------------------------------------------------------


def test_R1_squares_a1_to_e5_files_left_to_right_ranks_from_the_cavemen_side():
    assert len(SQUARES) == 25 and SQUARES[0] == "a1" and SQUARES[4] == "e1" and SQUARES[24] == "e5"
    assert INDEX["c3"] == 12 and INDEX["b1"] == 1 and INDEX["a2"] == 5  # (file, rank) = (1, 0) / (0, 1)
    for bad in ("place.H.f1", "place.H.a6", "place.H.a0", "move.a1.a1", "move.A1.a2", "take.c33"):
        with pytest.raises(BadActionCode):
            parse_action(bad)


def test_R2_one_stash_of_five_pieces_of_each_size_all_on_the_board_after_placement():
    s = full_placement(STANDARD_CAV, STANDARD_MAST)
    assert sorted(s.board.replace(".", "")) == sorted("HHHHHYYYYYMMMMM")
    assert RULES.legal_actions(s, CAV) and all(a.startswith("move.") for a in RULES.legal_actions(s, CAV))


def test_R3_the_mastodon_player_places_only_mastodons():
    s, _ = play(RULES.setup(2, 1, {"side": "cavemen"}), "place.H.a1", "place.Y.b1")
    legal = RULES.legal_actions(s, MAST)
    assert legal and all(a.startswith("place.M.") for a in legal)
    with pytest.raises(IllegalAction):
        RULES.apply(s, MAST, "place.H.c3")


def test_R4_the_cavemen_player_places_hunters_and_younglings_never_mastodons():
    s = RULES.setup(2, 1, {"side": "cavemen"})
    assert {a.split(".")[1] for a in RULES.legal_actions(s, CAV)} == {"H", "Y"}
    with pytest.raises(IllegalAction):
        RULES.apply(s, CAV, "place.M.c3")


def test_R5_point_values_youngling_1_hunter_2_mastodon_3():
    s, _ = play(pos({"a1": "M", "a3": "Y", "e5": "H"}, side="M"), "move.a1.a3")
    assert s.points == [0, 1]
    s, _ = play(pos({"a1": "M", "a3": "H", "e5": "Y"}, side="M"), "move.a1.a3")
    assert s.points == [0, 2]
    s, _ = play(pos({"c3": "M", "b2": "Y", "d2": "Y", "b4": "Y", "e5": "M"}), "move.b4.c4")
    assert s.points == [3, 0]


def test_R6_one_piece_per_square_no_stacking():
    s, _ = play(RULES.setup(2, 1, {"side": "cavemen"}), "place.H.c3")
    assert "place.Y.c3" not in RULES.legal_actions(s, CAV)
    with pytest.raises(IllegalAction):
        RULES.apply(s, CAV, "place.Y.c3")
    s = pos({"a1": "Y", "a2": "H", "e5": "M"})
    assert "a2" not in dests(s, "a1")


# ---- 2. definitions ---------------------------------------------------------------------------------


def test_R7_adjacency_for_capturing_includes_diagonals():
    assert len(NEIGH8[INDEX["c3"]]) == 8 and len(NEIGH8[INDEX["a1"]]) == 3
    s = pos({"c3": "M", "b2": "Y", "d4": "Y", "a4": "Y", "e1": "M"})  # only diagonal neighbours
    s, _ = play(s, "move.a4.b4")
    assert s.board[INDEX["c3"]] == "." and s.points[0] == 3


def test_R8_orthogonal_adjacency_shares_an_edge():
    assert {SQUARES[j] for j in NEIGH4[INDEX["c3"]]} == {"b3", "d3", "c2", "c4"}
    assert {SQUARES[j] for j in NEIGH4[INDEX["a1"]]} == {"a2", "b1"}


def test_R9_a_herd_is_a_connected_group_and_diagonal_contact_is_no_herd():
    board = board_of({"b3": "M", "c3": "M", "d3": "M", "a5": "M", "b4": "."})
    assert [[SQUARES[i] for i in h] for h in herds(board)] == [["b3", "c3", "d3"]]
    diag = board_of({"c3": "M", "d4": "M"})
    assert herds(diag) == [] and group_of(diag, INDEX["c3"]) == [INDEX["c3"]]
    # the diagonal pair are two lone Mastodons: three Cavemen each capture both at once
    s = pos({"c3": "M", "d4": "M", "b3": "Y", "c4": "H", "e3": "H", "d2": "Y"})
    s, _ = play(s, "move.d2.d3")  # d3 touches c3 (with b3, c4) and d4 (with c4, e3)
    assert s.points[0] == 6


def test_R10_cav_counts_cavemen_of_either_kind_and_nothing_else():
    board = board_of({"c3": "M", "b2": "H", "b3": "Y", "c4": "M", "d4": "Y", "e5": "H"})
    assert cav_count(board, INDEX["c3"]) == 3


# ---- 3. setup ---------------------------------------------------------------------------------------


def test_R11_the_board_starts_empty_with_every_piece_in_hand():
    s = RULES.setup(2, 3, {})
    view = RULES.view(s, None)
    assert view["board"] == {} and s.phase == "place" and view["placement"] == {"k": 1, "of": 5}
    assert view["points"] == {"cavemen": 0, "mastodons": 0}


@pytest.mark.parametrize("side", ["cavemen", "mastodons", "random"])
def test_R12_the_cavemen_player_moves_first_then_turns_alternate(side):
    s = RULES.setup(2, 11, {"side": side})
    assert RULES.to_move(s) == {s.cav_seat}
    s, _ = play(s, "place.H.a1", "place.Y.b1")
    assert RULES.to_move(s) == {1 - s.cav_seat}
    s, _ = play(s, "place.M.e5")
    assert RULES.to_move(s) == {s.cav_seat}


def test_R13_sides_by_host_choice_or_at_random_from_the_seed():
    assert RULES.setup(2, 1, {"side": "cavemen"}).cav_seat == 0
    assert RULES.setup(2, 1, {"side": "mastodons"}).cav_seat == 1
    drawn = [RULES.setup(2, seed, {"side": "random"}).cav_seat for seed in range(40)]
    assert set(drawn) == {0, 1}
    assert drawn == [RULES.setup(2, seed, {}).cav_seat for seed in range(40)]  # default: random
    with pytest.raises(IllegalAction):
        RULES.setup(2, 1, {"side": "dinosaurs"})
    with pytest.raises(IllegalAction):
        RULES.setup(3, 1, {})


# ---- 4. placement ------------------------------------------------------------------------------------


def test_R14_the_mastodon_player_places_exactly_one_mastodon_per_turn():
    s, _ = play(RULES.setup(2, 1, {"side": "cavemen"}), "place.H.a1", "place.Y.b1", "place.M.c3")
    assert s.board.count("M") == 1 and RULES.to_move(s) == {CAV}


@pytest.mark.parametrize("first,second", [("H", "Y"), ("Y", "H")])
def test_R15_cavemen_place_one_hunter_and_one_youngling_in_either_order(first, second):
    s, _ = play(RULES.setup(2, 1, {"side": "cavemen"}), f"place.{first}.a1")
    assert RULES.to_move(s) == {CAV}  # the turn passes only after both
    assert {a.split(".")[1] for a in RULES.legal_actions(s, CAV)} == {second}
    with pytest.raises(IllegalAction):
        RULES.apply(s, CAV, f"place.{first}.b1")
    s, _ = play(s, f"place.{second}.b1")
    assert RULES.to_move(s) == {MAST} and s.board.count("H") == s.board.count("Y") == 1


def test_R16_placement_is_turns_1_to_10_without_moves_then_the_cavemen_move_first():
    s = RULES.setup(2, 1, {"side": "cavemen"})
    turns = []
    for (h, y), m in zip(STANDARD_CAV, STANDARD_MAST, strict=True):
        assert not any(a.startswith("move.") for a in RULES.legal_actions(s, CAV))
        turns.append(s.turn)
        s, _ = play(s, f"place.H.{h}", f"place.Y.{y}")
        with pytest.raises(IllegalAction):  # no piece moves in the placement phase
            RULES.apply(s, MAST, f"move.{h}.c3")
        turns.append(s.turn)
        s, _ = play(s, f"place.M.{m}")
    assert turns == list(range(1, 11))
    assert s.phase == "move" and s.turn == 11 and RULES.to_move(s) == {CAV}


def test_R17_no_capture_during_placement():
    s = RULES.setup(2, 1, {"side": "cavemen"})
    s, _ = play(s, "place.H.b2", "place.Y.d2", "place.M.c3", "place.H.c4", "place.Y.b4")
    assert s.board[INDEX["c3"]] == "M" and s.points == [0, 0]  # 4 Cavemen around a lone Mastodon
    assert cav_count(s.board, INDEX["c3"]) == 4
    # a Mastodon can only be placed on an empty square: it never captures by placement
    with pytest.raises(IllegalAction):
        RULES.apply(s, MAST, "place.M.b2")


def test_R18_surroundings_from_placement_need_a_qualifying_move_to_capture():
    cav = [("b2", "d2"), ("c4", "a5"), ("e1", "a1"), ("e3", "b5"), ("d5", "c1")]
    s = full_placement(cav, ["c3", "e5", "a3", "a4", "e4"])
    assert cav_count(s.board, INDEX["c3"]) == 3 and s.points == [0, 0]
    s, _ = play(s, "move.a1.b1")  # not next to c3: nothing falls (R27)
    assert s.board[INDEX["c3"]] == "M" and s.points == [0, 0]
    s, _ = play(s, "move.a4.b4")
    s, _ = play(s, "move.b1.c2")  # next to c3: now 4 around the lone Mastodon
    assert s.board[INDEX["c3"]] == "." and s.points == [3, 0]


# ---- 5. movement -------------------------------------------------------------------------------------


def test_R19_the_active_player_must_move_one_own_piece_and_cannot_pass():
    s = pos({"a1": "Y", "e5": "M"})
    assert RULES.legal_actions(s, CAV) == ["move.a1.b1", "move.a1.a2", "move.a1.b2"]
    assert RULES.legal_actions(s, MAST) == []
    for bad in ("pass", "move.e5.e4"):
        with pytest.raises((BadActionCode, IllegalAction)):
            RULES.apply(s, CAV, bad)


def test_R20_a_youngling_steps_one_square_in_any_direction_to_an_empty_square():
    s = pos({"c3": "Y", "c4": "H", "e5": "M"})
    assert dests(s, "c3") == {"b2", "c2", "d2", "b3", "d3", "b4", "d4"}


def test_R21_a_hunter_moves_one_or_two_in_a_straight_line_over_an_empty_square():
    s = pos({"c3": "H", "e5": "M"})
    assert dests(s, "c3") == {
        *("b2", "c2", "d2", "b3", "d3", "b4", "c4", "d4"),
        *("a1", "c1", "e1", "a3", "e3", "a5", "c5"),  # e5 holds a Mastodon
    }
    s = pos({"c3": "H", "c4": "Y", "d4": "M", "e5": "M"})
    assert "c5" not in dests(s, "c3") and "e5" not in dests(s, "c3")  # no jumping
    assert "b1" not in dests(s, "c3")  # not a straight line (a knight's jump)


def test_R22_cavemen_never_land_on_an_occupied_square_and_never_capture_by_moving():
    s = pos({"c3": "H", "c4": "M", "d4": "Y", "b3": "H", "e5": "M"})
    assert not {"c4", "d4", "b3"} & dests(s, "c3")
    for code in ("move.c3.c4", "move.c3.d4"):
        with pytest.raises(IllegalAction):
            RULES.apply(s, CAV, code)


def test_R23_a_mastodon_moves_like_a_rook_and_never_lands_on_a_mastodon():
    s = pos({"c3": "M", "c5": "M", "e3": "Y", "a3": "H", "c1": "Y"}, side="M")
    assert dests(s, "c3") == {"c4", "b3", "a3", "d3", "e3", "c2", "c1"}
    assert "b2" not in dests(s, "c3")  # never diagonal


def test_R24_a_mastodon_landing_on_a_caveman_captures_it():
    s, ev = play(pos({"a1": "M", "a3": "H", "e5": "Y"}, side="M"), "move.a1.a3")
    assert s.board[INDEX["a3"]] == "M" and s.board.count("H") == 0 and s.points == [0, 2]
    assert ("captured", "H") in [(e.kind, e.data.get("piece")) for e in ev]


def test_R25_captured_pieces_never_return():
    s, _ = play(pos({"a1": "M", "a3": "H", "e5": "Y", "e1": "M"}, side="M"), "move.a1.a3")
    for _ in range(6):  # a few turns later the Hunter is still gone and nothing can be placed
        (seat,) = RULES.to_move(s)
        legal = RULES.legal_actions(s, seat)
        assert not any(a.startswith("place.") for a in legal)
        s, _ = RULES.apply(s, seat, legal[0])
        assert s.board.count("H") == 0
    with pytest.raises(IllegalAction):
        RULES.apply(s, CAV, "place.H.c3")


def test_R26_a_mastodon_is_never_captured_on_the_mastodon_players_turn():
    s = pos({"a3": "M", "b2": "Y", "d2": "Y", "c4": "H", "e5": "M"}, side="M")
    s, _ = play(s, "move.a3.c3")
    assert cav_count(s.board, INDEX["c3"]) == 3 and s.board[INDEX["c3"]] == "M" and s.points == [0, 0]


# ---- 6. capturing Mastodons ---------------------------------------------------------------------------


def test_R27_only_mastodons_next_to_the_mover_can_be_threatened():
    s, _ = play(pos({"c3": "M", "b2": "Y", "d2": "Y", "c4": "Y", "e5": "H", "a5": "M"}), "move.e5.e4")
    assert s.board[INDEX["c3"]] == "M" and s.points == [0, 0]


def test_R28_a_lone_mastodon_falls_with_three_cavemen_including_the_mover():
    two = pos({"c3": "M", "b2": "Y", "a4": "Y", "e5": "M"})
    s, _ = play(two, "move.a4.b4")
    assert s.board[INDEX["c3"]] == "M" and s.points == [0, 0]  # only two
    three = pos({"c3": "M", "b2": "Y", "d2": "H", "a4": "Y", "e5": "M"})
    s, ev = play(three, "move.a4.b4")
    assert s.board[INDEX["c3"]] == "." and s.points == [3, 0]
    assert [e.data["square"] for e in ev if e.kind == "captured"] == ["c3"]


def test_R29_an_attacked_herd_loses_its_member_with_the_most_cavemen():
    # mover c1->c2 touches both members; c3 has 6 Cavemen, d3 has 4: c3 falls, d3 stays
    pieces = {"c3": "M", "d3": "M", "b2": "Y", "b3": "Y", "b4": "H", "c4": "Y", "d2": "H", "e4": "Y"}
    s = pos({**pieces, "c1": "H", "a5": "M"})
    s, _ = play(s, "move.c1.c2")
    assert cav_count(s.board, INDEX["d3"]) == 4
    assert s.board[INDEX["c3"]] == "." and s.board[INDEX["d3"]] == "M" and s.points == [3, 0]


def test_R29_seed_over_spec_A3_only_members_next_to_the_mover_can_fall():
    """Spec A3 compares every herd member, so c3 (6 Cavemen, not next to the mover on e2) would fall.
    The seed: a Caveman captures a Mastodon "only if the Mastodon is adjacent to the Caveman that just
    moved". Following the seed, the member next to the mover with the most Cavemen (d3, 4) falls."""
    pieces = {"c3": "M", "d3": "M", "b2": "Y", "b3": "Y", "b4": "H", "c2": "H", "c4": "Y", "d2": "H"}
    s = pos({**pieces, "e1": "Y", "a5": "M"})
    s, _ = play(s, "move.e1.e2")
    assert cav_count(s.board, INDEX["c3"]) == 6  # the spec's candidate, out of the mover's reach
    assert s.board[INDEX["d3"]] == "." and s.board[INDEX["c3"]] == "M" and s.points == [3, 0]


def test_R29_a_herd_member_with_three_cavemen_is_safe():
    s = pos({"c3": "M", "d3": "M", "c2": "Y", "b3": "Y", "a5": "H", "a4": "M"})
    s, _ = play(s, "move.a5.b4")  # cav(c3) = 3 (b3, b4, c2): a lone Mastodon would fall
    assert s.board.count("M") == 3 and s.points == [0, 0]


def test_R30_a_tie_in_an_attacked_herd_is_chosen_by_the_cavemen_player():
    s = pos({"c3": "M", "d3": "M", "c2": "Y", "c4": "H", "d4": "Y", "e1": "Y", "a5": "M"})
    s, ev = play(s, "move.e1.d2")
    assert s.phase == "take" and RULES.to_move(s) == {CAV}
    assert sorted(RULES.legal_actions(s, CAV)) == ["take.c3", "take.d3"]
    assert "tie_pending" in kinds(ev) and s.board.count("M") == 3  # nothing removed yet
    with pytest.raises(NotYourTurn):
        RULES.apply(s, MAST, "take.d3")
    with pytest.raises(IllegalAction):
        RULES.apply(s, CAV, "take.a5")
    t, _ = play(s, "take.d3")
    assert t.board[INDEX["d3"]] == "." and t.board[INDEX["c3"]] == "M" and t.points == [3, 0]
    assert t.phase == "move" and RULES.to_move(t) == {MAST}


def test_R31_one_move_captures_in_different_groups_but_a_herd_loses_only_one():
    # a lone Mastodon (b4) and a herd (c2+d2) both next to the mover on c3; c2 ends with 5 Cavemen
    # around it and d2 with 4: both are over the herd threshold, but only c2 falls
    s = pos({"b4": "M", "c2": "M", "d2": "M", "a4": "H", "a5": "Y", "b1": "Y", "c1": "H", "d1": "Y",
             "e1": "H", "b3": "Y", "c4": "H", "e5": "M"})  # fmt: skip
    s, _ = play(s, "move.c4.c3")
    assert s.points == [6, 0] and s.board[INDEX["b4"]] == "." and s.board[INDEX["c2"]] == "."
    assert s.board[INDEX["d2"]] == "M" and cav_count(s.board, INDEX["d2"]) == 4


def test_R32_no_chain_reaction_the_broken_herd_is_checked_only_on_a_later_move():
    s = pos(
        {"c3": "M", "d3": "M", "b2": "Y", "b3": "Y", "b4": "H", "c4": "Y", "e3": "H", "b1": "Y", "a5": "M"}
    )
    s, _ = play(s, "move.b1.c2")
    assert s.board[INDEX["c3"]] == "." and s.points == [3, 0]
    assert cav_count(s.board, INDEX["d3"]) == 3 and s.board[INDEX["d3"]] == "M"  # lone now, not re-checked
    s, _ = play(s, "move.a5.a4", "move.e3.e4")  # a later Cavemen move next to d3 keeps 3 around it
    assert s.board[INDEX["d3"]] == "." and s.points == [6, 0]


def test_R33_captured_mastodons_score_three_each_for_the_cavemen_player():
    s, _ = play(pos({"c3": "M", "b2": "Y", "d2": "Y", "b4": "Y", "e5": "M"}, cav_seat=1), "move.b4.c4")
    assert s.points == [3, 0]
    assert RULES.view(s, None)["points"] == {"cavemen": 3, "mastodons": 0}


# ---- 7. winning and ending -------------------------------------------------------------------------------


def test_R34_the_cavemen_win_at_nine_points():
    s = pos({"c3": "M", "b2": "Y", "d2": "Y", "b4": "Y", "e5": "M"}, points=[6, 0])
    s, _ = play(s, "move.b4.c4")
    out = RULES.outcome(s)
    assert out is not None and out.winners == [CAV] and out.scores == [9, 0] and out.reason == "win"


def test_R34_the_mastodons_win_with_nine_or_more_points_overshoot_counts():
    s = pos({"a1": "M", "a3": "H", "e5": "Y"}, side="M", points=[0, 8])
    s, _ = play(s, "move.a1.a3")
    out = RULES.outcome(s)
    assert out is not None and out.winners == [MAST] and out.scores == [0, 10]  # A11


def test_R34_eight_points_is_not_yet_a_win():
    s = pos({"a1": "M", "a3": "H", "e5": "Y"}, side="M", points=[0, 6])
    s, _ = play(s, "move.a1.a3")
    assert RULES.outcome(s) is None and s.points == [0, 8]


def test_R35_the_game_stops_at_once_after_the_winning_capture():
    s = pos({"c3": "M", "b2": "Y", "d2": "Y", "b4": "Y", "e5": "M"}, points=[6, 0], quiet=0)
    s, ev = play(s, "move.b4.c4")
    assert s.phase == "over" and RULES.to_move(s) == frozenset() and RULES.timers(s) == []
    assert kinds(ev)[-1] == "game_over"
    with pytest.raises(MatchOver):
        RULES.apply(s, MAST, "move.e5.e4")


def test_R36_a_player_without_a_legal_move_passes_automatically():
    # the Cavemen's only piece is boxed in by Mastodons; the Mastodons move elsewhere
    s = pos({"a1": "Y", "a2": "M", "b1": "M", "b2": "M", "e5": "M"}, side="M")
    s, ev = play(s, "move.e5.e4")
    assert "passed" in kinds(ev) and RULES.to_move(s) == {MAST} and s.side == "M"
    assert s.quiet == 2 and s.phase == "move"  # the pass is a capture-free turn (A15)
    assert RULES.view(s, None)["last"]["kind"] == "pass"


def test_R36_two_passes_in_a_row_end_in_a_draw():
    s = pos({}, side="C")  # nobody can move: both pass
    ev: list[Event] = []
    _start_turn(s, ev)
    assert kinds(ev) == ["passed", "passed", "draw", "game_over"]
    out = RULES.outcome(s)
    assert out is not None and out.winners == [0, 1] and out.reason == "draw" and s.ended_by == "passes"


def test_R36_the_mastodons_always_have_a_move_so_the_double_pass_needs_a_boxed_board():
    # With five Mastodons on 25 squares some Mastodon always has an orthogonal neighbour that is
    # empty or a Caveman: a real game never reaches two passes in a row.
    s = full_placement(STANDARD_CAV, STANDARD_MAST)
    assert can_move(s.board, "M")
    crowded = board_of({sq: "M" for sq in ("a1", "a2", "b1", "b2", "c1")} | {"c2": "H", "a3": "Y", "b3": "Y"})
    assert can_move(crowded, "M")


def test_R37_the_third_occurrence_of_a_position_is_a_draw():
    s = pos({"a1": "Y", "e5": "M", "c3": "H"})
    shuffle = ["move.a1.a2", "move.e5.e4", "move.a2.a1", "move.e4.e5"]
    s, _ = play(s, *shuffle, *shuffle)
    assert s.phase == "move"
    s, ev = play(s, "move.a1.a2")  # the position after this move starts a turn for the third time
    assert s.phase == "over" and s.ended_by == "repetition" and "draw" in kinds(ev)
    out = RULES.outcome(s)
    assert out is not None and out.winners == [0, 1] and out.reason == "draw"


def test_R38_forty_capture_free_movement_turns_draw():
    s = pos({"a1": "Y", "e5": "M", "c3": "H"}, quiet=38)
    s, _ = play(s, "move.a1.a2")
    assert s.phase == "move" and s.quiet == 39 and RULES.view(s, None)["moves_left"] == 1
    s, _ = play(s, "move.e5.e4")
    assert s.phase == "over" and s.ended_by == "move_limit" and RULES.outcome(s).winners == [0, 1]


def test_R38_a_capture_resets_the_count_and_placement_turns_do_not_count():
    s, _ = play(pos({"a1": "M", "a3": "H", "e5": "Y", "c5": "H"}, side="M", quiet=39), "move.a1.a3")
    assert s.phase == "move" and s.quiet == 0
    s = full_placement(STANDARD_CAV, STANDARD_MAST)
    assert s.quiet == 0


def test_R39_resigning_ends_the_game_and_the_opponent_wins():
    s = pos({"a1": "Y", "e5": "M"}, cav_seat=1, points=[3, 5])
    out = RULES.outcome(resign(s, 1))
    assert out is not None and out.winners == [0] and out.reason == "resignation" and out.scores == [5, 3]
    assert RULES.outcome(resign(s, 0)).winners == [1]
    assert s.phase == "move"  # the input is not changed
    with pytest.raises(MatchOver):
        resign(resign(s, 0), 1)


# ---- 8. variants ---------------------------------------------------------------------------------------


def test_V1_the_mastodon_player_needs_ten_points_and_the_cavemen_still_nine():
    s = pos({"a1": "M", "a3": "H", "e5": "Y", "c5": "H"}, side="M", points=[0, 7], v1=True)
    s, _ = play(s, "move.a1.a3")
    assert RULES.outcome(s) is None and s.points == [0, 9]
    s = pos({"a1": "M", "a3": "Y", "e5": "Y", "c5": "H"}, side="M", points=[0, 9], v1=True)
    assert RULES.outcome(play(s, "move.a1.a3")[0]).winners == [MAST]
    s = pos({"c3": "M", "b2": "Y", "d2": "Y", "b4": "Y", "e5": "M"}, points=[6, 0], v1=True)
    assert RULES.outcome(play(s, "move.b4.c4")[0]).winners == [CAV]
    assert RULES.view(RULES.setup(2, 1, {"v1": True}), None)["targets"] == {"cavemen": 9, "mastodons": 10}


def test_V2_the_mastodon_player_chooses_the_tied_mastodon_then_plays_their_turn():
    s = pos({"c3": "M", "d3": "M", "c2": "Y", "c4": "H", "d4": "Y", "e1": "Y", "a5": "M"}, v2=True)
    s, _ = play(s, "move.e1.d2")
    assert s.phase == "take" and RULES.to_move(s) == {MAST}
    with pytest.raises(NotYourTurn):
        RULES.apply(s, CAV, "take.c3")
    s, _ = play(s, "take.c3")
    assert s.board[INDEX["c3"]] == "." and s.points == [3, 0] and RULES.to_move(s) == {MAST} and s.side == "M"


def test_V3_the_draw_limits_are_options_and_zero_switches_them_off():
    s = RULES.setup(2, 1, {"repetitions": 0, "move_limit": 4})
    assert (s.repetitions, s.move_limit) == (0, 4)
    s = pos({"a1": "Y", "e5": "M", "c3": "H"}, repetitions=0, move_limit=0)
    shuffle = ["move.a1.a2", "move.e5.e4", "move.a2.a1", "move.e4.e5"]
    s, _ = play(s, *shuffle * 15)  # 60 quiet turns, every position many times: no draw
    assert s.phase == "move" and s.quiet == 60
    s = pos({"a1": "Y", "e5": "M", "c3": "H"}, repetitions=2, move_limit=4)
    s, _ = play(s, *shuffle)
    assert s.ended_by == "move_limit"
    s = pos({"a1": "Y", "e5": "M", "c3": "H"}, repetitions=2, move_limit=0)
    s, _ = play(s, *shuffle, "move.a1.a2")
    assert s.ended_by == "repetition"
    for bad in ({"repetitions": -1}, {"move_limit": 999}, {"v1": "maybe"}):
        with pytest.raises(IllegalAction):
            RULES.setup(2, 1, bad)


def test_V3_options_declare_the_spec_defaults():
    defaults = {o.name: getattr(o, "default", None) for o in RULES.options}
    assert defaults == {"side": "random", "v1": False, "v2": False, "repetitions": 3, "move_limit": 40,
                        "variant": "rulebook"}  # fmt: skip
    s = RULES.setup(2, 1, {})
    assert (s.v1, s.v2, s.repetitions, s.move_limit) == (False, False, 3, 40)


# ---- variants not in the rulebook (V4-V6, issue 37) ---------------------------------------------------


def _placed(s: UongaState) -> UongaState:
    """Play placement to its end on the first empty squares (the Cavemen's Hunter first)."""
    while s.phase == "place":
        (seat,) = RULES.to_move(s)
        s, _ = RULES.apply(s, seat, RULES.legal_actions(s, seat)[0])
    return s


def test_V4_the_rulebook_is_the_default_variant_and_unknown_names_are_refused():
    assert RULES.setup(2, 1, {}).variant == "rulebook" == OFFERED[0]
    assert set(OFFERED) <= set(VARIANTS) and len(OFFERED) == 2
    plain, named = _placed(RULES.setup(2, 1, {})), _placed(RULES.setup(2, 1, {"variant": "rulebook"}))
    assert plain == named and plain.side == "C" and plain.turn == 11  # R12/R16 unchanged
    with pytest.raises(IllegalAction):
        RULES.setup(2, 1, {"variant": "house"})
    old = RULES.dump(RULES.setup(2, 1, {}))
    del old["variant"]  # a match stored before the option existed loads as the rulebook's game
    assert RULES.load(old).variant == "rulebook"


def test_V5_the_offered_variant_changes_only_what_its_name_says():
    name = OFFERED[1]
    v, book = VARIANTS[name], VARIANTS["rulebook"]
    s = RULES.setup(2, 1, {"variant": name, "side": "cavemen"})
    changed = {
        f for f in ("first_place", "first_move", "target_c", "target_m") if getattr(v, f) != getattr(book, f)
    }
    assert changed, "a variant changes something"
    view = RULES.view(s, None)
    assert view["targets"] == {"cavemen": v.target_c, "mastodons": v.target_m}
    assert s.side == v.first_place
    s = _placed(s)
    assert s.phase == "move" and s.side == v.first_move and s.board.count("M") == 5
    # the Mastodons win with the variant's points, not the rulebook's 9 (nor V1's 10)
    short = pos({"a1": "M", "a3": "H", "e5": "M", "c3": "H"}, side="M", variant=name, v1=True,
                points=[0, v.target_m - 2])  # fmt: skip
    after, _ = play(short, "move.a1.a3")
    assert after.result == "M" and after.points[1] == v.target_m
    short.points = [0, v.target_m - 3]
    after, _ = play(short, "move.a1.a3")
    assert after.phase == "move" and after.points[1] == v.target_m - 1


def test_V6_who_places_first_and_who_moves_first():
    # mastodons_start (V6a): the Mastodons place first, turns alternate, the Cavemen place last and
    # the Mastodons make the first move
    s = RULES.setup(2, 1, {"variant": "mastodons_start", "side": "cavemen"})
    assert s.side == "M" and RULES.to_move(s) == {1}
    s, _ = play(s, "place.M.a1", "place.H.b1", "place.Y.c1", "place.M.e5")
    assert s.turn == 4 and s.side == "C"
    s = _placed(s)
    assert s.side == "M" and s.turn == 11
    # mastodons_move_first (V6b): the rulebook's placement, then the Mastodons move first: they
    # place the last Mastodon and move at once
    s = RULES.setup(2, 1, {"variant": "mastodons_move_first", "side": "cavemen"})
    assert s.side == "C"
    s = _placed(s)
    assert s.side == "M" and s.phase == "move" and s.turn == 11


def test_V6_the_points_each_side_needs():
    # cavemen_need_12 (V6c): a third Mastodon is not yet a win; a fourth is
    pieces = {"c3": "M", "b2": "Y", "d2": "H", "a5": "M", "e5": "H", "e1": "H"}
    s = pos(pieces, variant="cavemen_need_12", points=[6, 0])
    after, _ = play(s, "move.e1.d1")  # no capture yet: a quiet move
    assert after.phase == "move"
    s = pos({**pieces, "b4": "Y"}, variant="cavemen_need_12", points=[6, 0])
    after, _ = play(s, "move.b4.c4")  # E1's capture: 9 points, short of 12
    assert after.points[0] == 9 and after.phase == "move"
    s = pos({**pieces, "b4": "Y"}, variant="cavemen_need_12", points=[9, 0])
    after, _ = play(s, "move.b4.c4")
    assert after.result == "C" and after.points[0] == 12
    # mastodons_move_first_need_8 (V6d): 8 points of Cavemen win the Mastodons the game
    s = pos({"a1": "M", "a3": "H", "e5": "M", "c3": "H"}, side="M", variant="mastodons_move_first_need_8",
            points=[0, 6])  # fmt: skip
    after, _ = play(s, "move.a1.a3")
    assert after.result == "M" and after.points[1] == 8


# ---- 9. worked examples ----------------------------------------------------------------------------------


def test_E1_lone_mastodon_captured_by_the_third_caveman():
    s, _ = play(pos({"c3": "M", "b2": "H", "d2": "Y", "b4": "Y", "a5": "M"}), "move.b4.c4")
    assert s.board[INDEX["c3"]] == "." and s.points[0] == 3


def test_E2_a_move_away_from_the_mastodon_captures_nothing():
    s, _ = play(pos({"c3": "M", "b2": "H", "d2": "Y", "c4": "Y", "e5": "H", "a5": "M"}), "move.e5.e4")
    assert s.board[INDEX["c3"]] == "M" and s.points[0] == 0 and cav_count(s.board, INDEX["c3"]) == 3


def test_E3_surrounded_on_the_mastodon_turn_captured_on_the_next_cavemen_move():
    s = pos({"a3": "M", "b2": "Y", "d2": "H", "c4": "Y", "e5": "M"}, side="M")
    s, _ = play(s, "move.a3.c3")
    assert s.board[INDEX["c3"]] == "M" and s.points == [0, 0]
    s, _ = play(s, "move.b2.b3")
    assert s.board[INDEX["c3"]] == "." and s.points == [3, 0]


def test_E4_the_member_with_most_cavemen_falls_and_the_rest_is_not_rechecked():
    s = pos({"c3": "M", "d3": "M", "b2": "H", "b3": "Y", "b4": "H", "c4": "Y", "c1": "Y", "a5": "M"})
    s, _ = play(s, "move.c1.c2")
    assert s.board[INDEX["c3"]] == "." and s.board[INDEX["d3"]] == "M" and s.points[0] == 3


def test_E5_herd_needs_four_around_one_member():
    s = pos({"c3": "M", "d3": "M", "b2": "Y", "b4": "Y", "c2": "H", "c4": "H", "e1": "H", "a5": "M"})
    t, _ = play(s, "move.e1.d2")
    assert t.board[INDEX["c3"]] == "." and t.board[INDEX["d3"]] == "M" and t.points[0] == 3
    s = pos({"c3": "M", "d3": "M", "c2": "H", "c4": "H", "e1": "H", "a5": "M"})
    t, _ = play(s, "move.e1.d2")
    assert cav_count(t.board, INDEX["c3"]) == cav_count(t.board, INDEX["d3"]) == 3
    assert t.board.count("M") == 3 and t.points[0] == 0


@pytest.mark.parametrize("pick", ["c3", "d3"])
def test_E6_tie_the_cavemen_player_picks_either(pick):
    s = pos({"c3": "M", "d3": "M", "c2": "H", "c4": "Y", "d4": "H", "e1": "Y", "a5": "M"})
    s, _ = play(s, "move.e1.d2")
    assert sorted(RULES.legal_actions(s, CAV)) == ["take.c3", "take.d3"]
    s, _ = play(s, f"take.{pick}")
    assert s.board[INDEX[pick]] == "." and s.board.count("M") == 2 and s.points[0] == 3


def test_E7_one_hunter_move_captures_two_lone_mastodons():
    s = pos({"b2": "M", "d2": "M", "b1": "Y", "d1": "Y", "a2": "H", "e2": "H", "c3": "H", "a5": "M"})
    s, ev = play(s, "move.c3.c1")
    assert s.board[INDEX["b2"]] == s.board[INDEX["d2"]] == "." and s.points[0] == 6
    assert sorted(e.data["square"] for e in ev if e.kind == "captured") == ["b2", "d2"]


def test_E8_the_mastodon_stops_on_a2_or_captures_on_a3_but_never_reaches_a4_or_a5():
    s = pos({"a1": "M", "a3": "H", "a4": "Y"}, side="M")
    reach = dests(s, "a1")
    assert {"a2", "a3"} <= reach and not {"a4", "a5"} & reach
    with pytest.raises(IllegalAction):
        RULES.apply(s, MAST, "move.a1.a4")


# ---- 10. decisions A12-A17 ----------------------------------------------------------------------------------

TWO_TIES = {
    **{"d5": "H", "b4": "H", "c4": "H", "d4": "M", "e4": "H", "a3": "H", "b3": "M", "d3": "M"},
    **{"b2": "M", "e2": "H", "a1": "H", "b1": "H", "d1": "H", "c2": "Y", "e5": "M"},
}


def test_A12_several_tied_herds_one_take_each_in_any_order_captures_applied_together():
    s, _ = play(pos(TWO_TIES), "move.c2.c3")
    assert s.phase == "take" and sorted(map(sorted, s.pending)) == [["b2", "b3"], ["d3", "d4"]]
    assert len(RULES.legal_actions(s, CAV)) == 4
    t, _ = play(s, "take.d4")
    assert t.phase == "take" and sorted(RULES.legal_actions(t, CAV)) == ["take.b2", "take.b3"]
    assert t.board.count("M") == 5 and t.points == [0, 0]  # nothing removed before the last take
    t, ev = play(t, "take.b2")
    assert t.board[INDEX["d4"]] == t.board[INDEX["b2"]] == "." and t.points == [6, 0]
    assert sorted(e.data["square"] for e in ev if e.kind == "captured") == ["b2", "d4"]
    u, _ = play(s, "take.b3", "take.d3")  # the other order works too
    assert u.points == [6, 0] and u.board[INDEX["b3"]] == u.board[INDEX["d3"]] == "."


def test_A12_the_win_is_checked_only_after_the_last_take():
    s, _ = play(pos(TWO_TIES, points=[3, 0]), "move.c2.c3", "take.d4")
    assert s.phase == "take" and RULES.outcome(s) is None
    s, _ = play(s, "take.b3")
    assert RULES.outcome(s).winners == [CAV] and s.points == [9, 0]


def test_A14_repetition_counts_the_position_right_after_placement():
    s = full_placement(STANDARD_CAV, STANDARD_MAST, repetitions=2)
    assert list(s.seen.values()) == [1]
    s, _ = play(s, "move.e2.e3", "move.a5.a4", "move.e3.e2")
    assert s.phase == "move"
    s, _ = play(s, "move.a4.a5")  # back to the position right after placement: its second start
    assert s.ended_by == "repetition"


def test_A16_the_win_comes_before_the_move_limit_and_the_move_limit_before_repetition():
    s = pos({"c3": "M", "b2": "Y", "d2": "Y", "b4": "Y", "e5": "M"}, points=[6, 0], quiet=39)
    s, _ = play(s, "move.b4.c4")
    assert s.ended_by == "target"
    s = pos({"a1": "Y", "e5": "M", "c3": "H"}, quiet=30, repetitions=3, move_limit=39)
    shuffle = ["move.a1.a2", "move.e5.e4", "move.a2.a1", "move.e4.e5"]
    s, _ = play(s, *shuffle, *shuffle)  # quiet: 38, and the next move repeats a position a third time
    s, _ = play(s, "move.a1.a2")
    assert s.ended_by == "move_limit"


def test_A16_a_draw_by_repetition_comes_before_a_pass():
    s = pos({"a1": "Y", "a2": "M", "b1": "M", "b2": "M", "e5": "M"}, side="M", repetitions=1)
    s, ev = play(s, "move.e5.e4")
    assert s.ended_by == "repetition" and "passed" not in kinds(ev)


# ---- the rest of the contract ---------------------------------------------------------------------------------


def test_contract_dump_load_round_trip_and_apply_does_not_mutate():
    s, _ = play(pos(TWO_TIES), "move.c2.c3")
    d = RULES.dump(s)
    assert RULES.load(json.loads(json.dumps(d))) == s
    RULES.apply(s, CAV, "take.d4")
    assert RULES.dump(s) == d


def test_contract_timers_are_one_turn_limit_per_decision_for_the_seat_to_move():
    s, _ = play(pos(TWO_TIES, v2=True), "move.c2.c3")
    (timer,) = RULES.timers(s)
    assert timer.name == "turn" and timer.seat == MAST and timer.per_move


def test_contract_malformed_codes_are_bad_action_codes():
    s = RULES.setup(2, 1, {})
    for bad in ("", "place", "place.H", "place.Q.c3", "place.H.c3.x", "move.a1", "take", 7, None, "x" * 300):
        with pytest.raises(BadActionCode):
            RULES.apply(s, s.cav_seat, bad)  # type: ignore[arg-type]
