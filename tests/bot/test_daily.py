"""Games that run for days (issue 36, part 2): a daily Honga game of three over several virtual days,
with a restart in between. The lobby says the rules and waits for days; turn notices go only to who
asked; a reminder comes when a quarter of a turn's limit is left (by DM to who asked, else in the
channel); with ``timeout: forfeit`` a player's second time-out resigns their seat; /game mine follows."""

from __future__ import annotations

import random
import re

import pytest

from bot.i18n import translator
from engine import pace
from tests.bot.helpers import board, button_id, open_and_start, play_one, restart, setup_table
from tests.kit_honga import HongaKit

TR = translator("en")
HOUR, DAY = 3600, 86400


def dms(player) -> list[str]:
    dm = player.user.dm_channel
    return [m.content for m in (dm.history() if dm is not None else [])]


def when(text: str) -> int:
    return int(re.findall(r"<t:(\d+):R>", text)[0])


def reminders_in(channel, user) -> list[str]:
    return [m.content for m in channel.history() if m.content.startswith(f"⏰ <@{user.id}>")]


async def test_a_daily_honga_game_of_three_over_several_days(simcord_env, bot_factory):
    env = simcord_env
    _, channel, (alice, bob, carol) = setup_table(env, 3)
    await alice.slash(channel, "game notify", state="on")
    r = await alice.slash(channel, "honga start", target="short", pace="daily", timeout="forfeit")
    assert not r.ephemeral
    text = board(channel).content
    assert TR("pace.daily", n=24, timeout=TR("pace.timeout_forfeit")) in text, text
    m = await env.bot.matches.live_in_channel(channel.id)
    assert abs(m.timers["lobby:"] - env.now().timestamp() - pace.LOBBY_SECONDS) < 5, (
        "a daily lobby waits 7 days"
    )
    await env.advance_time(2 * DAY)  # two days later, the others come
    for p in (bob, carol):
        await p.click(board(channel), custom_id=button_id(board(channel), "join", "l"))
    await alice.click(board(channel), custom_id=button_id(board(channel), "start", "l"))
    mid = m.id
    m, state = await env.bot.matches.get(mid)
    assert m.status == "active"
    assert TR("pace.short", n=24) in board(channel).content
    turn = min(t for k, t in m.timers.items() if k.startswith("turn:"))
    assert abs(turn - env.now().timestamp() - DAY) < 5, "a day per turn"

    players, rng, kit = [alice, bob, carol], random.Random(4), HongaKit()
    started, restarted, alice_reminded, alice_turns = env.now().timestamp(), False, False, 0
    while env.now().timestamp() < started + 10 * DAY:
        m, state = await env.bot.matches.get(mid)
        if m.status != "active" or (m.seats[1].ai and m.seats[2].ai):
            break
        if state.current == 0:
            alice_turns += 1
            if not alice_reminded:  # she waits until her reminder: by DM, she asked for DMs
                await env.advance_time(19 * HOUR)
                assert any(x.startswith("⏰") for x in dms(alice)), dms(alice)
                alice_reminded = True
            for _ in range(40):
                m, state = await env.bot.matches.get(mid)
                if m.status != "active" or state.current != 0:
                    break
                await (await kit.next_click(env, channel, players, mid, rng, cards=False))()
        else:
            await env.advance_time(3 * HOUR)  # bob and carol never play: their days run out
        if not restarted and env.now().timestamp() > started + 2 * DAY:
            await restart(env, bot_factory)
            restarted = True

    m, _ = await env.bot.matches.get(mid)
    assert restarted and alice_reminded
    assert m.seats[1].ai and m.seats[2].ai, "bob and carol forfeited on their second time-out"
    assert {1, 2} <= set(m.meta.resigned) and m.meta.strikes.count(1) == 2 and m.meta.strikes.count(2) == 2
    assert not m.seats[0].ai and 0 not in m.meta.resigned, "alice, who played, keeps her seat"
    # notices only to who asked: alice's DMs are her notices and reminder, bob and carol got no DM
    told = [x for x in dms(alice) if x.startswith("🔔")]
    assert told and len(told) <= alice_turns + 1, (len(told), alice_turns)
    assert all(f"/{channel.id}/{board(channel).id}" in x for x in told)
    assert dms(bob) == [] and dms(carol) == []
    reminder = next(i for i, x in enumerate(dms(alice)) if x.startswith("⏰"))
    assert reminder > 0 and when(dms(alice)[reminder]) == when(dms(alice)[reminder - 1]), (
        "the notice and the reminder of a turn say when the turn runs out"
    )
    # reminders for those who did not ask: a line in the channel, once per turn they let run
    assert len(reminders_in(channel, bob)) == 2 and len(reminders_in(channel, carol)) == 2
    # /game mine: alice still plays it, bob and carol no longer do
    if m.status == "active":
        r = await alice.slash(channel, "game mine")
        assert "Honga" in r.response.content and f"/{board(channel).id})" in r.response.content
    for p in (bob, carol):
        r = await p.slash(channel, "game mine")
        assert r.response.content == TR("mine.none")


async def test_a_daily_turn_played_by_the_computer_keeps_the_seat(simcord_env):
    """``timeout: computer`` (the default): the computer plays a daily turn that ran out, as today, and
    the player keeps their seat and their next turns' full day."""
    env = simcord_env
    _, channel, (alice, bob) = setup_table(env, 2)
    await alice.slash(channel, "honga start", target="short", pace="daily", turn_hours=2)
    assert TR("pace.timeout_computer") in board(channel).content
    await bob.click(board(channel), custom_id=button_id(board(channel), "join", "l"))
    await alice.click(board(channel), custom_id=button_id(board(channel), "start", "l"))
    m = await env.bot.matches.live_in_channel(channel.id)
    _, state = await env.bot.matches.get(m.id)
    first = state.current
    await env.advance_time(2 * HOUR + 60)
    m, state = await env.bot.matches.get(m.id)
    assert m.status == "active" and state.current != first and first in m.meta.timed_out
    assert not m.seats[first].ai and not m.seats[first].away and m.meta.resigned == []
    turn = min(t for k, t in m.timers.items() if k.startswith("turn:"))
    assert abs(turn - env.now().timestamp() - (2 * HOUR - 60)) < 5, "the next turn has its full limit"


async def test_a_second_daily_time_out_of_two_forfeits_the_game_to_the_other(simcord_env, bot_factory):
    env = simcord_env
    _, channel, (alice, bob) = setup_table(env, 2)
    mid = await open_and_start(
        env, channel, [alice, bob], variant="basic", pace="daily", turn_hours=1, timeout="forfeit"
    )
    rng = random.Random(6)
    for step in range(60):
        m, state = await env.bot.matches.get(mid)
        if m.status != "active":
            break
        if m.seats[state.current].user_id == alice.id:
            await play_one(env, channel, [alice, bob], mid, rng)
        else:
            await env.advance_time(20 * 60)  # bob never plays
        if step == 5:
            await restart(env, bot_factory)
    m, _ = await env.bot.matches.get(mid)
    assert m.status == "finished" and m.meta.strikes.count(1) == 2 and m.meta.resigned == [1]
    final = env.bot.matches.final(m, None)
    assert final is not None and final.winners == [0] and final.reason == "resignation"
    offer = await env.bot.matches.rematch(mid, alice.id, "alice")  # a daily rematch offer waits days too
    assert abs(offer.match.timers["lobby:"] - env.now().timestamp() - pace.LOBBY_SECONDS) < 5
    assert offer.match.options["pace"] == "daily"


@pytest.mark.parametrize("restarted", [False, True])
async def test_a_reminder_line_in_the_channel_goes_when_its_turn_ends(simcord_env, bot_factory, restarted):
    """A player who asked for no DMs is reminded by a line in the channel; the line goes, as the turn
    ping does, once the limit it speaks of no longer runs: they moved, the turn ran out, the game
    ended. (``restarted``: a restart while the line stands; the new bot deletes it.)"""
    env = simcord_env
    _, channel, players = setup_table(env, 2)
    alice, bob = players
    await alice.slash(channel, "honga start", target="short", pace="daily", turn_hours=4)
    await bob.click(board(channel), custom_id=button_id(board(channel), "join", "l"))
    await alice.click(board(channel), custom_id=button_id(board(channel), "start", "l"))
    mid = (await env.bot.matches.live_in_channel(channel.id)).id
    rng, kit = random.Random(3), HongaKit()

    async def mover():
        m, state = await env.bot.matches.get(mid)
        return next(p for p in players if p.id == m.seats[state.current].user_id)

    async def reminded() -> object:
        """Until a quarter of the mover's limit is left: their line stands, once."""
        who = await mover()
        assert reminders_in(channel, who) == []
        await env.advance_time(3 * HOUR + 60)
        assert len(reminders_in(channel, who)) == 1, env.transcript()
        if restarted:
            await restart(env, bot_factory)
            assert len(reminders_in(channel, who)) == 1
        return who

    who = await reminded()  # 1. the player moves: their line goes
    await (await kit.next_click(env, channel, players, mid, rng, cards=False))()
    assert reminders_in(channel, who) == [], "the line went when its player moved"
    who = await reminded()  # 2. the turn runs out (the computer plays it): the line goes
    await env.advance_time(HOUR)
    m, _ = await env.bot.matches.get(mid)
    assert m.meta.timed_out and reminders_in(channel, who) == [], "the line went with the turn"
    who = await reminded()  # 3. the game is ended: the line goes
    await alice.slash(channel, "game end")
    assert (await env.bot.matches.get(mid))[0].status == "cancelled"
    assert reminders_in(channel, who) == [], "the line went with the game"
    assert all(not x.content.startswith("⏰") for x in channel.history())
