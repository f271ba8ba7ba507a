"""Games that run for days (issue 36, part 2): a daily Honga game of three over ten virtual days, with
a restart and a wall-clock step in between (the issue's judged scenario). The lobby says the rules
and waits for days; turn notices go only to who asked; a reminder comes when a quarter of a turn's
limit is left (by DM to who asked, else a line in the channel, gone once that turn ends); with
``timeout: forfeit`` a player's second time-out resigns their seat; /game mine follows."""

from __future__ import annotations

import random
import re

import pytest

from bot.i18n import translator
from engine import pace
from engine.games.uonga import RULES as UONGA
from engine.timers import person_due
from tests.bot.helpers import (
    board,
    button_id,
    open_and_start,
    play_one,
    restart,
    setup_table,
    step_wall_clock,
)
from tests.kit_honga import HongaKit
from tests.kit_uonga import UongaKit

TR = translator("en")
HOUR, DAY = 3600, 86400


def dms(player) -> list[str]:
    dm = player.user.dm_channel
    return [m.content for m in (dm.history() if dm is not None else [])]


def when(text: str) -> int:
    return int(re.findall(r"<t:(\d+):R>", text)[0])


def wall(env) -> float:
    return env.now().timestamp()


def reminders_in(channel, user) -> list[str]:
    return [m.content for m in channel.history() if m.content.startswith(f"⏰ <@{user.id}>")]


async def mine_is_right(env, channel, players, mid) -> None:
    """/game mine for each player, against the committed match: the game, a link to its board, whose
    turn it is and when the mover's time runs out; nothing for a player who forfeited their seat."""
    m, state = await env.bot.matches.get(mid)
    mover = m.seats[state.current]
    due = person_due(m.timers)
    for p in players:
        text = (await p.slash(channel, "game mine")).response.content
        seat = next(i for i, s in enumerate(m.seats) if s.user_id == p.id)
        if seat in m.meta.resigned:
            assert text == TR("mine.none"), (p.name, text)
            continue
        assert "Honga" in text and f"/{channel.id}/{board(channel).id})" in text, text
        turn = TR("mine.your_turn") if seat == state.current else TR("mine.their_turn", names=mover.name)
        assert turn in text, (p.name, turn, text)
        assert due is None or f"<t:{int(due)}:R>" in text, (due, text)


def sent_at(msg) -> float:
    return msg.created_at.timestamp()


# the virtual hours each player takes over a decision (each one has a day: engine.pace)
THINK = {"alice": 5, "bob": 7, "carol": 6}


async def test_a_daily_honga_game_of_three_over_ten_days(simcord_env, bot_factory):
    """The judged scenario: a daily Honga game of three over 10 virtual days, with a restart and a
    wall-clock step in between. alice and carol asked for turn notices, bob did not. bob is reminded
    in the channel once (the line goes when he moves) and lets one turn run out (his first time-out:
    the computer plays it); carol goes away on day 2 and forfeits at her second time-out. At several
    points /game mine is checked for everyone; at the end who got which DM."""
    env = simcord_env
    _, channel, (alice, bob, carol) = setup_table(env, 3)
    players = [alice, bob, carol]
    for p in (alice, carol):
        await p.slash(channel, "game notify", state="on")
    r = await alice.slash(channel, "honga start", target="short", pace="daily", timeout="forfeit")
    assert not r.ephemeral
    assert TR("pace.daily", n=24, timeout=TR("pace.timeout_forfeit")) in board(channel).content
    m = await env.bot.matches.live_in_channel(channel.id)
    assert abs(m.timers["lobby:"] - wall(env) - pace.LOBBY_SECONDS) < 5, "a daily lobby waits 7 days"
    await env.advance_time(2 * DAY)  # two days later, the others come
    for p in (bob, carol):
        await p.click(board(channel), custom_id=button_id(board(channel), "join", "l"))
    await alice.click(board(channel), custom_id=button_id(board(channel), "start", "l"))
    mid = m.id
    m, state = await env.bot.matches.get(mid)
    assert m.status == "active" and TR("pace.short", n=24) in board(channel).content
    assert abs(person_due(m.timers) - wall(env) - DAY) < 5, "a day per decision"
    await mine_is_right(env, channel, players, mid)

    rng, kit, started = random.Random(4), HongaKit(), wall(env)
    done: set[str] = set()  # the scenario's moments, each once
    checked_on = 0  # the last day /game mine was checked

    async def play() -> None:
        await (await kit.next_click(env, channel, players, mid, rng, cards=False))()

    while wall(env) < started + 10 * DAY:
        m, state = await env.bot.matches.get(mid)
        assert m.status == "active", "the game lasts the ten days"
        day = (wall(env) - started) / DAY
        if m.seats[state.current].ai:  # carol's seat, played by the computer since she forfeited
            await env.advance_time(60)
            continue
        p = next(x for x in players if x.id == m.seats[state.current].user_id)
        if "restart" not in done and day >= 2.5:
            await restart(env, bot_factory)
            done.add("restart")
            await mine_is_right(env, channel, players, mid)
        elif "step" not in done and day >= 5:
            # the wall clock steps 3 hours forward (an NTP correction): stored due times stay, and the
            # next timer (the mover's reminder) fires at its own, not 3 hours late
            timers = dict(m.timers)
            step_wall_clock(env, 3 * HOUR)
            done.add("step")
            m, _ = await env.bot.matches.get(mid)
            assert m.timers == timers and m.deadline == timers[pace.remind_key(state.current)]
            await env.advance_time(m.deadline - wall(env) - 60)
            assert (await env.bot.matches.get(mid))[0].version == m.version, "nothing fired early"
            await env.advance_time(120)
            m, _ = await env.bot.matches.get(mid)
            assert m.meta.reminded == [state.current], "the reminder fired at its due time"
            await mine_is_right(env, channel, players, mid)
            await play()
        elif p is carol and day >= 2:  # carol went away: her turns run out (reminded by DM first)
            await env.advance_time(DAY + 60)
        elif p is bob and "line" not in done and day >= 1:
            # bob, who asked for no DMs, is reminded by a line in the channel before his limit
            await env.advance_time(18 * HOUR + 60)
            lines = reminders_in(channel, bob)
            assert len(lines) == 1 and dms(bob) == [], (lines, dms(bob))
            assert when(lines[0]) == int(person_due((await env.bot.matches.get(mid))[0].timers))
            assert when(lines[0]) - wall(env) > 5 * HOUR, "the reminder comes before the limit"
            await mine_is_right(env, channel, players, mid)
            await play()
            assert reminders_in(channel, bob) == [], "the line went when bob moved"
            done.add("line")
        elif p is bob and "bob out" not in done and day >= 6:  # bob lets one turn run out
            await env.advance_time(DAY + 60)
            m, _ = await env.bot.matches.get(mid)
            assert m.meta.strikes.count(1) == 1 and 1 not in m.meta.resigned and not m.seats[1].ai
            assert reminders_in(channel, bob) == [], "the line of the turn that ran out went"
            done.add("bob out")
        elif p is alice and "alice reminded" not in done and day >= 2:
            await env.advance_time(18 * HOUR + 60)  # alice waits for her reminder: by DM, she asked
            assert dms(alice)[-1].startswith("⏰") and reminders_in(channel, alice) == []
            await play()
            done.add("alice reminded")
        else:
            await env.advance_time(THINK[p.name] * HOUR)
            await play()
        if day >= checked_on + 2:  # every other day
            checked_on = int(day)
            await mine_is_right(env, channel, players, mid)

    assert done == {"restart", "step", "line", "bob out", "alice reminded"}, done
    m, _ = await env.bot.matches.get(mid)
    # the time-out rule: carol's second forfeited her seat, bob's one did not, alice never ran out
    assert m.meta.strikes.count(2) == 2 and 2 in m.meta.resigned and m.seats[2].ai
    assert m.meta.strikes.count(1) == 1 and 1 not in m.meta.resigned and not m.seats[1].ai
    assert 0 not in m.meta.strikes and not m.seats[0].ai
    await mine_is_right(env, channel, players, mid)
    # DMs only to who asked: bob none; alice and carol their notices and reminders, each reminder
    # sent a quarter of the day before the limit it names, with a link to the board
    assert dms(bob) == []
    for p in (alice, carol):
        said = p.user.dm_channel.history()
        assert any(x.content.startswith("🔔") for x in said) and any(x.content.startswith("⏰") for x in said)
        assert all(f"/{channel.id}/{board(channel).id}" in x.content for x in said)
        for x in said:
            if x.content.startswith("⏰"):
                assert abs(when(x.content) - sent_at(x) - 6 * HOUR) < 120, x.content
    # no reminder line is left in the channel
    assert all(not x.content.startswith("⏰") for x in channel.history())


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


async def test_a_live_game_with_timeout_forfeit_is_lost_by_the_no_show(simcord_env):
    """``timeout: forfeit`` at the live pace (a tournament's matches start with it): the lobby says
    the rule; a player who never moves keeps their full turns after a first time-out (not taken for
    away) and forfeits at the second, and the other wins."""
    env = simcord_env
    _, channel, players = setup_table(env, 2)
    alice, bob = players
    await alice.slash(channel, "uonga start", side="cavemen", turn_seconds=30, timeout="forfeit")
    assert TR("pace.live", timeout=TR("pace.timeout_forfeit")) in board(channel).content
    await bob.click(board(channel), custom_id=button_id(board(channel), "join", "l"))
    await alice.click(board(channel), custom_id=button_id(board(channel), "start", "l"))
    mid = (await env.bot.matches.live_in_channel(channel.id)).id
    rng, kit = random.Random(5), UongaKit()
    for _ in range(40):
        m, state = await env.bot.matches.get(mid)
        if m.status != "active":
            break
        if UONGA.to_move(state) == {0}:  # alice plays at once
            await (await kit.next_click(env, channel, players, mid, rng))()
            continue
        assert abs(m.timers["turn:1"] - wall(env) - 30) < 2, "bob's turn has its full limit"
        await env.advance_time(31)  # bob never moves
        m, _ = await env.bot.matches.get(mid)
        assert not m.seats[1].away and 0 not in m.meta.strikes
    m, _ = await env.bot.matches.get(mid)
    assert m.status == "finished" and m.meta.strikes == [1, 1] and m.meta.resigned == [1]
    final = env.bot.matches.final(m, None)
    assert final is not None and final.winners == [0] and final.reason == "resignation"


async def test_a_live_lobby_says_no_forfeit_rule_unless_asked(simcord_env):
    env = simcord_env
    _, channel, (alice, _) = setup_table(env, 2)
    await alice.slash(channel, "uonga start", side="cavemen")
    assert TR("pace.timeout_forfeit") not in board(channel).content and "⏱️" not in board(channel).content
