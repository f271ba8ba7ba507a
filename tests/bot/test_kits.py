"""The platform's guarantees, checked for every game through its kit (tests/kits.py): a whole game by
clicking, a restart mid-game, forged codes on the right surface, hidden information kept out of the
channel (metamorphic), timers that play on, and Discord faults on the surface that was clicked."""

from __future__ import annotations

import random

import pytest

from bot.render_pool import rendered
from tests.bot.helpers import restart, turns
from tests.kit_honga import HongaKit
from tests.kit_ubongo import UbongoKit
from tests.kit_uonga import UongaKit
from tests.kits import Click, Kit, TallyKit, UgahKit
from tests.replayed import replayed

# Every game's kit (tests/kit_<game>.py for the games added after Ugah); the toy game's too.
KITS: list[Kit] = [UgahKit(), TallyKit(), HongaKit(), UongaKit(), UbongoKit()]


@pytest.fixture(params=KITS, ids=repr)
def kit(request, monkeypatch) -> Kit:
    k: Kit = request.param
    k.register(monkeypatch)
    return k


async def consistent(env, mid):
    _, state = await env.bot.matches.get(mid)
    assert await replayed(env.bot.matches, mid) == state, "seed + action log replays to the stored state"
    return state


async def test_a_whole_game_by_clicking(kit, simcord_env):
    env = simcord_env
    channel, players, mid = await kit.start(env)
    rng = random.Random(11)
    async for _ in turns(env, mid, 800):
        r = await (await kit.next_click(env, channel, players, mid, rng))()
        assert not r.ephemeral, r.response and r.response.content
    m, _ = await env.bot.matches.get(mid)
    assert m.status == "finished"
    await consistent(env, mid)


async def test_a_restart_mid_game_keeps_old_controls_working(kit, simcord_env, bot_factory):
    env = simcord_env
    channel, players, mid = await kit.start(env)
    rng = random.Random(5)
    for _ in range(4):
        await (await kit.next_click(env, channel, players, mid, rng))()
    before = await consistent(env, mid)
    click = await kit.next_click(env, channel, players, mid, rng)  # a control drawn by the old process
    await restart(env, bot_factory)
    assert (await env.bot.matches.get(mid))[1] == before
    r = await click()
    assert not r.ephemeral, r.response and r.response.content
    assert (await consistent(env, mid)) != before


def forge(env, click: Click, custom_id: str) -> Click:
    """Rewrite the clicked control's id in the simulated Discord (an altered client sends anything)."""
    stored = env.backend.get_message(click.message.channel.id, click.message.id)
    for row in stored.components:
        for c in row.get("components", []):
            if c.get("custom_id") == click.custom_id:
                c["custom_id"] = custom_id
    return Click(click.actor, click.message, custom_id, click.values, click.in_dm)


async def test_forged_codes_on_the_right_surface_are_refused_and_change_nothing(kit, simcord_env):
    env = simcord_env
    channel, players, mid = await kit.start(env)
    rng = random.Random(3)
    for code in kit.fuzz:
        m, state = await env.bot.matches.get(mid)
        click = await kit.next_click(env, channel, players, mid, rng)
        kind, match_id, version, _ = click.custom_id.split(":", 3)
        forged = forge(env, click, f"{kind}:{match_id}:{version}:{code}")
        r = await forged()
        forge(env, forged, click.custom_id)  # a refused click redraws nothing: put the control back
        assert r.acknowledged and r.ephemeral, code
        m2, state2 = await env.bot.matches.get(mid)
        assert (m2.version, state2) == (m.version, state), code
    await consistent(env, mid)


async def test_hidden_information_never_reaches_the_channel(kit, simcord_env):
    """Metamorphic: change only what the public may not know; the public message (text, alt text,
    image bytes) must not change."""
    env = simcord_env
    channel, players, mid = await kit.start(env)
    rng = random.Random(8)
    for step in range(30):
        m, state = await env.bot.matches.get(mid)
        if m.status != "active":
            break
        twin = kit.perturb_hidden(state, random.Random(step))
        real = await rendered(await env.bot.surfaces.public_board(m, state))
        other = await rendered(await env.bot.surfaces.public_board(m, twin))
        assert (real.content, real.alt, real.png) == (other.content, other.alt, other.png)
        await (await kit.next_click(env, channel, players, mid, rng))()


async def test_timers_play_on_when_nobody_clicks(kit, simcord_env):
    env = simcord_env
    _channel, _players, mid = await kit.start(env)
    m, _ = await env.bot.matches.get(mid)
    actions = len(await env.bot.store.actions(mid))
    for _ in range(6):
        m, _ = await env.bot.matches.get(mid)
        if m.status != "active":
            break
        await env.advance_time(m.deadline - env.now().timestamp() + 1)
    assert len(await env.bot.store.actions(mid)) > actions, "the expired timers acted"
    await consistent(env, mid)
    m, _ = await env.bot.matches.get(mid)
    assert m.status != "active" or m.deadline is not None, "a live match always has a way forward"


@pytest.mark.parametrize(
    "route", ["POST /interactions/*/callback", "PATCH /channels/*/messages/*", "POST /channels/*/messages"]
)
async def test_discord_faults_on_the_clicked_surface_lose_nothing(kit, simcord_env, route):
    env = simcord_env
    channel, players, mid = await kit.start(env)
    rng = random.Random(21)
    await (await kit.next_click(env, channel, players, mid, rng))()
    method, path = route.split()
    env.inject_error(method, path, status=500, times=1)
    await (await kit.next_click(env, channel, players, mid, rng))()
    await consistent(env, mid)
    # the game goes on from whatever the surfaces show now
    for _ in range(3):
        m, _ = await env.bot.matches.get(mid)
        if m.status != "active":
            break
        await (await kit.next_click(env, channel, players, mid, rng))()
    await consistent(env, mid)
