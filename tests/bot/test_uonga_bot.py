"""Uonga end to end through SimCord: the 5x5 grid of buttons, two-click moves (the first click is
display only), placements, a herd tie, illegal clicks, resignation, a draw, the computer, a restart."""

from __future__ import annotations

import random

import pytest

from engine.games.uonga import RULES
from engine.games.uonga_ai import COMPUTER
from render.uonga import EN_LABELS
from tests.bot.helpers import board, button_id, custom_ids, forge_first_button, restart, setup_table
from tests.kit_uonga import play, prepare
from tests.replayed import replayed

# A placement (host = alice = Cavemen) after which the Youngling move e1->d2 ties the herd c3+d3
# (E6: four Cavemen around each), a2->a3 captures nothing, and the Hunter on a1 shows a blocked
# path (a1->a3 over the Youngling on a2) and a Mastodon it may not land on (a1->c3).
#   5  M Y . . M
#   4  M . H H .
#   3  . . M M .
#   2  Y . Y . .
#   1  H H H Y Y
#      a b c d e
PLACEMENT = [
    ("C", "place.H.a1"), ("C", "place.Y.d1"), ("M", "place.M.a4"),
    ("C", "place.H.b1"), ("C", "place.Y.e1"), ("M", "place.M.a5"),
    ("C", "place.H.c1"), ("C", "place.Y.a2"), ("M", "place.M.e5"),
    ("C", "place.H.c4"), ("C", "place.Y.c2"), ("M", "place.M.c3"),
    ("C", "place.H.d4"), ("C", "place.Y.b5"), ("M", "place.M.d3"),
]  # fmt: skip


async def start(env, *, ai: str | None = None, **options):
    """alice opens an Uonga lobby (she plays the Cavemen unless told otherwise); bob joins, or a
    computer of level ``ai`` takes the second seat."""
    guild, channel, players = setup_table(env, 1 if ai else 2)
    alice = players[0]
    r = await alice.slash(channel, "uonga start", **{"side": "cavemen", **options})
    assert not r.ephemeral, r.response and r.response.content
    if ai:
        await alice.click(board(channel), custom_id=button_id(board(channel), f"ai.{ai}", "l"))
    else:
        await players[1].click(board(channel), custom_id=button_id(board(channel), "join", "l"))
    await alice.click(board(channel), custom_id=button_id(board(channel), "start", "l"))
    m = await env.bot.matches.live_in_channel(channel.id)
    return guild, channel, players, m.id


async def snapshot(env, mid):
    m, state = await env.bot.matches.get(mid)
    return m.version, len(await env.bot.store.actions(mid)), RULES.dump(state)


async def mover(env, players, mid):
    m, state = await env.bot.matches.get(mid)
    (seat,) = RULES.to_move(state)
    return next(p for p in players if p.id == m.seats[seat].user_id), state


async def place_all(env, channel, players, mid):
    """Play PLACEMENT by clicking: alice the Cavemen, bob the Mastodons."""
    for side, action in PLACEMENT:
        actor, state = await mover(env, players, mid)
        assert actor is players[0 if side == "C" else 1]
        r = await play(actor, channel, state, action)
        assert not r.ephemeral, r.response and r.response.content


def grid_args(msg) -> list[list[str]]:
    """The grid's arguments row by row (as a person sees it: rank 5 on top)."""
    return [[c.custom_id.split(":", 3)[3] for c in row.children] for row in msg.components]


async def test_the_grid_is_the_board_and_a_placement_takes_the_square_then_the_piece(simcord_env):
    env = simcord_env
    _, channel, players, mid = await start(env)
    alice, bob = players
    msg = board(channel)
    assert msg.attachments[0].filename == "uonga.png"
    rows = grid_args(msg)
    assert [len(r) for r in rows] == [5, 5, 5, 5, 5], "25 squares, no other control (no hand button)"
    assert rows[0][0] == "pl.a5" and rows[4][4] == "pl.e1", "rank 5 on top, files a-e left to right"
    assert "placement turn 1 of 5" in msg.content and "Cavemen 0/9" in msg.content
    before = await snapshot(env, mid)
    writes_at = len(env.http_requests)
    r = await alice.click(msg, custom_id=button_id(msg, "pl.c3", "v"))
    assert not r.ephemeral
    assert await snapshot(env, mid) == before, "the first click commits nothing"
    answers = [r.path for r in env.http_requests[writes_at:] if r.method != "GET"]
    assert len(answers) == 1 and "/interactions/" in answers[0], (
        "only the answer itself: the highlighted controls with the highlighted image, in one request"
    )
    msg = board(channel)
    assert grid_args(msg)[2][2:4] == ["place.H.c3", "place.Y.c3"], "H on c3, Y next to it"
    labels = [c.label for c in msg.components[2].children]
    assert labels[2:4] == ["H", "←Y c3"], "issue 20.9: the Y on d3's slot points back at c3"
    assert "placing on c3" in msg.content
    r = await alice.click(msg, custom_id=button_id(msg, "place.Y.c3"))
    assert not r.ephemeral
    msg = board(channel)
    assert "alice placed a Youngling on c3" in msg.content
    # the second piece of the turn is the only kind left: one click on the square
    r = await alice.click(msg, custom_id=button_id(msg, "place.H.b2"))
    assert "alice placed a Hunter on b2" in board(channel).content
    assert "bob (Mastodons)" in board(channel).content and "placement turn 1 of 5" in board(channel).content
    r = await bob.click(board(channel), custom_id=button_id(board(channel), "place.M.d4"))
    assert not r.ephemeral
    assert "placement turn 2 of 5" in board(channel).content
    alt = board(channel).attachments[0].description
    assert "Hunters: b2" in alt and "Younglings: c3" in alt and "Mastodons: d4" in alt


async def test_the_youngling_button_on_file_e_points_back_and_the_variants_are_named(simcord_env):
    """Issue 20.9: on file e the Y borrows d's slot and points right, at the chosen square; the
    variants are offered by what they do, and the named option reaches the rules as V1."""
    env = simcord_env
    _, channel, players, mid = await start(env, mastodons_need_10=True)
    names = {p.display_name for p in env.bot.tree.get_command("uonga").get_command("start").parameters}
    assert {"mastodons_need_10", "mastodons_pick_ties"} <= names and not names & {"v1", "v2"}
    assert "Mastodons need 10" in board(channel).content
    _, state = await env.bot.matches.get(mid)
    assert state.v1 and not state.v2
    await players[0].click(board(channel), custom_id=button_id(board(channel), "pl.e2", "v"))
    row = board(channel).components[3].children
    assert [c.custom_id.split(":", 3)[3] for c in row[3:]] == ["place.Y.e2", "place.H.e2"]
    assert [c.label for c in row[3:]] == ["Y e2→", "H"]


async def test_the_fair_variant_is_offered_by_name_and_says_it_is_not_in_the_rulebook(simcord_env):
    """Issue 37 (V4/V5): the start option ``variant`` offers the rulebook (the default) and the variant
    measured as fair; the game's header says the variant is not in the rulebook."""
    env = simcord_env
    start_cmd = env.bot.tree.get_command("uonga").get_command("start")
    (option,) = [p for p in start_cmd.parameters if p.name == "variant"]
    assert [c.value for c in option.choices] == ["rulebook", "cavemen_need_12_mastodons_need_8"]
    _, channel, _, mid = await start(env, variant="cavemen_need_12_mastodons_need_8")
    assert "not in the rulebook" in board(channel).content
    _, state = await env.bot.matches.get(mid)
    assert state.variant == "cavemen_need_12_mastodons_need_8"
    _, channel, _, mid = await start(env)
    assert "rulebook" not in board(channel).content
    assert (await env.bot.matches.get(mid))[1].variant == "rulebook"


async def test_a_move_takes_the_piece_then_a_destination_and_illegal_clicks_change_nothing(simcord_env):
    env = simcord_env
    guild, channel, players, mid = await start(env)
    alice, bob = players
    eve = guild.add_member(env.create_user("eve"))
    await place_all(env, channel, players, mid)
    assert (
        "the hunt begins" in board(channel).content
        and "40 moves left before a draw" in board(channel).content
    )
    before = await snapshot(env, mid)

    async def refused(actor, display, text):
        r = await actor.click(board(channel), custom_id=button_id(board(channel), display, "v"))
        assert r.ephemeral and text in r.response.content, (display, r.response.content)
        assert await snapshot(env, mid) == before

    await refused(alice, "why.c3", "isn't yours")  # a square that is not yours
    await refused(alice, "why.b3", "is empty")
    await refused(bob, "sel.a1", "isn't your turn")  # out of turn
    await refused(eve, "sel.a1", "aren't playing")
    # select the Hunter on a1: display only; the grid and the image show where it may go
    png = await board(channel).attachments[0].read()
    r = await alice.click(board(channel), custom_id=button_id(board(channel), "sel.a1", "v"))
    assert not r.ephemeral and await snapshot(env, mid) == before
    msg = board(channel)
    moves = [cid.split(":", 3)[3] for cid in custom_ids(msg, "g:")]
    assert moves == ["move.a1.b2"], "a1: b2 only (a2 and b1 are taken, a3 is behind a2, c3 is a Mastodon)"
    assert "Hunter on a1 selected" in msg.content
    assert await msg.attachments[0].read() != png, "the image highlights the selection"
    await refused(alice, "why.a1.a3", "path to a3 is blocked")  # a blocked path
    await refused(alice, "why.a1.c3", "never lands on a Mastodon")  # a landing on a Mastodon
    r = await bob.click(msg, custom_id=button_id(msg, "move.a1.b2"))  # out of turn, on a real move button
    assert r.ephemeral and "isn't your turn" in r.response.content
    forged = button_id(msg, "move.a1.b2").replace("move.a1.b2", "move.a1.a3")
    forge_first_button(env, channel, forged)  # an altered client asks for the blocked move anyway
    r = await alice.click(board(channel), custom_id=forged)
    assert r.ephemeral and "isn't allowed" in r.response.content
    assert await snapshot(env, mid) == before
    # clicking the selected piece again drops the selection; another piece changes it
    r = await alice.click(board(channel), custom_id=button_id(board(channel), "sel.a2", "v"))
    assert "Youngling on a2 selected" in board(channel).content
    old_move = button_id(board(channel), "move.a2.a3")
    r = await alice.click(board(channel), custom_id=button_id(board(channel), "", "v"))
    assert "click one of your pieces" in board(channel).content and not custom_ids(board(channel), "g:")
    r = await play(alice, channel, (await env.bot.matches.get(mid))[1], "move.a2.a3")
    assert not r.ephemeral and "alice moved a Youngling a2→a3" in board(channel).content
    after = await snapshot(env, mid)
    forge_first_button(env, channel, old_move)  # a client still showing the previous board
    r = await alice.click(board(channel), custom_id=old_move)
    assert r.ephemeral and "moved on" in r.response.content
    assert await snapshot(env, mid) == after


@pytest.mark.parametrize("v2", [False, True])
async def test_a_herd_tie_is_chosen_by_the_right_player(simcord_env, v2):
    env = simcord_env
    _, channel, players, mid = await start(env, mastodons_pick_ties=v2)
    alice, bob = players
    await place_all(env, channel, players, mid)
    _, state = await env.bot.matches.get(mid)
    await play(alice, channel, state, "move.e1.d2")
    msg = board(channel)
    chooser, other = (bob, alice) if v2 else (alice, bob)
    assert "Herd tie" in msg.content and f"{chooser.user.name} chooses" in msg.content
    side = "Mastodons" if v2 else "Cavemen"
    assert f"{chooser.user.name} ({side}): the herd is tied" in msg.content
    assert sorted(a.split(":")[3] for a in custom_ids(msg, "g:")) == ["take.c3", "take.d3"]
    before = await snapshot(env, mid)
    r = await other.click(msg, custom_id=button_id(msg, "take.c3"))
    assert r.ephemeral and "isn't your turn" in r.response.content
    r = await chooser.click(msg, custom_id=button_id(msg, "why.e5", "v"))
    assert r.ephemeral and "green Mastodons" in r.response.content
    assert await snapshot(env, mid) == before
    r = await chooser.click(msg, custom_id=button_id(msg, "take.d3"))
    assert not r.ephemeral
    msg = board(channel)
    assert "captured the Mastodon on d3 (Cavemen 3/9)" in msg.content
    _, state = await env.bot.matches.get(mid)
    assert "d3" not in RULES.view(state, None)["board"] and state.points == [3, 0]
    assert "bob (Mastodons)" in msg.content


async def test_human_against_human_to_the_end_by_clicking(simcord_env):
    env = simcord_env
    _, channel, players, mid = await start(env)
    first = board(channel)
    for _ in range(200):
        m, state = await env.bot.matches.get(mid)
        if m.status != "active":
            break
        actor, state = await mover(env, players, mid)
        seat = next(i for i, s in enumerate(m.seats) if s.user_id == actor.id)
        r = await play(actor, channel, state, COMPUTER.choose(state, seat, "medium"))
        assert not r.ephemeral, r.response and r.response.content
    m, state = await env.bot.matches.get(mid)
    assert m.status == "finished" and RULES.outcome(state) is not None
    final = board(channel)
    assert final.id == first.id, "the whole game is played on one message"
    assert "Game over" in final.content
    if len(RULES.outcome(state).winners) == 1:  # medium against medium may also repeat a position: a draw
        assert "wins" in final.content and "🏆" in final.content
    else:
        assert "draw" in final.content and "🏆" not in final.content
    assert custom_ids(final) == [f"l:{m.id}:0:rematch", f"h:{m.id}:0:lessons"], (
        "a finished game offers a rematch and its lessons, and no game control"
    )
    assert "Points: Cavemen" in final.attachments[0].description
    assert await replayed(env.bot.matches, mid) == state


async def test_human_against_the_computer_to_the_end(simcord_env):
    env = simcord_env
    _, channel, players, mid = await start(env, ai="easy", side="mastodons")
    alice = players[0]
    rng = random.Random(4)
    told = 0  # boards that tell the computer's turn
    for _ in range(300):
        m, state = await env.bot.matches.get(mid)
        if m.status != "active":
            break
        (seat,) = RULES.to_move(state)
        if m.seats[seat].ai:  # the computer thinks in the process pool after the click was answered
            await env.advance_time(1)
            continue
        r = await play(alice, channel, state, rng.choice(RULES.legal_actions(state, seat)))
        assert not r.ephemeral, r.response and r.response.content
        told += "🤖 Computer 1 " in board(channel).content
    m, state = await env.bot.matches.get(mid)
    assert m.status == "finished" and "Game over" in board(channel).content
    assert any(a.source == "computer" for a in await env.bot.store.actions(mid)) and told > 3
    assert await replayed(env.bot.matches, mid) == state


async def test_a_restart_keeps_the_old_buttons_and_the_selection_working(simcord_env, bot_factory):
    env = simcord_env
    _, channel, players, mid = await start(env)
    await place_all(env, channel, players, mid)
    _, state = await env.bot.matches.get(mid)
    click = await prepare(players[0], channel, state, "move.a2.a3")  # selected before the restart
    await restart(env, bot_factory)
    assert (await env.bot.matches.get(mid))[1] == state
    r = await click()
    assert not r.ephemeral, r.response and r.response.content
    assert "alice moved a Youngling a2→a3" in board(channel).content
    # a display-only click drawn by the old process works too
    r = await players[1].click(board(channel), custom_id=button_id(board(channel), "sel.c3", "v"))
    assert not r.ephemeral and "Mastodon on c3 selected" in board(channel).content


async def test_resignation_ends_the_game_and_the_opponent_wins(simcord_env):
    env = simcord_env
    _, channel, players, mid = await start(env)
    alice = players[0]
    _, state = await env.bot.matches.get(mid)
    await play(alice, channel, state, "place.H.c3")
    r = await alice.slash(channel, "game resign", confirm=True)
    assert r.ephemeral and "your opponent wins" in r.response.content
    m, _ = await env.bot.matches.get(mid)
    assert m.status == "finished" and m.meta.result.winners == [1]
    final = board(channel)
    assert "Game over by resignation. Winner: bob" in final.content and "🏳 alice resigned" in final.content
    assert custom_ids(final) == [f"l:{m.id}:0:rematch", f"h:{m.id}:0:lessons"]
    assert "bob" in final.attachments[0].description and "resigned" in final.attachments[0].description


async def test_a_draw_shows_a_clear_final_line(simcord_env):
    env = simcord_env
    _, channel, players, mid = await start(env, move_limit=1)
    await place_all(env, channel, players, mid)
    _, state = await env.bot.matches.get(mid)
    await play(players[0], channel, state, "move.a2.a3")  # no capture: the move limit is reached
    m, state = await env.bot.matches.get(mid)
    assert m.status == "finished" and RULES.outcome(state).winners == [0, 1]
    final = board(channel)
    assert "Draw: too long without a capture" in final.content
    assert "Game over: it's a draw" in final.content
    assert custom_ids(final) == [f"l:{m.id}:0:rematch", f"h:{m.id}:0:lessons"]


def test_image_words_come_from_the_catalogue():
    from bot.locales.en import MESSAGES

    shown = {k.removeprefix("render.uonga."): v for k, v in MESSAGES.items() if k.startswith("render.uonga.")}
    assert shown == EN_LABELS


async def test_the_turn_limit_hands_an_absent_players_move_to_the_computer(simcord_env):
    env = simcord_env
    _, channel, players, mid = await start(env, turn_seconds=30)
    alice = players[0]
    r = await alice.click(board(channel), custom_id=button_id(board(channel), "pl.c3", "v"))
    assert not r.ephemeral  # a selection does not stop the clock
    await env.advance_time(31)
    log = await env.bot.store.actions(mid)
    assert [a.source for a in log][-1:] == ["timeout"]
    assert "alice ran out of time" in board(channel).content
