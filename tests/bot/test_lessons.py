"""The recap that teaches (issue 21.5) through SimCord: the final board's 🎓 button answers each
person privately with their costliest decisions; others, and a game still running, are refused
with a clear reply; /replay marks the decisions at their steps."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from bot import replay
from bot.i18n import translator
from engine.lessons import TOP
from render.lesson import BETTER, PLAYED
from tests.bot.helpers import (
    board,
    button_id,
    custom_ids,
    forge_first_button,
    open_and_start,
    play_to_end,
    setup_table,
)


def lessons_id(mid: int) -> str:
    return f"h:{mid}:0:lessons"


# the review runs in the worker process, which a test may have to start first (seconds on a busy machine)
@pytest.mark.simcord(settle_timeout=20)
async def test_each_person_gets_their_own_costliest_decisions_privately(simcord_env):
    env = simcord_env
    _, channel, players = setup_table(env, n=3)
    alice, bob, carol = players
    mid = await open_and_start(env, channel, [alice, bob], variant="basic")
    live = board(channel)
    assert lessons_id(mid) not in custom_ids(live)
    forge_first_button(env, channel, lessons_id(mid))  # a hand-made 🎓 on a running game
    r = await alice.click(board(channel), custom_id=lessons_id(mid))
    assert r.ephemeral and "once the game is over" in r.response.content, r.response.content
    assert not env.bot.matches.knows_lessons(mid), "nothing was worked out for a running game"

    await play_to_end(env, channel, [alice, bob], mid, random.Random(3))
    final = board(channel)
    assert custom_ids(final) == [f"l:{mid}:0:rematch", lessons_id(mid)]
    r = await alice.click(final, custom_id=button_id(final, "lessons", "h"))
    assert r.ephemeral
    text = (r.followups[-1] if r.followups else r.response).content
    assert "your costliest decisions" in text, text
    lines = [line for line in text.splitlines() if line[:1].isdigit()]
    assert 1 <= len(lines) <= TOP and all("was better" in line or "decided" in line for line in lines), text
    found = await env.bot.matches.lessons(mid)
    assert set(found) == {0, 1} and len(found[0]) == len(lines)
    assert all(x.seat == 0 for x in found[0]) and [x.cost for x in found[0]] == sorted(
        (x.cost for x in found[0]), reverse=True
    )
    r = await carol.click(final, custom_id=button_id(final, "lessons", "h"))
    assert r.ephemeral and "aren't playing" in r.response.content, r.response.content

    # the step it names is the position before the choice: /replay opens there with both choices drawn
    first = found[0][0]
    at = first.step - 1
    assert f"`/replay match:{mid} step:{at}`" in text, text
    r = await carol.slash(channel, "replay", match=mid, step=at)
    msg = r.response.message if r.response else r.followups[-1]
    assert f"step {at} of" in msg.content and "🎓 alice:" in msg.content, msg.content
    marked = Image.open(io.BytesIO(await msg.attachments[0].read())).convert("RGB")
    m, _ = await env.bot.matches.get(mid)
    steps = await env.bot.matches.history(mid)
    plain = Image.open(io.BytesIO(replay.step_draw(m, steps, at, translator(None))())).convert("RGB")
    assert _count(marked, BETTER) > _count(plain, BETTER) + 300, "the better choice is drawn in green"
    assert _count(marked, PLAYED) > _count(plain, PLAYED) + 200, "the choice made is drawn in red"
    r = await carol.click(msg, custom_id=button_id(msg, "next", "r"))  # the move made: no mark
    assert f"step {at + 1} of" in r.response.message.content
    shown = any(x.step - 1 == at + 1 for x in found[0])  # a second decision in a row is marked there
    assert ("🎓 alice:" in r.response.message.content) == shown


def _count(image: Image.Image, colour: tuple[int, int, int]) -> int:
    return sum(n for n, rgb in image.getcolors(1 << 16) or [] if rgb == colour)
