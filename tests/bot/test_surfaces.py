"""Issue 18, "Every surface shows the truth", through SimCord: the open panel follows the game and is
retired or revived as it says; every private surface of a game that is over shows the end and no
controls, whoever ended it; turn pings never outlive their turn, across a restart; a thread per match
from start to end (and the channel when threads cannot be created). Every click is answered."""

from __future__ import annotations

import itertools
import random
from typing import Any

import discord
import pytest

import engine.match
from bench.sim import components
from bot import messages
from bot.i18n import translator
from tests.bot.helpers import (
    board,
    button_id,
    custom_ids,
    open_and_start,
    pings,
    play_one,
    public_messages,
    restart,
    setup_table,
)
from tests.bot.helpers import board_message_id
from tests.kit_ubongo import dm_board

TR = translator(None)
DAY = 86400  # a turn limit that never runs out while virtual time jumps past a panel's 15 minutes
PANEL_EXPIRY = 15 * 60 + 1


@pytest.fixture(autouse=True)
def fixed_seeds(monkeypatch):
    """Matches dealt from fixed seeds: the same games on every run."""
    seeds = itertools.count(18)
    monkeypatch.setattr(engine.match, "_new_seed", lambda: next(seeds))


# ---- helpers -------------------------------------------------------------------------------------


def answered(r: Any) -> Any:
    """Every click gets an answer (no "This interaction failed")."""
    assert r.acknowledged, f"unanswered: {r!r}"
    return r


def seen(channel: Any, viewer: Any, message_id: int) -> discord.Message:
    """A message as ``viewer`` sees it now (ephemeral panels included)."""
    return next(m for m in channel.history(viewer=viewer) if m.id == message_id)


def controls(msg: Any) -> list[str]:
    return [c.custom_id for c in components(msg) if getattr(c, "custom_id", None)]


async def expected_private(env: Any, mid: int, seat: int) -> messages.Board:
    m, state = await env.bot.matches.get(mid)
    return messages.private(m, state, seat, TR)


async def assert_panel_current(env: Any, channel: Any, viewer: Any, message_id: int, mid: int, seat: int):
    await env.bot.surfaces.settle(mid)
    shown = seen(channel, viewer, message_id)
    expected = await expected_private(env, mid, seat)
    assert shown.content == expected.content
    assert controls(shown) == [i.custom_id for i in (expected.view.children if expected.view else [])]
    return shown


async def start_honga(env: Any, humans: int = 1, ai: tuple[str, ...] = ("easy",), **options: Any):
    _, channel, players = setup_table(env, humans)
    host = players[0]
    r = answered(await host.slash(channel, "honga start", **{"target": "short", **options}))
    assert not r.ephemeral, r.response and r.response.content
    for p in players[1:]:
        answered(await p.click(board(channel), custom_id=button_id(board(channel), "join", "l")))
    for level in ai:
        answered(await host.click(board(channel), custom_id=button_id(board(channel), f"ai.{level}", "l")))
    answered(await host.click(board(channel), custom_id=button_id(board(channel), "start", "l")))
    m = await env.bot.matches.live_in_channel(channel.id)
    return channel, players, m.id


async def open_panel(channel: Any, actor: Any) -> discord.Message:
    """The hand button on the public message: the actor's panel (an ephemeral reply)."""
    r = answered(await actor.click(board(channel), custom_id=button_id(board(channel), "hand", "h")))
    assert r.ephemeral
    return r.response.message


async def honga_public_step(env: Any, channel: Any, actor: Any) -> None:
    """One decision of the mover's on the public message: place the disk, else End turn."""
    msg = board(channel)
    place = custom_ids(msg, "s:")
    if place:
        values = [o.value for c in components(msg) if getattr(c, "custom_id", "") == place[0] for o in c.options]
        answered(await actor.select(msg, [values[0]], custom_id=place[0]))
    else:
        answered(await actor.click(msg, custom_id=button_id(msg, "end")))


async def honga_round(env: Any, channel: Any, actor: Any, mid: int, seat: int) -> None:
    """The person plays their turn out on the public message; the computer moves; their turn again."""
    _, state = await env.bot.matches.get(mid)
    assert state.current == seat
    turn = state.turn
    for _ in range(6):
        await honga_public_step(env, channel, actor)
        _, state = await env.bot.matches.get(mid)
        if state.turn != turn and state.current == seat:
            return
    raise AssertionError("the turn did not come back")


async def play_out(env: Any, channel: Any, players: list[Any], mid: int, rng: random.Random, limit: int = 600):
    """Ugah played by clicks on the public message until it is over (or ``limit`` clicks), each answered."""
    for _ in range(limit):
        m, _ = await env.bot.matches.get(mid)
        if m.status != "active":
            return
        answered(await play_one(env, channel, players, mid, rng))


# ---- 1. the open panel ---------------------------------------------------------------------------


async def test_the_open_panel_follows_the_game_and_a_new_one_retires_it(simcord_env):
    env = simcord_env
    channel, (alice,), mid = await start_honga(env, turn_seconds=DAY)
    _, state = await env.bot.matches.get(mid)
    assert state.current == 0, "the computer moved at once: the person is to move"
    panel = await open_panel(channel, alice)
    assert TR("honga.hand.your_turn") in panel.content and custom_ids(panel, "q:")
    before = controls(panel)
    await honga_round(env, channel, alice, mid, 0)  # End turn on the public message; the computer moves
    shown = await assert_panel_current(env, channel, alice, panel.id, mid, 0)
    assert TR("honga.hand.your_turn") in shown.content, "the panel says it is her turn again, unopened"
    assert custom_ids(shown, "q:") and controls(shown) != before, "with this turn's controls"
    # opening another retires this one: one line, no controls
    newer = await open_panel(channel, alice)
    old = seen(channel, alice, panel.id)
    assert old.content == TR("panel.replaced") and old.components == [] and old.attachments == []
    assert seen(channel, alice, newer.id).content == shown.content
    row = await env.bot.surfaces.addresses.get(mid, "panel", 0)
    assert row.message_id == newer.id


async def test_a_click_on_a_panel_past_its_15_minutes_revives_it(simcord_env):
    env = simcord_env
    channel, (alice,), mid = await start_honga(env, turn_seconds=DAY)
    panel = await open_panel(channel, alice)
    await env.advance_time(PANEL_EXPIRY)  # Discord no longer lets the bot edit it through that token
    preview = next(c for c in custom_ids(panel, "y:"))
    r = answered(await alice.select(panel, ["prev.nw.0"], custom_id=preview))  # display only
    assert r.response is not None and r.response.id == panel.id, "answered on the panel itself"
    assert [f.content for f in r.followups] == [TR("panel.revived")]
    assert all(f.ephemeral for f in r.followups)
    row = await env.bot.surfaces.addresses.get(mid, "panel", 0)
    assert row.message_id == panel.id and row.at == pytest.approx(env.bot.surfaces.now())
    # it follows the game again: her turn on the public message, the computer's, hers again
    await honga_round(env, channel, alice, mid, 0)
    await assert_panel_current(env, channel, alice, panel.id, mid, 0)


async def test_a_stale_click_on_a_panel_repairs_it_in_the_same_answer(simcord_env):
    env = simcord_env
    channel, (alice,), mid = await start_honga(env, turn_seconds=DAY)
    panel = await open_panel(channel, alice)
    await env.advance_time(PANEL_EXPIRY)
    await honga_round(env, channel, alice, mid, 0)  # played on the public message: the panel stays behind
    behind = seen(channel, alice, panel.id)
    assert behind.content == panel.content and controls(behind) == controls(panel), "not followed"
    m, _ = await env.bot.matches.get(mid)
    place = custom_ids(behind, "q:")[0]
    assert int(place.split(":")[2]) < m.seats[0].version, "a control of an older version"
    actions = len(await env.bot.store.actions(mid))
    r = answered(await alice.select(behind, ["place.nw.0"], custom_id=place))
    assert len(await env.bot.store.actions(mid)) == actions, "nothing was played"
    expected = await expected_private(env, mid, 0)
    assert r.response is not None and r.response.id == panel.id
    assert r.response.content == expected.content, "the answer itself redraws the panel as it is now"
    assert controls(r.response.message) == [i.custom_id for i in expected.view.children]
    texts = [f.content for f in r.followups]
    assert texts == [TR("panel.revived"), TR("error.stale")], "it says why the panel changed"
    assert all(f.ephemeral for f in r.followups)
    # the panel is live again: it follows the next turn
    await honga_round(env, channel, alice, mid, 0)
    await assert_panel_current(env, channel, alice, panel.id, mid, 0)


# ---- 2. a game that is over: private surfaces, pings, names ----------------------------------------


async def start_ubongo(env: Any, n: int = 2):
    _, channel, players = setup_table(env, n)
    host = players[0]
    r = answered(await host.slash(channel, "ubongo start", side="A"))
    assert not r.ephemeral, r.response and r.response.content
    for p in players[1:]:
        answered(await p.click(board(channel), custom_id=button_id(board(channel), "join", "l")))
    answered(await host.click(board(channel), custom_id=button_id(board(channel), "start", "l")))
    m = await env.bot.matches.live_in_channel(channel.id)
    return channel, players, m.id


def private_messages(channel: Any, player: Any) -> list[discord.Message]:
    """Everything the bot showed this player alone: ephemeral replies and panels here, their DMs."""
    mine = [m for m in channel.history(viewer=player) if m.flags.ephemeral]
    dm = player.user.dm_channel
    return mine + (list(dm.history()) if dm is not None else [])


async def assert_over_everywhere(env: Any, channel: Any, players: list[Any], mid: int, status: str):
    """No private surface keeps a control, and each says how the game ended; no ping is left."""
    await env.bot.surfaces.settle(mid)
    m, state = await env.bot.matches.get(mid)
    assert m.status not in ("lobby", "active")
    over = TR("private.over", game=TR(f"game.{m.game}"), status=status)
    for seat, p in enumerate(players):
        for msg in private_messages(channel, p):
            assert controls(msg) == [], (p.user.name, msg.content)
        if m.game == "ubongo":
            surface = dm_board(p)
        else:
            row = await env.bot.surfaces.addresses.get(mid, "panel", seat)
            surface = seen(channel, p, row.message_id)
        assert surface.content == over, (p.user.name, surface.content)
    assert pings(channel) == [], "nobody is asked to move in a game that is over"
    assert status in board(channel).content and "time runs out" not in board(channel).content


async def start_with_private_surfaces(env: Any, game: str):
    """Two people; Honga: both open their panels; Ubongo: both got their DMs."""
    if game == "honga":
        channel, players, mid = await start_honga(env, humans=2, ai=())
        panels = [await open_panel(channel, p) for p in players]
        assert any(custom_ids(p) for p in panels), "the mover's panel offers controls"
    else:
        channel, players, mid = await start_ubongo(env)
        for p in players:
            assert custom_ids(dm_board(p)), "the DM offers the seat's controls"
    await env.bot.surfaces.settle(mid)
    assert pings(channel), "someone was asked to move"
    return channel, players, mid


@pytest.mark.parametrize("game", ["honga", "ubongo"])
async def test_the_host_ends_the_game(simcord_env, game):
    env = simcord_env
    channel, players, mid = await start_with_private_surfaces(env, game)
    r = answered(await players[0].slash(channel, "game end"))
    assert r.ephemeral and r.response.content == TR("done.ended")
    await assert_over_everywhere(env, channel, players, mid, TR("match.ended", name="alice"))


@pytest.mark.parametrize("game", ["honga", "ubongo"])
async def test_a_moderator_who_is_not_playing_ends_the_game_and_is_named(simcord_env, game):
    env = simcord_env
    channel, players, mid = await start_with_private_surfaces(env, game)
    guild = channel.guild
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_messages=True))
    mod = guild.add_member(env.create_user("mod"), roles=[mods], nick="Mo the Moderator")
    r = answered(await mod.slash(channel, "game end"))
    assert r.ephemeral and r.response.content == TR("done.ended")
    m, _ = await env.bot.matches.get(mid)
    assert m.status == "cancelled" and mod.id not in [s.user_id for s in m.seats]
    await assert_over_everywhere(env, channel, players, mid, TR("match.ended", name="Mo the Moderator"))


@pytest.mark.parametrize("game", ["honga", "ubongo"])
async def test_a_resignation_in_a_two_seat_game_ends_it(simcord_env, game):
    env = simcord_env
    channel, players, mid = await start_with_private_surfaces(env, game)
    r = answered(await players[1].slash(channel, "game resign"))
    assert r.ephemeral and r.response.content == TR("done.resigned_lost")
    m, _ = await env.bot.matches.get(mid)
    assert m.status == "finished"
    await assert_over_everywhere(env, channel, players, mid, TR("match.resigned_win", name="alice"))


async def assert_final_private(env: Any, mid: int, seat: int, surface: discord.Message) -> None:
    """Over by the rules: the final picture and the result, nothing to click, no instruction."""
    m, state = await env.bot.matches.get(mid)
    expected = messages.private(m, state, seat, TR)
    assert surface.content == expected.content and controls(surface) == []
    assert messages.outcome_line(m, state, TR) in surface.content
    assert "your turn" not in surface.content.lower() and "time runs out" not in surface.content


async def test_ubongo_solo_over_by_the_rules_leaves_the_dm_final(simcord_env):
    env = simcord_env
    _, channel, (alice,) = setup_table(env, 1)
    answered(await alice.slash(channel, "ubongo solo", mode="time.5"))
    m = await env.bot.matches.live_in_channel(channel.id)
    assert custom_ids(dm_board(alice)) and "time runs out" in dm_board(alice).content
    await env.advance_time(5 * 60 + 1)  # the time attack runs out
    await env.bot.surfaces.settle(m.id)
    m, _ = await env.bot.matches.get(m.id)
    assert m.status == "finished"
    for msg in private_messages(channel, alice):
        assert controls(msg) == []
    await assert_final_private(env, m.id, 0, dm_board(alice))
    assert pings(channel) == []


async def test_ugah_played_to_the_end_leaves_no_panel_control_and_no_ping(simcord_env):
    env = simcord_env
    _, channel, players = setup_table(env, 2)
    mid = await open_and_start(env, channel, players)
    panels = [await open_panel(channel, p) for p in players]
    await play_out(env, channel, players, mid, random.Random(5))
    await env.bot.surfaces.settle(mid)
    for seat, (p, panel) in enumerate(zip(players, panels)):
        for msg in private_messages(channel, p):
            assert controls(msg) == []
        await assert_final_private(env, mid, seat, seen(channel, p, panel.id))
    assert pings(channel) == []


# ---- 3. turn pings across a restart ----------------------------------------------------------------


def deletes_of(env: Any, message_id: int) -> int:
    return sum(
        1 for r in env.http_requests if r.method == "DELETE" and r.path.endswith(f"/messages/{message_id}")
    )


async def test_a_restart_mid_game_deletes_the_old_ping_once_when_the_next_goes_out(simcord_env, bot_factory):
    env = simcord_env
    _, channel, players = setup_table(env, 2)
    mid = await open_and_start(env, channel, players, turn_seconds=DAY)
    rng = random.Random(3)
    answered(await play_one(env, channel, players, mid, rng))
    await env.bot.surfaces.settle(mid)
    [old] = pings(channel)
    _, state = await env.bot.matches.get(mid)
    await restart(env, bot_factory)
    await env.bot.surfaces.settle(mid)
    assert [p.id for p in pings(channel)] == [old.id], "the restart alone neither repeats nor drops it"
    turn = state.turn
    while state.turn == turn:  # the same turn goes on: the same ping stays
        assert deletes_of(env, old.id) == 0
        answered(await play_one(env, channel, players, mid, rng))
        await env.bot.surfaces.settle(mid)
        m, state = await env.bot.matches.get(mid)
        assert m.status == "active"
    [new] = pings(channel)
    assert new.id != old.id and deletes_of(env, old.id) == 1, "replaced by the next turn's ping, deleted once"
    row = await env.bot.surfaces.addresses.get(mid, "ping")
    assert row.message_id == new.id
    await play_out(env, channel, players, mid, rng)
    await env.bot.surfaces.settle(mid)
    assert pings(channel) == [] and deletes_of(env, old.id) == 1
    assert deletes_of(env, new.id) == 1


async def test_a_game_ended_after_a_restart_leaves_no_ping(simcord_env, bot_factory):
    env = simcord_env
    _, channel, players = setup_table(env, 2)
    mid = await open_and_start(env, channel, players, turn_seconds=DAY)
    await env.bot.surfaces.settle(mid)
    [old] = pings(channel)
    await restart(env, bot_factory)
    answered(await players[0].slash(channel, "game end"))
    await env.bot.surfaces.settle(mid)
    assert pings(channel) == [] and deletes_of(env, old.id) == 1
    assert (await env.bot.surfaces.addresses.get(mid, "ping")).message_id is None


# ---- 4. a thread per match -------------------------------------------------------------------------


def thread_of(env: Any, channel: Any) -> Any:
    [thread] = channel.threads
    return thread


def line_messages(channel: Any) -> list[int]:
    """The bot's own messages in the channel (Discord's "started a thread" notice aside)."""
    return [m.id for m in channel.history() if m.type is not discord.MessageType.thread_created]


def turn_pings(channel: Any) -> list[discord.Message]:
    return [m for m in pings(channel) if m.type is not discord.MessageType.thread_created]


def archived(env: Any, thread: Any) -> bool:
    meta = env.backend.get_channel(thread.id).thread_metadata
    return bool(meta and meta.archived)


async def test_a_thread_per_match_from_the_setting_to_the_archive(simcord_env, bot_factory):
    env = simcord_env
    guild, channel, (alice, bob) = setup_table(env, 2)
    managers = guild.create_role("Managers", permissions=discord.Permissions(manage_guild=True))
    boss = guild.add_member(env.create_user("boss"), roles=[managers])
    r = answered(await boss.slash(channel, "game threads", on=True))
    assert r.ephemeral and r.response.content == TR("done.threads_on")
    r = answered(await alice.slash(channel, "ugah start"))
    lobby = r.response.message
    answered(await bob.click(board(channel), custom_id=button_id(board(channel), "join", "l")))
    answered(await alice.click(board(channel), custom_id=button_id(board(channel), "start", "l")))
    thread = thread_of(env, channel)
    m, _ = await env.bot.matches.get(mid := (await env.bot.matches.live_in_channel(thread.id)).id)
    assert m.channel_id == thread.id and thread.name == TR("thread.name", game=TR("game.ugah"), id=mid)
    # the board lives in the thread; the lobby message became the match's line in the channel
    assert board(thread).id == await board_message_id(env, mid) and custom_ids(board(thread), "g:")
    assert line_messages(channel) == [lobby.id]
    line = seen(channel, alice, lobby.id)
    assert line.content == TR(
        "thread.line.playing", game=TR("game.ugah"), id=mid, names="alice, bob", thread=f"<#{thread.id}>"
    ) and line.components == []
    # clicks in the thread play; the turn pings go there too
    rng = random.Random(7)
    await play_out(env, thread, [alice, bob], mid, rng, limit=8)
    await env.bot.surfaces.settle(mid)
    assert len(await env.bot.store.actions(mid)) >= 8 and pings(thread) and turn_pings(channel) == []
    # a restart in the middle: still played in the thread
    await restart(env, bot_factory)
    await play_out(env, thread, [alice, bob], mid, rng, limit=8)
    m, _ = await env.bot.matches.get(mid)
    assert m.channel_id == thread.id and not archived(env, thread)
    await play_out(env, thread, [alice, bob], mid, rng)
    await env.bot.surfaces.settle(mid)
    await env.advance_time(30)  # the recap, a few seconds after the end
    await env.bot.surfaces.settle(mid)
    m, state = await env.bot.matches.get(mid)
    assert m.status == "finished"
    # the line says how it ended; the thread is archived, and nothing was sent to it afterwards
    result = messages.outcome_line(m, state, TR)
    line = seen(channel, alice, lobby.id)
    assert line.content == TR(
        "thread.line.over", game=TR("game.ugah"), id=mid, names="alice, bob", thread=f"<#{thread.id}>",
        result=result,
    )
    assert "Winner" in result or "winner" in result, result
    assert line_messages(channel) == [lobby.id] and pings(thread) == []
    assert archived(env, thread)
    writes = [
        (i, r.method, r.path)
        for i, r in enumerate(env.http_requests)
        if r.method in ("POST", "PATCH", "DELETE") and f"/channels/{thread.id}" in r.path
    ]
    archive = [w for w in writes if w[1] == "PATCH" and w[2] == f"/channels/{thread.id}"]
    assert len(archive) == 1, archive
    assert writes[-1] == archive[0], f"sent to the thread after archiving it: {writes[-3:]}"
