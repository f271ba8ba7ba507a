"""The async match engine and store without Discord: one writer, versions, commits, recovery."""

from __future__ import annotations

import asyncio
import random

import pytest

from engine.compute import run_inline
from engine.errors import ChannelBusy, LobbyError, NotInMatch, NotYourTurn, StaleAction
from engine.games.ugah import RULES
from engine.match import Matches
from engine.store.migrations import MIGRATIONS
from engine.store.sqlite import SqliteStore as Store
from tests.replayed import replayed


@pytest.fixture
async def engine(open_engine, new_store):
    matches, clock = await open_engine("m.db", 60)
    return matches, clock, new_store


async def start_two(matches: Matches) -> int:
    u = await matches.open_lobby("ugah", 1, 10, 100, "alice", {"variant": "basic"}, seed=42)
    mid = u.match.id
    u = await matches.lobby(mid, u.match.version, 200, "bob", "join")
    await matches.lobby(mid, u.match.version, 100, "alice", "start")
    return mid


async def move(matches: Matches, mid: int, rng: random.Random):
    m, state = await matches.get(mid)
    seat = state.current
    action = rng.choice(RULES.legal_actions(state, seat))
    return await matches.act(mid, m.version, m.seats[seat].user_id, action)


async def test_one_live_match_per_channel(engine):
    matches, _, _ = engine
    await matches.open_lobby("ugah", 1, 10, 100, "alice", {})
    with pytest.raises(ChannelBusy):
        await matches.open_lobby("ugah", 1, 10, 200, "bob", {})
    await matches.open_lobby("ugah", 1, 11, 200, "bob", {})  # another channel (or thread) is fine


async def test_refusals_change_nothing(engine):
    matches, _, _ = engine
    mid = await start_two(matches)
    m, state = await matches.get(mid)
    waiting = m.seats[1 - state.current].user_id
    before = (m.version, RULES.dump(state))
    action = RULES.legal_actions(state, state.current)[0]
    with pytest.raises(NotInMatch):
        await matches.act(mid, m.version, 999, action)
    with pytest.raises(NotYourTurn):
        await matches.act(mid, m.version, waiting, action)
    with pytest.raises(StaleAction):
        await matches.act(mid, m.version - 1, m.seats[state.current].user_id, action)
    with pytest.raises(LobbyError):
        await matches.lobby(mid, m.version, 300, "carol", "join")
    m, state = await matches.get(mid)
    assert (m.version, RULES.dump(state)) == before


async def test_committed_state_equals_replay_and_survives_a_new_process(engine):
    matches, clock, new_store = engine
    mid = await start_two(matches)
    rng = random.Random(1)
    for _ in range(15):
        await move(matches, mid, rng)
    m, state = await matches.get(mid)
    assert await replayed(matches, mid) == state
    await matches.close()
    await matches.store.close()  # the process ends; a new one opens the file
    store2 = new_store("m.db")
    await store2.open()
    fresh = Matches(store2, clock, run=run_inline)
    m2, state2 = await fresh.get(mid)
    assert (m2.version, state2) == (m.version, state)
    await fresh.close()
    await store2.close()


async def test_failed_commit_leaves_the_database_and_the_next_move_consistent(engine, monkeypatch):
    matches, _, _ = engine
    mid = await start_two(matches)
    m, state = await matches.get(mid)
    before = (m.version, RULES.dump(state))
    real = matches.store.commit

    async def broken(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(matches.store, "commit", broken)
    with pytest.raises(OSError):
        await move(matches, mid, random.Random(2))
    monkeypatch.setattr(matches.store, "commit", real)
    m, state = await matches.get(mid)
    assert (m.version, RULES.dump(state)) == before
    await move(matches, mid, random.Random(2))
    assert await replayed(matches, mid) == (await matches.get(mid))[1]


async def test_concurrent_acts_on_one_version_apply_once(engine):
    matches, _, _ = engine
    mid = await start_two(matches)
    m, state = await matches.get(mid)
    user = m.seats[state.current].user_id
    action = RULES.legal_actions(state, state.current)[0]
    results = await asyncio.gather(
        *[matches.act(mid, m.version, user, action) for _ in range(20)], return_exceptions=True
    )
    assert sum(not isinstance(r, Exception) for r in results) == 1
    assert all(isinstance(r, StaleAction) for r in results if isinstance(r, Exception))


async def test_overdue_deadline_fires_on_recovery(engine):
    matches, clock, new_store = engine
    mid = await start_two(matches)
    _, state = await matches.get(mid)
    turn = state.turn
    await matches.close()  # the process "dies"; its timers with it
    await matches.store.close()
    clock.t += 3600
    store2 = new_store("m.db")
    await store2.open()
    fresh = Matches(store2, clock, run=run_inline)
    assert await fresh.recover() == 1
    for _ in range(200):  # the re-armed timer fires at once; wait for its commit
        m2, state2 = await fresh.get(mid)
        if state2.turn > turn:
            break
        await asyncio.sleep(0.01)
    assert state2.turn > turn and m2.seats[state.current].away
    await fresh.close()
    await store2.close()


async def test_schema_version_and_integrity_check(engine):
    matches, _, _ = engine
    assert await matches.store.schema_version() == len(MIGRATIONS)


async def test_backup_copies_a_consistent_database(engine, backend, tmp_path):
    if backend != "sqlite":
        pytest.skip("SQLite's online backup; PostgreSQL is backed up with pg_dump (tests/test_backup.py)")
    matches, _, _ = engine
    mid = await start_two(matches)
    await move(matches, mid, random.Random(3))
    target = str(tmp_path / "backup.db")
    await matches.store.backup(target)
    copy = Store(target)
    await copy.open()
    assert (await copy.get(mid)).version == (await matches.get(mid))[0].version
    await copy.close()


async def test_bad_options_are_refused_when_the_lobby_opens(engine):
    matches, _, _ = engine
    for options in ({"variant": "hard"}, {"rolling": ""}, {"variant": 3}):
        with pytest.raises(LobbyError) as err:
            await matches.open_lobby("ugah", 1, 12, 100, "alice", options)
        assert err.value.key == "lobby.bad_option"
    assert await matches.live_in_channel(12) is None


async def test_finished_matches_leave_the_memory_cache(engine, monkeypatch):
    matches, _, _ = engine
    monkeypatch.setattr("engine.writer.CACHE_LIMIT", 1)
    mid = await start_two(matches)
    await matches.end(mid, 100, moderator=False)
    live = await matches.open_lobby("ugah", 1, 99, 100, "alice", {})
    assert mid not in matches._cache and live.match.id in matches._cache
    m, _ = await matches.get(mid)  # reloads from the database
    assert m.status == "cancelled"


def test_more_live_matches_than_the_cache_limit_do_not_make_every_commit_look_through_them(monkeypatch):
    """Past CACHE_LIMIT live matches, every commit used to look through the whole cache for finished
    ones (with 10,000 live: a full garbage collection of ~200 ms every ~18 moves, bench.scale). Now the
    cache is looked through once half the limit more is cached than the last look left; finished
    matches still go, and no live one."""
    from types import SimpleNamespace

    from engine import writer

    monkeypatch.setattr(writer, "CACHE_LIMIT", 10)
    w = writer.Writer(None, lambda: 0.0, None, None)  # type: ignore[arg-type]  # (only its cache here)
    looks = []
    forget = w.forget_finished
    monkeypatch.setattr(w, "forget_finished", lambda **kw: (looks.append(len(w._cache)), forget(**kw)))

    def commit(mid: int, status: str) -> None:
        w.remember(SimpleNamespace(id=mid, status=status), None)  # type: ignore[arg-type]

    for mid in range(30):
        commit(mid, "active")
    assert looks == [11, 17, 23, 29], "a look each time 5 more were cached, not one for each past 10"
    for _ in range(100):
        commit(7, "active")  # moves in a cached match: the cache does not grow
    assert len(looks) == 4
    for mid in range(30, 60):
        commit(mid, "finished")
        assert len(w._cache) <= 30 + 5, "finished matches are forgotten past the bound"
    assert all(mid in w._cache for mid in range(30)), "live matches stay"


async def test_readers_never_see_a_row_and_a_state_that_do_not_belong_together(engine, monkeypatch):
    """Copy on write: while a commit is in flight, readers get the last committed pair; after it,
    the new pair. (Before, the writer changed the cached row before the commit: 8,005 of 8,008 reads
    in flight saw the new row with the old state.)"""
    matches, _, _ = engine
    mid = await start_two(matches)
    real = matches.store.commit
    gate = asyncio.Event()

    async def slow_commit(*args, **kwargs):
        await gate.wait()
        return await real(*args, **kwargs)

    monkeypatch.setattr(matches.store, "commit", slow_commit)
    m0, s0 = await matches.get(mid)
    mover = asyncio.create_task(move(matches, mid, random.Random(9)))
    seen = []
    for _ in range(50):
        await asyncio.sleep(0)
        m, state = await matches.get(mid)
        seen.append((m.version, RULES.dump(state)))
    gate.set()
    await mover
    assert set(map(lambda p: p[0], seen)) == {m0.version}
    assert all(dump == RULES.dump(s0) for _, dump in seen), "the old row always comes with the old state"
    m1, s1 = await matches.get(mid)
    assert m1.version > m0.version and m1.state == RULES.dump(s1)


async def test_resignation_in_a_two_seat_game_ends_it_and_the_opponent_wins(engine):
    matches, _, _ = engine
    mid = await start_two(matches)
    update = await matches.resign(mid, 200)
    assert update.match.status == "finished"
    outcome = matches.outcome(update.match, update.state)
    assert (outcome.winners, outcome.reason) == ([0], "resignation")
    assert update.match.timers == {}, "a finished game runs no timer"
