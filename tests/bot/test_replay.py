"""Replays through SimCord as players use them: the animated recap posted once when a game finishes,
/replay stepped with its buttons (to the final board, back, after a restart, refused when forged, live
or from another server), and the picture /game rules attaches."""

from __future__ import annotations

import io
import random
import re

import pytest
from PIL import Image, ImageChops

from bot.games import SPECS, UIS
from bot.i18n import translator
from bot.replay import step_board
from bot.surfaces.recap import DELAY_SECONDS as RECAP_DELAY
from engine import options as typed_options
from engine.registry import rules_for
from engine.replay import Step, rebuild
from engine.store import LoggedAction, MatchRow, SeatInfo
from tests.bot.helpers import (
    board,
    button_id,
    custom_ids,
    open_and_start,
    pings,
    play_to_end,
    restart,
    setup_table,
)
from tests.kit_honga import HongaKit
from tests.kit_ubongo import UbongoKit
from tests.kits import UgahKit

MAX_RECAP_BYTES = 8 * 1024 * 1024  # Discord's upload limit without boosts


async def finished_game(env, seed=5):
    guild, channel, players = setup_table(env, n=3)
    alice, bob, _carol = players
    mid = await open_and_start(env, channel, [alice, bob], variant="basic")
    await play_to_end(env, channel, [alice, bob], mid, random.Random(seed))
    assert recaps(channel) == [], "never on the path of the click that ended the game"
    await env.advance_time(RECAP_DELAY + 1)
    return guild, channel, players, mid


def recaps(channel):
    replies = [m for m in channel.history() if not m.flags.ephemeral and m.reference is not None]
    return [m for m in replies if m.attachments and m.attachments[0].filename == "recap.gif"]


def step_of(message) -> tuple[int, int]:
    found = re.search(r"step (\d+) of (\d+)", message.content)
    assert found, message.content
    return int(found.group(1)), int(found.group(2))


def replay_id(message, op: str) -> str:
    return button_id(message, op, "r")


def disabled(message) -> set[str]:
    return {
        c.custom_id.split(":")[3]
        for row in message.components
        for c in row.children
        if getattr(c, "disabled", False)
    }


async def pixels(attachment) -> Image.Image:
    return Image.open(io.BytesIO(await attachment.read())).convert("RGB")


async def test_a_finished_game_gets_one_animated_recap(simcord_env, bot_factory):
    env = simcord_env
    _, channel, _players, mid = await finished_game(env)
    posted = recaps(channel)
    assert len(posted) == 1, [m.content for m in channel.history()]
    assert pings(channel) == [], "the recap is not a turn ping"
    recap = posted[0]
    assert recap.reference is not None and recap.reference.message_id == board(channel).id, (
        "a reply to the board"
    )
    assert f"/replay match:{mid}" in recap.content
    data = await recap.attachments[0].read()
    assert len(data) < MAX_RECAP_BYTES
    image = Image.open(io.BytesIO(data))
    assert image.format == "GIF" and image.is_animated and 2 <= image.n_frames <= 24
    first = image.convert("RGB")
    image.seek(image.n_frames - 1)
    assert ImageChops.difference(first, image.convert("RGB")).getbbox() is not None, "the board moves"
    assert await env.bot.surfaces.addresses.get(mid, "recap") is not None, "claimed once, for every process"
    await env.bot.surfaces.settle(mid)  # anything that brings the board in line again
    assert len(recaps(channel)) == 1, "sent once"
    await restart(env, bot_factory)
    await env.bot.surfaces.settle(mid)
    assert len(recaps(channel)) == 1, "a restart does not send it again"


async def test_replay_steps_to_the_final_board_and_back(simcord_env, bot_factory):
    env = simcord_env
    _, channel, (_alice, _bob, carol), mid = await finished_game(env, seed=8)
    version = (await env.bot.matches.get(mid))[0].version
    r = await carol.slash(channel, "replay", match=mid)
    assert r.ephemeral, r.response and r.response.content
    msg = r.response.message
    step, total = step_of(msg)
    actions = await env.bot.store.actions(mid)
    assert (step, total) == (0, len(actions)) and total > 2
    assert msg.attachments and disabled(msg) == {"first", "prev"}
    start = await pixels(msg.attachments[0])
    for expected in range(1, total + 1):
        r = await carol.click(msg, custom_id=replay_id(msg, "next"))
        assert r.acknowledged and r.response is not None, r
        msg = r.response.message
        assert step_of(msg) == (expected, total), "the same message, one step on"
    assert disabled(msg) == {"next", "last"}
    final = await pixels(board(channel).attachments[0])
    shown = await pixels(msg.attachments[0])
    assert shown.size == final.size
    assert ImageChops.difference(shown, final).getbbox() is None, "the last step is the final board"
    r = await carol.click(msg, custom_id=replay_id(msg, "prev"))
    msg = r.response.message
    assert step_of(msg) == (total - 1, total)
    assert ImageChops.difference(await pixels(msg.attachments[0]), final).getbbox() is not None
    r = await carol.click(msg, custom_id=replay_id(msg, "first"))
    msg = r.response.message
    assert step_of(msg) == (0, total)
    assert ImageChops.difference(await pixels(msg.attachments[0]), start).getbbox() is None

    await restart(env, bot_factory)
    r = await carol.click(msg, custom_id=replay_id(msg, "last"))  # the buttons survive a restart
    assert r.acknowledged and step_of(r.response.message) == (total, total)
    m, _ = await env.bot.matches.get(mid)
    assert m.version == version, "a replay writes nothing"


async def test_replay_refusals(simcord_env):
    env = simcord_env
    _, channel, (_alice, _bob, carol), mid = await finished_game(env, seed=3)
    r = await carol.slash(channel, "replay", match=mid)
    msg = r.response.message
    stored = env.backend.get_message(msg.channel.id, msg.id)
    for forged, text in (
        (f"r:{mid + 1000}:1:next", "no finished game with that number"),
        (f"r:{mid}:9999:next", "isn't recognised"),
    ):
        stored.components[0]["components"][2]["custom_id"] = forged
        r = await carol.click(msg, custom_id=forged)
        assert r.ephemeral and text in r.response.content, (forged, r.response and r.response.content)

    other = env.create_guild()
    elsewhere = other.create_text_channel("games")
    stranger = other.add_member(env.create_user("dave"))
    r = await stranger.slash(elsewhere, "replay", match=mid)
    assert r.ephemeral and "no finished game with that number" in r.response.content
    assert not r.response.attachments, "nothing of another server's game"

    live = await open_and_start(env, elsewhere, [stranger, other.add_member(env.create_user("erin"))])
    r = await stranger.slash(elsewhere, "replay", match=live)
    assert r.ephemeral and "still being played" in r.response.content


async def test_replay_suggests_this_servers_finished_games(simcord_env):
    env = simcord_env
    _, channel, (_alice, _bob, _carol), mid = await finished_game(env, seed=4)
    cog = env.bot.get_cog("Replay")

    class Asking:  # the autocomplete only reads who asks and where
        guild_id = channel.guild.id
        locale = "en-US"

    choices = await cog.recent(Asking(), "")
    assert [c.value for c in choices] == [mid]
    assert choices[0].name.startswith(f"#{mid} · Ugah Ugah! · alice, bob")
    Asking.guild_id = channel.guild.id + 1
    assert await cog.recent(Asking(), "") == []


async def test_rules_come_with_pictures(simcord_env):
    env = simcord_env
    _, channel, (alice,) = setup_table(env, n=1)
    for game in SPECS:
        r = await alice.slash(channel, "game rules", game=game)
        assert r.ephemeral and r.response.content
        files = r.response.attachments
        expected = [f"{game}_rules.png"] + ([f"{game}_rules_own.png"] if game == "ubongo" else [])
        assert [f.filename for f in files] == expected, "the start board (and a player's own puzzle)"
        for f in files:
            assert (await f.read()).startswith(b"\x89PNG") and f.description
    r = await alice.slash(channel, "game rules")
    assert r.ephemeral and "/ugah start" in r.response.content and not r.response.attachments


async def test_custom_ids_of_a_replay_are_ours(simcord_env):
    env = simcord_env
    _, channel, (_alice, _bob, carol), mid = await finished_game(env, seed=6)
    r = await carol.slash(channel, "replay", match=mid)
    ids = custom_ids(r.response.message)
    assert ids == [
        f"r:{mid}:0:first",
        f"r:{mid}:0:prev",
        f"r:{mid}:1:next",
        f"r:{mid}:{step_of(r.response)[1]}:last",
    ]


@pytest.mark.parametrize("kit", [UgahKit(), HongaKit(), UbongoKit()], ids=repr)
def test_replay_steps_hide_what_the_live_board_hides(kit, monkeypatch):
    """A step drawn from a state that differs only in hidden information (face-down chips, hands,
    puzzles) looks exactly the same, text and image, and what is drawn is the public view only."""
    rules, ui = rules_for(kit.game), UIS[kit.game]
    drawn = []
    real = ui.render
    monkeypatch.setattr(ui, "render", lambda view, *a, **kw: drawn.append(view) or real(view, *a, **kw))
    rng = random.Random(11)
    n = max(2, rules.min_players)
    opts = typed_options.resolve(rules.options, dict(kit.options), {"turn_seconds": 120})
    state, log = rules.setup(n, 11, opts), []
    while rules.to_move(state) and len(log) < 400:
        seat = min(rules.to_move(state))
        action = rng.choice(rules.legal_actions(state, seat))
        state, _ = rules.apply(state, seat, action)
        log.append(LoggedAction(len(log) + 2, seat, action, "player"))
    seats = [SeatInfo(100 + i, f"p{i}") for i in range(n)]
    m = MatchRow(1, kit.game, 1, 2, 100, "cancelled", len(log) + 2, 11, seats, opts, rules.dump(state))
    steps = rebuild(rules, n, 11, opts, log)
    tr = translator("en")
    checked = 0
    for k in range(1, len(steps) - 1, max(1, len(steps) // 12)):
        other = kit.perturb_hidden(steps[k].state, rng)
        if other == steps[k].state:
            continue
        twin = [*steps[:k], Step(steps[k].action, other, steps[k].events), *steps[k + 1 :]]
        a, b = step_board(m, steps, k, tr, tr), step_board(m, twin, k, tr, tr)
        assert a.content == b.content and a.draw() == b.draw(), (kit.game, k)
        assert drawn[-2:] == [rules.view(steps[k].state, None)] * 2, "the public view, nothing more"
        checked += 1
    assert checked >= 3, "hidden information to perturb"
