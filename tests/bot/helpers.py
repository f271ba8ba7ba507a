"""Helpers for driving games through SimCord as players would."""

from __future__ import annotations

import random
from typing import Any

import discord


def public_messages(channel: Any) -> list[discord.Message]:
    """Public messages, without the turn pings (replies to the board)."""
    return [m for m in channel.history() if not m.flags.ephemeral and m.reference is None]


def pings(channel: Any) -> list[discord.Message]:
    return [m for m in channel.history() if not m.flags.ephemeral and m.reference is not None]


def board(channel: Any) -> discord.Message:
    """The game's channel message (the latest public bot message)."""
    msgs = public_messages(channel)
    assert msgs, "no public message in channel"
    return msgs[-1]


def custom_ids(msg: Any, prefix: str = "") -> list[str]:
    ids = []
    for row in msg.components:
        for child in getattr(row, "children", []):
            cid = getattr(child, "custom_id", None)
            if cid and cid.startswith(prefix):
                ids.append(cid)
    return ids


def button_id(msg: Any, arg: str, kind: str = "g") -> str:
    for cid in custom_ids(msg, kind + ":"):
        if cid.split(":", 3)[3] == arg:
            return cid
    raise AssertionError(f"no {kind}-button {arg!r} on the message: {custom_ids(msg)}")


def setup_table(env: Any, n: int = 4, names: tuple[str, ...] = ("alice", "bob", "carol", "dave")):
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    players = [guild.add_member(env.create_user(name)) for name in names[:n]]
    return guild, channel, players


async def open_and_start(env: Any, channel: Any, players: list[Any], *, ai: int = 0, **options: Any) -> int:
    """/ugah start by players[0], the others join, optional AI seats, host starts. Returns match id."""
    host = players[0]
    result = await host.slash(channel, "ugah start", **options)
    assert not result.ephemeral, result.response and result.response.content
    lobby = result.response.message
    for p in players[1:]:
        r = await p.click(board(channel), custom_id=button_id(board(channel), "join", "l"))
        assert not r.ephemeral
    for _ in range(ai):
        await host.click(board(channel), custom_id=button_id(board(channel), "ai.normal", "l"))
    await host.click(board(channel), custom_id=button_id(board(channel), "start", "l"))
    assert lobby.id == board(channel).id
    return int(button_id(board(channel), "hand", "h").split(":")[1])


def actor_for(env: Any, players: list[Any], user_id: int) -> Any:
    return next(p for p in players if p.id == user_id)


async def next_click(env: Any, channel: Any, players: list[Any], match_id: int, rng: random.Random):
    """What the player to move does next: a zero-argument coroutine factory clicking one of the game
    buttons (or choosing in the multi-select). Split from play_one so benchmarks time only the click."""
    m, state = await env.bot.matches.get(match_id)
    actor = actor_for(env, players, m.seats[state.current].user_id)
    msg = board(channel)
    buttons = custom_ids(msg, "g:")
    selects = custom_ids(msg, "s:")
    if selects and rng.random() < 0.3:
        options = [o for row in msg.components for c in row.children if getattr(c, "custom_id", "") == selects[0]
                   for o in c.options]  # fmt: skip
        values = rng.sample([o.value for o in options], rng.randint(1, len(options)))
        return lambda: actor.select(msg, values, custom_id=selects[0])
    cid = rng.choice(buttons)
    return lambda: actor.click(msg, custom_id=cid)


async def play_one(env: Any, channel: Any, players: list[Any], match_id: int, rng: random.Random) -> Any:
    """The player to move clicks one of the game buttons (or uses the multi-select). Returns the result."""
    return await (await next_click(env, channel, players, match_id, rng))()


def forge_first_button(env: Any, channel: Any, custom_id: str) -> None:
    """Rewrite the board's first button id in the simulated Discord: an old client still showing a
    previous board, or a hand-crafted interaction, sends whatever custom_id it likes."""
    stored = env.backend.get_message(channel.id, board(channel).id)
    stored.components[0]["components"][0]["custom_id"] = custom_id


async def restart(env: Any, bot_factory: Any, **kwargs: Any) -> Any:
    """Stop the running bot as a process exit would (timers, database, its instance lock), then
    start a new bot on the same database file. Returns the old bot."""
    old = env.bot
    await old.matches.close()
    await old.store.close()
    await env.restart_bot(bot_factory(**kwargs))
    return old
