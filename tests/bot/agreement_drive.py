"""The agreement matrix's fast road to each way a game ends (tests/bot/test_agreement.py): a table
of real players started through SimCord, a few clicks (the kits of tests/kits.py find a legal one),
then the ending itself; computers and expired turn limits move on virtual time, never in real time."""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import discord

from engine.registry import rules_for
from harness.sim import board, button_id, custom_ids, setup_table
from tests.kit_honga import HongaKit
from tests.kit_ubongo import UbongoKit, dm_board, solving_click
from tests.kit_uonga import UongaKit
from tests.kits import Kit, UgahKit

KITS: dict[str, Kit] = {"ugah": UgahKit(), "uonga": UongaKit(), "ubongo": UbongoKit(), "honga": HongaKit()}
OPTIONS: dict[str, dict[str, Any]] = {
    "ugah": {"variant": "basic"},
    "uonga": {"side": "cavemen"},
    "ubongo": {"side": "A"},
    "honga": {"target": "short"},
}
TURN_SECONDS = 10  # the shortest turn limit: a time-out ending takes the least virtual time

# every way a game ends, as the cells name them
RULES, RESIGN_2, RESIGN_3, HOST, MODERATOR, TIMEOUT, DELETED = (
    "rules", "resign-2", "resign-3", "host", "moderator", "timeout", "deleted",
)  # fmt: skip
ENDINGS = (RULES, RESIGN_2, RESIGN_3, HOST, MODERATOR, TIMEOUT, DELETED)
# every other ending is played by two people; Ubongo's rules ending by three, two of whom solve the
# first round (a second solve in a round, while someone is still solving)
SEATS = {RESIGN_3: 3, f"ubongo {RULES}": 3}
OPENING_CLICKS = 2  # moves made before a resignation or an end: the game is under way


@dataclass
class Table:
    """A started game: where it is played, who sits at it, and the surfaces opened on the way."""

    game: str
    guild: Any
    channel: Any  # the channel it was opened in
    players: list[Any]
    mid: int
    talk: Any  # another channel of the server, where people run commands
    thread: Any | None = None  # the game's own thread, if it has one
    board_id: int = 0  # the final board's message (in ``where``)
    resigned: Any | None = None  # who resigned
    ender: Any | None = None  # who ran /game end

    @property
    def where(self) -> Any:
        """Where the game is played: its thread, or the channel."""
        return self.thread if self.thread is not None else self.channel


async def start(env: Any, game: str, humans: int, *, thread: bool = False, closed_dm: bool = False) -> Table:
    """``humans`` people at a new table; the host opens the game (short turn limits), the others join,
    the host starts it. Each person opens their panel where the game has one. ``closed_dm``: bob
    accepts no direct messages (he plays through the panel)."""
    guild, channel, players = setup_table(env, humans)
    if closed_dm:
        dm = players[1].user.dm_channel
        env.inject_error("POST", f"/channels/{dm.id}/messages", status=403, code=50007, times=999)
    host = players[0]
    options = {**OPTIONS[game], "turn_seconds": TURN_SECONDS}
    if thread:
        options["thread"] = True
    r = await host.slash(channel, f"{game} start", **options)
    assert not r.ephemeral, r.response and r.response.content
    for p in players[1:]:
        r = await p.click(board(channel), custom_id=button_id(board(channel), "join", "l"))
        assert not r.ephemeral, r.response and r.response.content
    start_id = button_id(board(channel), "start", "l")
    mid = int(start_id.split(":")[1])
    await host.click(board(channel), custom_id=start_id)
    m, _ = await env.bot.matches.get(mid)
    assert m.status == "active", m.status
    table = Table(game, guild, channel, players, mid, guild.create_text_channel("talk"))
    if thread:
        assert channel.threads, "the game got its own thread"
        table.thread = channel.threads[-1]
    await open_panels(env, table)
    return table


async def open_panels(env: Any, table: Table) -> None:
    """Every person opens the game's private panel (the board's hand button), as a player checking
    their holdings does; the games without one show none."""
    msg = board(table.where)
    if not custom_ids(msg, f"h:{table.mid}:0:hand"):
        return
    for p in table.players:
        r = await p.click(msg, custom_id=button_id(msg, "hand", "h"))
        assert r.ephemeral, r.response and r.response.content


Clickers = set[int] | Callable[[Any], set[int]]  # the seats that click (in a state)


async def click(env: Any, table: Table, rng: random.Random, who: Clickers) -> bool:
    """One move by a person in ``who`` whose turn it is (False: none of them is to move)."""
    m, state = await env.bot.matches.get(table.mid)
    clickers = who(state) if callable(who) else who
    movers = [s for s in sorted(rules_for(m.game).to_move(state)) if s in clickers and not m.seats[s].ai]
    if not movers:
        return False
    if table.game == "ubongo":
        seat = movers[0]
        player = table.players[seat]
        await (await solving_click(env, player.user, dm_board(player), state, seat, rng))()
        return True
    kit = KITS[table.game]
    if isinstance(kit, HongaKit):  # its panel only when the public message offers nothing: fewer clicks
        await (await kit.next_click(env, table.where, table.players, table.mid, rng, cards=False))()
    else:
        await (await kit.next_click(env, table.where, table.players, table.mid, rng))()
    return True


async def wait_for_timer(env: Any, mid: int) -> None:
    """The next timer of the match runs out (a computer's think time, a turn limit, a round's clock)."""
    m, _ = await env.bot.matches.get(mid)
    assert m.deadline is not None, "a live match always has a way forward"
    await env.advance_time(max(m.deadline - env.now().timestamp(), 0) + 1)


Watch = Callable[[Any, Table], Awaitable[None]]  # looks at the game after each step of play


async def play_out(
    env: Any,
    table: Table,
    rng: random.Random,
    clickers: Clickers,
    watch: Watch | None = None,
    limit: int = 900,
) -> None:
    """Until the game is over: the clickers click when it is their turn; otherwise the next timer runs
    out (the computer plays its seats and those of anyone whose time ran out)."""
    for _ in range(limit):
        m, _ = await env.bot.matches.get(table.mid)
        if m.status != "active":
            return
        if not await click(env, table, rng, clickers):
            await wait_for_timer(env, table.mid)
        if watch is not None:
            await watch(env, table)
    raise AssertionError(f"match {table.mid} did not end in {limit} steps")


async def opening(env: Any, table: Table, rng: random.Random) -> None:
    """A few moves, so that the game is under way when it is ended or resigned."""
    everyone = set(range(len(table.players)))
    for _ in range(OPENING_CLICKS):
        if not await click(env, table, rng, everyone):
            break


def ubongo_solvers(state: Any) -> set[int]:
    return {0, 1} if state.round == 1 else {0}


async def resign(table: Table, who: Any) -> None:
    r = await who.slash(table.where, "game resign", confirm=True)
    assert r.ephemeral, r.response and r.response.content
    table.resigned = who


async def end_game(
    env: Any,
    game: str,
    ending: str,
    *,
    thread: bool = False,
    closed_dm: bool = False,
    seed: int = 1,
    watch: Watch | None = None,
) -> Table:
    """A game of ``game`` played to ``ending``; its surfaces have settled and its recap is due.
    ``watch`` looks at the game after each step it is played on to its end."""
    rng = random.Random(seed)
    seats = SEATS.get(f"{game} {ending}", SEATS.get(ending, 2))
    table = await start(env, game, seats, thread=thread, closed_dm=closed_dm)
    everyone = set(range(len(table.players)))
    alice, bob = table.players[:2]
    if ending == RULES:
        # Ubongo: alice solves each round, bob the first one only, carol none; the round ends on
        # the countdown the first solve starts
        await play_out(env, table, rng, ubongo_solvers if game == "ubongo" else everyone, watch)
    elif ending == TIMEOUT:
        await play_out(env, table, rng, set(), watch)
    else:
        await opening(env, table, rng)
        if ending == RESIGN_2:
            await resign(table, bob)
        elif ending == RESIGN_3:
            await resign(table, bob)
            await play_out(env, table, rng, {0} if game == "ubongo" else everyone - {1}, watch)
        elif ending == HOST:
            r = await alice.slash(table.where, "game end")
            assert r.ephemeral, r.response and r.response.content
            table.ender = alice
        elif ending == MODERATOR:
            mods = table.guild.create_role("Mods", permissions=discord.Permissions(manage_messages=True))
            mod = table.guild.add_member(env.create_user("mod"), roles=[mods], nick="Mo the Moderator")
            r = await mod.slash(table.where, "game end")
            assert r.ephemeral, r.response and r.response.content
            table.ender = mod
        elif ending == DELETED:
            env.backend.delete_channel(table.where.id)
            await env.advance_time(1)
    m, _ = await env.bot.matches.get(table.mid)
    assert m.status in ("finished", "cancelled"), (game, ending, m.status)
    await env.bot.surfaces.settle(table.mid)
    row = await env.bot.surfaces.board_row(m)
    table.board_id = row.message_id if row is not None and row.message_id is not None else 0
    return table
