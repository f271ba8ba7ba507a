"""A move the board shows begins drawing the board's new picture while its commit is written (issue
35: the picture, the slowest part of a move's answer, was drawn only once the commit had landed), a
move in a DM the seat's own new picture, and nothing else does: a computer's move that follows waits for its commit, and so does every move of a
burst (the answers go first), or any drawing that would be made in a render thread (no drawing
processes: it would hold the interpreter lock through the commit and the answer)."""

from __future__ import annotations

import functools
import random

import pytest

from bot import messages, render_pool
from bot.i18n import translator
from bot.messages import game_picture, private
from engine.registry import rules_for
from tests.bot.concurrent import concurrent_clicks
from tests.bot.helpers import board, custom_ids, open_and_start, play_one, setup_table, turns
from tests.kit_ubongo import UbongoKit, dm_board


@pytest.fixture(autouse=True)
def processes(monkeypatch):
    """As in production: the pictures are drawn in the drawing processes."""
    monkeypatch.setattr(render_pool, "PROCESSES", True)


def _watch_commits(env, monkeypatch) -> list[tuple[str, bool]]:
    """(source of the commit's actions, whether the board's new picture was under way) per commit."""
    seen: list[tuple[str, bool]] = []
    store = env.bot.store
    real = store.commit

    async def commit(m, actions, *args, **kwargs):
        if m.status == "active" and actions:
            key = game_picture(m, rules_for(m.game).load(m.state)).image_key
            seen.append((actions[-1].source, key in render_pool._drawings))
        return await real(m, actions, *args, **kwargs)

    monkeypatch.setattr(store, "commit", commit)
    return seen


async def test_a_move_on_the_board_is_drawn_while_its_commit_is_written(simcord_env, monkeypatch):
    env = simcord_env
    _, channel, players = setup_table(env, 2)
    mid = await open_and_start(env, channel, players)
    seen = _watch_commits(env, monkeypatch)
    rng = random.Random(3)
    for _ in range(6):
        await play_one(env, channel, players, mid, rng)
    assert seen and all(ahead for source, ahead in seen if source == "player"), seen
    m, state = await env.bot.matches.get(mid)
    shown = await board(channel).attachments[0].read()
    assert shown == game_picture(m, state).draw(), "the picture drawn ahead is the state's, byte for byte"


async def test_a_move_in_a_dm_is_drawn_while_its_commit_is_written(simcord_env, monkeypatch):
    """Ubongo's placements are made in the seat's DM: its workspace is the picture drawn ahead."""
    env = simcord_env
    kit = UbongoKit()
    _, players, mid = await kit.start(env)
    seen: list[bool] = []
    store, real = env.bot.store, env.bot.store.commit

    async def commit(m, actions, *args, **kwargs):
        if m.status == "active" and actions and actions[-1].source == "player":
            state = rules_for(m.game).load(m.state)
            dm = private(m, state, actions[-1].seat, translator(None))
            seen.append(dm.image_key in render_pool._drawings)
        return await real(m, actions, *args, **kwargs)

    monkeypatch.setattr(store, "commit", commit)
    rng = random.Random(5)
    for _ in range(4):
        await (await kit.next_click(env, None, players, mid, rng))()
    assert len(seen) >= 4 and all(seen), seen
    m, state = await env.bot.matches.get(mid)
    for seat, player in enumerate(players):
        shown = await dm_board(player).attachments[0].read()
        drawn = private(m, state, seat, translator(None)).draw
        assert drawn is not None and shown == drawn(), "each DM shows its seat's picture, byte for byte"


async def test_a_computers_move_after_a_click_waits_for_its_commit(simcord_env, monkeypatch):
    env = simcord_env
    _, channel, players = setup_table(env, 1)
    mid = await open_and_start(env, channel, players, ai=1)
    seen = _watch_commits(env, monkeypatch)
    rng = random.Random(4)
    async for _ in turns(env, mid, 6):
        await play_one(env, channel, players, mid, rng)
        await env.advance_time(30)  # the computer's answer
    computers = [ahead for source, ahead in seen if source == "computer"]
    assert computers and not any(computers), "a task the click set off is not the click"
    assert any(ahead for source, ahead in seen if source == "player")


async def test_the_moves_of_a_burst_wait_for_their_commits(simcord_env, monkeypatch):
    env = simcord_env
    guild = env.create_guild()
    games = []
    for i in range(3):
        channel = guild.create_text_channel(f"t{i}")
        players = [guild.add_member(env.create_user(f"p{i}{n}")) for n in "ab"]
        games.append((channel, players, await open_and_start(env, channel, players)))
    seen = _watch_commits(env, monkeypatch)
    clicks = []
    for channel, players, mid in games:
        m, state = await env.bot.matches.get(mid)
        actor = next(p for p in players if p.id == m.seats[min(rules_for("ugah").to_move(state))].user_id)
        clicks.append((actor, board(channel), custom_ids(board(channel), "g:")[0]))
    await concurrent_clicks(env, clicks)
    assert len(seen) == 3 and not any(ahead for _, ahead in seen), seen


async def test_without_drawing_processes_nothing_is_drawn_ahead(simcord_env, monkeypatch):
    monkeypatch.setattr(render_pool, "PROCESSES", False)
    env = simcord_env
    _, channel, players = setup_table(env, 2)
    mid = await open_and_start(env, channel, players)
    seen = _watch_commits(env, monkeypatch)
    await play_one(env, channel, players, mid, random.Random(3))
    assert seen and not any(ahead for _, ahead in seen), seen


async def test_a_moves_public_picture_is_built_once(simcord_env, monkeypatch):
    """Asked for at the commit, by the answer and by the board's reconciler, a move's public view and
    image key are worked out once (bot.messages._picture), not once for each."""
    env = simcord_env
    _, channel, players = setup_table(env, 2)
    mid = await open_and_start(env, channel, players)
    rules = rules_for("ugah")
    views, keys = [], []
    real_view, real_key = rules.view, messages.image_key

    def view(state, seat):
        views.append(seat)
        return real_view(state, seat)

    def image_key(draw):
        if isinstance(draw, functools.partial):  # (not the function inside it, keyed on the way)
            keys.append(draw)
        return real_key(draw)

    monkeypatch.setattr(rules, "view", view)
    monkeypatch.setattr(messages, "image_key", image_key)
    rng = random.Random(6)
    for _ in range(5):
        views.clear()
        keys.clear()
        await play_one(env, channel, players, mid, rng)
        assert views.count(None) == 1 and len(keys) == 1, (views, keys)
    m, state = await env.bot.matches.get(mid)
    shown = await board(channel).attachments[0].read()
    assert shown == game_picture(m, state).draw(), "the board shows the committed state's picture"
