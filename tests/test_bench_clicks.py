"""bench.clicks runs for every game (two moves each) and its profile names the project's functions."""

from __future__ import annotations

import asyncio

import pytest

from bench import clicks


@pytest.mark.parametrize("game", clicks.GAMES)
def test_each_game_is_timed_against_its_floors(game):
    series = asyncio.run(clicks.play(game, 2))
    assert [len(series[k].first) for k in ("refused", "floor", "move", "answer")] == [2, 2, 2, 2]
    assert len(series["move"].drawing) == 2
    assert len(series["move"].image) == 2 and all(t > 0 for t in series["move"].image)
    rows = clicks.rows_of(game, series)
    assert [r.aim for r in rows] == ["-", "≤ 4x", "≤ 3x", "≤ 5x", "≤ 5x", "-"]


def test_the_profile_lists_the_move_clicks_costs():
    # two cold clicks: first-use costs (fonts, locale data, a render thread's whole drawing) can rank
    # above the click's own chain, so the list is long enough to hold it whatever comes first
    out = clicks.profile("ugah", moves=2, top=12)
    assert out.startswith("ugah: 2 move clicks, CPU ")
    assert "Router._route" in out  # the project's own functions, with their callees
