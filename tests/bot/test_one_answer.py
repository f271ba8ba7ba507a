"""A move on the board is answered in one request: its text, controls and new picture together
(issue 35: the picture used to follow in a second request, a Discord round trip later, while the
message showed the new text over the old picture). A picture not drawn within ``PICTURE_WAIT``
(a burst's queue) is not waited for: the text and controls go first and the picture follows, as
before."""

from __future__ import annotations

import random

from bot.messages import game_picture
from bot.surfaces import answer
from tests.bot.helpers import board, next_click, open_and_start, setup_table


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
