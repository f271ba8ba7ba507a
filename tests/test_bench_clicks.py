"""bench.clicks runs for every game (four moves each: two timed, two split by owner) and its profile
names the project's functions."""

from __future__ import annotations

import asyncio

import pytest

from bench import clicks


@pytest.mark.parametrize("game", clicks.GAMES)
def test_each_game_is_timed_against_its_floors(game):
    series = asyncio.run(clicks.play(game, 4))
    assert [len(series[k].first) for k in ("refused", "floor", "move", "answer")] == [4, 4, 2, 4]
    assert len(series["move"].drawing) == 2
    assert len(series["move"].image) == 2 and all(t > 0 for t in series["move"].image)
    # the sampled moves: their CPU less SimCord's and the bench's, which is most of a click's here
    assert len(series["move"].bot) == 2
    move = series["move"]
    assert all(0 < bot < cpu for bot, cpu in zip(move.bot, move.sampled, strict=True))
    rows = clicks.rows_of(game, series)
    aim = "≤ 8 ms" if game == "ubongo" else "≤ 6 ms"
    assert [r.aim for r in rows] == ["-", "≤ 4x (text alone)", "≤ 3x", "≤ 5x", "≤ 5x", "-", aim]
    # a move answers with its picture (judged by the image rows), but Honga's on its turn panel,
    # whose answer is text: the board's picture follows (held to 4x a refused click)
    with_picture = game != "honga"
    assert move.whole == [with_picture] * 4
    assert (rows[1].ok is None) == with_picture


def test_the_profile_lists_the_move_clicks_costs():
    # two cold clicks: first-use costs (fonts, locale data, a render thread's whole drawing) can rank
    # above the click's own chain, so the list is long enough to hold it whatever comes first
    out = clicks.profile("ugah", moves=2, top=12)
    assert out.startswith("ugah: 2 move clicks; the bot's CPU p50 ")
    assert "(bot/" in out  # the project's own functions, where the bot's samples were taken
