"""Forgetting a user (issue 20, point 12), on SQLite and PostgreSQL: their stats, ratings and records
are deleted; finished matches keep their moves but name them nowhere, and still replay; refused while
they sit in a live match, with nothing changed."""

from __future__ import annotations

import random

import pytest

from engine.errors import StillPlaying
from tests.engine.conftest import start_match
from tests.engine.test_ratings import ALICE, BOB, CAROL, GUILD, play_out, start
from tests.replayed import replayed


@pytest.fixture
async def engine(open_engine):
    matches, _ = await open_engine("forget.db", 3600)
    return matches


async def test_forgetting_a_user_deletes_their_stats_and_records_and_anonymises_their_games(engine):
    matches = engine
    mid = await start(matches, 1, seed=4, humans=[ALICE, BOB])
    await play_out(matches, mid, random.Random(4))
    other = await start(matches, 2, seed=5, humans=[BOB, CAROL])  # a game without alice
    await play_out(matches, other, random.Random(5))
    await matches.store.improve_record(ALICE, "ubongo", "solo", 42.0, mid, 1.0, higher=False)
    await matches.store.improve_record(BOB, "ubongo", "solo", 40.0, mid, 1.0, higher=False)
    final = (await matches.get(mid))[1]
    moves = await matches.store.actions(mid)
    assert (await matches.store.standings(GUILD, str(ALICE)))["ugah"].played == 1

    forgotten = await matches.forget_user(ALICE)

    assert (forgotten.matches, forgotten.ratings, forgotten.records) == (1, 1, 1)
    assert await matches.store.standings(GUILD, str(ALICE)) == {}
    assert await matches.store.record(ALICE, "ubongo", "solo") is None
    assert (await matches.store.standings(GUILD, str(BOB)))["ugah"].played == 2  # others keep theirs
    assert (await matches.store.record(BOB, "ubongo", "solo")).best == 40.0
    m, state = await matches.get(mid)
    assert m.host_id == 0
    assert [(s.user_id, s.name, s.ai) for s in m.seats] == [(None, "", False), (BOB, f"p{BOB}", False)]
    assert m.status == "finished" and state == final
    assert await matches.store.actions(mid) == moves  # the moves stay (they are the game)...
    assert await replayed(matches, mid) == final  # ... and the replay still steps to the end
    assert [s.user_id for s in (await matches.get(other))[0].seats] == [BOB, CAROL]

    again = await matches.forget_user(ALICE)  # nothing left to forget
    assert (again.matches, again.ratings, again.records) == (0, 0, 0)


@pytest.mark.parametrize("started", [False, True])
async def test_a_user_in_a_live_match_is_refused_and_nothing_changes(engine, started):
    matches = engine
    finished = await start(matches, 1, seed=4, humans=[ALICE, BOB])
    await play_out(matches, finished, random.Random(4))
    if started:
        await start(matches, 2, seed=6, humans=[CAROL, ALICE])
    else:  # a lobby alice joined
        u = await matches.open_lobby("ugah", GUILD, 2, CAROL, "carol", {"variant": "basic"}, seed=6)
        await matches.lobby(u.match.id, u.match.version, ALICE, "alice", "join")

    with pytest.raises(StillPlaying) as refused:
        await matches.forget_user(ALICE)

    assert refused.value.params == {"n": 1}
    assert (await matches.store.standings(GUILD, str(ALICE)))["ugah"].played == 1
    assert (await matches.get(finished))[0].seats[0].user_id == ALICE


async def test_a_users_live_matches_are_found_by_their_seats_alone(engine):
    """``live_of`` (/game mine): the lobbies and games a user sits in, on both databases; not one whose
    id merely contains theirs, not one they resigned from, not one that is over."""
    m = engine
    first = await start_match(m, 10, seed=1)  # alice (100) and bob (200)
    lobby = await m.open_lobby("ugah", 2, 11, 200, "bob", {"variant": "basic"}, seed=2)
    other = await m.open_lobby("ugah", 1, 12, 1000, "zed", {"variant": "basic"}, seed=3)  # "100" in "1000"
    assert await m.store.live_ids_of(100) == [first]
    assert [x.id for x, _ in await m.live_of(200)] == [first, lobby.match.id]
    assert [x.id for x, _ in await m.live_of(1000)] == [other.match.id]
    await m.resign(first, 100)  # two seats: over
    assert await m.live_of(100) == [] and [x.id for x, _ in await m.live_of(200)] == [lobby.match.id]


async def test_a_users_own_settings_are_kept_changed_and_forgotten_with_them(engine):
    store = engine.store
    assert await store.user_setting(100, "notify") is None
    await store.set_user_setting(100, "notify", "on")
    await store.set_user_setting(200, "notify", "on")
    await store.set_user_setting(100, "notify", "on")  # again: still one row
    assert await store.user_setting(100, "notify") == "on"
    gone = await engine.forget_user(100)
    assert gone.settings == 1 and await store.user_setting(100, "notify") is None
    assert await store.user_setting(200, "notify") == "on"
    await store.set_user_setting(200, "notify", None)
    assert await store.user_setting(200, "notify") is None
