"""Replays in the engine: a match rebuilt from seed + action log, step by step (engine.replay,
Matches.history) and the rematch offered once."""

from __future__ import annotations

import random

import pytest

from engine.errors import LobbyError
from engine.games.ugah import RULES
from engine.match import HISTORIES, Matches
from tests.replayed import replayed


@pytest.fixture
async def matches(open_engine):
    m, _ = await open_engine("r.db", 60)
    return m


async def finished(matches: Matches, channel: int = 10, seed: int = 42) -> int:
    u = await matches.open_lobby("ugah", 1, channel, 100, "alice", {"variant": "basic"}, seed=seed)
    mid = u.match.id
    u = await matches.lobby(mid, u.match.version, 200, "bob", "join")
    await matches.lobby(mid, u.match.version, 100, "alice", "start")
    rng = random.Random(seed)
    for _ in range(2000):
        m, state = await matches.get(mid)
        if m.status != "active":
            return mid
        seat = state.current
        await matches.act(mid, m.version, m.seats[seat].user_id, rng.choice(RULES.legal_actions(state, seat)))
    raise AssertionError("no end")


async def test_history_steps_from_the_start_to_the_final_state(matches):
    mid = await finished(matches)
    m, state = await matches.get(mid)
    steps = await matches.history(mid)
    actions = await matches.store.actions(mid)
    assert len(steps) == len(actions) + 1 and steps[0].action is None
    assert steps[0].state == RULES.setup(2, m.seed, m.options)
    assert [s.action for s in steps[1:]] == actions
    assert steps[-1].state == state == await replayed(matches, mid)
    assert RULES.outcome(steps[-1].state) is not None
    assert all(RULES.outcome(s.state) is None for s in steps[:-1]), "over only at the end"
    assert await matches.history(mid) is steps, "a finished match's history is kept"


async def test_only_a_few_histories_are_kept(matches):
    ids = [await finished(matches, channel=20 + i, seed=i) for i in range(HISTORIES + 1)]
    first = await matches.history(ids[0])
    for mid in ids[1:]:
        await matches.history(mid)
    assert await matches.history(ids[-1]) is await matches.history(ids[-1])
    again = await matches.history(ids[0])
    assert again is not first and [s.state for s in again] == [s.state for s in first], "rebuilt the same"


async def test_a_rematch_that_was_played_is_not_offered_again(matches):
    mid = await finished(matches)
    offer = await matches.rematch(mid, 200, "bob")
    assert offer.match.status == "lobby"
    await matches.lobby(offer.match.id, offer.match.version, 100, "alice", "accept")
    new, _ = await matches.get(offer.match.id)
    assert new.status == "active"
    await matches.end(new.id, 200, moderator=False)  # the rematch is over: the channel is free again
    for user in (100, 200):
        with pytest.raises(LobbyError) as refused:
            await matches.rematch(mid, user, "x")
        assert refused.value.key == "rematch.once" and refused.value.params == {"game": "ugah"}
    assert await matches.live_in_channel(10) is None, "no second offer"
    assert (await matches.get(mid))[0].meta.rematch == new.id


async def test_a_servers_finished_games_newest_first(matches):
    first = await finished(matches, channel=10, seed=1)
    second = await finished(matches, channel=11, seed=2)
    await matches.open_lobby("ugah", 1, 12, 100, "alice", {})  # a lobby: never started, not listed
    other = await matches.open_lobby("ugah", 2, 13, 100, "alice", {})  # another server's
    assert other.match.guild_id == 2
    assert [m.id for m in await matches.store.finished_in_guild(1)] == [second, first]
    assert [m.id for m in await matches.store.finished_in_guild(1, limit=1)] == [second]
    assert await matches.store.finished_in_guild(3) == []
