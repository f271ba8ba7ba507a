"""The committed Ubongo tasks: regenerated identically (R11) and re-checked with the solver (R12)."""

from __future__ import annotations

import json

import pytest

from engine.games.ubongo import TASKS_FILE, card_tasks
from engine.games.ubongo_generate import (
    SIDES,
    congruence_key,
    dumps,
    fits_box,
    generate,
    has_hole,
    is_connected,
)
from engine.games.ubongo_pieces import PIECE_IDS, YELLOW
from engine.games.ubongo_solver import coverable, parse_rows, solving_sets

DATA = json.loads(TASKS_FILE.read_text(encoding="utf-8"))
TASKS = [(i, side, card[side]) for i, card in enumerate(DATA["cards"]) for side in ("A", "B")]


def test_R11_the_generator_reproduces_the_committed_file_byte_for_byte():
    assert dumps(generate()) == TASKS_FILE.read_text(encoding="utf-8")


def test_R2_R11_32_cards_each_with_an_A_and_a_B_task():
    assert len(DATA["cards"]) == 32 and len(card_tasks()) == 32
    assert all(set(card) == {"A", "B"} for card in DATA["cards"])


@pytest.mark.parametrize(("card", "side", "rows"), TASKS, ids=[f"{i}{s}" for i, s, _ in TASKS])
def test_R5_R6_shape_size_box_connected_no_hole(card, side, rows):
    assert all(set(row) <= {"#", "."} for row in rows) and len({len(r) for r in rows}) == 1  # R6
    cells = parse_rows(rows)
    low, high = SIDES[side]["cells"]
    assert low <= len(cells) <= high
    assert fits_box(cells, SIDES[side]["box"])
    assert is_connected(cells) and not has_hole(cells)


@pytest.mark.parametrize(("card", "side", "rows"), TASKS, ids=[f"{i}{s}" for i, s, _ in TASKS])
def test_R7_R8_R9_R12_solver_recheck(card, side, rows):
    cells = parse_rows(rows)
    k = SIDES[side]["k"]
    sets = solving_sets(cells, k)
    assert len(sets) >= 3  # R7: three different piece combinations
    assert any(YELLOW not in s for s in sets)  # R8: solvable without the yellow I3 (and so V1)
    no_yellow = [p for p in PIECE_IDS if p != YELLOW]
    assert solving_sets(cells, k, no_yellow)
    assert not coverable(cells, k - 1) and not coverable(cells, k + 1)  # R9


def test_R10_no_two_tasks_are_congruent():
    keys = [congruence_key(parse_rows(rows)) for _, _, rows in TASKS]
    assert len(set(keys)) == 64


def test_R10_congruence_key_sees_rotations_and_mirrors():
    l_shape = parse_rows(["#..", "###"])
    mirrored = parse_rows(["..#", "###"])
    turned = parse_rows(["##", "#.", "#."])
    assert congruence_key(l_shape) == congruence_key(mirrored) == congruence_key(turned)
    assert congruence_key(l_shape) != congruence_key(parse_rows([".#.", "###"]))


def test_R5_hole_and_box_helpers_can_fail():
    ring = parse_rows(["###", "#.#", "###"])
    assert has_hole(ring) and not has_hole(parse_rows(["###", "#..", "###"]))
    assert not fits_box(parse_rows(["######"]), (5, 4))
    assert fits_box(parse_rows(["#", "#", "#", "#", "#"]), (5, 4))  # either orientation of the box
    assert not is_connected(parse_rows(["#.#"]))
