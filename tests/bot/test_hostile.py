"""Hostile input and races: 50 simultaneous clicks, fuzzed custom_ids, select values and command
options. Nothing escapes as an unhandled exception, the state is unchanged, the reply is ephemeral."""

from __future__ import annotations

import logging
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from simcord.backend.errors import OptionError

from bot.__main__ import main as bot_main
from engine.games.ugah import RULES
from tests.bot.concurrent import concurrent_clicks
from tests.bot.helpers import board, custom_ids, open_and_start, play_one, said_privately, setup_table
from tests.bot.test_settings import FAKE
from tests.replayed import replayed

FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


async def snapshot(env, mid):
    m, state = await env.bot.matches.get(mid)
    return m.version, RULES.dump(state)


async def started(env, n=2):
    guild, channel, players = setup_table(env, n)
    mid = await open_and_start(env, channel, players)
    return guild, channel, players, mid


async def test_fifty_simultaneous_clicks_apply_exactly_one_move(simcord_env):
    env = simcord_env
    guild, channel, players, mid = await started(env, 2)
    outsiders = [guild.add_member(env.create_user(f"eve{i}")) for i in range(5)]
    m, state = await env.bot.matches.get(mid)
    current = next(p for p in players if p.id == m.seats[state.current].user_id)
    other = next(p for p in players if p is not current)
    msg = board(channel)
    cid = custom_ids(msg, "g:")[0]
    clickers = [current] * 25 + [other] * 15 + outsiders * 2
    results = await concurrent_clicks(env, [(p, msg, cid) for p in clickers])
    assert len(results) == 50 and all(r.acknowledged for r in results)
    assert sum(not said_privately(r) for r in results) == 1, "one move; the others refused privately"
    assert sum(1 for a in await env.bot.store.actions(mid) if a.source == "player") == 1
    assert await replayed(env.bot.matches, mid) == (await env.bot.matches.get(mid))[1]


custom_id_text = st.one_of(
    st.text(min_size=1, max_size=100),
    st.from_regex(r"[lghs]:[0-9]{1,20}:[0-9]{1,9}:[ -~]{0,60}", fullmatch=True),
    st.builds(
        lambda kind, mid, ver, arg: f"{kind}:{mid}:{ver}:{arg}",
        st.sampled_from("lghsx"),
        st.sampled_from(["1", "0", "2", "999999999999999999", "-1"]),
        st.sampled_from(["1", "2", "3", "4", "0", "99"]),
        st.sampled_from(
            [
                "pick.bird",
                "pick.bird.bird",
                "pick.bone",
                "first.mm",
                "keep.mm.1",
                "keep.bb.0",
                "keep.mm.01",
                "join",
                "start",
                "hand",
                "",
                "pick..mm",
                "PICK.MM",
            ]
        ),
    ),
).filter(lambda s: 1 <= len(s) <= 100 and s.strip() == s and s)


async def fuzz_table(env):
    """One game per test function, shared by all of hypothesis's examples (each must leave it as it was)."""
    if not hasattr(env, "fuzz_table"):
        _, channel, players, mid = await started(env)
        rng = random.Random(0)
        while not custom_ids(board(channel), "s:"):  # play on until the board offers the multi-select
            await play_one(env, channel, players, mid, rng)
        env.fuzz_table = (channel, players, mid)
    channel, players, mid = env.fuzz_table
    m, state = await env.bot.matches.get(mid)
    current = next(p for p in players if p.id == m.seats[state.current].user_id)
    return channel, current, mid


def forge(env, channel, row: int, **fields):
    """Rewrite a component of the board in the simulated Discord (a modified client sends anything)."""
    stored = env.backend.get_message(channel.id, board(channel).id)
    component = stored.components[row]["components"][0]
    saved = {k: component.get(k) for k in fields}
    component.update(fields)
    return lambda: component.update(saved)


@FUZZ
@given(cid=custom_id_text)
async def test_fuzzed_custom_ids_change_nothing_and_get_an_ephemeral_reply(simcord_env, cid):
    env = simcord_env
    channel, current, mid = await fuzz_table(env)
    if cid in custom_ids(board(channel)):  # a genuine control of the current board: not hostile
        return
    before = await snapshot(env, mid)
    restore = forge(env, channel, 0, custom_id=cid)
    try:
        r = await current.click(board(channel), custom_id=cid)
    finally:
        restore()
    assert r.acknowledged and r.ephemeral and r.response.content
    assert await snapshot(env, mid) == before


@FUZZ
@given(values=st.lists(st.text(min_size=1, max_size=40), min_size=1, max_size=5, unique=True))
async def test_fuzzed_select_values_change_nothing(simcord_env, values):
    env = simcord_env
    channel, current, mid = await fuzz_table(env)
    selects = custom_ids(board(channel), "s:")
    names = {"dinosaur", "mammoth", "bird", "mm", "bb"}
    if set(values) <= names:
        return  # a genuine choice of symbols (legal or not is the rules' business, tested elsewhere)
    before = await snapshot(env, mid)
    row = next(i for i, r in enumerate(board(channel).components) if custom_ids_of_row(r, "s:"))
    options = [{"label": v[:25] or "x", "value": v} for v in values]
    restore = forge(env, channel, row, options=options, max_values=len(values))
    try:
        r = await current.select(board(channel), values, custom_id=selects[0])
    finally:
        restore()
    assert r.acknowledged and r.ephemeral and r.response.content
    assert await snapshot(env, mid) == before


def custom_ids_of_row(row, prefix):
    return [
        c.custom_id
        for c in getattr(row, "children", [])
        if (getattr(c, "custom_id", "") or "").startswith(prefix)
    ]


@FUZZ
@given(seconds=st.integers(min_value=-(10**12), max_value=10**12), variant=st.text(max_size=30))
async def test_fuzzed_start_options_get_a_clear_reply(simcord_env, seconds, variant):
    env = simcord_env
    if not hasattr(env, "fuzz_channel"):
        guild = env.create_guild()
        env.fuzz_channel = guild.create_text_channel("fuzz")
        env.fuzz_host = guild.add_member(env.create_user("host"))
    try:
        r = await env.fuzz_host.slash(env.fuzz_channel, "ugah start", variant=variant, turn_seconds=seconds)
    except OptionError:  # the client refuses what Discord would refuse (choices, ranges)
        return
    assert r.acknowledged
    if not r.ephemeral:  # a valid lobby was opened: close it for the next example
        m = await env.bot.matches.live_in_channel(env.fuzz_channel.id)
        await env.bot.matches.end(m.id, env.fuzz_host.id, moderator=True)
    else:
        assert r.response.content


async def test_the_token_never_reaches_logs_or_error_messages(monkeypatch, capsys, caplog):
    """Run the real entry point with a recognisable fake token and a Discord that refuses it."""
    import discord

    from bot import client as client_module

    monkeypatch.setenv("DISCORD_TOKEN", FAKE)

    def refusing_run(self, token, **kwargs):
        logging.getLogger("discord.client").info("logging in using static token")
        raise discord.LoginFailure("Improper token has been passed.")

    monkeypatch.setattr(client_module.GameBot, "run", refusing_run)
    caplog.set_level(logging.DEBUG)
    assert bot_main() == 2
    out = capsys.readouterr()
    assert "refused the token" in out.err
    everything = out.out + out.err + caplog.text + repr(client_module.create_bot(":memory:").__dict__)
    assert FAKE not in everything
