"""What a surface shows is never sent to it again: not after a restart (what each surface shows is
stored with its address), not when another player's move changes only words on it, and not when a
refused late click repairs it."""

from __future__ import annotations

import functools
import random

import pytest

from bot.games.ugah import UgahUI
from bot.locales.en import MESSAGES as EN
from bot.messages import Board
from bot.surfaces.content import Shown, image_id, shown
from harness.honga import pick
from render.ubongo import table as ubongo_table
from render.ubongo import workspace as ubongo_workspace
from tests.bot.helpers import board, button_id, custom_ids, restart, setup_table
from tests.bot.uploads import late_click, watch_uploads
from tests.kit_honga import HongaKit, open_panel
from tests.kit_honga import _controls as panel_controls
from tests.kit_ubongo import UbongoKit, dm_board, solving_click
from tests.kit_uonga import UongaKit
from tests.kits import Click, Kit, UgahKit


@pytest.fixture(params=[UgahKit(), UongaKit(), HongaKit()], ids=repr)
def kit(request, monkeypatch) -> Kit:
    k: Kit = request.param
    k.register(monkeypatch)
    return k


async def test_a_late_click_after_a_restart_leaves_the_board_its_picture(kit, simcord_env, bot_factory):
    env = simcord_env
    channel, players, mid = await kit.start(env)
    rng = random.Random(7)
    with watch_uploads(env) as uploads:
        for _ in range(3):
            await (await kit.next_click(env, channel, players, mid, rng))()
        msg = board(channel)
        old = [c for c in custom_ids(msg) if not c.startswith(("h:", "l:"))]
        click = await kit.next_click(env, channel, players, mid, rng)
        await click()
        await env.bot.surfaces.settle(mid)
        late = next(c for c in old if c not in custom_ids(board(channel)))
        await restart(env, bot_factory)
        uploads.reset()
        m, _ = await env.bot.matches.get(mid)
        actor = next(p for p in players if p.id == m.seats[0].user_id)
        r = await late_click(env, actor, board(channel), late)
        assert any("moved on" in s for s in said(r)), said(r)
        await env.bot.surfaces.settle(mid)
        assert uploads.to(board(channel).id) == 0, "the restarted bot knows what the board shows"
        assert uploads.repeats == []


async def solve(env, players, mid: int, seat: int, rng: random.Random) -> None:
    """``seat``'s player places pieces in their DM until their puzzle is solved."""
    for _ in range(40):
        m, state = await env.bot.matches.get(mid)
        if seat in state.solved or m.status != "active":
            return
        player = next(p for p in players if p.id == m.seats[seat].user_id)
        await (await solving_click(env, player.user, dm_board(player), state, seat, rng))()
    raise AssertionError(f"seat {seat} did not solve")


async def test_a_second_solve_sends_no_other_player_their_puzzle_again(simcord_env):
    env = simcord_env
    _, channel, players = setup_table(env, 3)
    await players[0].slash(channel, "ubongo start", side="A")
    for p in players[1:]:
        await p.click(board(channel), custom_id=button_id(board(channel), "join", "l"))
    await players[0].click(board(channel), custom_id=button_id(board(channel), "start", "l"))
    mid = (await env.bot.matches.live_in_channel(channel.id)).id
    rng = random.Random(3)
    with watch_uploads(env) as uploads:
        await solve(env, players, mid, 0, rng)
        waiting = dm_board(players[2]).id
        before = uploads.to(waiting)
        await solve(env, players, mid, 1, rng)
        await env.bot.surfaces.settle(mid)
        _, state = await env.bot.matches.get(mid)
        assert state.solved == [0, 1] and state.round == 1, "two solves in the same round"
        assert "2" in dm_board(players[2]).content or "bob" in dm_board(players[2]).content
        assert uploads.to(waiting) == before, "the third player's puzzle picture did not change"
        assert uploads.repeats == []


def said(r) -> list[str]:
    return [f.content for f in r.followups] + [r.response.content if r.ephemeral and r.response else ""]


async def test_a_late_click_in_a_dm_after_a_restart_leaves_it_its_picture(simcord_env, bot_factory):
    env = simcord_env
    _, players, mid = await UbongoKit().start(env)
    rng = random.Random(4)
    with watch_uploads(env) as uploads:
        m, state = await env.bot.matches.get(mid)
        player = next(p for p in players if p.id == m.seats[0].user_id)
        click = await solving_click(env, player.user, dm_board(player), state, 0, rng)
        await click()
        await env.bot.surfaces.settle(mid)
        dm = dm_board(player)
        assert click.custom_id not in custom_ids(dm), "the DM moved on"
        await restart(env, bot_factory)
        uploads.reset()
        r = await late_click(env, player.user, dm, click.custom_id, click.values, dm=True)
        assert any("moved on" in s for s in said(r)), said(r)
        await env.bot.surfaces.settle(mid)
        assert uploads.count == 0, "the restarted bot knows what the DM shows"


async def test_a_late_click_on_a_panel_after_a_restart_leaves_it_its_picture(simcord_env, bot_factory):
    env = simcord_env
    channel, players, mid = await HongaKit().start(env)
    rng = random.Random(2)
    with watch_uploads(env) as uploads:
        m, state = await env.bot.matches.get(mid)
        actor = next(p for p in players if p.id == m.seats[state.current].user_id)
        panel = await open_panel(channel, actor)
        cid, values = pick(panel_controls(panel), rng)
        await Click(actor, panel, cid, values)()
        await env.bot.surfaces.settle(mid)
        await restart(env, bot_factory)
        uploads.reset()
        r = await late_click(env, actor, panel, cid, values)
        assert any("moved on" in s for s in said(r)), said(r)
        await env.bot.surfaces.settle(mid)
        assert uploads.count == 0, "the restarted bot knows what the panel shows"


def test_what_a_surface_shows_is_named_alike_in_every_process():
    """The stored digest of a picture's inputs leaves out where objects live in this process (a
    game's UI object has no repr of its own): a restarted process names the same picture alike."""
    here, there = (
        Board("x", None, draw=functools.partial(ui.render, {"a": 1}, ["alice"], None, str))
        for ui in (UgahUI(), UgahUI())
    )
    assert here.image_key != there.image_key, "the test needs two objects that live apart"
    assert image_id(here) == image_id(there) and len(image_id(here)) == 32
    assert shown(3, here) == shown(3, there)
    assert Shown.decode(shown(3, here).encode()) == shown(3, here)
    assert Shown.decode(None) is None and Shown.decode("garbage") is None
    drawn = Shown(3, b"\x01", "ab", "cd")
    assert Shown.decode(drawn.encode()) == drawn, "the attachment shown is stored too"
    assert Shown.decode("3:01:ab") == Shown(3, b"\x01", "ab", ""), "stored before pictures were named"


async def test_an_ubongo_game_ended_by_the_host_says_so_on_every_surface(simcord_env, monkeypatch):
    env = simcord_env
    _, channel, players = setup_table(env, 3)
    await players[0].slash(channel, "ubongo start", side="A")
    for p in players[1:]:
        await p.click(board(channel), custom_id=button_id(board(channel), "join", "l"))
    await players[0].click(board(channel), custom_id=button_id(board(channel), "start", "l"))
    mid = (await env.bot.matches.live_in_channel(channel.id)).id
    drawn: list[str] = []  # the labels the pictures drew from the end on

    def recording(module):
        label = module.label

        def record(labels, key, **fields):
            drawn.append(key)
            return label(labels, key, **fields)

        monkeypatch.setattr(module, "label", record)

    recording(ubongo_table)
    recording(ubongo_workspace)
    r = await players[0].slash(channel, "game end")
    assert r.ephemeral
    await env.bot.surfaces.settle(mid)
    m, _ = await env.bot.matches.get(mid)
    assert m.status == "cancelled"
    msg = board(channel)
    assert "ended by alice" in msg.content and custom_ids(msg) == []
    alt, ended = msg.attachments[0].description or "", str(EN["ubongo.alt.ended"])
    assert "Still solving" not in alt and ended in alt, alt
    for p in players:
        dm = dm_board(p)
        assert "ended by alice" in dm.content and custom_ids(dm) == [], dm.content
        assert dm.attachments[0].filename == "ubongo.png", "the table, not a puzzle to solve"
        assert ended in (dm.attachments[0].description or "")
    assert "ended" in drawn, drawn
    live = {"solving", "round_limit", "waiting", "need", "need_countdown", "ubongo"}
    assert not live & set(drawn), f"an ended game drawn as live: {sorted(live & set(drawn))}"


@pytest.mark.parametrize("game", [UgahKit(), UongaKit(), HongaKit(), UbongoKit()], ids=repr)
async def test_no_message_is_sent_a_picture_it_shows_through_a_game_and_a_restart(
    game, simcord_env, bot_factory
):
    env = simcord_env
    channel, players, mid = await game.start(env)
    rng = random.Random(9)
    with watch_uploads(env) as uploads:
        for i in range(30):
            if i == 15:
                await env.bot.surfaces.settle(mid)
                await restart(env, bot_factory)
            m, _ = await env.bot.matches.get(mid)
            if m.status != "active":
                break
            await (await game.next_click(env, channel, players, mid, rng))()
        await env.bot.surfaces.settle(mid)
        assert uploads.count > 0, "pictures changed and were sent"
        assert uploads.repeats == [], uploads.repeats


@pytest.mark.parametrize("game", [UgahKit(), UongaKit(), HongaKit()], ids=repr)
async def test_every_board_ended_by_the_host_says_so(game, simcord_env):
    env = simcord_env
    channel, players, mid = await game.start(env)
    rng = random.Random(7)
    for _ in range(3):
        await (await game.next_click(env, channel, players, mid, rng))()
    r = await players[0].slash(channel, "game end")
    assert r.ephemeral
    await env.bot.surfaces.settle(mid)
    msg = board(channel)
    assert "ended by alice" in msg.content and custom_ids(msg) == []
    ended = str(EN[f"{game.game}.alt.ended"])
    assert ended in (msg.attachments[0].description or ""), msg.attachments[0].description
