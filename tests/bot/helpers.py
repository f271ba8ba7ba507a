"""Helpers for driving games through SimCord as players would (the shared part lives in harness.sim)."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from datetime import timedelta
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
    stamp_answers,
)

__all__ = [
    "actor_for",
    "advance_to_just_before",
    "board",
    "button_id",
    "custom_ids",
    "first_button_and_players",
    "forge_first_button",
    "game_under_way",
    "last_logged",
    "next_click",
    "open_and_start",
    "pings",
    "play_one",
    "play_to_end",
    "public_messages",
    "restart",
    "setup_table",
    "stamp_answers",
    "step_wall_clock",
    "turns",
]


async def play_one(env: Any, channel: Any, players: list[Any], match_id: int, rng: random.Random) -> Any:
    """The player to move clicks one of the game buttons (or uses the multi-select). Returns the result."""
    return await (await next_click(env, channel, players, match_id, rng))()


async def turns(env: Any, match_id: int, limit: int) -> AsyncIterator[tuple[Any, Any]]:
    """(match row, state) before each of at most ``limit`` turns, while the match is active: the
    loop body plays the turn."""
    for _ in range(limit):
        m, state = await env.bot.matches.get(match_id)
        if m.status != "active":
            return
        yield m, state


async def game_under_way(
    env: Any, seats: int, clicks: int, seed: int, **options: Any
) -> tuple[Any, list[Any], int, random.Random]:
    """A table of ``seats`` players, a game started there and ``clicks`` moves played by clicking:
    (channel, players, match id, the rng that picked the moves, to play on with)."""
    _, channel, players = setup_table(env, seats)
    mid = await open_and_start(env, channel, players, **options)
    rng = random.Random(seed)
    for _ in range(clicks):
        await play_one(env, channel, players, mid, rng)
    return channel, players, mid, rng


async def first_button_and_players(env: Any, channel: Any, players: list[Any], match_id: int) -> tuple:
    """(the board, its first game button's id, the player to move, a player who is not): who may
    click that button now and who may not."""
    m, state = await env.bot.matches.get(match_id)
    msg = board(channel)
    current = next(p for p in players if p.id == m.seats[state.current].user_id)
    other = next(p for p in players if p is not current)
    return msg, custom_ids(msg, "g:")[0], current, other


async def advance_to_just_before(env: Any, due: float) -> None:
    """The simulated wall clock moved to one second before ``due`` (a timer's stored due time)."""
    await env.advance_time(due - env.now().timestamp() - 1)


async def last_logged(env: Any, match_id: int) -> tuple[int, str, str]:
    """(seat, action, source) of the last action in the match's log."""
    log = await env.bot.store.actions(match_id)
    return log[-1].seat, log[-1].action, log[-1].source


async def play_to_end(env: Any, channel: Any, players: list[Any], match_id: int, rng: random.Random) -> Any:
    """Ugah played by clicks until it is over; returns the finished row."""
    async for _ in turns(env, match_id, 600):
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
    await old.tournaments.close()
    await old.matches.close()
    await old.store.close()
    await env.restart_bot(bot_factory(**kwargs))
    return old


def step_wall_clock(env: Any, seconds: float) -> None:
    """Step SimCord's wall clock alone, as NTP does: ``now()`` is its epoch plus the virtual time
    elapsed, and the loop's timers follow the elapsed time, so moving the epoch moves only the wall."""
    env.backend.clock._epoch += timedelta(seconds=seconds)


async def board_message_id(env: Any, match_id: int) -> int | None:
    """Where the bot keeps the match's board (its surface address), as it remembers it."""
    m, _ = await env.bot.matches.get(match_id)
    row = await env.bot.surfaces.board_row(m)
    return row.message_id if row is not None else None


async def dms_closed(env: Any, match_id: int) -> set[int]:
    m, _ = await env.bot.matches.get(match_id)
    return await env.bot.surfaces.addresses.closed_dms(m)


def said_privately(result: Any) -> bool:
    """Whether a click was answered with a private line: its own response, or a follow-up after the
    deferral that acknowledged it in time (bot.punctual: a crowd of clicks, a late answer)."""
    return result.ephemeral or any(f.message.flags.ephemeral for f in result.followups)
