"""Ugah Ugah! end to end through SimCord: lobby, a whole game by clicking, restart, timers, faults."""

from __future__ import annotations

import random

import pytest

from bot.client import create_bot
from bot.render_pool import rendered
from engine.games.ugah import RULES
from harness.sim import SIM_CLOCK_WATCH
from tests.bot.concurrent import concurrent_clicks
from tests.bot.helpers import (
    board,
    button_id,
    custom_ids,
    first_button_and_players,
    forge_first_button,
    game_under_way,
    open_and_start,
    play_one,
    public_messages,
    restart,
    setup_table,
)
from tests.replayed import replayed


async def play_to_end(env, channel, players, mid, rng, limit=600):
    for _ in range(limit):
        m, _ = await env.bot.matches.get(mid)
        if m.status != "active":
            return m
        result = await play_one(env, channel, players, mid, rng)
        assert result.acknowledged and not result.ephemeral, result.response and result.response.content
    raise AssertionError("game did not end")


async def test_full_four_player_game_by_clicking(simcord_env):
    env = simcord_env
    _, channel, players = setup_table(env)
    mid = await open_and_start(env, channel, players, variant="basic")
    first = board(channel)
    assert first.attachments and first.attachments[0].filename == "ugah.png"
    m = await play_to_end(env, channel, players, mid, random.Random(1))
    assert m.status == "finished"
    final = board(channel)
    assert final.id == first.id, "the game is played on one message"
    assert "Game over" in final.content and "Winner" in final.content
    assert custom_ids(final) == [f"l:{m.id}:0:rematch", f"h:{m.id}:0:lessons"], (
        "a finished game offers a rematch and its lessons, and no game control"
    )
    png = await final.attachments[0].read()
    assert png.startswith(b"\x89PNG")
    assert final.attachments[0].description and "Final scores" in final.attachments[0].description
    _, state = await env.bot.matches.get(mid)
    assert RULES.outcome(state) is not None
    assert await replayed(env.bot.matches, mid) == state


async def test_restart_mid_game_old_buttons_keep_working(simcord_env, bot_factory):
    env = simcord_env
    channel, players, mid, rng = await game_under_way(env, 3, clicks=6, seed=7)
    before_msg = board(channel)
    _, before_state = await env.bot.matches.get(mid)
    await restart(env, bot_factory)
    _, after_state = await env.bot.matches.get(mid)
    assert after_state == before_state
    # a button on the message posted by the old bot process still works
    result = await play_one(env, channel, players, mid, rng)
    assert not result.ephemeral
    assert board(channel).id == before_msg.id
    m = await play_to_end(env, channel, players, mid, rng)
    assert m.status == "finished"


async def test_uncertain_variant_never_shows_face_down_values(simcord_env):
    env = simcord_env
    _, channel, players = setup_table(env, 2)
    mid = await open_and_start(env, channel, players, variant="uncertain")
    rng = random.Random(3)
    for _ in range(400):
        m, state = await env.bot.matches.get(mid)
        if m.status != "active":
            break
        msg = board(channel)
        public_view = RULES.view(state, None)
        hidden = [i for i, c in enumerate(state.path) if c is not None and not state.face_up[i]]
        assert all(public_view["path"][i]["v"] is None for i in hidden)
        # the same state with the hidden chips' values changed must give identical public output
        twin = RULES.load(RULES.dump(state))
        for i in hidden:
            twin.path[i] = 7 - twin.path[i] if twin.path[i] != 1 else 6
        for stash in twin.stashes:  # stash contents are private too (only their sizes are public)
            stash[:] = [7 - v for v in stash]
        twin_board = await rendered(await env.bot.surfaces.public_board(m, twin))
        real_board = await rendered(await env.bot.surfaces.public_board(m, state))
        assert twin_board.content == real_board.content == msg.content
        assert twin_board.alt == real_board.alt
        assert twin_board.png == real_board.png
        await play_one(env, channel, players, mid, rng)
    assert any("face-down chip" in msg.content for msg in public_messages(channel)) or m.status != "active"


async def test_concurrent_clicks_apply_exactly_one_move(simcord_env):
    env = simcord_env
    _, channel, players = setup_table(env, 2)
    mid = await open_and_start(env, channel, players)
    msg, cid, current, other = await first_button_and_players(env, channel, players, mid)
    version = (await env.bot.matches.get(mid))[0].version
    results = await concurrent_clicks(env, [(current, msg, cid)] * 5 + [(other, msg, cid)] * 3)
    m2, _ = await env.bot.matches.get(mid)
    assert m2.version > version
    logged = await env.bot.store.actions(mid)
    assert sum(1 for a in logged if a.source == "player") == 1
    errors = [r for r in results if r.ephemeral]
    assert len(errors) == 7
    assert all(r.acknowledged for r in results)


async def test_next_click_after_a_failed_edit_shows_the_latest_board(simcord_env):
    env = simcord_env
    _, channel, players = setup_table(env, 2)
    mid = await open_and_start(env, channel, players)
    rng = random.Random(12)
    env.inject_error("POST", "/interactions/*/callback", status=503, times=1)
    # the edit fails, and so does the retry that follows every commit
    env.inject_error("PATCH", "/channels/*/messages/*", status=500, times=2)
    version = (await env.bot.matches.get(mid))[0].version
    result = await play_one(env, channel, players, mid, rng)
    assert "saved" in result.response.content and result.ephemeral, "the player is told"
    m, state = await env.bot.matches.get(mid)
    assert m.version > version, "the move was committed although it could not be shown"
    # the board's own reconciler retries the edit Discord refused: the board catches up by itself
    await env.bot.surfaces.settle(mid)
    expected = await env.bot.surfaces.public_board(m, state)
    assert board(channel).content == expected.content
    assert await replayed(env.bot.matches, mid) == state
    r = await play_one(env, channel, players, mid, rng)
    assert not r.ephemeral


async def test_turn_timer_survives_a_restart(simcord_env, bot_factory):
    env = simcord_env
    _, channel, players = setup_table(env, 2)
    mid = await open_and_start(env, channel, players, turn_seconds=60)
    _, state = await env.bot.matches.get(mid)
    turn = state.turn
    await env.advance_time(20)
    await restart(env, bot_factory)
    await env.advance_time(45)
    _, state = await env.bot.matches.get(mid)
    assert state.turn > turn
    assert "ran out of time" in board(channel).content


async def test_turn_limit_hands_turn_to_computer(simcord_env):
    env = simcord_env
    _, channel, players = setup_table(env, 2)
    mid = await open_and_start(env, channel, players, turn_seconds=30)
    m, state = await env.bot.matches.get(mid)
    slow = m.seats[state.current].name
    turn = state.turn
    await env.advance_time(31)
    m, state = await env.bot.matches.get(mid)
    assert state.turn > turn or m.status == "finished"
    assert "ran out of time" in board(channel).content and slow in board(channel).content
    assert any(a.source == "timeout" for a in await env.bot.store.actions(mid))


# ---- bad input: a clear ephemeral reply and nothing changes --------------------------------------


async def _snapshot(env, mid):
    m, state = await env.bot.matches.get(mid)
    return m.version, RULES.dump(state)


async def test_click_by_outsider_out_of_turn_stale_and_forged(simcord_env):
    env = simcord_env
    guild, channel, players = setup_table(env, 2)
    eve = guild.add_member(env.create_user("eve"))
    mid = await open_and_start(env, channel, players)
    msg, cid, current, waiting = await first_button_and_players(env, channel, players, mid)
    before = await _snapshot(env, mid)

    r = await eve.click(msg, custom_id=cid)
    assert r.ephemeral and "aren't playing" in r.response.content
    r = await waiting.click(msg, custom_id=cid)
    assert r.ephemeral and "isn't your turn" in r.response.content
    assert await _snapshot(env, mid) == before

    # stale: the move is applied, then the old message object is clicked again
    await current.click(msg, custom_id=cid)
    after = await _snapshot(env, mid)
    forge_first_button(env, channel, cid)  # a client still showing the previous board
    r = await current.click(board(channel), custom_id=cid)
    assert r.ephemeral and "moved on" in r.response.content
    assert await _snapshot(env, mid) == after


@pytest.mark.parametrize(
    "forged",
    ["g:{mid}:{ver}:pick.unicorn", "g:{mid}:{ver}:keep.mm.9", "g:{mid}:{ver}:", "g:99999:{ver}:pick.bird",
     "zz:1:2:3", "g:{mid}:{ver}:first.mm"],
)  # fmt: skip
async def test_forged_custom_ids_get_clear_reply_and_change_nothing(simcord_env, forged):
    env = simcord_env
    _, channel, players = setup_table(env, 2)
    mid = await open_and_start(env, channel, players)
    m, state = await env.bot.matches.get(mid)
    current = next(p for p in players if p.id == m.seats[state.current].user_id)
    before = await _snapshot(env, mid)
    cid = forged.format(mid=mid, ver=m.version)
    forge_first_button(env, channel, cid)
    r = await current.click(board(channel), custom_id=cid)
    assert r.ephemeral and r.response.content
    assert await _snapshot(env, mid) == before


async def test_my_chips_is_ephemeral_and_private(simcord_env):
    env = simcord_env
    guild, channel, players = setup_table(env, 2)
    eve = guild.add_member(env.create_user("eve"))
    mid = await open_and_start(env, channel, players)
    cid = button_id(board(channel), "hand", "h")
    r = await players[0].click(board(channel), custom_id=cid)
    assert r.ephemeral and "Your chips" in r.response.content
    r = await eve.click(board(channel), custom_id=cid)
    assert r.ephemeral and "aren't playing" in r.response.content
    r = await players[1].slash(channel, "game hand")
    assert r.ephemeral and "Your chips" in r.response.content
    assert mid


async def test_game_can_be_played_against_the_computer(simcord_env):
    env = simcord_env
    _, channel, players = setup_table(env, 1)
    mid = await open_and_start(env, channel, players, ai=2)
    m, _ = await env.bot.matches.get(mid)
    assert [s.ai for s in m.seats] == [False, True, True]
    m = await play_to_end(env, channel, players, mid, random.Random(5))
    assert m.status == "finished"
    assert any(a.source == "computer" for a in await env.bot.store.actions(mid))


async def test_create_bot_needs_no_privileged_intents(tmp_path):
    bot = create_bot(str(tmp_path / "x.db"), clock_watch_seconds=SIM_CLOCK_WATCH)
    assert not bot.intents.message_content and not bot.intents.members and not bot.intents.presences
