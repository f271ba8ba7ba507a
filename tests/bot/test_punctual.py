"""A click acknowledged in time however busy the bot is (issue 34, point 4; bot.punctual): a click not
answered within ``ack_seconds`` gets a deferred update, and its answer then goes the deferred way (the
message edited through the interaction's token, new messages as follow-ups). With ``ack_seconds=0``
every click goes that way, so these games prove the deferred way ends on the same surfaces; the last
test lets a click's commit take longer than Discord's 3 s in real time."""

from __future__ import annotations

import asyncio
import random
import socket
import threading
import time

import pytest

from bot import messages
from bot.i18n import translator
from bot.punctual import CROWD
from harness.sim import not_pings
from tests.bot.concurrent import concurrent_clicks
from tests.bot.helpers import board, button_id, custom_ids, stamp_answers
from tests.kit_ubongo import UbongoKit
from tests.kit_uonga import UongaKit
from tests.kits import Kit, UgahKit
from tests.replayed import replayed

TR = translator("en")
DEFERRED = pytest.mark.parametrize("simcord_bot", [{"ack_seconds": 0.0}], indirect=True)


def assert_deferred(r) -> None:
    assert r.acknowledged and r.deferred, "acknowledged by the deferral before the answer"


async def assert_board_current(env, channel, mid) -> None:
    """The channel's board is what the bot builds for the committed state: text and controls."""
    m, state = await env.bot.matches.get(mid)
    await env.bot.surfaces.settle(mid)
    expected = await env.bot.surfaces.public_board(m, state)
    assert board(channel).content == expected.content


@DEFERRED
@pytest.mark.parametrize("kit", [UgahKit(), UongaKit(), UbongoKit()], ids=repr)
async def test_games_played_the_deferred_way_end_on_the_same_surfaces(simcord_env, kit: Kit):
    """Every click deferred, then answered: the games go on to the end and every click's own surface
    (the board, a seat's DM) shows the committed state, as when answered at once."""
    env = simcord_env
    channel, players, mid = await kit.start(env)
    rng = random.Random(34)
    for _ in range(400):
        m, state = await env.bot.matches.get(mid)
        if m.status != "active":
            break
        click = await kit.next_click(env, channel, players, mid, rng)
        r = await click()
        assert_deferred(r)
        # a move needs no second message (but the turn ping, a follow-up of the click: issue 35)
        assert not not_pings(r.followups), [f.content for f in r.followups]
        if click.in_dm:  # the DM it came from shows the seat's committed state
            m, state = await env.bot.matches.get(mid)
            seat = m.seats.index(next(s for s in m.seats if s.user_id == click.actor.id))
            shown = r.response
            assert shown is not None and shown.content == messages.private(m, state, seat, TR).content
    m, state = await env.bot.matches.get(mid)
    assert m.status == "finished", "played to the end"
    await assert_board_current(env, channel, mid)
    assert await replayed(env.bot.matches, mid) == state


@DEFERRED
async def test_a_panel_and_a_refusal_come_as_follow_ups(simcord_env):
    """New messages after a deferral are follow-ups: the hand panel (ephemeral, working) and the
    refusal of a click by someone outside the game (ephemeral, nothing changed)."""
    env = simcord_env
    kit = UgahKit()
    channel, players, mid = await kit.start(env)
    stranger = channel.guild.add_member(env.create_user("stranger"))
    before = await env.bot.matches.get(mid)
    control = next(c for c in custom_ids(board(channel)) if c[0] in "gvs")  # a game control, any
    r = await stranger.click(board(channel), custom_id=control)
    assert_deferred(r)
    assert [f.content for f in r.followups] == [TR("error.not_in_match")]
    assert all(f.message.flags.ephemeral for f in r.followups)
    assert (await env.bot.matches.get(mid))[0].version == before[0].version, "nothing changed"
    r = await players[0].click(board(channel), custom_id=button_id(board(channel), "hand", "h"))
    assert_deferred(r)
    assert len(r.followups) == 1 and r.followups[0].message.flags.ephemeral
    assert r.followups[0].content.startswith("Your chips"), r.followups[0].content
    row = await env.bot.surfaces.addresses.get(mid, "panel", 0)
    assert row is not None and row.message_id == r.followups[0].id, "the panel's address is the follow-up"


@pytest.mark.parametrize("simcord_bot", [{"ack_seconds": 2.0}], indirect=True)
@pytest.mark.simcord(settle_timeout=8)
async def test_a_click_whose_commit_outlasts_discord_s_3_s_is_acknowledged_in_time(simcord_env, monkeypatch):
    """The commit takes 3.5 s of real time (a loaded machine): the click is acknowledged by the
    deferral about 2 s after it arrived, within Discord's 3 s, and answered once the move is in."""
    env = simcord_env
    kit = UgahKit()
    channel, players, mid = await kit.start(env)
    act = env.bot.matches.act

    async def slow_act(*args, **kwargs):
        # 3.5 s of real time waiting on I/O (a database that is slow to answer: a socket that gets
        # its byte late), the event loop free meanwhile
        slow, waker = socket.socketpair()
        slow.setblocking(False)
        threading.Timer(3.5, waker.send, (b"!",)).start()
        try:
            await asyncio.get_running_loop().sock_recv(slow, 1)
        finally:
            slow.close()
            waker.close()
        return await act(*args, **kwargs)

    monkeypatch.setattr(env.bot.matches, "act", slow_act)
    made = stamp_answers(env)
    version = (await env.bot.matches.get(mid))[0].version
    click = await kit.next_click(env, channel, players, mid, random.Random(1))
    started = time.perf_counter()
    r = await click()
    ended = time.perf_counter()
    acknowledged = made[-1].answered_at
    assert acknowledged is not None and acknowledged - started < 3.0, "acknowledged within 3 s"
    assert ended - started >= 3.5, "the commit took longer than Discord's 3 s"
    assert_deferred(r)
    m, _ = await env.bot.matches.get(mid)
    assert m.version > version, "the move was kept"
    await assert_board_current(env, channel, mid)


async def test_a_crowd_of_clicks_is_acknowledged_at_once_beyond_the_first(simcord_env):
    """Clicks in 24 games at the same instant: once CROWD of them wait for their answers, each further
    one is acknowledged as it arrives, before any handler's work (which a busy loop would reach too
    late), and then answered like the others; every move is kept once and every board follows."""
    env = simcord_env
    games = [await UgahKit().start(env) for _ in range(24)]
    rng = random.Random(3)
    clicks, versions = [], {}
    for channel, players, mid in games:
        click = await UgahKit().next_click(env, channel, players, mid, rng)
        clicks.append(
            (click.actor, click.message, click.custom_id, *([click.values] if click.values else []))
        )
        versions[mid] = (await env.bot.matches.get(mid))[0].version
    results = await concurrent_clicks(env, clicks)
    assert [r.deferred for r in results] == [False] * CROWD + [True] * (24 - CROWD)
    assert all(r.acknowledged and not r.ephemeral and not not_pings(r.followups) for r in results)
    for channel, _, mid in games:
        assert (await env.bot.matches.get(mid))[0].version > versions[mid], "the move was kept"
        await assert_board_current(env, channel, mid)
