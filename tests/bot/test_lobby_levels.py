"""A player picks a computer level knowing what it means: the lobby says what each of the game's
levels does, in one line under its Add AI buttons, in the order of the buttons (issue 33.3)."""

from __future__ import annotations

import pytest

from bot.games import SPECS
from bot.i18n import translator
from engine.registry import computer_for
from harness.sim import components
from tests.bot.helpers import board, setup_table


@pytest.mark.parametrize("game", list(SPECS))
async def test_the_lobby_says_what_each_level_means(simcord_env, game):
    _, channel, (alice, *_rest) = setup_table(simcord_env)
    await alice.slash(channel, f"{game} start")
    lobby = board(channel)
    buttons = [
        c.custom_id.rsplit(".", 1)[1]
        for c in components(lobby)
        if getattr(c, "custom_id", "").startswith("l:") and ":ai." in c.custom_id
    ]
    assert sorted(buttons) == sorted(computer_for(game).levels)
    line = next((x for x in lobby.content.splitlines() if x.startswith("🤖 Computer levels: ")), "")
    tr = translator("en")
    said = [
        tr("lobby.level_about", level=tr(f"level.{x}"), about=tr(f"level.about.{game}.{x}")) for x in buttons
    ]
    assert line == "🤖 Computer levels: " + "; ".join(said), lobby.content
    assert all(len(tr(f"level.about.{game}.{x}")) <= 100 for x in buttons), "one short line each"
