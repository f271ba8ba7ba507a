"""Who won, decided once (engine.result, issue 33): a member who resigned never wins, whatever the
rules' count says of the seat the computer played for them; the ratings, /stats and every surface
read the same decision, and it outlives the resigned player's forget-me."""

from __future__ import annotations

import dataclasses
import random

import pytest

from engine import ratings, result
from engine.games.honga import RULES as HONGA
from engine.meta import MatchMeta
from engine.store import MatchRow, SeatInfo
from tests.engine.test_ratings import ALICE, BOB, CAROL, GUILD, play_out, start, stored


def honga_over(scores: list[int], res: list[list[int]]):
    s = HONGA.setup(len(scores), 1, {"target": "short"})
    return dataclasses.replace(s, phase="over", scores=scores, res=res)


def row(game: str, seats: list[SeatInfo], **meta) -> MatchRow:
    return MatchRow(
        id=1, game=game, guild_id=GUILD, channel_id=1, host_id=ALICE, status="finished", version=9, seed=1,
        seats=seats, options={}, state=None, meta=MatchMeta(**meta),
    )  # fmt: skip


def people(resigned: set[int], n: int = 3) -> list[SeatInfo]:
    names = ["alice", "bob", "carol", "dave"]
    return [SeatInfo(100 * (i + 1), names[i], ai=i in resigned) for i in range(n)]


def test_the_computer_playing_a_resigned_members_seat_never_wins_for_them():
    """Honga, 3 seats: bob resigned and the computer scored most for his seat; carol and alice tie on
    points and carol has more raw materials: carol wins, by Honga's own tie-break."""
    state = honga_over([10, 30, 10], [[1, 1, 1, 0], [0, 0, 0, 0], [2, 2, 2, 2]])
    assert HONGA.outcome(state).winners == [1], "the rules' count names bob's seat"
    final = result.final(row("honga", people({1}), resigned=[1]), state)
    assert final is not None
    assert (final.winners, final.resigned, final.computer) == ([2], (1,), (1,))
    assert final.tiebreak == "resources" and final.changed
    assert final.outcome().winners == [2]


def test_the_rules_winners_who_stayed_keep_the_win():
    """A shared win of bob and carol: bob resigned, so carol alone (ahead on points: "score")."""
    state = honga_over([10, 30, 30], [[1, 1, 1, 0], [0, 0, 0, 0], [0, 0, 0, 0]])
    assert HONGA.outcome(state).winners == [1, 2]
    final = result.final(row("honga", people({1}), resigned=[1]), state)
    assert (final.winners, final.tiebreak, final.reason) == ([2], "score", "win")
    nobody = result.final(row("honga", people(set())), state)
    assert (nobody.winners, nobody.resigned, nobody.tiebreak, nobody.changed) == ([1, 2], (), "shared", False)


def test_a_row_from_before_the_meta_noted_it_still_knows_who_resigned():
    """A member's seat the computer took over is a resignation (rows written before ``resigned``)."""
    state = honga_over([10, 30, 5], [[0] * 4] * 3)
    assert result.final(row("honga", people({1})), state).winners == [0]


def test_a_two_seat_resignation_names_the_other_seat_and_who_resigned():
    from engine.core import Outcome

    m = row("ugah", people(set(), 2), result=Outcome([0, 0], [0], "resignation"), resigned=[1])
    final = result.final(m, None)
    assert (final.winners, final.resigned, final.computer, final.reason) == ([0], (1,), (), "resignation")


def test_a_game_ended_before_its_finish_has_no_winner():
    state = honga_over([10, 30, 5], [[0] * 4] * 3)
    assert result.final(dataclasses.replace(row("honga", people({1})), status="cancelled"), state) is None


@pytest.fixture
async def engine(open_engine):
    matches, _ = await open_engine("result.db", 3600)
    return matches


async def test_ratings_and_stats_follow_the_one_decision_and_forget_me_keeps_it(engine):
    """Ugah, 3 seats, seed 0: bob resigns at once and the computer's count for his seat ties alice's
    for the best (28, 28, 16): alice alone wins, on the stats too; bob is last and wins nothing."""
    matches = engine
    mid = await start(matches, 10, seed=0, humans=[ALICE, BOB, CAROL])
    await matches.resign(mid, BOB)
    await play_out(matches, mid, random.Random(0))
    m, state = await matches.get(mid)
    assert m.status == "finished" and m.meta.resigned == [1]
    from engine.games.ugah import RULES

    assert RULES.outcome(state).winners == [0, 1], "the rules' count shares the win with bob's seat"
    final = matches.final(m, state)
    assert (final.winners, final.resigned, final.computer) == ([0], (1,), (1,))
    assert matches.outcome(m, state).winners == [0]
    rated = ratings.result_of(m, final, lambda seat: matches.level_of(m, seat))
    assert rated.won == (True, False, False) and rated.ranks == (1, 3, 2)
    assert [(await stored(matches, str(u))).wins for u in (ALICE, BOB, CAROL)] == [1, 0, 0]
    await matches.forget_user(BOB)
    m, state = await matches.get(mid)
    assert m.seats[1].user_id is None, "bob's name is gone from the game"
    after = matches.final(m, state)
    assert (after.winners, after.resigned) == ([0], (1,)), "the result did not change with it"


def test_who_resigned_and_who_timed_out_are_kept_with_the_match():
    meta = MatchMeta(resigned=[1], timed_out=[0, 2])
    assert meta.dump()["resigned"] == [1] and meta.dump()["timed_out"] == [0, 2]
    assert MatchMeta.load(meta.dump()) == meta
    assert "resigned" not in MatchMeta().dump(), "nothing written when nobody did"
    state = honga_over([10, 30, 5], [[0] * 4] * 3)
    final = result.final(row("honga", people({1}), resigned=[1], timed_out=[0, 1]), state)
    assert final.timed_out == (0,), "a seat the member left is the resignation's, not a time-out's"
