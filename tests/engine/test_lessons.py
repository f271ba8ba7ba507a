"""The recap that teaches (issue 21.5, engine.lessons): the strongest computer's values of each
decision on crafted positions whose best choice is known, and the review of a played game."""

from __future__ import annotations

import random

from engine import lessons
from engine.games.honga import RULES as HONGA
from engine.games.honga_ai import COMPUTER as HONGA_AI
from engine.games.ugah import RULES as UGAH
from engine.games.ugah_ai import COMPUTER as UGAH_AI
from engine.games.uonga import RULES as UONGA
from engine.games.uonga_ai import COMPUTER as UONGA_AI
from engine.store import LoggedAction
from tests.engine.test_ugah_rules import VALUES, result
from tests.engine.test_uonga_rules import pos


def test_ugah_keeping_the_small_chip_and_giving_the_big_one_away_costs_both() -> None:
    values = list(VALUES)
    values[0], values[30] = 5, 1  # MM stands on a 5, BB on a 1; one is kept, the other given
    s, _ = result(("mm", "bb", "bone", "bone", "bone"), n=3, values=values)
    assert s.phase == "keep"
    v = UGAH_AI.action_values(s, 0)
    best = max(v, key=v.get)
    assert best.startswith("keep.mm."), v
    assert min(v[code] for code in v if code.startswith("keep.bb.")) <= v[best] - 7  # +4 against -4
    assert UGAH_AI.action_values(s, 1) == {}, "not seat 1's decision"


def test_uonga_the_capture_is_the_best_move_and_a_quiet_one_costs_about_a_mastodon() -> None:
    #   5  H H . H Y      the Youngling a3->b2 makes three Cavemen (a1, a2, b2) around the lone
    #   4  . Y Y . .      Mastodon on b1 (c2 is only diagonal to it): a capture worth 3 points,
    #   3  Y . . M M      and the only one on the board
    #   2  Y . M . .
    #   1  H M . . .
    #      a b c d e
    s = pos({"a1": "H", "b1": "M", "a2": "Y", "c2": "M", "a3": "Y", "d3": "M", "e3": "M", "b4": "Y",
             "c4": "Y", "a5": "H", "b5": "H", "d5": "H", "e5": "Y"})  # fmt: skip
    v = UONGA_AI.action_values(s, 0)
    best = max(v, key=v.get)
    captured = [e for e in UONGA.apply(s, 0, best)[1] if e.kind == "captured"]
    assert best == "move.a3.b2" and captured and captured[0].data["square"] == "b1", v
    assert sorted(v.values())[-2] <= v[best] - 2.5, "any other move gives up about the Mastodon's 3 points"


def test_honga_ending_the_turn_with_useful_hands_left_costs() -> None:
    rng = random.Random(4)
    s = HONGA.setup(3, 4, {})
    costly = 0
    for _ in range(300):
        if not HONGA.to_move(s):
            break
        v = HONGA_AI.action_values(s, s.current)
        if s.phase == "act" and "end" in v and len(v) > 1:
            assert max(v.values()) >= v["end"] - 1e-9
            costly += max(v.values()) - v["end"] >= lessons.MIN_COST
        s, _ = HONGA.apply(s, s.current, rng.choice(HONGA.legal_actions(s, s.current)))
    assert costly >= 3


def test_the_review_names_each_persons_costliest_decisions_only() -> None:
    rng, s, log = random.Random(5), UGAH.setup(2, 9, {"variant": "basic"}), []
    while UGAH.outcome(s) is None:
        seat = s.current
        if seat == 0:
            action, source = rng.choice(UGAH.legal_actions(s, seat)), "player"
        else:
            action, source = UGAH_AI.choose(s, seat, "normal"), "computer"
        log.append(LoggedAction(len(log) + 1, seat, action, source))
        s, _ = UGAH.apply(s, seat, action)
    found = lessons.review("ugah", 2, 9, {"variant": "basic"}, log, [0, 1])
    assert found[1] == [], "the computer's own decisions are not reviewed"
    mine = found[0]
    assert 1 <= len(mine) <= lessons.TOP and [x.cost for x in mine] == sorted(
        (x.cost for x in mine), reverse=True
    )
    replayed = UGAH.setup(2, 9, {"variant": "basic"})
    states = [replayed]
    for a in log:
        replayed, _ = UGAH.apply(replayed, a.seat, a.action)
        states.append(replayed)
    for x in mine:
        assert log[x.step - 1].seat == 0 and log[x.step - 1].action == x.played and x.played != x.better
        v = UGAH_AI.action_values(states[x.step - 1], 0)
        assert abs(v[x.better] - v[x.played] - x.cost) < 0.06 and v[x.better] == max(v.values())
    every = lessons.review("ugah", 2, 9, {"variant": "basic"}, log, [0], top=100)[0]
    assert all(x.cost >= lessons.MIN_COST for x in every) and every[: len(mine)] == mine


def test_a_race_of_speed_has_no_lessons() -> None:
    assert not lessons.teaches("ubongo") and all(lessons.teaches(g) for g in ("ugah", "uonga", "honga"))
    assert lessons.review("ubongo", 2, 1, {}, [], [0, 1]) == {0: [], 1: []}
