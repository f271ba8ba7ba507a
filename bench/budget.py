"""Discord's request budget (issue 35, item 1): ``python -m bench.budget [--quick] [GAME ...]``.

Discord allows a bot token about 50 requests a second in all; interaction callbacks and what goes
through an interaction's token (its follow-ups, edits of its original response) are outside that
budget. Every game is played through SimCord, seeded, with two to four seats, with and without a
computer seat, surfaces settled after each click, and every request the bot makes is sorted:

- through an **interaction token** (``/interactions/…/callback``, ``/webhooks/<app>/<token>/…`` of an
  interaction SimCord issued): outside the budget, not counted;
- with the **bot token**, by route kind: a message **post**, an **edit**, a **delete**, a **DM channel
  open**, **thread** ops (start, archive), **reads** (GET) and anything **other**.

Counted per component click (every button or select interaction of the game: lobby joins, display
clicks, panel openings, moves), deterministic for a seed. ``on timers`` is the share made while
virtual time ran on to a computer's move (no click carried it). Aim: ≤ 0.1 a click in every game.
"""

from __future__ import annotations

import asyncio
import random
import re
import sys
import tempfile
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import simcord

from bench import Row
from bench.discord_roundtrip import _fast_idle
from bench.honga import _panel_controls
from bench.redraws import _solving_click
from bot.games import SPECS
from bot.surfaces import recap
from engine.registry import rules_for
from harness.honga import pick
from harness.sim import DAY, bench_bot, board, button_id, custom_ids, setup_table
from harness.text_table import text_table

AIM = 0.1  # bot-token requests a click
KINDS = ("post", "edit", "delete", "dm open", "thread", "read", "other")
COMPONENT = 3  # InteractionType.MESSAGE_COMPONENT
# (people, computers) at each game's tables
TABLES: dict[str, tuple[tuple[int, int], ...]] = {
    "ugah": ((2, 0), (4, 0), (1, 1), (2, 1)),
    "honga": ((2, 0), (4, 0), (1, 1), (2, 1)),
    "uonga": ((2, 0), (1, 1)),
    "ubongo": ((2, 0), (4, 0), (1, 1), (2, 1)),
}
HONGA_ACTIONS = ("g:", "s:", "p:", "q:")  # the controls that commit ("More choices" commits nothing)

_MESSAGE = re.compile(r"^/channels/\d+/messages/\d+$")
_THREAD = re.compile(r"^/channels/\d+(/messages/\d+)?/threads$|^/channels/\d+/thread-members")


def kind_of(backend: Any, method: str, path: str) -> str | None:
    """The route kind of a request made with the bot token; None for one through an interaction's
    token (outside the budget)."""
    if path.startswith("/interactions/"):
        return None
    if path.startswith("/webhooks/"):
        parts = path.split("/")
        if len(parts) > 3 and parts[3] in backend.interaction_tokens:
            return None
        return "other"
    if method == "GET":
        return "read"
    if path == "/users/@me/channels":
        return "dm open"
    if _THREAD.match(path) or (method == "PATCH" and re.fullmatch(r"/channels/\d+", path)):
        return "thread"
    if method == "POST" and re.fullmatch(r"/channels/\d+/messages", path):
        return "post"
    if _MESSAGE.match(path):
        return {"PATCH": "edit", "DELETE": "delete"}.get(method, "other")
    return "other"


@dataclass
class Tally:
    """One table's games: component clicks, bot-token requests by kind, and those on timers."""

    game: str
    people: int
    computers: int
    games: int = 0
    clicks: int = 0
    kinds: Counter[str] = field(default_factory=Counter)
    on_timers: int = 0

    @property
    def requests(self) -> int:
        return sum(self.kinds.values())

    @property
    def per_click(self) -> float:
        return self.requests / max(self.clicks, 1)

    def add(self, other: Tally) -> None:
        self.games += other.games
        self.clicks += other.clicks
        self.kinds.update(other.kinds)
        self.on_timers += other.on_timers


class _Watch:
    """Reads SimCord's request log and interactions since the last ``take``."""

    def __init__(self, env: Any) -> None:
        self.backend = env.backend
        self.mark = len(self.backend.http_requests)
        self.seen = set(self.backend.interactions)

    def take(self, tally: Tally, *, timers: bool = False) -> None:
        log = self.backend.http_requests
        for r in log[self.mark :]:
            kind = kind_of(self.backend, r.method, r.path)
            if kind is not None:
                tally.kinds[kind] += 1
                tally.on_timers += timers
        self.mark = len(log)
        new = [i for i in self.backend.interactions if i not in self.seen]
        tally.clicks += sum(1 for i in new if self.backend.interactions[i].type == COMPONENT)
        self.seen.update(new)


Clicker = Callable[[], Awaitable[Any]]


async def _open(env: Any, game: str, people: int, computers: int) -> tuple[Any, list[Any], int]:
    _, channel, players = setup_table(env, people)
    options: dict[str, Any] = {"turn_seconds": DAY, **SPECS[game].bench.options}
    await players[0].slash(channel, f"{game} start", **options)
    for p in players[1:]:
        await p.click(board(channel), custom_id=button_id(board(channel), "join", "l"))
    for _ in range(computers):
        level = next(c for c in custom_ids(board(channel), "l:") if c.split(":")[3].startswith("ai."))
        await players[0].click(board(channel), custom_id=level)
    await players[0].click(board(channel), custom_id=button_id(board(channel), "start", "l"))
    return channel, players, (await env.bot.matches.live_in_channel(channel.id)).id


async def _next_click(
    env: Any, channel: Any, players: list[Any], mid: int, rng: random.Random
) -> Clicker | None:
    """A person's next click (its display-only clicks made already), or None: no person is to move."""
    m, state = await env.bot.matches.get(mid)
    movers = [s for s in sorted(rules_for(m.game).to_move(state)) if not m.seats[s].ai]
    if not movers:
        return None
    seat = rng.choice(movers) if m.game == "ubongo" else movers[0]
    actor = next(p for p in players if p.id == m.seats[seat].user_id)
    msg = board(channel)
    if m.game == "ubongo":
        return await _solving_click(actor, state, seat)
    if m.game == "uonga":
        while not custom_ids(msg, "g:"):
            picks = [c for c in custom_ids(msg, "v:") if c.split(":", 3)[3].startswith(("sel.", "pl."))]
            await actor.click(msg, custom_id=rng.choice(picks))
            msg = board(channel)
    if m.game == "honga":
        controls = _panel_controls(msg, HONGA_ACTIONS)
        if not controls:  # keeping a disk: on the turn panel
            r = await actor.click(msg, custom_id=button_id(msg, "hand", "h"))
            msg = r.response.message
            controls = _panel_controls(msg, HONGA_ACTIONS)
        controls = [(c, tuple(v for v in vs if not v.startswith("card."))) for c, vs in controls]
        cid, values = pick([(c, vs) for c, vs in controls if vs or ":cards" not in c], rng)
        return lambda: (
            actor.select(msg, list(values), custom_id=cid) if values else actor.click(msg, custom_id=cid)
        )
    selects = custom_ids(msg, "s:")
    if selects and rng.random() < 0.3:
        options = [
            o.value for c in _components(msg) if getattr(c, "custom_id", "") == selects[0] for o in c.options
        ]
        values = rng.sample(options, rng.randint(1, len(options)))
        return lambda: actor.select(msg, values, custom_id=selects[0])
    cid = rng.choice(custom_ids(msg, "g:"))
    return lambda: actor.click(msg, custom_id=cid)


def _components(msg: Any) -> list[Any]:
    return [c for row in msg.components for c in getattr(row, "children", [row])]


async def play(env: Any, game: str, people: int, computers: int, seed: int, limit: int) -> Tally:
    """One seeded game at a new table, to its end (and its recap) or ``limit`` clicks."""
    tally, rng = Tally(game, people, computers, games=1), random.Random(seed)
    watch = _Watch(env)
    channel, players, mid = await _open(env, game, people, computers)
    for _ in range(20 * limit):
        m, _ = await env.bot.matches.get(mid)
        if m.status != "active" or tally.clicks >= limit:
            break
        click = await _next_click(env, channel, players, mid, rng)
        if click is None:  # a computer's move: its time runs out
            watch.take(tally)
            assert m.deadline is not None
            await env.advance_time(max(m.deadline - env.now().timestamp(), 0) + 1)
            await env.bot.surfaces.settle(mid)
            watch.take(tally, timers=True)
            continue
        await click()
        await env.bot.surfaces.settle(mid)
        watch.take(tally)  # (its clicks counted: the limit holds)
    m, _ = await env.bot.matches.get(mid)
    if m.status != "active":
        await env.advance_time(recap.DELAY_SECONDS + 1)  # the recap: one post a game
        await env.bot.surfaces.settle(mid)
    watch.take(tally)
    return tally


async def tables(game: str, games: int, limit: int, seed: int = 35) -> list[Tally]:
    """``games`` seeded games at each of ``game``'s tables (TABLES)."""
    out = []
    with tempfile.TemporaryDirectory() as tmp, _fast_idle():
        bot = bench_bot(str(Path(tmp) / "bench.db"))
        try:
            async with simcord.run(bot) as env:
                for people, computers in TABLES[game]:
                    total = Tally(game, people, computers)
                    for g in range(games):
                        total.add(await play(env, game, people, computers, seed + g, limit))
                    out.append(total)
        finally:
            await bot.matches.close()
            await bot.store.close()
    return out


def summed(game: str, counted: list[Tally]) -> Tally:
    total = Tally(game, 0, 0)
    for t in counted:
        total.add(t)
    return total


def counts(quick: bool, games: list[str] | None = None) -> dict[str, list[Tally]]:
    """Every game's tables (or ``games``'), one whole game each (``quick``: its first 60 clicks)."""
    return {game: asyncio.run(tables(game, 1, 60 if quick else 400)) for game in games or TABLES}


HEAD = ("game", "people+computers", "games", "clicks", *KINDS, "on timers", "per click")


def lines(counted: dict[str, list[Tally]]) -> list[tuple[str, ...]]:
    """The table: a row per game's table and its total, bot-token requests by kind and per click."""
    out: list[tuple[str, ...]] = []
    for game, rows in counted.items():
        for t in [*rows, summed(game, rows)]:
            who = f"{t.people}+{t.computers}" if t.people else "all"
            kinds = tuple(str(t.kinds[k]) for k in KINDS)
            out.append(
                (game, who, str(t.games), str(t.clicks), *kinds, str(t.on_timers), f"{t.per_click:.3f}")
            )
    return out


def run(quick: bool) -> list[Row]:
    counted = counts(quick)
    rows = []
    for game, tallies in counted.items():
        t = summed(game, tallies)
        kinds = ", ".join(f"{k} {t.kinds[k]}" for k in KINDS if t.kinds[k])
        rows.append(
            Row(
                f"{game}: bot-token requests a component click ({t.clicks} clicks; {kinds or 'none'})",
                f"{t.per_click:.3f}",
                f"<= {AIM}",
                t.per_click <= AIM,
            )
        )
    return rows


if __name__ == "__main__":
    from bot import render_pool

    render_pool.warm_up()  # (the computer's search and the drawings run in processes of their own)
    chosen = [a for a in sys.argv[1:] if a in TABLES]
    print(text_table(lines(counts("--quick" in sys.argv, chosen)), HEAD))
