"""Around the table, through SimCord as players use it: a rematch (accepted, declined, expired), a
spectator's Watch, the ? button, and provably fair dice (the seed hash shown at the start matches the
seed revealed at the end, and tools/verify_seed.py replays the match from it)."""

from __future__ import annotations

import json
import random
import re

import pytest

from engine.fair import seed_hash
from engine.games.ugah import RULES
from tests.bot.helpers import (
    board,
    button_id,
    custom_ids,
    open_and_start,
    play_to_end,
    public_messages,
    setup_table,
)
from tools import verify_seed


async def finished_by_resignation(env, n=2):
    _guild, channel, players = setup_table(env, n=3)
    mid = await open_and_start(env, channel, players[:n], variant="uncertain")
    r = await players[0].slash(channel, "game resign", confirm=True)
    assert r.ephemeral and "your opponent wins" in r.response.content
    m, _ = await env.bot.matches.get(mid)
    assert m.status == "finished"
    return channel, players, m


async def click(actor, msg, cid):
    return await actor.click(msg, custom_id=cid)


async def test_rematch_accepted_starts_a_new_match_with_the_same_seats(simcord_env):
    env = simcord_env
    channel, (alice, bob, carol), old = await finished_by_resignation(env)
    final = board(channel)
    r = await click(carol, final, button_id(final, "rematch", "l"))
    assert r.ephemeral and "aren't playing" in r.response.content, "only players offer a rematch"
    r = await click(bob, final, button_id(final, "rematch", "l"))
    assert not r.ephemeral
    offer = board(channel)
    assert offer.id != final.id and "Rematch" in offer.content and "Uncertain hunting" in offer.content
    assert [c.split(":")[3] for c in custom_ids(offer)] == ["accept", "decline"]
    new = await env.bot.matches.live_in_channel(channel.id)
    assert new is not None and new.status == "lobby" and new.id != old.id
    r = await click(bob, offer, button_id(offer, "accept", "l"))
    assert r.ephemeral and "already accepted" in r.response.content, "the offer counts as bob's accept"
    r = await click(carol, board(channel), button_id(board(channel), "accept", "l"))
    assert r.ephemeral and "aren't playing" in r.response.content
    assert (await env.bot.matches.get(new.id))[0].status == "lobby", "alice has not accepted yet"
    r = await click(alice, board(channel), button_id(board(channel), "accept", "l"))
    assert not r.ephemeral
    m, state = await env.bot.matches.get(new.id)
    assert m.status == "active" and state is not None
    assert [(s.user_id, s.ai) for s in m.seats] == [(s.user_id, s.ai) for s in old.seats]
    assert m.options == old.options and m.seed != old.seed
    assert board(channel).id == offer.id and custom_ids(board(channel), "h:"), "the offer became the board"


async def test_rematch_declined_frees_the_channel(simcord_env):
    env = simcord_env
    channel, (alice, bob, _), _old = await finished_by_resignation(env)
    await click(alice, board(channel), button_id(board(channel), "rematch", "l"))
    offer = board(channel)
    r = await click(bob, offer, button_id(offer, "decline", "l"))
    assert not r.ephemeral
    assert "bob declined the rematch" in board(channel).content and custom_ids(board(channel)) == []
    assert await env.bot.matches.live_in_channel(channel.id) is None
    r = await alice.slash(channel, "ugah start")
    assert not r.ephemeral, "the channel is free for a new game"


async def test_rematch_expires_after_ten_minutes(simcord_env):
    env = simcord_env
    channel, (alice, _bob, _), _ = await finished_by_resignation(env)
    await click(alice, board(channel), button_id(board(channel), "rematch", "l"))
    await env.advance_time(9 * 60)
    assert await env.bot.matches.live_in_channel(channel.id) is not None, "still waiting after 9 minutes"
    await env.advance_time(61)
    assert "rematch offer expired" in board(channel).content and custom_ids(board(channel)) == []
    assert await env.bot.matches.live_in_channel(channel.id) is None


async def test_a_spectator_watches_privately_and_nothing_changes(simcord_env):
    env = simcord_env
    _, channel, (alice, bob, carol) = setup_table(env, n=3)
    mid = await open_and_start(env, channel, [alice, bob])
    before_row, _ = await env.bot.matches.get(mid)
    msg = board(channel)
    count = len(channel.history())
    r = await click(carol, msg, button_id(msg, "watch", "h"))
    assert r.ephemeral
    assert r.response.content == msg.content, "the public view, as text"
    assert r.response.attachments and r.response.attachments[0].filename == "ugah.png"
    assert custom_ids(r.response) == [], "watching, not playing"
    after_row, _ = await env.bot.matches.get(mid)
    assert after_row.version == before_row.version and carol.id not in [s.user_id for s in after_row.seats]
    assert board(channel).content == msg.content
    assert len([m for m in channel.history() if not m.flags.ephemeral]) == len(
        [m for m in channel.history()[:count] if not m.flags.ephemeral]
    )
    r = await click(alice, msg, button_id(msg, "watch", "h"))
    assert r.ephemeral and r.response.content != msg.content, "a player gets their own panel"


async def test_help_button_for_the_mover_and_for_someone_waiting(simcord_env):
    env = simcord_env
    _, channel, (alice, bob, carol) = setup_table(env, n=3)
    mid = await open_and_start(env, channel, [alice, bob])
    m, state = await env.bot.matches.get(mid)
    mover = [alice, bob][state.current]
    waiting = [alice, bob][1 - state.current]
    msg = board(channel)
    r = await click(mover, msg, button_id(msg, "help", "h"))
    assert r.ephemeral and r.response.content.startswith("**Your move.**")
    assert state.phase == "pick" and "The dice show" in r.response.content
    for sym in set(state.rolled):  # every symbol showing is named, with its count
        name = {"dinosaur": "Dinosaur", "mammoth": "Mammoth", "bird": "Bird"}.get(sym)
        if name:
            assert f"{name} ×{state.rolled.count(sym)}" in r.response.content
    for who in (waiting, carol):
        r = await click(who, msg, button_id(msg, "help", "h"))
        assert r.ephemeral and f"Waiting for {mover.name}" in r.response.content
    assert (await env.bot.matches.get(mid))[0].version == m.version


async def test_fair_seed_hash_matches_the_revealed_seed_and_replays(simcord_env, tmp_path, capsys):
    env = simcord_env
    _, channel, (alice, bob, carol) = setup_table(env, n=3)
    mid = await open_and_start(env, channel, [alice, bob])
    shown = re.search(r"seed hash `([0-9a-f]{16})`", board(channel).content)
    assert shown, board(channel).content
    r = await carol.slash(channel, "game fair")
    assert r.ephemeral
    full = re.search(r"`([0-9a-f]{64})`", r.response.content).group(1)
    assert full.startswith(shown.group(1))
    m, _ = await env.bot.matches.get(mid)
    assert str(m.seed) not in board(channel).content + r.response.content, "no seed while it runs"
    await play_to_end(env, channel, [alice, bob], mid, random.Random(3))
    m, state = await env.bot.matches.get(mid)
    revealed = re.search(r"seed `([0-9]+)`", board(channel).content)
    assert revealed and seed_hash(int(revealed.group(1))) == full
    r = await carol.slash(channel, "game fair", match=mid)
    assert r.ephemeral and revealed.group(1) in r.response.content
    log = json.loads(await r.response.attachments[0].read())
    assert log["seed"] == int(revealed.group(1)) and log["seed_sha256"] == full
    assert log["final"] == json.loads(json.dumps(RULES.dump(state)))
    path = tmp_path / "log.json"
    path.write_text(json.dumps(log))
    assert verify_seed.main([str(path), "--quiet"]) == 0
    assert "replay equals the final state" in capsys.readouterr().out
    args = [str(log["seed"]), *[f"{s}:{a}" for s, a in log["actions"]], "--hash", full, "--quiet"]
    assert verify_seed.main(args) == 0
    log["seed"] += 1  # another seed: the hash and the dice disagree
    path.write_text(json.dumps(log))
    assert verify_seed.main([str(path), "--quiet"]) == 1


async def test_a_solo_rematch_starts_at_once(simcord_env):
    """Nobody else to wait for (Ubongo's time attack alone): Rematch starts the same run again."""
    env = simcord_env
    _, channel, (alice,) = setup_table(env, 1)
    r = await alice.slash(channel, "ubongo solo", mode="time.5")
    assert not r.ephemeral
    old = await env.bot.matches.live_in_channel(channel.id)
    await env.advance_time(5 * 60 + 1)
    final = board(channel)
    assert (await env.bot.matches.get(old.id))[0].status == "finished"
    r = await alice.click(final, custom_id=button_id(final, "rematch", "l"))
    assert not r.ephemeral, r.response and r.response.content
    new = await env.bot.matches.live_in_channel(channel.id)
    assert new is not None and new.status == "active" and new.id != old.id
    assert new.options == old.options and new.seed != old.seed
    assert board(channel).id != final.id and "seed hash" in board(channel).content


@pytest.mark.parametrize("ending", ["declined", "expired"])
async def test_a_finished_game_is_offered_a_rematch_once(simcord_env, ending):
    env = simcord_env
    channel, (alice, bob, _), old = await finished_by_resignation(env)
    final = board(channel)
    await click(alice, final, button_id(final, "rematch", "l"))
    offer = board(channel)
    if ending == "declined":
        await click(bob, offer, button_id(offer, "decline", "l"))
    else:
        await env.advance_time(10 * 60 + 1)
    assert await env.bot.matches.live_in_channel(channel.id) is None
    count = len(public_messages(channel))
    for who in (alice, bob):
        r = await click(who, final, button_id(final, "rematch", "l"))
        assert r.ephemeral and "already had its rematch offer" in r.response.content, r.response.content
        assert "/ugah start" in r.response.content
    assert await env.bot.matches.live_in_channel(channel.id) is None, "no second offer"
    assert len(public_messages(channel)) == count and board(channel).id == offer.id
    m, _ = await env.bot.matches.get(old.id)
    assert m.status == "finished" and m.meta.rematch > old.id
