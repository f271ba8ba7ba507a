"""bench.bucket: the simulated global bucket and channel limit answer as Discord does (429, retry_after,
global), the bot's client meets them as discord.py would, and a tiny run fills the table."""

from __future__ import annotations

import asyncio
import time
from types import SimpleNamespace

import discord
import pytest

from bench import bucket, discord_limits
from bot.surfaces.send import hurried, verdict
from harness.sim import board, setup_table

TOKENS = SimpleNamespace(interaction_tokens={"tok": 1})


def test_the_bucket_refills_on_the_clock():
    b = discord_limits.Bucket(2.0, 2.0)
    t = b.at
    assert b.take(t) == 0 and b.take(t) == 0
    assert b.take(t) == pytest.approx(0.5)  # empty: a token in half a second
    assert b.take(t + 0.5) == 0
    assert b.take(t + 10) == 0 and b.take(t + 10) == 0 and b.take(t + 10) > 0  # capacity 2


def test_a_bot_token_request_over_the_budget_is_a_global_429():
    limits = discord_limits.Limits(1.0)
    limits.check(TOKENS, "PATCH", "/channels/1/messages/2")
    with pytest.raises(discord_limits.TooMany) as raised:
        limits.check(TOKENS, "PATCH", "/channels/1/messages/2")
    body = raised.value.to_json()
    assert raised.value.status == 429 and body["global"] is True and 0 < body["retry_after"] <= 1
    for _ in range(5):  # an interaction's token is outside the budget
        limits.check(TOKENS, "POST", "/interactions/5/tok/callback")
        limits.check(TOKENS, "PATCH", "/webhooks/9/tok/messages/@original")
    assert (limits.requests, limits.global_429, limits.channel_429) == (2, 1, 0)


def test_a_channel_takes_five_posts_in_five_seconds():
    limits = discord_limits.Limits(1000.0)
    for _ in range(5):
        limits.check(TOKENS, "POST", "/channels/7/messages")
    limits.check(TOKENS, "POST", "/channels/8/messages")  # another channel
    with pytest.raises(discord_limits.TooMany) as raised:
        limits.check(TOKENS, "POST", "/channels/7/messages")
    assert raised.value.to_json()["global"] is False and limits.channel_429 == 1


def _empty(b: discord_limits.Bucket) -> None:
    b.tokens, b.at = 0.0, time.perf_counter()


async def test_the_bots_client_waits_out_a_429_or_hears_of_it_at_once(simcord_env):
    env = simcord_env
    _, channel, _ = setup_table(env, 1)
    gate = discord_limits.Gate()
    gate.limits = discord_limits.Limits(20.0)
    _empty(gate.limits.shared)  # the next token in 50 ms
    sent = env.bot.get_channel(channel.id)
    with discord_limits.gated(env, gate):
        with hurried(), pytest.raises(discord.RateLimited) as raised:
            await sent.send("in a hurry")
        assert verdict(raised.value).after == pytest.approx(raised.value.retry_after)
        _empty(gate.limits.shared)
        await sent.send("waits")  # as discord.py: the 429 slept out, then sent
    assert board(channel).content == "waits"
    assert gate.limits.global_429 == 2


def test_a_tiny_run_fills_the_table_and_a_tiny_bucket_is_met(monkeypatch):
    monkeypatch.setattr(bucket, "PATIENCE", 3.0)  # the tiny bucket's surfaces are late by design
    rows = asyncio.run(bucket.measure(4.0, 2.0, 1, (100, 100_000), games=("ubongo",)))
    assert [f.equivalent for f in rows] == [100, 100_000]
    for f in rows:
        assert f.clicks > 0 and len(f.acks) == f.clicks
    assert rows[-1].global_429 > 0  # new Ubongo players' DMs: the bot token, past a bucket of 0.002/s
    lines = bucket.lines(rows)
    assert all(len(line) == len(bucket.HEAD) for line in lines)
    assert "scale model" in bucket.printed(rows)
