"""🎓 for a person who left a Honga game (issue 33): the computer played their seat to the end; their
🎓 answers them (not "you aren't playing"), says from which step the computer played for them, and
judges only what they decided themselves; the turns the computer played for the one who stayed
(their time ran out) are listed as the computer's."""

from __future__ import annotations

import pytest

from tests.bot.helpers import board
from tests.bot.test_honga_bot import start


@pytest.mark.simcord(settle_timeout=20)
async def test_the_one_who_left_and_the_one_who_timed_out_see_the_computers_moves_as_its_own(simcord_env):
    env = simcord_env
    channel, (alice, bob), mid = await start(env, 2, ("easy",), turn_seconds=10)
    r = await bob.slash(channel, "game resign", confirm=True)
    assert "computer plays your seat" in r.response.content, r.response.content
    m, _ = await env.bot.matches.get(mid)
    assert m.seats[1].ai and m.seats[1].user_id == bob.id
    for _ in range(400):  # alice never clicks: the clock plays her turns
        if m.status != "active":
            break
        await env.advance_time(11)
        m, _ = await env.bot.matches.get(mid)
    assert m.status == "finished"
    actions = await env.bot.store.actions(mid)
    assert {a.source for a in actions if a.seat == 1} == {"computer"}, "bob never moved himself"
    final = board(channel)
    for person, said in (
        (bob, "after you left the game (from step "),
        (alice, "when your time ran out (steps "),
    ):
        r = await person.click(final, custom_id=f"h:{mid}:0:lessons")
        text = (r.followups[-1] if r.followups else r.response).content
        assert r.ephemeral and "You made no decision yourself" in text and said in text, text
    found = await env.bot.matches.lessons(mid)
    assert found[0] == [] and found[1] == [], "the computer's moves are never judged as theirs"
