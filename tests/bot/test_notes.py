"""What a move's surfaces note (what each message shows, a panel's latest token, a turn ping's
message) is written once the click's answer and the surfaces that follow it are done, in one
transaction, not one per note (issue 35: the bot's CPU per move), and none of it is lost: a restarted
bot finds the ping it posted."""

from __future__ import annotations

import asyncio
import dataclasses
import random

from bot.surfaces.addresses import Addresses
from bot.surfaces.quiet import Quiet
from bot.surfaces.reconciler import Reconciler, Retry
from engine.store import SurfaceRow
from engine.store.open import open_store
from harness.honga import pick
from tests.bot.helpers import open_and_start, pings, play_one, restart, setup_table
from tests.bot.test_pings import honga
from tests.kit_honga import _controls, open_panel


def spy_on_writes(store) -> list[tuple[str, tuple[str, ...], tuple[str, ...]]]:
    """Every surface write of ``store`` from now on: ("note", address kinds, shown kinds) for a
    transaction of notes, ("put", (kind,), ()) for an address written on its own."""
    writes: list[tuple[str, tuple[str, ...], tuple[str, ...]]] = []
    note_surfaces, put_surface = store.note_surfaces, store.put_surface

    async def note(rows, shown=()):
        writes.append(("note", tuple(sorted(r.kind for r in rows)), tuple(sorted(s[2] for s in shown))))
        await note_surfaces(rows, shown)

    async def put(row):
        writes.append(("put", (row.kind,), ()))
        await put_surface(row)

    store.note_surfaces, store.put_surface = note, put
    return writes


async def test_an_ugah_moves_notes_go_in_one_transaction_and_its_ping_outlives_a_restart(
    simcord_env, bot_factory
):
    env = simcord_env
    _, channel, players = setup_table(env, 2)
    mid = await open_and_start(env, channel, players)
    rng = random.Random(5)
    writes = spy_on_writes(env.bot.store)
    new_turns = 0
    for _ in range(12):
        _, before = await env.bot.matches.get(mid)
        writes.clear()
        await play_one(env, channel, players, mid, rng)
        await env.bot.surfaces.settle(mid)
        m, state = await env.bot.matches.get(mid)
        notes = [w for w in writes if w[0] == "note"]
        assert len(notes) == 1 and "board" in notes[0][2], writes
        assert ("put", ("ping",), ()) not in writes, "the ping's message goes with the notes"
        if state.current != before.current and m.status == "active":
            new_turns += 1
            assert "ping" in notes[0][1], writes
    assert new_turns >= 2, "the turn passed during the moves"
    row = next(r for r in await env.bot.store.surfaces(mid) if r.kind == "ping")
    assert [p.id for p in pings(channel)] == [row.message_id], "the stored ping is the one standing"
    await restart(env, bot_factory)
    m, state = await env.bot.matches.get(mid)
    turn = state.current
    while state.current == turn and m.status == "active":
        await play_one(env, channel, players, mid, rng)
        m, state = await env.bot.matches.get(mid)
    await env.bot.surfaces.settle(mid)
    standing = [p.id for p in pings(channel)]
    assert len(standing) == 1 and standing != [row.message_id], "the restarted bot replaced the old ping"


async def test_a_honga_panel_moves_token_and_the_board_are_noted_together(simcord_env):
    """A move made on the mover's panel notes the panel's token (its latest click), what the panel
    and the board show, and the ping of a turn that began: one write."""
    env = simcord_env
    channel, players, mid = await honga(env, ai=False)
    rng = random.Random(2)
    writes = spy_on_writes(env.bot.store)
    for _ in range(6):
        m, state = await env.bot.matches.get(mid)
        actor = next(p for p in players if p.id == m.seats[state.current].user_id)
        panel = await open_panel(channel, actor)
        cid, values = pick([c for c in _controls(panel) if c[0].startswith(("p:", "q:"))], rng)
        writes.clear()
        await (
            actor.select(panel, list(values), custom_id=cid) if values else actor.click(panel, custom_id=cid)
        )
        await env.bot.surfaces.settle(mid)
        notes = [w for w in writes if w[0] == "note"]
        assert len(notes) == 1, writes
        assert "panel" in notes[0][1] and "board" in notes[0][2], writes
        assert not [w for w in writes if w[0] == "put"], writes


async def test_a_claim_on_a_database_no_other_process_writes_is_taken_in_memory_and_written(tmp_path):
    """SQLite, held by one bot: the ping's claim is answered from the addresses this process holds
    (no transaction of its own), once per version, and lands in the database with the notes."""
    store = open_store(str(tmp_path / "s.db"))
    await store.open()
    try:
        done = asyncio.Event()

        async def calm() -> None:  # until the surfaces at work are done (bot.surfaces.quiet.Quiet.calm)
            await done.wait()

        addresses = Addresses(store, calm)
        writes = spy_on_writes(store)
        row = SurfaceRow(7, "ping", -1, 1, None, version=4, at=1.0)
        assert [await addresses.claim(row), await addresses.claim(row)] == [True, False]
        assert not await addresses.claim(dataclasses.replace(row, version=3)), "an older turn"
        assert await store.surfaces(7) == [], "not written yet: nothing waited for it"
        await addresses.note(dataclasses.replace(row, message_id=99))  # the ping posted
        done.set()
        await addresses.written()
        assert writes == [("note", ("ping",), ())], "claim and address: one write"
        assert [(r.version, r.message_id) for r in await store.surfaces(7)] == [(4, 99)]
        fresh = Addresses(store)  # (a restarted bot reads what was written)
        assert not await fresh.claim(row) and await fresh.claim(dataclasses.replace(row, version=5))
    finally:
        await store.close()


async def test_a_users_setting_is_read_once_and_follows_every_write_and_deletion(tmp_path):
    """The turn notice's setting is asked at every turn that begins: on a database no other process
    writes it is read once, then known, and still follows a change and a data deletion."""
    store = open_store(str(tmp_path / "s.db"))
    await store.open()
    try:
        reads = []
        fetch = store._fetch

        async def counted(sql, *args):
            reads.append(sql)
            return await fetch(sql, *args)

        store._fetch = counted
        assert [await store.user_setting(5, "notify") for _ in range(3)] == [None] * 3
        await store.set_user_setting(5, "notify", "on")
        assert [await store.user_setting(5, "notify") for _ in range(3)] == ["on"] * 3
        assert sum("user_settings" in r for r in reads) == 2, "read once after each write"
        await store.set_user_setting(5, "notify", None)
        assert await store.user_setting(5, "notify") is None
        await store.set_user_setting(5, "notify", "on")
        assert await store.user_setting(5, "notify") == "on"
        await store.forget_user(5, 100.0)
        assert await store.user_setting(5, "notify") is None, "deleted with the user's data"
        gate = asyncio.Event()

        async def slow(sql, *args):  # a read that lands after a write made meanwhile
            rows = await fetch(sql, *args)
            await gate.wait()
            return rows

        store._fetch = slow
        reading = asyncio.create_task(store.user_setting(6, "notify"))
        await asyncio.sleep(0.01)
        await store.set_user_setting(6, "notify", "on")
        gate.set()
        assert await reading is None, "what it read before the write"
        assert await store.user_setting(6, "notify") == "on", "and it kept nothing stale"
    finally:
        await store.close()


async def test_a_surfaces_worker_is_at_work_until_it_ends_and_not_while_it_waits_to_try_again():
    """The notes wait for every surface's worker at work (``Quiet.calm``), not for one waiting out a
    rate limit, and a worker cancelled before it began (shutdown) leaves nothing counted."""
    quiet, loop = Quiet(), asyncio.get_running_loop()
    gate, tries = asyncio.Event(), []

    async def step(rec):
        tries.append(loop.time())
        if len(tries) == 1:
            raise Retry(after=60)  # a 429 window: it waits a minute before trying again
        await gate.wait()

    rec = Reconciler(1, "board", -1, step, loop.time, at_work=lambda on: quiet.begin() if on else quiet.end())
    rec.poke()
    await asyncio.sleep(0.01)
    started = loop.time()
    await quiet.calm()
    assert len(tries) == 1 and loop.time() - started < 0.1, "a worker waiting to try again is not at work"
    rec.via("token", 5)  # a click's token ends the wait: it tries again, and is at work
    await asyncio.sleep(0.01)
    started = loop.time()
    calm = loop.create_task(quiet.calm())
    await asyncio.sleep(0.05)
    assert len(tries) == 2 and not calm.done(), "the notes wait for a worker at work"
    gate.set()
    await calm
    assert loop.time() - started < 0.3, "and go once it ended"
    rec.poke()
    rec.cancel()  # before its task began
    await asyncio.sleep(0.01)
    started = loop.time()
    await quiet.calm()
    assert loop.time() - started < 0.1, "a worker cancelled before it began is not left at work"
