"""Clause tests for Ugah Ugah! (docs/rules/ugah.md): one or more per clause R1-R42 and example E1-E4.

States are built by hand (UgahState is a plain dataclass) so each test controls the board and the dice
that are still to be named; dice that must come out of the Rng are found by searching Rng seeds.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any

import pytest

from engine.core import Event
from engine.errors import BadActionCode, IllegalAction, MatchOver, NotYourTurn
from engine.games.ugah import RULES, UgahState, next_step, open_stretch, parse_action, simulate_moves
from engine.games.ugah_data import (
    ANIMALS,
    CATERPILLAR_VALUE,
    CHIP_COUNTS,
    CHIPS,
    N_CHIPS,
    N_DICE,
    NAMEABLE,
    SPOILS_POINTS,
    SYMBOLS,
)
from engine.rng import Rng

VALUES = [(i % 6) + 1 for i in range(N_CHIPS)]  # a fixed board: value at index i is i % 6 + 1


def make(
    *,
    n: int = 2,
    current: int = 0,
    aside: tuple[str, ...] = (),
    rolled: tuple[str, ...] = (),
    mm: int = -1,
    bb: int = N_CHIPS,
    empty: tuple[int, ...] = (),
    variant: str = "basic",
    single: bool = False,
    spoils: dict[str, int | None] | None = None,
    face_up: list[bool] | None = None,
    rng: int = 7,
    values: list[int] | None = None,
) -> UgahState:
    path: list[int | None] = list(values or VALUES)
    for i in empty:
        path[i] = None
    return UgahState(
        n=n,
        variant=variant,
        single=single,
        rng=rng,
        path=path,
        face_up=face_up if face_up is not None else [True] * N_CHIPS,
        mm=mm,
        bb=bb,
        spoils=spoils or {a: None for a in ANIMALS},
        stashes=[[] for _ in range(n)],
        current=current,
        phase="pick",
        turn=1,
        aside=list(aside),
        rolled=list(rolled),
    )


def result(faces: tuple[str, ...], **kw: Any) -> tuple[UgahState, list[Event]]:
    """Finish the rolling phase with exactly ``faces``: bones lie aside, the rest is named at once."""
    bones = tuple(f for f in faces if f == "bone")
    rest = tuple(f for f in faces if f != "bone")
    s = make(aside=bones, rolled=rest, **kw)
    names = [x for x in NAMEABLE if x in rest]
    return RULES.apply(s, s.current, "pick." + ".".join(names))


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def of(events: list[Event], kind: str) -> list[Event]:
    return [e for e in events if e.kind == kind]


def rng_giving(faces: list[str]) -> int:
    """An Rng state whose next throw of len(faces) dice shows exactly ``faces`` in order."""
    for seed in range(200_000):
        r = Rng(seed)
        if [SYMBOLS[r.below(len(SYMBOLS))] for _ in faces] == faces:
            return seed
    raise AssertionError("no seed found")


# ---- 1. Components -----------------------------------------------------------------------------------


def test_R1_two_hunters_mm_walks_up_bb_walks_down() -> None:
    assert "mm" in SYMBOLS and "bb" in SYMBOLS
    s, _ = result(("mm", "bone", "bone", "bone", "bone"))
    assert (s.mm, s.bb) == (0, N_CHIPS)
    s, _ = result(("bb", "bone", "bone", "bone", "bone"))
    assert (s.mm, s.bb) == (-1, N_CHIPS - 1)


def test_R2_components_31_chips_5_dice_3_spoils() -> None:
    s = RULES.setup(3, 11, {})
    assert len(s.path) == 31 and sorted(s.path) == sorted(CHIPS)  # type: ignore[type-var]
    assert len(s.aside) + len(s.rolled) == N_DICE == 5
    assert sorted(s.spoils) == sorted(["dinosaur", "mammoth", "bird"])


def test_R3_six_symbols_each_about_one_sixth() -> None:
    assert set(SYMBOLS) == {"bone", "dinosaur", "mammoth", "bird", "mm", "bb"}
    faces: Counter[str] = Counter()
    for seed in range(300):
        s = RULES.setup(2, seed, {})
        faces.update(s.aside + s.rolled)  # first throw: all five dice
    assert set(faces) == set(SYMBOLS)
    for sym in SYMBOLS:
        assert 180 < faces[sym] < 320, (sym, faces[sym])  # expected 250 each


def test_R4_chip_table_as_data() -> None:
    assert CHIP_COUNTS == {1: 7, 2: 6, 3: 6, 4: 5, 5: 4, 6: 3}
    assert CATERPILLAR_VALUE == 1 and CHIPS.count(1) == 7
    assert len(CHIPS) == 31 and sum(CHIPS) == 95


def test_R5_spoils_card_worth_three() -> None:
    s = make(spoils={"dinosaur": 1, "mammoth": None, "bird": None})
    s.phase = "over"
    assert SPOILS_POINTS == 3
    assert RULES.outcome(s).scores == [0, 3]  # type: ignore[union-attr]


# ---- 2. Path model ---------------------------------------------------------------------------------


def test_R6_path_is_linear_and_taken_chip_becomes_empty() -> None:
    s, _ = result(("mm", "mm", "mm", "bone", "bone"))
    assert len(s.path) == 31 and s.path[2] is None
    assert s.stashes[0] == [VALUES[2]]
    assert [v for i, v in enumerate(s.path) if i != 2] == [v for i, v in enumerate(VALUES) if i != 2]


def test_R7_hunters_start_in_gap_and_walk_opposite_ways() -> None:
    s = RULES.setup(2, 3, {})
    assert (s.mm, s.bb) == (-1, 31)
    assert simulate_moves(VALUES, -1, 31, 3, 2, True)[:2] == (2, 29)


def test_R8_empty_places_are_not_steps() -> None:
    s, _ = result(("mm", "mm", "bb", "bone", "bone"), empty=(0, 1, 2, 30))
    assert s.phase == "keep" and s.pending == {"mm": 4, "bb": 29}


def test_R9_open_stretch_between_hunters() -> None:
    path: list[int | None] = list(VALUES)
    path[5] = None
    assert open_stretch(path, 3, 8) == [4, 6, 7]
    assert open_stretch(path, -1, 31) == [i for i in range(31) if i != 5]
    assert open_stretch(path, 4, 6) == []


# ---- 3. Setup ------------------------------------------------------------------------------------------


def test_R10_basic_setup_shuffled_all_face_up() -> None:
    a, b = RULES.setup(2, 1, {}), RULES.setup(2, 2, {})
    assert all(a.face_up) and all(b.face_up)
    assert a.path != b.path and sorted(a.path) == sorted(b.path) == list(CHIPS)  # type: ignore[type-var]


def test_R11_spoils_start_in_the_middle() -> None:
    assert RULES.setup(4, 5, {}).spoils == {"dinosaur": None, "mammoth": None, "bird": None}


def test_R12_both_figures_in_the_gap() -> None:
    s = RULES.setup(2, 9, {})
    assert s.mm == -1 and s.bb == N_CHIPS and RULES.view(s, None)["mm"] == -1


def test_R13_random_start_and_clockwise_play() -> None:
    starts = {RULES.setup(4, seed, {}).current for seed in range(60)}
    assert starts == {0, 1, 2, 3}
    s, ev = result(("bird", "bone", "bone", "bone", "bone"), n=4, current=3)
    assert s.current == 0 and {"seat": 0} in [e.data for e in of(ev, "turn")]


# ---- 4.1 Rolling ---------------------------------------------------------------------------------------


def test_R14_turn_starts_with_all_five_dice() -> None:
    s = RULES.setup(2, 4, {})
    assert len(s.aside) + len(s.rolled) == 5 and s.turn == 1
    _, ev = result(("bird", "bone", "bone", "bone", "bone"))
    first = of(ev, "rolled")[0]
    assert first.data["seat"] == 1 and len(first.data["faces"]) == 5


def test_R15_bones_set_aside_automatically() -> None:
    for seed in range(40):
        s = RULES.setup(2, seed, {})
        assert "bone" not in s.rolled
        assert s.aside == ["bone"] * s.last_bones
    with pytest.raises(BadActionCode):
        parse_action("pick.bone")


def test_R16_at_least_one_symbol_several_allowed() -> None:
    s = make(aside=("bone",), rolled=("mm", "bb", "bird", "bird"))
    with pytest.raises(BadActionCode):
        RULES.apply(s, 0, "pick")
    legal = RULES.legal_actions(s, 0)
    assert "pick.bird.mm.bb" in legal and "pick.mm" in legal and len(legal) == 7


def test_R17_all_dice_of_named_symbol_set_aside() -> None:
    s = make(aside=("bone",), rolled=("bird", "bird", "mm", "bird"), rng=rng_giving(["dinosaur"]))
    t, ev = RULES.apply(s, 0, "pick.bird")
    assert t.aside == ["bone", "bird", "bird", "bird"] and t.rolled == ["dinosaur"]
    assert of(ev, "set_aside")[0].data == {"seat": 0, "symbols": ["bird"], "count": 3}


def test_R17_naming_absent_symbol_is_illegal() -> None:
    s = make(aside=("bone",), rolled=("bird", "bird", "mm", "bird"))
    with pytest.raises(IllegalAction):
        RULES.apply(s, 0, "pick.dinosaur")
    with pytest.raises(IllegalAction):
        RULES.apply(s, 0, "pick.bird.bb")


def test_R18_remaining_dice_are_rolled_again() -> None:
    s = make(aside=("bone",), rolled=("bird", "mm", "bb", "dinosaur"), rng=rng_giving(["bb", "bone"]))
    t, ev = RULES.apply(s, 0, "pick.dinosaur.bird")
    assert of(ev, "rolled")[0].data == {"seat": 0, "faces": ["bb", "bone"], "bones": 1}
    assert t.aside == ["bone", "bird", "dinosaur", "bone"] and t.rolled == ["bb"] and t.last_bones == 1


def test_R19_symbol_named_before_may_be_named_again() -> None:
    s = make(aside=("mm", "bone", "bone"), rolled=("mm", "bird"))
    assert "pick.mm" in RULES.legal_actions(s, 0)
    t, _ = RULES.apply(s, 0, "pick.mm")
    assert t.aside.count("mm") == 2


def test_R20_rolling_ends_when_all_dice_aside() -> None:
    # the last die comes up bone: nothing is left to name, evaluation runs without a player action
    s = make(aside=("bone", "mm", "mm"), rolled=("bird", "dinosaur"), rng=rng_giving(["bone"]))
    t, ev = RULES.apply(s, 0, "pick.bird")
    assert kinds(ev)[:4] == ["set_aside", "rolled", "moved", "chip_taken"]
    assert t.stashes[0] == [VALUES[1]] and t.current == 1 and t.turn == 2


def test_R21_bones_have_no_effect() -> None:
    s, ev = result(("bird", "bone", "bone", "bone", "bone"))
    assert (s.mm, s.bb) == (-1, 31) and s.stashes == [[], []]
    assert s.spoils == {"dinosaur": None, "mammoth": None, "bird": None}
    assert kinds(ev)[:2] == ["set_aside", "turn"]


# ---- 4.2 Evaluation ------------------------------------------------------------------------------------


def test_R22_three_animals_take_spoils_card() -> None:
    s, ev = result(("mammoth", "mammoth", "mammoth", "bone", "bird"))
    assert s.spoils["mammoth"] == 0 and s.spoils["bird"] is None
    assert of(ev, "spoils")[0].data == {"seat": 0, "animal": "mammoth", "from": None}
    s, ev = result(("bird",) * 5, spoils={"dinosaur": None, "mammoth": None, "bird": 1})
    assert s.spoils["bird"] == 0 and of(ev, "spoils")[0].data["from"] == 1


def test_R22_two_of_an_animal_is_not_enough() -> None:
    s, ev = result(("mammoth", "mammoth", "dinosaur", "dinosaur", "bone"))
    assert all(h is None for h in s.spoils.values()) and not of(ev, "spoils")


def test_R23_card_already_held_nothing_happens() -> None:
    spoils = {"dinosaur": 0, "mammoth": None, "bird": None}
    s, ev = result(("dinosaur",) * 4 + ("bone",), spoils=spoils)
    assert s.spoils == spoils and not of(ev, "spoils")


def test_R24_each_face_moves_its_own_figure() -> None:
    s, ev = result(("mm", "mm", "bb", "bone", "bone"))
    assert s.pending == {"mm": 1, "bb": 30}
    assert [(e.data["hunter"], e.data["steps"]) for e in of(ev, "moved")] == [("mm", 2), ("bb", 1)]


def test_R25_order_asked_when_it_matters_and_applied() -> None:
    s, ev = result(("mm", "mm", "bb", "bb", "bone"), mm=14, bb=17, empty=(14, 17))
    assert s.phase == "order" and RULES.legal_actions(s, 0) == ["first.mm", "first.bb"]
    _, ev = RULES.apply(s, 0, "first.bb")
    assert [e.data["hunter"] for e in of(ev, "moved")] == ["bb", "mm"]


def test_R25_order_not_asked_when_it_cannot_matter() -> None:
    s, ev = result(("mm", "mm", "bb", "bb", "bone"))
    assert s.phase == "keep" and [e.data["hunter"] for e in of(ev, "moved")] == ["mm", "bb"]  # A6


def test_R26_steps_beyond_open_stretch_are_forfeited() -> None:
    s, ev = result(("mm", "mm", "mm", "bone", "bone"), mm=14, bb=17, empty=(14, 17))
    assert of(ev, "moved")[0].data == {"hunter": "mm", "steps": 2, "forfeited": 1, "to": 16}
    assert s.mm == 16 and s.stashes[0] == [VALUES[16]]  # never onto BB's empty place 17


def test_R26_may_share_other_figures_untaken_chip() -> None:
    path: list[int | None] = [None] * 31
    path[15] = path[16] = 3
    assert simulate_moves(path, 14, 17, 1, 3, True) == (15, 15, [("mm", 1, 0), ("bb", 2, 1)])
    assert simulate_moves(path, 14, 17, 3, 0, True)[0] == 16


def test_R27_figure_that_forfeits_every_step_has_not_moved() -> None:
    path: list[int | None] = [None] * 31
    assert simulate_moves(path, 14, 17, 2, 0, True) == (14, 17, [("mm", 0, 2)])
    s, ev = result(("mm", "bone", "bone", "bone", "bone"), mm=14, bb=17, empty=(14, 15, 16, 17))
    assert of(ev, "moved")[0].data["steps"] == 0
    assert not of(ev, "chip_taken") and s.stashes == [[], []]


def test_R28_one_figure_moved_take_its_chip() -> None:
    s, ev = result(("bb", "bb", "bone", "bone", "bone"))
    assert s.stashes[0] == [VALUES[29]] and s.path[29] is None and s.bb == 29
    assert of(ev, "chip_taken")[0].data == {"seat": 0, "index": 29, "value": VALUES[29]}


def test_R29_both_moved_keep_one_give_other() -> None:
    s, _ = result(("mm", "bb", "bone", "bone", "bone"), n=3)
    assert s.phase == "keep" and s.pending == {"mm": 0, "bb": 30}
    assert RULES.legal_actions(s, 0) == ["keep.mm.1", "keep.mm.2", "keep.bb.1", "keep.bb.2"]
    with pytest.raises(IllegalAction):
        RULES.apply(s, 0, "keep.mm.0")  # never ends the turn holding both
    t, ev = RULES.apply(s, 0, "keep.bb.2")
    assert t.stashes == [[VALUES[30]], [], [VALUES[0]]] and t.path[0] is None and t.path[30] is None
    assert of(ev, "chip_given")[0].data == {"from": 0, "to": 2, "index": 0, "value": VALUES[0]}


def test_R30_both_on_same_chip_keep_it() -> None:
    s, ev = result(("mm", "bb", "bone", "bone", "bone"), mm=14, bb=16, empty=(14, 16))
    assert s.stashes[0] == [VALUES[15]] and not of(ev, "chip_given")
    assert s.phase == "over"


def test_R31_no_hunter_no_chip_turn_passes_left() -> None:
    s, _ = result(("dinosaur", "bird", "mammoth", "bone", "bone"), n=3, current=2)
    assert s.stashes == [[], [], []] and s.current == 0 and s.path == VALUES


# ---- 5. End and scoring --------------------------------------------------------------------------


def test_R32_game_ends_when_no_chip_between_hunters() -> None:
    s, ev = result(("mm", "bone", "bone", "bone", "bone"), mm=14, bb=16, empty=(14, 16))
    assert s.phase == "over" and RULES.to_move(s) == frozenset()
    assert of(ev, "game_over")[0].data == {"scores": [VALUES[15], 0], "winners": [0]}
    s, _ = result(("mm", "bone", "bone", "bone", "bone"), mm=13, bb=16, empty=(13, 16))
    assert s.phase == "pick" and s.current == 1  # chip 15 still lies between them


def test_R33_chips_walked_over_score_for_nobody() -> None:
    s, _ = result(("mm", "mm", "mm", "bone", "bone"), mm=12, bb=16, empty=(12, 16))
    assert s.phase == "over" and s.path[13] == VALUES[13] and s.path[14] == VALUES[14]
    assert RULES.outcome(s).scores == [VALUES[15], 0]  # type: ignore[union-attr]


def test_R34_score_is_chips_plus_three_per_card() -> None:
    s = make(spoils={"dinosaur": 0, "mammoth": 1, "bird": 1})
    s.stashes, s.phase = [[1, 5], [2]], "over"
    assert RULES.outcome(s).scores == [9, 8]  # type: ignore[union-attr]


def test_R35_highest_score_wins() -> None:
    s = make(n=3)
    s.stashes, s.phase = [[1], [6, 6], [5]], "over"
    assert RULES.outcome(s).winners == [1]  # type: ignore[union-attr]
    assert RULES.outcome(make()) is None


def test_R36_ties_share_victory() -> None:
    s = make(n=3, spoils={"dinosaur": 2, "mammoth": None, "bird": None})
    s.stashes, s.phase = [[4], [6], [3]], "over"
    assert RULES.outcome(s).winners == [1, 2]  # type: ignore[union-attr]


# ---- 6. Information ---------------------------------------------------------------------------------


def test_R37_basic_values_public_stash_contents_private() -> None:
    s, ev = result(("mm", "bone", "bone", "bone", "bone"))
    taken = of(ev, "chip_taken")
    assert len(taken) == 1 and taken[0].to is None and taken[0].data["value"] == VALUES[0]
    pub, other = RULES.view(s, None), RULES.view(s, 1)
    assert [c["v"] for c in pub["path"][1:]] == VALUES[1:] and pub["path"][0]["taken"]
    assert pub["stash"] is None and other["stash"] == [] and other["stash_sizes"] == [1, 0]
    assert other["stashes"] is None and other["scores"] is None
    json.dumps(pub)


def test_R38_player_sees_own_stash() -> None:
    s, _ = result(("mm", "bone", "bone", "bone", "bone"), variant="uncertain", face_up=[False] * 31)
    assert RULES.view(s, 0)["stash"] == [VALUES[0]]


def test_R39_uncertain_four_random_face_up() -> None:
    ups = set()
    for seed in range(20):
        s = RULES.setup(2, seed, {"variant": "uncertain"})
        assert sum(s.face_up) == 4
        ups.add(tuple(i for i in range(31) if s.face_up[i]))
        view = RULES.view(s, s.current)
        assert [c["v"] is not None for c in view["path"]] == s.face_up
    assert len(ups) == 20


def test_R40_face_down_chip_revealed_only_to_receiver() -> None:
    _, ev = result(("mm", "bone", "bone", "bone", "bone"), variant="uncertain", face_up=[False] * 31)
    taken = of(ev, "chip_taken")
    assert taken[0].to is None and "value" not in taken[0].data
    assert taken[1].to == (0,) and taken[1].data["value"] == VALUES[0]


def test_R40_active_player_peeks_at_both_chips() -> None:
    s, _ = result(("mm", "bb", "bone", "bone", "bone"), n=3, variant="uncertain", face_up=[False] * 31)
    mine, theirs, pub = RULES.view(s, 0), RULES.view(s, 1), RULES.view(s, None)
    assert (mine["pending"]["mm_v"], mine["pending"]["bb_v"]) == (VALUES[0], VALUES[30])
    assert mine["path"][0]["v"] == VALUES[0]
    for v in (theirs, pub):
        assert v["pending"]["mm_v"] is None and v["path"][0]["v"] is None
    t, ev = RULES.apply(s, 0, "keep.mm.2")
    given = of(ev, "chip_given")
    assert "value" not in given[0].data and given[0].to is None
    assert given[1].to == (0, 2) and given[1].data["value"] == VALUES[30]
    assert RULES.view(t, 2)["stash"] == [VALUES[30]] and RULES.view(t, 1)["stash"] == []


def test_R40_everything_revealed_at_the_end() -> None:
    s, _ = result(("mm", "bone", "bone", "bone", "bone"), mm=14, bb=16, empty=(14, 16), variant="uncertain")
    s.face_up = [False] * 31
    pub = RULES.view(s, None)
    assert s.phase == "over" and pub["stashes"] == [[VALUES[15]], []]
    assert pub["path"][3]["v"] == VALUES[3]


def test_R41_single_symbol_rolling() -> None:
    s = make(aside=("bone",), rolled=("mm", "bb", "bird", "bird"), single=True)
    assert RULES.legal_actions(s, 0) == ["pick.bird", "pick.mm", "pick.bb"]
    with pytest.raises(IllegalAction):
        RULES.apply(s, 0, "pick.mm.bb")
    assert RULES.setup(2, 1, {"rolling": "single"}).single


def test_R42_two_players_give_to_opponent() -> None:
    s, _ = result(("mm", "bb", "bone", "bone", "bone"), current=1)
    assert RULES.legal_actions(s, 1) == ["keep.mm.0", "keep.bb.0"]
    with pytest.raises(IllegalAction):
        RULES.apply(s, 1, "keep.bb.1")


# ---- 8. Worked examples -------------------------------------------------------------------------------


def e1_position() -> UgahState:
    s, _ = result(("mm", "mm", "bb", "bb", "bone"), mm=14, bb=17, empty=(14, 17))
    assert s.phase == "order"
    return s


def test_E1_mm_first_keeps_chip_16_and_ends() -> None:
    s, ev = RULES.apply(e1_position(), 0, "first.mm")
    moved = [e.data for e in of(ev, "moved")]
    assert moved == [
        {"hunter": "mm", "steps": 2, "forfeited": 0, "to": 16},
        {"hunter": "bb", "steps": 1, "forfeited": 1, "to": 16},
    ]
    assert s.stashes[0] == [VALUES[16]] and not of(ev, "chip_given")
    assert s.phase == "over" and s.path[15] == VALUES[15]
    assert RULES.outcome(s).scores == [VALUES[16], 0]  # type: ignore[union-attr]


def test_E2_bb_first_keeps_chip_15() -> None:
    s, _ = RULES.apply(e1_position(), 0, "first.bb")
    assert (s.mm, s.bb) == (15, 15) and s.stashes[0] == [VALUES[15]]
    assert s.phase == "over" and s.path[16] == VALUES[16]


def test_E3_named_symbol_takes_every_matching_die() -> None:
    s = make(aside=("bone",), rolled=("mammoth", "mammoth", "mm", "bird"), rng=rng_giving(["bird", "bird"]))
    t, _ = RULES.apply(s, 0, "pick.mammoth")
    assert t.aside == ["bone", "mammoth", "mammoth"] and t.rolled == ["bird", "bird"]


def test_E4_dinosaur_card_and_bb_chip() -> None:
    s, ev = result(
        ("dinosaur", "dinosaur", "dinosaur", "bb", "bone"),
        spoils={"dinosaur": 1, "mammoth": None, "bird": None},
    )
    assert s.spoils["dinosaur"] == 0 and s.bb == 30 and s.stashes[0] == [VALUES[30]]
    assert kinds(ev)[1:4] == ["spoils", "moved", "chip_taken"]


# ---- errors (engine.errors contract) ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "code",
    [
        "",
        "pick",
        "pick.mm.mm",
        "pick.bb.mm",
        "pick.cat",
        "first",
        "keep.mm",
        "keep.x.1",
        "keep.mm.01",
        "keep.mm.-1",
        "roll",
        None,
    ],
)
def test_malformed_codes_raise_bad_action(code: Any) -> None:
    s = make(aside=("bone",), rolled=("mm", "bb", "bird", "bird"))
    with pytest.raises(BadActionCode):
        RULES.apply(s, 0, code)


def test_wrong_seat_and_finished_game() -> None:
    s = make(aside=("bone",), rolled=("mm", "bb", "bird", "bird"))
    with pytest.raises(NotYourTurn):
        RULES.apply(s, 1, "pick.mm")
    assert RULES.legal_actions(s, 1) == []
    over, _ = result(("mm", "bone", "bone", "bone", "bone"), mm=14, bb=16, empty=(14, 16))
    with pytest.raises(MatchOver):
        RULES.apply(over, 0, "pick.mm")
    with pytest.raises(IllegalAction):
        RULES.apply(make(aside=("bone",), rolled=("mm", "bird", "bird", "bird")), 0, "first.mm")


@pytest.mark.parametrize("n,options", [(1, {}), (5, {}), (2, {"variant": "x"}), (2, {"rolling": "many"})])
def test_bad_setup_raises_engine_error(n: int, options: dict[str, str]) -> None:
    with pytest.raises(IllegalAction):
        RULES.setup(n, 0, options)


# ---- rules paths a wrong copy could get past (issue 8) --------------------------------------------------


def test_R26_mm_walks_to_the_last_place_while_bb_is_still_in_the_gap() -> None:
    full: list[int | None] = list(VALUES)
    assert next_step(full, 29, N_CHIPS, "mm") == 30  # BB has not moved: place 30 is MM's to reach
    assert next_step(full, 30, N_CHIPS, "mm") is None  # never onto the gap where BB stands
    assert simulate_moves(full, 25, N_CHIPS, 10, 0, True) == (30, N_CHIPS, [("mm", 5, 5)])
    only_last: list[int | None] = [None] * N_CHIPS
    only_last[30] = 4
    assert simulate_moves(only_last, -1, N_CHIPS, 2, 0, True) == (30, N_CHIPS, [("mm", 1, 1)])
    s, ev = result(("mm", "mm", "mm", "bone", "bone"), mm=28, empty=(28,))
    assert of(ev, "moved")[0].data == {"hunter": "mm", "steps": 2, "forfeited": 1, "to": 30}
    assert (s.mm, s.bb) == (30, N_CHIPS) and s.stashes[0] == [VALUES[30]] and s.path[30] is None
    assert s.phase == "over"  # nothing left between MM on 30 and BB in the gap (R32)
    assert s.path[:28] == VALUES[:28]  # walked past: scores for nobody (R33)
    assert RULES.outcome(s).scores == [VALUES[30], 0]  # type: ignore[union-attr]
    # BB's first step from the gap may share MM's chip on the last place (R26, R30)
    s, ev = result(("mm", "mm", "mm", "bb", "bone"), mm=27, empty=(27,))
    assert (s.mm, s.bb) == (30, 30) and s.stashes[0] == [VALUES[30]] and s.phase == "over"
    assert not of(ev, "chip_given")


def test_R26_bb_walks_to_the_first_place_while_mm_is_still_in_the_gap() -> None:
    full: list[int | None] = list(VALUES)
    assert next_step(full, -1, 1, "bb") == 0
    assert next_step(full, -1, 0, "bb") is None
    assert simulate_moves(full, -1, 5, 0, 10, True) == (-1, 0, [("bb", 5, 5)])
    only_first: list[int | None] = [None] * N_CHIPS
    only_first[0] = 4
    assert simulate_moves(only_first, -1, N_CHIPS, 0, 2, False) == (-1, 0, [("bb", 1, 1)])
    s, ev = result(("bb", "bb", "bb", "bone", "bone"), bb=2, empty=(2,))
    assert of(ev, "moved")[0].data == {"hunter": "bb", "steps": 2, "forfeited": 1, "to": 0}
    assert (s.mm, s.bb) == (-1, 0) and s.stashes[0] == [VALUES[0]] and s.path[0] is None
    assert s.phase == "over" and s.path[3:] == VALUES[3:]
    assert RULES.outcome(s).scores == [VALUES[0], 0]  # type: ignore[union-attr]
    s, ev = result(("bb", "bb", "bb", "mm", "bone"), bb=3, empty=(3,))
    assert (s.mm, s.bb) == (0, 0) and s.stashes[0] == [VALUES[0]] and s.phase == "over"
    assert not of(ev, "chip_given")


def test_R39_four_face_up_chips_are_a_uniform_choice() -> None:
    """Over a fixed set of seeds (deterministic: it cannot flake), the face-up places are spread
    evenly over the 31 places, unrelated to each other (not a block, not spread out on purpose) and
    unrelated to the chips' values (not the highest chips, not the caterpillars)."""
    games = 3000
    by_place: Counter[int] = Counter()
    by_value: Counter[int] = Counter()
    neighbours = 0
    for seed in range(games):
        s = RULES.setup(2, seed, {"variant": "uncertain"})
        up = [i for i in range(N_CHIPS) if s.face_up[i]]
        assert len(up) == 4
        by_place.update(up)
        by_value.update(s.path[i] for i in up)  # type: ignore[misc]
        neighbours += sum(1 for a in up for b in up if b == a + 1)
    assert set(by_place) == set(range(N_CHIPS)), "every place can be face up"
    expected = 4 * games / N_CHIPS
    chi2 = sum((by_place[i] - expected) ** 2 / expected for i in range(N_CHIPS))
    assert chi2 < 80, chi2  # 30 degrees of freedom: p < 1e-5 above 75
    value_chi2 = sum(
        (by_value[v] - 4 * games * k / N_CHIPS) ** 2 / (4 * games * k / N_CHIPS)
        for v, k in CHIP_COUNTS.items()
    )
    assert value_chi2 < 35, value_chi2  # 5 degrees of freedom: p < 1e-5 above 29
    # 6 pairs per game, each two neighbouring places with probability 30 / C(31, 2) = 2/31
    mean = neighbours / games
    assert abs(mean - 12 / N_CHIPS) < 0.1, mean


def test_action_codes_in_the_engine_docstring_are_accepted() -> None:
    import engine.core

    codes = re.findall(r"``((?:pick|first|keep)\.[a-z0-9.]+)``", engine.core.__doc__ or "")
    assert codes, "the docstring shows example codes"
    for code in codes:
        parse_action(code)  # BadActionCode for a non-canonical example such as pick.mm.bird
