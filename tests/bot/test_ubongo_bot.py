"""Ubongo Fun-Size end to end through SimCord: every seat solves in its own DM, all at once.

Solutions come from the engine's solver (the computer's ``next_placement``); the clicks are the ones
a player makes: choose a piece (display only), choose one of the places where it fits (an action).
"""

from __future__ import annotations

import json
import re

import pytest
from simcord.backend.errors import OptionError

from bot.games.ubongo import UbongoUI
from bot.locales.en import MESSAGES
from engine.core import SYSTEM
from engine.errors import LobbyError
from engine.games import ubongo_ai
from engine.games.ubongo import RULES, piece_spots
from engine.games.ubongo_ai import COMPUTER, next_placement
from engine.options import resolve
from render.ubongo import EN_LABELS
from tests.bot.concurrent import concurrent_dm_clicks
from tests.bot.helpers import (
    advance_to_just_before,
    board,
    button_id,
    custom_ids,
    dms_closed,
    last_logged,
    pings,
    restart,
    setup_table,
)
from tests.kit_ubongo import button, choose_piece, dm_board, option_values, place_click, select_of
from tests.replayed import replayed

ROWS = re.compile(r"rows top to bottom \(# is a square to cover\): (.*?)\. Placed")


async def start_ubongo(env, n=2, *, ai=0, level="hard", **options):
    _, channel, players = setup_table(env, n)
    host = players[0]
    r = await host.slash(channel, "ubongo start", side="A", **options)
    assert not r.ephemeral, r.response and r.response.content
    for p in players[1:]:
        await p.click(board(channel), custom_id=button_id(board(channel), "join", "l"))
    for _ in range(ai):
        await host.click(board(channel), custom_id=button_id(board(channel), f"ai.{level}", "l"))
    await host.click(board(channel), custom_id=button_id(board(channel), "start", "l"))
    m = await env.bot.matches.live_in_channel(channel.id)
    return channel, players, m.id


async def place_next(env, player, mid, seat, *, msg=None) -> int:
    """Choose the next piece of a solution and pick its place; returns the clicks it took."""
    _, state = await env.bot.matches.get(mid)
    code = next_placement(state, seat, "hard")
    before = len(env.http_requests)
    msg = await choose_piece(env, player.user, msg or dm_board(player), code.split(".")[1], code)
    clicks = sum(1 for r in env.http_requests[before:] if r.path.endswith("/callback"))
    r = await place_click(player.user, msg, code)()
    assert r.acknowledged and not r.ephemeral, r.response and r.response.content
    return clicks + 1


async def solve_by_dm(env, player, mid, seat) -> int:
    """Place pieces until the seat's task is solved; returns the clicks."""
    clicks = 0
    _, state = await env.bot.matches.get(mid)
    round_ = state.round
    while state.round == round_ and seat not in state.solved and state.phase != "over":
        clicks += await place_next(env, player, mid, seat)
        _, state = await env.bot.matches.get(mid)
    return clicks


async def first_racer_solved(env, n, **options):
    """A race of ``n`` started, the first racer's task solved in their DM (which starts a countdown
    when the options ask for one): (channel, players, match id)."""
    channel, players, mid = await start_ubongo(env, n, **options)
    await solve_by_dm(env, players[0], mid, 0)
    return channel, players, mid


def bodies(env, path_part):
    """Every JSON body the bot sent to paths containing ``path_part``, as text."""
    return [json.dumps(r.json) for r in env.http_requests if path_part in r.path and r.json is not None]


def test_the_catalogue_holds_every_image_label_in_english():
    ours = {
        k.removeprefix("render.ubongo."): v for k, v in MESSAGES.items() if k.startswith("render.ubongo.")
    }
    assert ours == EN_LABELS


def test_the_places_select_only_turns_place_codes_into_actions():
    ui = UbongoUI()
    assert ui.select_action("place", ["place.L4.1.2.0"]) == "place.L4.1.2.0"
    assert RULES is not None and ui.select_action("place", ["lift.L4"]) == "place.invalid"
    assert ui.select_action("resign", ["place.L4.1.2.0"]) == "resign.invalid"


async def test_a_two_player_race_solved_in_the_dms_to_the_end(simcord_env):
    env = simcord_env
    channel, players, mid = await start_ubongo(env, 2)
    most = 0
    for _ in range(8):
        _, state = await env.bot.matches.get(mid)
        first = state.round % 2  # the seats take turns being fast
        for seat in (first, 1 - first):
            most = max(most, await solve_by_dm(env, players[seat], mid, seat))
            if seat == first and state.round < 8:
                text = dm_board(players[1 - first]).content
                assert "Ubongo!" in text and "<t:" in text, "the other DM shows the countdown"
    m, state = await env.bot.matches.get(mid)
    assert m.status == "finished" and state.phase == "over"
    assert most <= 12, f"an A task took {most} clicks"
    assert await replayed(env.bot.matches, mid) == state
    assert [len(h["solved"]) for h in state.history] == [2] * 8
    assert len([a for a in await env.bot.store.actions(mid) if a.source == "player"]) == 8 * 2 * 3
    print("most clicks for an A task:", most)
    final = board(channel)
    assert "Game over" in final.content and "Winner" in final.content
    assert "Game over" in dm_board(players[0]).content, "the DM shows the result too"
    # secrecy over every message sent: no task rows in the channel; each DM holds only its seat's tasks
    assert not [b for b in bodies(env, f"/channels/{channel.id}/") if "rows top to bottom" in b]
    for seat, p in enumerate(players):
        mine = {" / ".join(h["tasks"][seat]) for h in state.history}
        shown = {row for b in bodies(env, f"/channels/{p.user.dm_channel.id}/") for row in ROWS.findall(b)}
        assert shown and shown <= mine, f"seat {seat}'s DM showed a puzzle that is not its own"


async def test_four_players_placing_at_the_same_instant_all_land(simcord_env):
    env = simcord_env
    _, players, mid = await start_ubongo(env, 4)
    for step in range(2):
        _, state = await env.bot.matches.get(mid)
        clicks = []
        for seat, p in enumerate(players):
            piece = next(x for x in RULES.view(state, seat)["pieces"] if piece_spots(state, seat, x))
            msg = await choose_piece(env, p.user, dm_board(p), piece)
            clicks.append((p.user, msg, button(msg, option_values(msg, "q")[0])))
        results = await concurrent_dm_clicks(env, clicks)
        assert all(r.acknowledged and not r.ephemeral for r in results), step
    logged = [a for a in await env.bot.store.actions(mid) if a.source == "player"]
    assert len(logged) == 8 and {a.seat for a in logged} == {0, 1, 2, 3}
    _, state = await env.bot.matches.get(mid)
    assert all(len(state.placed[s]) == 2 for s in range(4))
    for seat, p in enumerate(players):  # each DM shows its own two pieces down
        assert all(button(dm_board(p), f"lift.{x}") for x in state.placed[seat])


async def test_the_countdown_holds_through_placements_and_a_restart_and_its_end_is_logged(
    simcord_env, bot_factory
):
    env = simcord_env
    channel, players, mid = await first_racer_solved(env, 3, countdown=60)
    m, state = await env.bot.matches.get(mid)
    assert state.phase == "countdown" and list(m.timers) == ["countdown.1:"]
    due = m.timers["countdown.1:"]
    assert due == pytest.approx(env.now().timestamp() + 60, abs=1)
    assert f"<t:{int(due)}:R>" in board(channel).content
    assert f"<t:{int(due)}:R>" in dm_board(players[1]).content, "the others' DMs show the countdown"
    await env.advance_time(10)
    await place_next(env, players[1], mid, 1)
    assert (await env.bot.matches.get(mid))[0].timers["countdown.1:"] == due, "a placement moves nothing"
    old_msg = dm_board(players[2])
    await restart(env, bot_factory)
    assert (await env.bot.matches.get(mid))[0].timers["countdown.1:"] == due, "kept across a restart"
    await place_next(env, players[2], mid, 2, msg=old_msg)  # the DM drawn before the restart still works
    await advance_to_just_before(env, due)
    assert (await env.bot.matches.get(mid))[1].round == 1, "not a second early"
    await env.advance_time(2)
    m, state = await env.bot.matches.get(mid)
    assert state.round == 2 and state.history[0]["reason"] == "countdown"
    assert await last_logged(env, mid) == (SYSTEM, "stop.1", "timer")
    assert await replayed(env.bot.matches, mid) == state, "seed + log (with the expiry) = state"
    assert "Round 1 over (the countdown ran out)" in board(channel).content


async def test_a_computer_does_not_solve_before_its_think_time(simcord_env):
    env = simcord_env
    channel, players, mid = await start_ubongo(env, 1, ai=1, level="hard")
    _, state = await env.bot.matches.get(mid)
    think = COMPUTER.think_seconds(state, 1, "hard")
    await env.advance_time(think - 1)
    assert [a for a in await env.bot.store.actions(mid) if a.source == "computer"] == []
    await place_next(env, players[0], mid, 0)  # the person's placement does not hurry or delay it
    await env.advance_time(2)
    _, state = await env.bot.matches.get(mid)
    assert state.solved == [1], "the computer solved right after its think time"
    assert "Computer 1 solved (1st)" in board(channel).content


async def test_closed_dms_fall_back_to_the_panel_and_the_game_goes_on(simcord_env):
    env = simcord_env
    _, channel, players = setup_table(env, 2)
    bob = players[1]
    env.inject_error("POST", f"/channels/{bob.user.dm_channel.id}/messages", status=403, code=50007, times=99)
    await players[0].slash(channel, "ubongo start", side="A")
    await bob.click(board(channel), custom_id=button_id(board(channel), "join", "l"))
    await players[0].click(board(channel), custom_id=button_id(board(channel), "start", "l"))
    m = await env.bot.matches.live_in_channel(channel.id)
    assert (
        await dms_closed(env, m.id) == {1}
        and "bob: I can't send you direct messages" in board(channel).content
    )
    r = await bob.click(board(channel), custom_id=button_id(board(channel), "hand", "h"))
    assert r.ephemeral and "your puzzle" in r.response.content and r.response.attachments
    panel = r.response.message
    _, state = await env.bot.matches.get(m.id)
    code = next_placement(state, 1, "hard")
    panel = await choose_piece(env, bob, panel, code.split(".")[1], code)
    r = await place_click(bob, panel, code, in_dm=False)()
    assert r.acknowledged and not r.ephemeral
    _, state = await env.bot.matches.get(m.id)
    assert len(state.placed[1]) == 1, "the panel's controls play the game"
    await solve_by_dm(env, players[0], m.id, 0)
    assert (await env.bot.matches.get(m.id))[1].solved == [0], "the others play on in their DMs"


async def test_the_channel_never_shows_a_running_task(simcord_env):
    env = simcord_env
    channel, players, mid = await start_ubongo(env, 2)
    await place_next(env, players[0], mid, 0)
    _, state = await env.bot.matches.get(mid)
    public = board(channel)
    texts = [public.content, public.attachments[0].description or ""]
    for rows in state.tasks:
        assert not any(" / ".join(rows) in t or "#" in t for t in texts)
    view = RULES.view(state, None)
    assert view["task"] is None and "placed" not in view and view["history"] == []


async def test_a_display_only_choice_writes_nothing_and_survives_a_public_change(simcord_env):
    env = simcord_env
    _, players, mid = await start_ubongo(env, 2)
    alice = players[0]
    m, _ = await env.bot.matches.get(mid)
    before = m.version, len(await env.bot.store.actions(mid))
    writes = len(env.http_requests)
    _, state = await env.bot.matches.get(mid)
    piece = next_placement(state, 0, "hard").split(".")[1]
    msg = await choose_piece(env, alice.user, dm_board(alice), piece)
    assert f"**{piece}**: place 1 of" in msg.content and option_values(msg, "q")
    nxt = [c for c in msg.components[2].children if c.custom_id.startswith("w:")][-1].custom_id
    msg = (await alice.user.click(msg, custom_id=nxt)).response.message
    assert f"**{piece}**: place 2 of" in msg.content, "browsing shows the next place"
    m, _ = await env.bot.matches.get(mid)
    assert (m.version, len(await env.bot.store.actions(mid))) == before
    answers = [r.path for r in env.http_requests[writes:] if r.method != "GET"]
    assert len(answers) == 2 and all(p.endswith("/callback") for p in answers), (
        "only the two answers (each: controls and image in the interaction's one response)"
    )
    # bob solves: alice's DM is redrawn with the countdown, and her chosen piece stays chosen
    await solve_by_dm(env, players[1], mid, 1)
    shown = dm_board(alice)
    assert "Ubongo! bob solved first" in shown.content and f"**{piece}**: place 2 of" in shown.content
    assert select_of(shown, "q") is not None


@pytest.mark.parametrize("simcord_bot", [{"rate_limits": True}], indirect=True)
async def test_the_rate_limit_never_slows_a_fast_solver(simcord_env):
    """Browsing places is display-only and counted apart: a player who looks at ten places and then
    solves, all within one second, is never told to slow down."""
    env = simcord_env
    _, players, mid = await start_ubongo(env, 2)
    await env.advance_time(11)  # the lobby's clicks are out of the window
    alice = players[0]
    _, state = await env.bot.matches.get(mid)
    piece = next(p for p in RULES.view(state, 0)["pieces"] if len(piece_spots(state, 0, p)) > 2)
    msg = await choose_piece(env, alice.user, dm_board(alice), piece)
    for _ in range(10):
        nxt = [c for c in msg.components[2].children if c.custom_id.startswith("w:")][-1].custom_id
        r = await alice.user.click(msg, custom_id=nxt)
        assert not r.ephemeral, r.response and r.response.content
        msg = dm_board(alice)
    assert await solve_by_dm(env, alice, mid, 0) <= 12
    assert (await env.bot.matches.get(mid))[1].solved == [0]


async def test_solo_a_task_set_aside_and_one_solved(simcord_env):
    env = simcord_env
    channel, (alice,), mid = await start_ubongo(env, 1, solo="tasks", solo_size="5")
    assert "⏳ Your time runs out <t:" in dm_board(alice).content
    r = await alice.user.click(dm_board(alice), custom_id=button(dm_board(alice), "skip"))
    assert not r.ephemeral, r.response and r.response.content
    await solve_by_dm(env, alice, mid, 0)
    _, state = await env.bot.matches.get(mid)
    assert (state.done, state.round) == (1, 3) and "task 3" in dm_board(alice).content
    assert "Solo speed run: 5 tasks · 1 solved, 1 set aside" in board(channel).content


async def finish_round(env, mid, step=10):
    """Let the clock run until the round (or the game) moves on: computers solve, countdowns end."""
    _, state = await env.bot.matches.get(mid)
    round_ = state.round
    while state.round == round_ and state.phase != "over":
        await env.advance_time(step)
        _, state = await env.bot.matches.get(mid)


async def test_a_lone_player_races_two_computers_to_the_end(simcord_env, monkeypatch):
    # the computers think 60-90 s of the simulated clock: SimCord also fires a bot timer once its delay
    # has passed in real time, and hard's 6 s did so on a busy machine while alice was still clicking
    # round 1 (then the bot had to settle within 5 s of that jump)
    monkeypatch.setitem(ubongo_ai.SOLVE_SECONDS, "hard", {"A": (60, 90), "B": (60, 90)})
    env = simcord_env
    channel, (alice,), mid = await start_ubongo(env, 1, ai=2, level="hard")
    for _ in range(8):
        _, state = await env.bot.matches.get(mid)
        if state.round % 2:  # she solves every other round by clicking; the computers the rest
            await solve_by_dm(env, alice, mid, 0)
        await finish_round(env, mid)
    m, state = await env.bot.matches.get(mid)
    assert m.status == "finished" and env.bot.matches.outcome(m, state) is not None
    mine = [h["round"] for h in state.history if 0 in h["solved"]]
    assert {1, 3, 5, 7} <= set(mine), "her clicked solves counted"
    theirs = [h["round"] for h in state.history if {1, 2} & set(h["solved"])]
    assert {2, 4, 6, 8} <= set(theirs), "the computers solved the rounds she left them"
    assert {a.source for a in await env.bot.store.actions(mid)} >= {"player", "computer"}
    assert await replayed(env.bot.matches, mid) == state
    assert "Game over" in board(channel).content and "Game over" in dm_board(alice).content


async def solo(env, channel, player, mode):
    """/ubongo solo: the game starts at once (no lobby); returns its match id."""
    r = await player.slash(channel, "ubongo solo", mode=mode)
    assert not r.ephemeral, r.response and r.response.content
    m = await env.bot.matches.live_in_channel(channel.id)
    assert m is not None and m.status == "active" and len(m.seats) == 1
    assert custom_ids(board(channel), "l:") == [], "no lobby to wait in"
    return m.id


async def test_a_solo_time_attack_from_the_command_keeps_its_record(simcord_env):
    env = simcord_env
    _, channel, (alice,) = setup_table(env, 1)
    mid = await solo(env, channel, alice, "time.5")
    assert (
        "No record yet" in dm_board(alice).content and "⏳ Your time runs out <t:" in dm_board(alice).content
    )
    for _ in range(2):
        await solve_by_dm(env, alice, mid, 0)
    await env.advance_time(5 * 60 + 1)
    m, state = await env.bot.matches.get(mid)
    assert m.status == "finished" and state.done == 2
    assert (await env.bot.store.record(alice.user.id, "ubongo", "time.5")).best == 2
    assert "First record: 2 solved" in board(channel).content
    assert "First record: 2 solved" in dm_board(alice).content
    # the clock that ends a time attack is not a sign of being away (nothing is left to ping for)
    assert "seems away" not in board(channel).content and not m.seats[0].away
    # ... and the task dealt just before it is no longer one to go and solve
    assert (
        "Solo over" in board(channel).content and "a new puzzle is in your DMs" not in board(channel).content
    )
    await solo(env, channel, alice, "time.5")  # the next run shows the record to beat
    assert "Your record: 2 solved" in dm_board(alice).content


async def speed_run(env, channel, player, *, pause):
    mid = await solo(env, channel, player, "tasks.5")
    for _ in range(5):
        await env.advance_time(pause)
        await solve_by_dm(env, player, mid, 0)
    m, _ = await env.bot.matches.get(mid)
    assert m.status == "finished"
    return mid


async def test_a_speed_run_record_improves_on_a_second_run(simcord_env):
    env = simcord_env
    _, channel, (alice,) = setup_table(env, 1)
    await speed_run(env, channel, alice, pause=30)
    first = await env.bot.store.record(alice.user.id, "ubongo", "tasks.5")
    assert first is not None and first.best == pytest.approx(150, abs=2)
    assert "⏱️ Run time: 2:30" in board(channel).content and "First record: 2:30" in board(channel).content
    mid = await solo(env, channel, alice, "tasks.5")
    assert "Your record: 2:30" in dm_board(alice).content
    await env.bot.matches.end(mid, alice.user.id, moderator=False)  # an abandoned run sets nothing
    await speed_run(env, channel, alice, pause=10)
    best = await env.bot.store.record(alice.user.id, "ubongo", "tasks.5")
    assert best.best == pytest.approx(50, abs=2) and best.previous == first.best
    assert "New record: 0:50 (before: 2:30)" in board(channel).content
    await speed_run(env, channel, alice, pause=20)  # slower: the record stays
    assert (await env.bot.store.record(alice.user.id, "ubongo", "tasks.5")).best == best.best
    assert "Your record stays 0:50" in board(channel).content


async def test_a_record_is_kept_only_when_beaten_and_a_retried_finish_answers_the_same(simcord_env):
    store = simcord_env.bot.store
    assert await store.improve_record(7, "ubongo", "tasks.5", 90.0, 1, 0.0, higher=False) == (None, True)
    first = await store.record(7, "ubongo", "tasks.5")
    assert await store.improve_record(7, "ubongo", "tasks.5", 95.0, 2, 0.0, higher=False) == (first, False)
    before, new = await store.improve_record(7, "ubongo", "tasks.5", 60.0, 3, 0.0, higher=False)
    assert (before, new) == (first, True)
    again = await store.improve_record(7, "ubongo", "tasks.5", 60.0, 3, 0.0, higher=False)
    assert again[1] and again[0].best == 90.0, "the finishing commit retried: the same answer"
    assert await store.improve_record(7, "ubongo", "time.5", 3, 4, 0.0, higher=True) == (None, True)
    assert (await store.record(7, "ubongo", "time.5")).best == 3
    assert await store.record(8, "ubongo", "time.5") is None


async def test_options_are_bounded_and_the_header_says_what_is_played(simcord_env):
    """Issue 20.5: a 1 s round limit is refused (nothing opened); a race's header shows its clock and
    no solo settings, a lone player's shows the solo settings and no clock; the race's turn ping says
    what the turn is."""
    env = simcord_env
    channel, (alice, _), _ = await start_ubongo(env, 2, round_limit=60, solo="tasks")
    head = board(channel).content.splitlines()[0]
    assert "60 s" in head and "speed run" not in head, board(channel).content
    with pytest.raises(OptionError, match="round_limit"):  # Discord itself refuses it (min_value)...
        await alice.slash(channel, "ubongo start", round_limit=1)
    with pytest.raises(LobbyError):  # ... and so would the engine (the options' one check)
        resolve(RULES.options, {"round_limit": 1})
    assert resolve(RULES.options, {"round_limit": 0})["round_limit"] == 0  # 0: by the rules (R27)
    ping = pings(channel)[-1].content
    assert "round 1 of 8: solve your puzzle" in ping and "your turn" not in ping, ping

    _, lone_channel, (carol,) = setup_table(env, 1, names=("carol",))
    await solo(env, lone_channel, carol, "time.5")
    head = board(lone_channel).content.splitlines()[0]
    assert "time attack, 5 min" in head and "countdown" not in head.lower(), head


async def test_a_player_idle_for_a_whole_round_is_said_away_once_and_pinged_again_once_back(simcord_env):
    """Issue 20.5: bob places nothing in round 1; when its clock runs out the board says once that
    he seems away, and round 2's ping names alice only. A placement brings him back: round 3's
    ping names both again."""
    env = simcord_env
    channel, (alice, bob), mid = await start_ubongo(env, 2, round_limit=60)
    assert f"<@{alice.id}> <@{bob.id}>" in pings(channel)[-1].content
    await place_next(env, alice, mid, 0)
    await env.advance_time(61)
    _, state = await env.bot.matches.get(mid)
    assert state.round == 2
    text = board(channel).content
    assert text.count("bob seems away") == 1 and "alice seems away" not in text, text
    ping = pings(channel)[-1].content
    assert "round 2 of 8" in ping and f"<@{alice.id}>" in ping and f"<@{bob.id}>" not in ping, ping
    await place_next(env, bob, mid, 1)
    await place_next(env, alice, mid, 0)
    await env.advance_time(61)
    _, state = await env.bot.matches.get(mid)
    ping = pings(channel)[-1].content
    assert state.round == 3 and "round 3 of 8" in ping
    assert f"<@{alice.id}>" in ping and f"<@{bob.id}>" in ping, ping
    assert "seems away" not in board(channel).content
