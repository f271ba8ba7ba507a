"""PostgreSQL misbehaving mid-game (issue 22, points 3 and 4), on a server of the test's own that it
restarts, stops fast, kills and freezes (harness.pgserver), through the real store and engine.

Every click gets its outcome within Discord's 3 s (CALL_SECONDS plus a margin for a loaded
machine), and a move is never lost nor doubled: each test ends with the log replaying to the state
and one log row per accepted move."""

from __future__ import annotations

import asyncio
import contextlib
import random
import time

import asyncpg
import pytest

from engine.compute import run_inline
from engine.errors import DatabaseBusy, DatabaseUnsure
from engine.match import Matches
from engine.registry import rules_for
from engine.store import CALL_SECONDS, StoreBusy
from engine.store.postgres import PostgresStore
from harness import pgserver
from tests.engine.conftest import Clock, start_match
from tests.replayed import replayed

IN_TIME = CALL_SECONDS + 0.5


@pytest.fixture(scope="module")
def server():
    if pgserver.binaries() is None:
        pytest.skip("no PostgreSQL on this machine (install Debian's postgresql package)")
    with pgserver.controlled(durable=True) as s:  # a killed server keeps only what was flushed
        yield s


_schemas = iter(range(10**6))


@pytest.fixture
async def engine(server):
    store = PostgresStore(server.url, schema=f"faults{next(_schemas)}", pool_size=4)
    await store.open()
    matches = Matches(store, Clock(), turn_seconds=3600, run=run_inline)
    await matches.recover()
    yield matches
    server.thaw()
    await matches.close()
    await store.close()


async def meanwhile(fn, *args) -> None:
    """A server operation in a thread while the event loop runs, as it does in the bot (which then
    notices at once the connections the server closed), and a moment for the loop to take note."""
    await asyncio.get_running_loop().run_in_executor(None, fn, *args)
    await asyncio.sleep(0.1)


async def game_in_play(matches: Matches, channel: int) -> tuple[int, int]:
    """A game started in ``channel``: (its id, the players' moves logged so far)."""
    mid = await start_match(matches, channel, seed=channel)
    return mid, await moves_so_far(matches, mid)


async def click(matches: Matches, mid: int, rng: random.Random):
    """A legal move by the player to move, as the router makes it; (outcome, seconds taken)."""
    m, state = await matches.get(mid)
    seat = state.current
    action = rng.choice(sorted(rules_for(m.game).legal_actions(state, seat)))
    started = time.monotonic()
    try:
        outcome = await matches.act(mid, m.public_version, m.seats[seat].user_id, action)
    except DatabaseBusy as err:
        outcome = err
    return outcome, time.monotonic() - started


async def intact(matches: Matches, mid: int, accepted: int, before: int) -> None:
    """Nothing lost, nothing doubled: the log replays to the state, one row per accepted move."""
    stored = await matches.store.get(mid)
    matches._cache.pop(mid, None)
    m, state = await matches.get(mid)
    assert m.version == stored.version
    assert await replayed(matches, mid) == state
    players = [a for a in await matches.store.actions(mid) if a.source == "player"]
    assert len(players) == before + accepted


async def moves_so_far(matches: Matches, mid: int) -> int:
    return len([a for a in await matches.store.actions(mid) if a.source == "player"])


@pytest.mark.parametrize("how", ["restart", "kill"])
async def test_a_server_restarted_or_killed_mid_game_costs_no_click(engine, server, how):
    """Point 3: every pooled connection is dead afterwards; the next clicks are retried on fresh
    connections instead of answering "Something went wrong"."""
    matches, rng = engine, random.Random(3)
    mids = [await start_match(matches, channel, seed=channel) for channel in (10, 11, 12)]
    before = [await moves_so_far(matches, mid) for mid in mids]
    for mid in mids:  # every pooled connection has been used
        await click(matches, mid, rng)
    if how == "restart":
        await meanwhile(server.restart, "fast")
    else:
        await meanwhile(lambda: (server.kill(), server.start()))
    results = await asyncio.gather(*[click(matches, mid, rng) for mid in mids])
    for outcome, took in results:
        assert not isinstance(outcome, Exception), outcome
        assert took < IN_TIME
    for mid, b in zip(mids, before, strict=True):
        await intact(matches, mid, 2, b)


async def test_a_click_while_the_server_is_down_is_busy_in_time_and_the_next_one_plays(engine, server):
    matches, rng = engine, random.Random(4)
    mid, before = await game_in_play(matches, 20)
    await meanwhile(server.stop, "fast")
    try:
        outcome, took = await click(matches, mid, rng)
        assert isinstance(outcome, DatabaseBusy) and not isinstance(outcome, DatabaseUnsure), outcome
        assert took < IN_TIME
    finally:
        server.start()
    outcome, took = await click(matches, mid, rng)
    assert not isinstance(outcome, Exception), outcome
    await intact(matches, mid, 1, before)


async def test_a_server_back_within_the_deadline_serves_the_waiting_click(engine, server):
    matches, rng = engine, random.Random(5)
    mid, before = await game_in_play(matches, 30)
    await meanwhile(server.stop, "fast")
    loop = asyncio.get_running_loop()
    back = loop.run_in_executor(None, lambda: (time.sleep(0.6), server.start()))
    outcome, took = await click(matches, mid, rng)
    await back
    assert not isinstance(outcome, Exception), f"{outcome!r} after {took:.2f}s"
    assert took < IN_TIME
    await intact(matches, mid, 1, before)


async def test_a_frozen_server_answers_in_time_and_a_late_commit_is_not_reported_failed(engine, server):
    """Point 4: frozen (SIGSTOP), the click is answered within 3 s. Its commit was sent, so it may
    land when the server resumes: the answer says so (DatabaseUnsure), never "nothing changed", and
    once the server answers again the engine reads the truth: the move is there exactly once."""
    matches, rng = engine, random.Random(6)
    mid, before = await game_in_play(matches, 40)
    server.freeze()
    try:
        outcome, took = await click(matches, mid, rng)
    finally:
        server.thaw()
    assert isinstance(outcome, DatabaseUnsure), outcome
    assert took < IN_TIME
    for _ in range(100):  # the statement held in the frozen server ran when it resumed
        if await moves_so_far(matches, mid) == before + 1:
            break
        await asyncio.sleep(0.05)
    await intact(matches, mid, 1, before)
    outcome, _ = await click(matches, mid, rng)  # and play goes on from the truth
    assert not isinstance(outcome, Exception), outcome
    await intact(matches, mid, 2, before)


async def test_a_read_from_a_frozen_server_is_busy_in_time(engine, server):
    matches = engine
    mid = await start_match(matches, 50, seed=50)
    matches._cache.pop(mid, None)
    server.freeze()
    try:
        started = time.monotonic()
        with pytest.raises(DatabaseBusy) as caught:
            await matches.get(mid)
        assert time.monotonic() - started < IN_TIME
        assert not isinstance(caught.value, DatabaseUnsure)
    finally:
        server.thaw()
    assert (await matches.get(mid))[0].status == "active"


# The server ends its idle sessions (an administrator, idle_session_timeout, a pooler): each pooled
# connection is told so while nobody uses it, and asyncpg only notices at its next statement.
END_IDLE = (
    "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
    "WHERE pid <> pg_backend_pid() AND backend_type = 'client backend' AND state = 'idle'"
)


async def test_idle_connections_the_server_ended_cost_no_click(engine, server):
    """Issue 34, item 1: idle pooled connections ended by the server, then a move at once. asyncpg
    refused the next statement on such a connection ("another operation is in progress", before
    sending it), which answered "Something went wrong". Every move lands or is busy, 10 times over."""
    matches, rng = engine, random.Random(8)
    mid, before = await game_in_play(matches, 60)
    admin = await asyncpg.connect(server.url)
    accepted = 0
    try:
        for _ in range(10):
            await admin.fetchval(END_IDLE)
            outcome, took = await click(matches, mid, rng)  # (anything but DatabaseBusy is raised)
            assert not isinstance(outcome, DatabaseUnsure), outcome
            assert took < IN_TIME
            accepted += not isinstance(outcome, Exception)
    finally:
        await admin.close()
    await intact(matches, mid, accepted, before)


async def test_idle_connections_the_server_ended_cost_no_read_or_write(engine, server):
    """The same for the store's other calls, each straight after the server ended the idle sessions:
    a write in a transaction (/game threads), then a read (the start command's thread setting)."""
    store = engine.store
    admin = await asyncpg.connect(server.url)
    try:
        for i in range(10):
            await admin.fetchval(END_IDLE)
            with contextlib.suppress(StoreBusy):
                await store.set_guild_setting(1, "threads", str(i))
            await admin.fetchval(END_IDLE)
            with contextlib.suppress(StoreBusy):
                assert await store.guild_setting(1, "threads") == str(i)
    finally:
        await admin.close()


async def test_the_first_click_during_a_fast_shutdown_is_busy_not_a_bug(engine, server):
    """Issue 34, item 1: clicks one after another while the server stops fast (its sessions told to
    end, as above, then connections refused): the first one it meets is answered "the database did
    not answer", never "Something went wrong"; and play goes on once it is back."""
    matches, rng = engine, random.Random(9)
    mid, before = await game_in_play(matches, 70)
    loop = asyncio.get_running_loop()
    landed = unsure = 0
    for _ in range(3):
        stopping = loop.run_in_executor(None, server.stop, "fast")
        try:
            while True:  # until a click meets the shutdown
                outcome, took = await click(matches, mid, rng)  # (anything but DatabaseBusy is raised)
                assert took < IN_TIME
                if isinstance(outcome, Exception):
                    break
                landed += 1
                await asyncio.sleep(0.002)
        finally:
            await stopping
            server.start()
        unsure += isinstance(outcome, DatabaseUnsure)
        outcome, _ = await click(matches, mid, rng)
        assert not isinstance(outcome, Exception), outcome
        landed += 1
    kept = await moves_so_far(matches, mid) - before
    assert landed <= kept <= landed + unsure
    await intact(matches, mid, kept, before)
