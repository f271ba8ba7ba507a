"""A move is answered in one request: its text, controls and new picture together (issue 35: the
picture used to follow in a second request, a Discord round trip later, while the message showed
the new text over the old picture). A picture not drawn within ``PICTURE_WAIT``
(a burst's queue) is not waited for: the text and controls go first and the picture follows, as
before."""

from __future__ import annotations

import random

from bot.i18n import translator
from bot.messages import game_picture, private
from bot.surfaces import answer
from engine.games.ubongo_ai import next_placement
from tests.bot.helpers import board, button_id, next_click, open_and_start, setup_table
from tests.kit_ubongo import choose_piece, dm_board, select_of


def _answers(requests) -> list:
    """The requests that answered a click: its callback, and edits through its token."""
    return [r for r in requests if "/callback" in r.path or "/messages/@original" in r.path]


async def _move(env):
    _, channel, players = setup_table(env, 2)
    mid = await open_and_start(env, channel, players)
    click = await next_click(env, channel, players, mid, random.Random(5))
    at = len(env.http_requests)
    result = await click()
    return channel, mid, result, _answers(env.http_requests[at:])


async def test_a_move_on_the_board_is_answered_with_its_picture_in_one_request(simcord_env):
    env = simcord_env
    channel, mid, result, answers = await _move(env)
    assert not result.ephemeral
    assert [(r.method, "/callback" in r.path) for r in answers] == [("POST", True)], answers
    data = answers[0].json["data"]
    assert data["content"] == board(channel).content and len(data["attachments"]) == 1, "text and picture"
    m, state = await env.bot.matches.get(mid)
    shown = await board(channel).attachments[0].read()
    assert shown == game_picture(m, state).draw(), "the picture is the committed state's"


async def test_a_picture_not_drawn_in_time_follows_the_text(simcord_env, monkeypatch):
    monkeypatch.setattr(answer, "PICTURE_WAIT", 0.0)  # (no drawing is done at once)
    env = simcord_env
    channel, mid, result, answers = await _move(env)
    assert not result.ephemeral
    assert [r.method for r in answers] == ["POST", "PATCH"], answers
    assert "attachments" not in answers[0].json["data"], "the text and controls went first"
    assert len(answers[1].json["attachments"]) == 1, "then the picture, through the click's token"
    m, state = await env.bot.matches.get(mid)
    shown = await board(channel).attachments[0].read()
    assert shown == game_picture(m, state).draw()


async def test_a_placement_alone_in_a_dm_is_answered_with_its_picture_in_one_request(simcord_env):
    """A seat's private surface too, while no other click of the match is on its way (a batch of
    placements at once draws each DM once, at the last: tests/bot/test_surfaces_race.py)."""
    env = simcord_env
    _, channel, players = setup_table(env, 2)
    await players[0].slash(channel, "ubongo start", side="A")
    await players[1].click(board(channel), custom_id=button_id(board(channel), "join", "l"))
    await players[0].click(board(channel), custom_id=button_id(board(channel), "start", "l"))
    mid = (await env.bot.matches.live_in_channel(channel.id)).id
    alice = players[0]
    _, state = await env.bot.matches.get(mid)
    code = next_placement(state, 0, "hard")
    msg = await choose_piece(env, alice.user, dm_board(alice), code.split(".")[1], code)
    at = len(env.http_requests)
    await alice.user.select(msg, [code], custom_id=select_of(msg, "q").custom_id)
    answers = _answers(env.http_requests[at:])
    assert [(r.method, "/callback" in r.path) for r in answers] == [("POST", True)], answers
    assert len(answers[0].json["data"]["attachments"]) == 1
    m, state = await env.bot.matches.get(mid)
    assert (await dm_board(alice).attachments[0].read()) == private(m, state, 0, translator("en")).draw()
