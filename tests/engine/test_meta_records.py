"""Issue 18, point 8: the match's meta is typed and versioned (engine.meta), and personal records are
the engine's (engine.records): read as a solo run starts, kept in the commit that finishes it."""

from __future__ import annotations

import json

import pytest

from engine import records
from engine.core import Event, Outcome
from engine.games.ubongo import RULES as UBONGO
from engine.games.ubongo import allowed, need, place_code, record_mode, record_result, task_cells
from engine.games.ubongo_solver import solve
from engine.match import PRIVATE, Matches
from engine.meta import META_VERSION, MatchMeta, RecordNote
from engine.store import Record

ALICE, MOD = 100, 900

# every key the untyped meta had (version 0: no "version" key), as stored before MatchMeta
OLD = {
    "events": [{"kind": "resigned", "data": {"seat": 1}, "to": None}, {"kind": "x", "data": {}, "to": [0]}],
    "new_turn": [0],
    "result": {"scores": [0, 0], "winners": [0], "reason": "resignation"},
    "ended_by": 200,
    "pending": [300],
    "rematch": 12,
    "rematch_of": 10,
    "locale": "de",
    "record": {"best": 150.0, "value": 150.0, "new": True, "previous": None},
    "finished_at": 1000150.0,
    "started_at": 1000000.0,
    "recap": 1000160.5,
    "broken": "ValueError('bad')",
    "someday": {"a newer bot's key": [1, 2]},  # unknown: preserved
}


def test_an_old_meta_without_a_version_loads_typed_and_keeps_its_unknown_keys():
    meta = MatchMeta.load(json.loads(json.dumps(OLD)))
    assert meta == MatchMeta(
        version=META_VERSION,
        locale="de",
        events=[Event("resigned", {"seat": 1}), Event("x", {}, (0,))],
        new_turn=[0],
        started_at=1000000.0,
        finished_at=1000150.0,
        result=Outcome([0, 0], [0], "resignation"),
        ended_by=200,
        ended_by_name=None,
        pending=[300],
        rematch=12,
        rematch_of=10,
        record=RecordNote(best=150.0, value=150.0, new=True, previous=None),
        recap=1000160.5,
        broken="ValueError('bad')",
        extra={"someday": {"a newer bot's key": [1, 2]}},
    )
    dumped = meta.dump()
    assert dumped.pop("version") == META_VERSION
    assert dumped == OLD, "version 1 keeps version 0's keys and shapes (an older bot still reads it)"


def test_old_metas_of_each_kind_load():
    assert MatchMeta.load({}) == MatchMeta() == MatchMeta.load(None)
    assert MatchMeta.load({"record": {"best": None}}).record == RecordNote()  # a run as it started
    assert MatchMeta.load({"pending": []}).pending == [], "an offer everyone accepted is still one"
    assert MatchMeta.load({"started_at": 5}).started_at == 5.0
    assert MatchMeta().dump() == {"version": META_VERSION}


def test_dump_and_load_round_trip():
    meta = MatchMeta(
        locale="es-ES",
        events=[Event("ended", {"by": MOD}), Event("secret", {"card": 3}, (1,))],
        new_turn=[1, 2],
        started_at=1.5,
        finished_at=9.25,
        result=Outcome([3, 1], [0], "win"),
        ended_by=MOD,
        ended_by_name="Mod *bold*",
        pending=[1, 2],
        rematch=7,
        rematch_of=3,
        record=RecordNote(best=2.0, value=3.0, new=True, previous=2.0),
        recap=10.0,
        extra={"x": 1},
    )
    again = MatchMeta.load(json.loads(json.dumps(meta.dump())))
    assert again == meta
    assert MatchMeta.load(json.loads(json.dumps(MatchMeta().dump()))) == MatchMeta()


@pytest.mark.parametrize(
    ("stored", "error"),
    [([], TypeError), ({"version": "1"}, ValueError), ({"events": [{"data": {}}]}, KeyError)],
)
def test_a_malformed_meta_is_refused(stored, error):
    with pytest.raises(error):
        MatchMeta.load(stored)


# ---- who ended it ------------------------------------------------------------------------------------


async def test_the_ender_is_named_even_when_not_seated(open_engine):
    matches, _ = await open_engine()
    u = await matches.open_lobby("ugah", 1, 10, ALICE, "alice", {"variant": "basic"})
    u = await matches.lobby(u.match.id, u.match.version, 200, "bob", "join")
    u = await matches.lobby(u.match.id, u.match.version, ALICE, "alice", "start")
    ended = await matches.end(u.match.id, MOD, moderator=True, name="Mod")
    assert (ended.match.meta.ended_by, ended.match.meta.ended_by_name) == (MOD, "Mod")
    assert (await matches.store.get(u.match.id)).meta.ended_by_name == "Mod"
    lobby = await matches.open_lobby("ugah", 1, 11, ALICE, "alice", {})
    cancelled = await matches.lobby(
        lobby.match.id, lobby.match.version, MOD, "Mod 2", "cancel", moderator=True
    )
    assert (cancelled.match.meta.ended_by, cancelled.match.meta.ended_by_name) == (MOD, "Mod 2")
    lobby = await matches.open_lobby("ugah", 1, 12, ALICE, "alice", {})
    ended = await matches.end(lobby.match.id, ALICE, moderator=False)  # no name given: the seat's
    assert ended.match.meta.ended_by_name == "alice"


# ---- personal records in the finishing transaction ------------------------------------------------


def test_the_record_mode_and_result_are_the_rules():
    s = UBONGO.setup(1, 1, {"solo": "tasks", "solo_size": "5"})
    assert record_mode(s) == "tasks.5"
    assert record_result(s, 100.0) is None, "a speed run the clock stopped before its last task"
    assert (
        record_mode(UBONGO.setup(1, 1, {"solo": "time", "side": "B", "no_yellow": "all"}))
        == "time.5.B.no_yellow"
    )
    assert record_mode(UBONGO.setup(2, 1, {})) is None, "a race keeps no records"


async def _speed_run(matches: Matches, clock, channel: int, pause: float, *, last=None) -> int:
    """A /ubongo solo speed run of 5 tasks, ``pause`` seconds per task; ``last(mid, code, version)``
    plays the final placement instead (to inject a fault around it)."""
    u = await matches.open_lobby("ubongo", 1, channel, ALICE, "alice", {"solo": "tasks", "solo_size": "5"})
    u = await matches.lobby(u.match.id, u.match.version, ALICE, "alice", "start")
    mid = u.match.id
    while True:
        m, s = await matches.get(mid)
        if m.status != "active":
            return mid
        clock.t += pause
        codes = [place_code(*p) for p in solve(task_cells(s, 0), need(s, 0), allowed(s, 0))]
        for i, code in enumerate(codes):
            m, _ = await matches.get(mid)
            if last is not None and s.done == 4 and i == len(codes) - 1:
                await last(mid, code, m.seats[0].version)
            else:
                await matches.act(mid, m.seats[0].version, ALICE, code, surface=PRIVATE)


async def test_a_solo_run_keeps_its_record_in_the_finishing_commit(open_engine):
    matches, clock = await open_engine(turn_seconds=3600)
    store = matches.store
    first = await _speed_run(matches, clock, 10, 30)
    m, _ = await matches.get(first)
    assert m.meta.record == RecordNote(best=150.0, value=150.0, new=True, previous=None)
    assert await store.record(ALICE, "ubongo", "tasks.5") == Record(150.0, None, first)
    assert (await store.get(first)).meta.record == m.meta.record, "committed with the final snapshot"

    async def faulty_last(mid: int, code: str, version: int) -> None:
        """The finishing commit fails at its very end (after the record and the snapshot were
        written in its transaction): neither stays. Then the same action is retried and succeeds."""
        started, _ = await matches.get(mid)
        assert started.meta.record == RecordNote(best=150.0), "the record to beat, read at the start"
        real = store._notify

        async def broken(db, row):
            if row.status == "finished":
                raise RuntimeError("the disk went away")
            await real(db, row)

        store._notify = broken
        try:
            with pytest.raises(RuntimeError):
                await matches.act(mid, version, ALICE, code, surface=PRIVATE)
        finally:
            del store._notify
        assert await store.record(ALICE, "ubongo", "tasks.5") == Record(150.0, None, first), "no record"
        row = await store.get(mid)
        assert row.status == "active" and row.meta.finished_at is None, "no final snapshot either"
        await matches.act(mid, version, ALICE, code, surface=PRIVATE)

    second = await _speed_run(matches, clock, 10, 10, last=faulty_last)
    m, state = await matches.get(second)
    assert m.status == "finished" and state.done == 5
    assert m.meta.record == RecordNote(best=50.0, value=50.0, new=True, previous=150.0)
    assert await store.record(ALICE, "ubongo", "tasks.5") == Record(50.0, 150.0, second)

    # the same match's finishing commit retried (a commit whose answer was lost) reports the same
    again = m.copy()
    again.meta.record = None
    claim = records.claim(again, state)
    await store.commit(again, [], clock(), again.version, record=claim)
    assert again.meta.record == m.meta.record
    assert await store.record(ALICE, "ubongo", "tasks.5") == Record(50.0, 150.0, second)

    third = await _speed_run(matches, clock, 10, 20)  # slower: the record stays
    m, _ = await matches.get(third)
    assert m.meta.record == RecordNote(best=50.0, value=100.0, new=False, previous=50.0)
    assert await store.record(ALICE, "ubongo", "tasks.5") == Record(50.0, 150.0, second)


async def test_a_race_and_an_abandoned_run_keep_no_record(open_engine):
    matches, _ = await open_engine(turn_seconds=3600)
    u = await matches.open_lobby("ubongo", 1, 10, ALICE, "alice", {})
    u = await matches.lobby(u.match.id, u.match.version, 200, "bob", "join")
    u = await matches.lobby(u.match.id, u.match.version, ALICE, "alice", "start")
    assert u.match.meta.record is None and u.match.meta.started_at is not None
    await matches.end(u.match.id, ALICE, moderator=False)
    u = await matches.open_lobby("ubongo", 1, 11, ALICE, "alice", {"solo": "tasks"})
    u = await matches.lobby(u.match.id, u.match.version, ALICE, "alice", "start")
    assert u.match.meta.record == RecordNote(best=None), "no record yet"
    await matches.end(u.match.id, ALICE, moderator=False)
    assert await matches.store.record(ALICE, "ubongo", "tasks.5") is None
