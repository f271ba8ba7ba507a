"""Helpers for driving games through SimCord as players would (the shared part lives in harness.sim)."""

from __future__ import annotations

import random
from typing import Any

from harness.sim import (
    actor_for,
    board,
    button_id,
    custom_ids,
    next_click,
    open_and_start,
    pings,
    public_messages,
    setup_table,
)

__all__ = [
    "actor_for",
    "board",
    "button_id",
    "custom_ids",
    "forge_first_button",
    "next_click",
    "open_and_start",
    "pings",
    "play_one",
    "play_to_end",
    "public_messages",
    "restart",
    "setup_table",
]


async def play_one(env: Any, channel: Any, players: list[Any], match_id: int, rng: random.Random) -> Any:
    """The player to move clicks one of the game buttons (or uses the multi-select). Returns the result."""
    return await (await next_click(env, channel, players, match_id, rng))()


async def play_to_end(env: Any, channel: Any, players: list[Any], match_id: int, rng: random.Random) -> Any:
    """Ugah played by clicks until it is over; returns the finished row."""
    for _ in range(600):
        m, _ = await env.bot.matches.get(match_id)
        if m.status != "active":
            break
        await play_one(env, channel, players, match_id, rng)
    m, _ = await env.bot.matches.get(match_id)
    assert m.status == "finished"
    return m


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


async def board_message_id(env: Any, match_id: int) -> int | None:
    """Where the bot keeps the match's board (its surface address), as it remembers it."""
    m, _ = await env.bot.matches.get(match_id)
    row = await env.bot.surfaces.board_row(m)
    return row.message_id if row is not None else None


async def dms_closed(env: Any, match_id: int) -> set[int]:
    m, _ = await env.bot.matches.get(match_id)
    return await env.bot.surfaces.addresses.closed_dms(m)
