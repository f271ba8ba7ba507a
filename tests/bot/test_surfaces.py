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

import engine.lobby
from bot import messages
from bot.i18n import translator
from harness.sim import components, pointed_at, recaps
from tests.bot.helpers import (
    board,
    board_message_id,
    button_id,
    custom_ids,
    open_and_start,
    pings,
    play_one,
    public_messages,
    restart,
    setup_table,
)
from tests.kit_ubongo import dm_board

TR = translator(None)
DAY = 86400  # a turn limit that never runs out while virtual time jumps past a panel's 15 minutes
PANEL_EXPIRY = 15 * 60 + 1


@pytest.fixture(autouse=True)
def fixed_seeds(monkeypatch):
    """Matches dealt from fixed seeds: the same games on every run."""
    seeds = itertools.count(18)
    monkeypatch.setattr(engine.lobby, "_new_seed", lambda: next(seeds))


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


async def current_mover(env: Any, players: list[Any], mid: int) -> Any:
    m, state = await env.bot.matches.get(mid)
    return next(p for p in players if p.id == m.seats[state.current].user_id)


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
        values = [
            o.value for c in components(msg) if getattr(c, "custom_id", "") == place[0] for o in c.options
        ]
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


async def play_out(
    env: Any, channel: Any, players: list[Any], mid: int, rng: random.Random, limit: int = 600
):
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
    await honga_public_step(env, channel, alice)  # the disk placed on the public message
    middle = await assert_panel_current(env, channel, alice, panel.id, mid, 0)
    assert middle.content != panel.content, "the panel shows step 2 of her turn"
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
    # /game hand opens one too, and retires the one before
    r = answered(await alice.slash(channel, "game hand"))
    assert r.ephemeral and r.response.content == shown.content
    assert seen(channel, alice, newer.id).content == TR("panel.replaced")
    assert controls(seen(channel, alice, newer.id)) == []
    assert (await env.bot.surfaces.addresses.get(mid, "panel", 0)).message_id == r.response.id


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
    m, _ = await env.bot.matches.get(mid)
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
    """Issue 20.8: /game resign first says what it does (nothing changes), then ends the game with
    confirm: True, and the final picture names the winner."""
    env = simcord_env
    channel, players, mid = await start_with_private_surfaces(env, game)
    r = answered(await players[1].slash(channel, "game resign"))
    assert r.ephemeral and r.response.content == TR("resign.ask_lost", name="alice")
    assert (await env.bot.matches.get(mid))[0].status == "active"
    r = answered(await players[1].slash(channel, "game resign", confirm=True))
    assert r.ephemeral and r.response.content == TR("done.resigned_lost")
    m, _ = await env.bot.matches.get(mid)
    assert m.status == "finished"
    await assert_over_everywhere(env, channel, players, mid, TR("match.resigned_win", name="alice"))
    m, state = await env.bot.matches.get(mid)
    caption = messages.game(m, state).draw.args[2]  # what the picture's caption line says
    assert caption == TR("match.resigned_win", name="alice")


async def test_a_click_on_a_panel_left_behind_by_the_end_shows_the_end(simcord_env):
    """A panel past its 15 minutes when the game ended could not be edited then; a click on it is
    answered with the final state, without controls."""
    env = simcord_env
    channel, players, mid = await start_honga(env, humans=2, ai=(), turn_seconds=DAY)
    mover = await current_mover(env, players, mid)
    panel = await open_panel(channel, mover)
    await env.advance_time(PANEL_EXPIRY)
    answered(await players[0].slash(channel, "game end"))
    await env.bot.surfaces.settle(mid)
    behind = seen(channel, mover, panel.id)
    assert custom_ids(behind, "q:"), "Discord let nobody edit it any more"
    r = answered(await mover.select(behind, ["place.nw.0"], custom_id=custom_ids(behind, "q:")[0]))
    over = TR("private.over", game=TR("game.honga"), status=TR("match.ended", name="alice"))
    assert r.response is not None and r.response.id == panel.id, "repaired in the click's own answer"
    now = seen(channel, mover, panel.id)
    assert now.content == over and controls(now) == []
    assert TR("error.match_over") in [f.content for f in r.followups]
    assert (await env.bot.store.actions(mid)) == [], "nothing was played"


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
    for seat, (p, panel) in enumerate(zip(players, panels, strict=True)):
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


def line_for(mid: int, thread: Any, result: str | None = None) -> str:
    """The match's line in the channel (an Ugah game of alice and bob): playing, or over with ``result``."""
    where = {"game": TR("game.ugah"), "id": mid, "names": "alice, bob", "thread": f"<#{thread.id}>"}
    if result is None:
        return TR("thread.line.playing", **where)
    return TR("thread.line.over", **where, result=result)


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
    assert line.content == line_for(mid, thread) and line.components == []
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
    assert board(thread).id == await board_message_id(env, mid) and pings(thread)
    assert line_messages(channel) == [lobby.id] and turn_pings(channel) == []
    await play_out(env, thread, [alice, bob], mid, rng)
    await env.advance_time(30)  # the recap, a few seconds after the end
    m, state = await env.bot.matches.get(mid)
    assert m.status == "finished"
    # the line says how it ended; the thread is archived, and nothing was sent to it afterwards
    result = messages.outcome_line(m, state, TR)
    line = seen(channel, alice, lobby.id)
    assert line.content == line_for(mid, thread, result)
    assert "Winner" in result or "winner" in result, result
    assert line_messages(channel) == [lobby.id] and pings(thread) == []
    assert archived(env, thread)
    writes = [
        (i, r.method, r.path)
        for i, r in enumerate(env.http_requests)
        if r.method in ("POST", "PATCH", "DELETE") and f"/channels/{thread.id}" in r.path
    ]
    # Discord unarchives a thread a message is sent to, and edits nothing in an archived one
    assert writes[-1][1:] == ("PATCH", f"/channels/{thread.id}"), f"sent after archiving: {writes[-3:]}"
    assert env.http_requests[writes[-1][0]].json == {"archived": True}
    assert recaps(thread), "the recap went to the thread before it was archived (again)"


async def test_without_the_thread_permission_the_game_is_played_in_the_channel(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    channel = guild.create_text_channel(
        "no-threads", overwrites={env.bot.user: discord.PermissionOverwrite(create_public_threads=False)}
    )
    r = answered(await alice.slash(channel, "ugah start", thread=True))
    lobby = r.response.message
    answered(await bob.click(lobby, custom_id=button_id(lobby, "join", "l")))
    lobby = seen(channel, alice, lobby.id)
    r = answered(await alice.click(lobby, custom_id=button_id(lobby, "start", "l")))
    assert channel.threads == []
    tried = [
        q
        for q in env.http_requests
        if q.method == "POST" and q.path.endswith(f"/messages/{lobby.id}/threads")
    ]
    assert len(tried) == 1, "it asked Discord, which refused"
    m = await env.bot.matches.live_in_channel(channel.id)
    assert m is not None and m.channel_id == channel.id and m.options.get("thread")
    # the lobby message became the game, and one line says why it is here
    assert await board_message_id(env, m.id) == lobby.id
    game = seen(channel, alice, lobby.id)
    expected = await env.bot.surfaces.public_board(*(await env.bot.matches.get(m.id)))
    assert custom_ids(game, "g:") and game.content == expected.content
    notes = [x for x in public_messages(channel) if x.id != lobby.id]
    assert [x.content for x in notes] == [TR("thread.cannot")]
    assert (await env.bot.surfaces.addresses.get(m.id, "line")) is None
    # clicks play in the channel
    mover = await current_mover(env, [alice, bob], m.id)
    cid = custom_ids(seen(channel, alice, lobby.id), "g:")[0]
    answered(await mover.click(seen(channel, alice, lobby.id), custom_id=cid))
    assert len(await env.bot.store.actions(m.id)) == 1
    await env.bot.surfaces.settle(m.id)
    assert [pointed_at(env, p) for p in pings(channel)] == [lobby.id]


async def test_a_thread_game_ended_from_the_thread_says_so_on_its_line(simcord_env):
    """The start option alone (the server's setting is off); /game end used inside the thread."""
    env = simcord_env
    _, channel, players = setup_table(env, 2)
    alice, bob = players
    lobby = answered(await alice.slash(channel, "ugah start", thread=True)).response.message
    answered(await bob.click(board(channel), custom_id=button_id(board(channel), "join", "l")))
    answered(await alice.click(board(channel), custom_id=button_id(board(channel), "start", "l")))
    thread = thread_of(env, channel)
    mid = (await env.bot.matches.live_in_channel(thread.id)).id
    answered(await play_one(env, thread, players, mid, random.Random(1)))
    r = answered(await alice.slash(thread, "game end"))
    assert r.ephemeral and r.response.content == TR("done.ended")
    await env.advance_time(30)
    m, _ = await env.bot.matches.get(mid)
    assert m.status == "cancelled"
    line = seen(channel, alice, lobby.id)
    ended = TR("match.ended", name="alice")
    assert line.content == line_for(mid, thread, ended)
    assert ended in board(thread).content and custom_ids(board(thread)) == []
    assert pings(thread) == [] and archived(env, thread) and line_messages(channel) == [lobby.id]


@pytest.mark.parametrize("how", ["played to the end", "ended by the host"])
async def test_a_closed_match_leaves_no_surface_state_in_the_process(simcord_env, how):
    """Per-process surface state (reconcilers, addresses) is dropped once a match closes and its
    surfaces (the recap too) are out: a long-running bot does not keep every finished match's."""
    env = simcord_env
    _, channel, players = setup_table(env, 2)
    mid = await open_and_start(env, channel, players)
    rng = random.Random(4)
    if how == "ended by the host":
        await play_one(env, channel, players, mid, rng)
        assert (await players[0].slash(channel, "game end")).response is not None
    else:
        while (await env.bot.matches.get(mid))[0].status == "active":
            await play_one(env, channel, players, mid, rng)
    await env.advance_time(60)  # the recap, if any, is out
    await env.bot.surfaces.settle(mid)
    m, _ = await env.bot.matches.get(mid)
    assert m.status in ("finished", "cancelled")
    hub = env.bot.surfaces
    assert not [k for k in hub._recs if k[0] == mid] and mid not in hub._closed
