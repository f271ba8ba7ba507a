"""bench.budget: the requests a game makes with the bot token (outside interaction tokens) are
counted per component click, by route kind, over seeded games through SimCord."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import pytest

from bench import budget


def test_routes_are_sorted_by_token_and_kind():
    b = SimpleNamespace(interaction_tokens={"tok": 1})
    assert budget.kind_of(b, "POST", "/interactions/5/tok/callback") is None
    assert budget.kind_of(b, "PATCH", "/webhooks/9/tok/messages/@original") is None
    assert budget.kind_of(b, "POST", "/webhooks/9/tok") is None
    assert budget.kind_of(b, "POST", "/webhooks/9/other") == "other"
    assert budget.kind_of(b, "POST", "/channels/1/messages") == "post"
    assert budget.kind_of(b, "PATCH", "/channels/1/messages/2") == "edit"
    assert budget.kind_of(b, "DELETE", "/channels/1/messages/2") == "delete"
    assert budget.kind_of(b, "POST", "/users/@me/channels") == "dm open"
    assert budget.kind_of(b, "POST", "/channels/1/messages/2/threads") == "thread"
    assert budget.kind_of(b, "POST", "/channels/1/threads") == "thread"
    assert budget.kind_of(b, "PATCH", "/channels/1") == "thread"
    assert budget.kind_of(b, "GET", "/channels/1/messages/2") == "read"


@pytest.mark.parametrize("game", list(budget.TABLES))
def test_every_game_is_counted_per_click(game):
    tallies = asyncio.run(budget.tables(game, 1, 16))
    assert [(t.people, t.computers) for t in tallies] == list(budget.TABLES[game])
    for t in tallies:
        assert t.games == 1 and t.clicks >= 2, t
        if game == "ubongo":  # a task card's DM is out of any channel click's reach: the bot token
            assert t.kinds["post"] >= t.people and t.kinds["dm open"] == t.people, t
        elif t.computers == 0:  # every board edit and turn ping went through a click's token
            assert t.requests == 0, t
        else:  # at most the first ping, when a computer moved before anybody clicked
            assert t.requests <= 1, t
    total = budget.summed(game, tallies)
    assert total.per_click == total.requests / total.clicks
    assert "per click" in budget.HEAD and len(budget.lines({game: tallies})) == len(tallies) + 1
