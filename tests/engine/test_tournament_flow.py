"""A tournament's record and its changes (engine.tournament.flow, model, places) and its rows in the
store: plain unit tests, no Discord."""

from __future__ import annotations

import pytest

from engine.core import Outcome
from engine.meta import MatchMeta
from engine.store import MatchRow, SeatInfo, WriteConflict
from engine.store.open import open_store
from engine.tournament import flow
from engine.tournament.flow import TournamentError
from engine.tournament.model import CANCELLED, FINISHED, PAUSED, RUNNING, SIGNUP, Tournament
from engine.tournament.places import places


def tournament(fmt: str = "swiss", size: int = 2, rounds: int = 0) -> Tournament:
    return Tournament(
        id=1, guild_id=5, channel_id=6, creator_id=99, creator_name="boss", title="T", game="uonga",
        fmt=fmt, table_size=size, round_seconds=3600, signup_deadline=1000.0, rounds=rounds,
    )  # fmt: skip


def signed(n: int, **kw: object) -> Tournament:
    t = tournament(**kw)  # type: ignore[arg-type]
    for i in range(n):
        flow.join(t, 100 + i, f"p{i}", float(n - i), None)
    return t


def test_sign_up_join_once_leave_and_no_join_after_the_start():
    t = signed(2)
    with pytest.raises(TournamentError, match="already_in"):
        flow.join(t, 100, "p0", 0.0, None)
    flow.leave(t, 101)
    assert [p.id for p in t.players] == [100]
    with pytest.raises(TournamentError, match="too_few"):
        flow.start(t, 0.0, 2)
    flow.join(t, 101, "p1", 0.0, None)
    flow.start(t, 10.0, 2, sides=True)
    assert t.status == RUNNING and t.round == 1 and t.round_deadline == 10.0 + 3600
    with pytest.raises(TournamentError, match="signup_closed"):
        flow.join(t, 102, "late", 0.0, None)


def test_a_round_is_paired_recorded_and_the_next_follows_until_the_last():
    t = signed(4, rounds=2)
    flow.start(t, 0.0, 2, sides=True)
    tables = t.of_round(1)
    assert len(tables) == 2 and all(len(g.players) == 2 for g in tables)
    for i, g in enumerate(tables):
        g.match_id = 10 + i
    assert not t.round_over()
    assert flow.record(t, 10, [0, 1]) and not flow.record(t, 10, [1, 0]), "a result is taken once"
    flow.record(t, 11, [0, 0])
    assert t.round_over()
    assert flow.next_round(t, 100.0, 2, True) and t.round == 2
    for i, g in enumerate(t.of_round(2)):
        g.match_id, g.places = 20 + i, [0, 1]
    assert not flow.next_round(t, 200.0, 2, True) and t.status == FINISHED and t.round_deadline is None


def test_leaving_after_the_start_drops_from_later_rounds_only():
    t = signed(5, rounds=3)
    flow.start(t, 0.0, 2)
    flow.leave(t, 100)
    assert t.player(100).dropped_after == 1 and 100 in [p.id for p in t.active(1)]
    assert 100 not in [p.id for p in t.active(2)]
    with pytest.raises(TournamentError, match="already_left"):
        flow.drop(t, 100)


def test_pause_keeps_the_rounds_time_left_and_end_closes():
    t = signed(2)
    flow.start(t, 0.0, 2)
    flow.pause(t, 600.0)
    assert t.status == PAUSED and t.deadline is None and t.paused_left == 3000.0
    flow.resume(t, 5000.0)
    assert t.status == RUNNING and t.round_deadline == 8000.0
    flow.end(t, 99)
    assert t.status == FINISHED and t.ended_by == 99
    with pytest.raises(TournamentError, match="over"):
        flow.end(t, 99)
    s = signed(1)
    flow.end(s, 99)
    assert s.status == CANCELLED, "a sign-up that is ended just closes"


def test_forget_me_removes_an_entry_before_the_start_and_anonymises_it_after():
    t = signed(3)
    assert t.forget(101) and [p.id for p in t.players] == [100, 102] and t.status == SIGNUP
    flow.join(t, 101, "p1", 0.0, None)
    flow.start(t, 0.0, 2)
    player = t.player(100)
    assert player is not None
    assert t.forget(100) and t.player(100) is None
    gone = next(p for p in t.players if p.name == "")
    assert gone.id < 0 and gone.dropped_after == 1
    assert all(100 not in g.players for g in t.games) and any(gone.id in g.players for g in t.games)
    assert t.forget(99) and t.creator_id == 0 and t.creator_name == ""


def row(game: str, n: int, status: str, meta: MatchMeta | None = None) -> MatchRow:
    return MatchRow(id=1, game=game, guild_id=1, channel_id=2, host_id=1, status=status, version=1, seed=1,
                    seats=[SeatInfo(10 + i, f"p{i}") for i in range(n)], options={}, state=None,
                    meta=meta or MatchMeta(), timers={}, public_version=1)  # fmt: skip


def test_places_follow_the_one_decided_result():
    won = row("uonga", 2, "finished", MatchMeta(result=Outcome([0, 0], [1], "resignation"), resigned=[0]))
    assert places(won, None) == [1, 0]
    assert places(row("uonga", 2, "cancelled"), None) == [0, 0], "ended without a result: a draw"
    drawn = row("uonga", 2, "finished", MatchMeta(result=Outcome([3, 3], [0, 1], "draw")))
    assert places(drawn, None) == [0, 0]


async def test_the_store_keeps_a_tournament_and_refuses_a_stale_write(tmp_path):
    store = open_store(str(tmp_path / "t.db"))
    await store.open()
    try:
        t = await store.create_tournament(signed(3), 1.0)
        assert t.id >= 1 and (await store.tournament(t.id)) == t
        assert [x.id for x in await store.open_tournaments()] == [t.id]
        read = t.version
        flow.start(t, 2.0, 2)
        t.version += 1
        await store.commit_tournament(t, read, 2.0)
        assert (await store.tournament(t.id)).status == RUNNING
        with pytest.raises(WriteConflict):
            await store.commit_tournament(t, read, 3.0)
        forgotten = await store.forget_user(101, 4.0)
        assert forgotten is not None
        after = await store.tournament(t.id)
        assert after.player(101) is None and any(p.name == "" for p in after.players)
        assert (await store.tournaments_in(6))[0].id == t.id
    finally:
        await store.close()
