"""A commit the database did not confirm (issue 22, point 4, through the bot): PostgreSQL stopped
answering after the COMMIT was sent, so the move may land when it resumes. The player is told so,
never "nothing changed", and once the database answers again every surface shows what was kept.

(The engine-level tests freeze a real PostgreSQL server: tests/engine/test_pg_faults.py. Here the
store's commit lands and then reports the lost answer, as a resumed server would leave it.)"""

from __future__ import annotations

import random

from bot.i18n import translator
from engine.store import StoreUnsure
from tests.bot.helpers import board, custom_ids, open_and_start, setup_table
from tests.replayed import replayed

TR = translator("en")


async def test_a_move_the_database_did_not_confirm_is_said_so_and_shown_once_it_answers(
    simcord_env, monkeypatch
):
    env = simcord_env
    _, channel, players = setup_table(env, 2)
    mid = await open_and_start(env, channel, players)
    store = env.bot.store
    real = store.commit

    async def landed_unconfirmed(*args, **kwargs):
        await real(*args, **kwargs)
        raise StoreUnsure("the connection went with the COMMIT")

    monkeypatch.setattr(store, "commit", landed_unconfirmed)
    m, state = await env.bot.matches.get(mid)
    actor = next(p for p in players if p.id == m.seats[state.current].user_id)
    shown = board(channel)
    r = await actor.click(shown, custom_id=random.Random(1).choice(custom_ids(shown, "g:")))
    assert r.ephemeral and r.response.content == TR("error.db_unsure")
    assert r.response.content != TR("error.db_busy")
    monkeypatch.setattr(store, "commit", real)
    await env.advance_time(3)  # the database answers again: the surfaces are brought in line
    after, _ = await env.bot.matches.get(mid)
    assert after.version > m.version, "the move was kept"
    assert {cid.split(":")[2] for cid in custom_ids(board(channel), "g:")} == {str(after.public_version)}
    assert await replayed(env.bot.matches, mid) == (await env.bot.matches.get(mid))[1]
