"""bench.redraws: no message is sent a picture it shows already, counted over seeded games through
SimCord; Ubongo's four seats solving in their DMs included, and again with a workspace picture keyed
on more than it draws (another seat's solve then draws the same bytes from other inputs)."""

from __future__ import annotations

import asyncio

import pytest

from bench import redraws
from bot.games import ubongo as ubongo_ui


def test_four_seats_solving_in_their_dms_are_sent_no_picture_they_show():
    every, solves = asyncio.run(redraws.ubongo(1, rounds=2))
    assert solves.clicks == 8, "two rounds of four solves"
    assert solves.uploads > 0 and every.uploads > solves.uploads
    assert (every.repeats, solves.repeats) == (0, 0)


def test_a_picture_drawn_again_from_other_inputs_is_not_sent_again(monkeypatch):
    """The surfaces' own mechanism, not the game's narrow key: with the workspace keyed on the whole
    view, other seats' solves draw pictures the DMs show already; only their words are edited."""
    monkeypatch.setattr(ubongo_ui, "_pictured", lambda view, seat: view)
    every, solves = asyncio.run(redraws.ubongo(1, rounds=2))
    assert solves.drawn_again > 0, "the wider key draws the same pictures again"
    assert (every.repeats, solves.repeats) == (0, 0)


@pytest.mark.parametrize("game", ["ugah", "uonga", "honga"])
def test_moves_on_the_board_are_sent_no_picture_it_shows(game):
    counts = asyncio.run(redraws.two_player(game, 12))
    assert counts.uploads >= 12 and counts.repeats == 0
