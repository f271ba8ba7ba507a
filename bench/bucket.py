"""Discord's request budget under load (issue 35, item 1): ``python -m bench.bucket [--quick]``.

Discord gives a bot token about 50 requests a second in all (a 429 with ``"global": true`` past it) and
about 5 message posts per 5 s in a channel; interaction callbacks and requests through an interaction's
token are outside both. Here SimCord answers as Discord would: every bot-token request (bench.budget's
``kind_of``) takes a token from a **global bucket** (B a second, one second of burst) and
``POST /channels/<id>/messages`` one from its **channel's bucket** (5 per 5 s); an empty bucket answers
429 with ``retry_after`` (and ``global``) in its JSON, which the bot's HTTP client meets as discord.py's
does (sleep it out and try again, or raise ``RateLimited`` at once within ``bot.surfaces.send.hurried``;
a global 429 holds every bot-token request meanwhile). Buckets run on wall-clock time: the bot's work
is what is measured.

**A scale model.** One process here carries some 20 clicks a second, not 500 (the bot spends ~10 ms of
CPU on a move, SimCord as much again). So clicks come at a rate the machine carries, and the global
bucket is scaled to keep the budget's pressure: B = rate x 50 / R for an *equivalent* R clicks a second
(the requests a click may make with the bot token are the same as 50/s at R clicks/s). The channel limit
stays Discord's own (5 per 5 s): it is per game, and a game's clicks come as fast as in the real thing.
Rows at R = 5,000 and 20,000 show where it breaks.

The load: two-seat tables of every game, with and without a computer seat, opened first (not timed);
an unmeasured, unlimited 3 s of clicks; then for each row clicks at the rate for a fixed time, each in
a game with no click of its own in flight (its answer and, for a move, its board complete), as players
would. Games turn over as they would among 5,000: a finished game's table starts the next (slash
command and lobby clicks among the clicks), and new tables arrive, one a row for every 77 clicks, each
starting its game (at 500 clicks/s, games of ~100 clicks start ~5 a second): most bot-token
requests are there (a new Ubongo player's DM open and task card, a computer's first ping).
Recaps are off (their timer, firing in real time, makes SimCord advance its clock mid-run).

Per click: **ack**, when its interaction was answered (its first response: a move's answer is the
board itself); **board complete** (a move that left its game going), the first moment the game's
channel board shows the committed match exactly as the bot would draw it at rest (the version in its
controls, its text, and the picture whose alt text describes that state: the image, not just the
text), polled every 20 ms. **Current**: from the last click until every game's surfaces are in line
(``surfaces.settle``); **stale after**: boards of games still going that differ from that drawing then.
Aims: ack <= 3 s, board p99 <= 2 s, current <= 5 s. Not modelled: discord.py's pre-emptive waits on a
route's bucket (learned from X-RateLimit headers SimCord does not send): a channel's sixth post gets a
429 here, not a wait; Discord's 10,000 invalid requests in 10 minutes (a 429 counts) is not tracked.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord
import simcord
from simcord import InteractionResult

from bench import Row, pct
from bench.budget import HONGA_ACTIONS, _open
from bench.discord_limits import Gate, Limits, gated
from bench.discord_roundtrip import _fast_idle
from bench.honga import _panel_controls
from bench.redraws import PAGE, _offered, _select
from bench.table import load_average
from bot.client import create_bot
from bot.games import SPECS
from engine.games.ubongo_ai import next_placement
from engine.registry import rules_for
from harness.honga import pick
from harness.sim import (
    DAY,
    SIM_CLOCK_WATCH,
    board,
    button_id,
    components,
    custom_ids,
    emit_click,
    emit_slash,
    no_recaps,
    setup_table,
    stamp_answers,
)
from harness.text_table import text_table

DISCORD_GLOBAL = 50.0  # requests a second with the bot token
EQUIVALENT = (100, 500, 1000)  # clicks a second the issue asks about
BREAKS = (5000, 20000)  # buckets too small on purpose: where it breaks
ACK_AIM, BOARD_AIM, CURRENT_AIM = 3.0, 2.0, 5.0
TABLES = ((2, 0), (1, 1))  # (people, computers)
GAMES = ("ugah", "honga", "uonga", "ubongo")
ARRIVALS = 0.013  # new tables a click (docstring)
TICK = 0.02  # the poll of the boards: board complete is read to within this
WATCH = 20 * SIM_CLOCK_WATCH
HELD = 15.0
PATIENCE = 30.0  # after the last click: how long a row waits for its surfaces to come in line  # a click's game waits no longer for its board before its next click


@dataclass
class Game:
    kind: str
    channel: Any
    players: list[Any]
    mid: int  # 0: a table with no game yet (its players arrive in the timed part)
    computers: int = 0
    panel: Any = None  # Honga's turn panel: the answer to its "hand" click
    busy: bool = False
    lobby: list[str] | None = None  # a new game's lobby clicks still to come: "join" by whom, "ai", "start"
    started: int = 0  # games started in the timed part


@dataclass
class Click:
    game: Game
    record: Any
    at: float
    version: int
    hand: bool = False  # Honga's "hand" click: its answer is the panel
    committed: bool | None = None  # a move that left the game going (a game's last is not timed)
    board_at: float | None = None
    lobby: bool = False  # a new game's slash command or lobby click
    starts: bool = False  # the lobby's start click: the new match's id is read once it is answered


Choice = tuple[Any, Any, str, tuple[str, ...], bool]  # actor, message, custom_id, values, in a DM


def _ubongo_click(player: Any, state: Any, seat: int) -> Choice | None:
    """The next single click of bench.redraws' solving player: its piece, its page, its place (None:
    its workspace has not reached its DMs yet)."""
    dms = player.user.dm_channel
    ws = next((m for m in reversed(list(dms.history())) if custom_ids(m, "y:")), None) if dms else None
    if ws is None:
        return None
    code = next_placement(state, seat, "hard")
    if code == "clear":
        return player.user, ws, button_id(ws, "clear", "p"), (), True
    if code in _offered(ws):
        return player.user, ws, _select(ws, "q").custom_id, (code,), True
    piece = code.split(".")[1]
    pages = [c for c in custom_ids(ws, "w:") if c.split(":", 3)[3].startswith(f"pc.{piece}.")]
    target = [c for c in pages if int(c.rsplit(".", 1)[1]) % PAGE == 0]
    if target:
        return player.user, ws, target[-1], (), True
    return player.user, ws, _select(ws, "y").custom_id, (f"pc.{piece}",), True


def _honga_click(g: Game, actor: Any, msg: Any, rng: random.Random) -> Choice:
    controls = _panel_controls(msg, HONGA_ACTIONS)
    if not controls and g.panel is not None:
        msg, g.panel = g.panel, None
        controls = _panel_controls(msg, HONGA_ACTIONS)
    if not controls:
        return actor, msg, button_id(msg, "hand", "h"), (), False
    controls = [(c, tuple(v for v in vs if not v.startswith("card."))) for c, vs in controls]
    cid, values = pick([(c, vs) for c, vs in controls if vs or ":cards" not in c], rng)
    return actor, msg, cid, values, False


def _lobby_click(g: Game) -> Choice:
    """A new game's next lobby click: the others join, the host adds the computers, then starts."""
    assert g.lobby
    step, msg = g.lobby[0], board(g.channel)
    if step == "ai":
        levels = [c for c in custom_ids(msg, "l:") if c.split(":")[3].startswith("ai.")]
        choice = (g.players[0], msg, levels[0], (), False)
    else:
        who = g.players[0] if step == "start" else next(p for p in g.players if str(p.id) == step)
        choice = (who, msg, button_id(msg, "join" if step != "start" else "start", "l"), (), False)
    g.lobby.pop(0)
    return choice


async def _choose(env: Any, g: Game, rng: random.Random) -> Choice | None:
    """The game's next single click (display-only ones too: each is a click), or None: no person
    is to move (a computer thinks). A finished game's table starts the next (its slash command is
    returned as a Choice with no message)."""
    if g.lobby:
        return _lobby_click(g)
    m, state = await env.bot.matches.get(g.mid) if g.mid else (None, None)
    if m is None or m.status != "active":
        g.lobby = [str(p.id) for p in g.players[1:]] + ["ai"] * g.computers + ["start"]
        return g.players[0], None, f"{g.kind} start", (), False
    movers = [s for s in sorted(rules_for(m.game).to_move(state)) if not m.seats[s].ai]
    if not movers:
        return None
    seat = rng.choice(movers) if m.game == "ubongo" else movers[0]
    actor = next(p for p in g.players if p.id == m.seats[seat].user_id)
    msg = board(g.channel)
    if m.game == "ubongo":
        return _ubongo_click(actor, state, seat)
    if m.game == "honga":
        return _honga_click(g, actor, msg, rng)
    if m.game == "uonga" and not custom_ids(msg, "g:"):
        picks = [c for c in custom_ids(msg, "v:") if c.split(":", 3)[3].startswith(("sel.", "pl."))]
        return actor, msg, rng.choice(picks), (), False
    selects = custom_ids(msg, "s:")
    if selects and rng.random() < 0.3:
        select = next(c for c in components(msg) if getattr(c, "custom_id", "") == selects[0])
        options = [o.value for o in select.options]
        return actor, msg, selects[0], tuple(rng.sample(options, rng.randint(1, len(options)))), False
    return actor, msg, rng.choice(custom_ids(msg, "g:")), (), False


def _version(msg: Any, mid: int) -> int | None:
    ours = [c.split(":") for c in custom_ids(msg) if c.count(":") >= 3]
    return max((int(c[2]) for c in ours if c[1] == str(mid)), default=None)


async def _board_shown(env: Any, g: Game) -> bool:
    """Whether the game's channel board shows its committed match as the bot would draw it at rest."""
    m, state = await env.bot.matches.get(g.mid)
    want = await env.bot.surfaces.public_board(m, state)
    # the match's own board (once it is over, its table's next game posts after it)
    row = await env.bot.surfaces.board_row(m)
    msg = next((x for x in g.channel.history() if row is not None and x.id == row.message_id), None)
    if msg is None:
        return False
    shown = _version(msg, g.mid)
    # (Ubongo's board keeps its round's controls; a finished board's lessons button carries no version)
    if m.status == "active" and m.game != "ubongo" and shown is not None and shown < m.version:
        return False
    if not isinstance(want.view, discord.ui.LayoutView) and (msg.content or "") != (want.content or ""):
        return False
    if want.draw is not None:
        return bool(msg.attachments) and msg.attachments[0].description == want.alt
    return True


async def _follow(env: Any, c: Click, now: float) -> bool:
    """Note what became of a click in flight; True once its game is free for its next click."""
    if c.record.answered_at is None:
        return False
    g = c.game
    if c.hand:
        result = InteractionResult(env, c.record)
        g.panel = result.response.message if result.response is not None else None
    if c.lobby and c.starts:
        g.mid, g.started = (await env.bot.matches.live_in_channel(g.channel.id)).id, g.started + 1
    if c.committed is None:
        m, _ = await env.bot.matches.get(g.mid)
        c.committed = m.version > c.version and not c.hand and m.status == "active"
    if c.committed and c.board_at is None and await _board_shown(env, g):
        c.board_at = now
    return not c.committed or c.board_at is not None or now - c.at > HELD


async def _wait_real(seconds: float) -> None:
    """Sleep in real time, whatever SimCord's clock (the bot runs meanwhile)."""
    await asyncio.get_running_loop().run_in_executor(None, time.sleep, max(seconds, 0.0))


async def _poll(env: Any, flying: list[Click], until: float) -> None:
    while True:
        now = time.perf_counter()
        for c in list(flying):
            if await _follow(env, c, now):
                c.game.busy = False
                flying.remove(c)
        if now >= until:
            return
        await _wait_real(min(TICK, until - now))


async def _click(env: Any, games: list[Game], rng: random.Random) -> Click | None:
    """One click in a free game (chosen at random), or None: every game is busy or waiting."""
    free = [g for g in games if not g.busy]
    rng.shuffle(free)
    for g in free:
        try:
            choice = await _choose(env, g, rng)
        except (AssertionError, IndexError):  # its message is not there yet: next time
            continue
        if choice is None:
            continue
        actor, msg, cid, values, dm = choice
        g.busy = True
        if msg is None:  # a new game at the table
            options: dict[str, Any] = {"turn_seconds": DAY, **SPECS[g.kind].bench.options}
            record = emit_slash(env, actor, g.channel, cid, **options)
            return Click(g, record, time.perf_counter(), 0, committed=False, lobby=True)
        lobby = cid.startswith("l:")
        version = 0 if lobby else (await env.bot.matches.get(g.mid))[0].version
        record = emit_click(env, actor, msg, cid, values, dm=dm)
        hand = cid.startswith("h:") and ":hand" in cid
        click = Click(g, record, time.perf_counter(), version, hand, False if lobby else None, lobby=lobby)
        click.starts = lobby and cid.endswith(":start")
        return click
    return None


@dataclass
class Figures:
    equivalent: int
    rate: float
    per_second: float
    games: int
    clicks: int = 0
    missed: int = 0  # clicks due when no game was free
    requests: int = 0
    global_429: int = 0
    channel_429: int = 0
    acks: list[float] = field(default_factory=list)
    boards: list[float] = field(default_factory=list)
    current: float = float("inf")
    actual: float = 0.0
    stale: Counter[str] = field(
        default_factory=Counter
    )  # boards not as the bot would draw them at rest, once the row is over
    started: int = 0  # new games at the tables (a finished game's table starts the next)
    unseen: Counter[str] = field(default_factory=Counter)  # boards not seen complete within HELD, by game

    @property
    def verdict(self) -> bool:
        return (
            bool(self.acks)
            and max(self.acks) <= ACK_AIM
            and (not self.boards or pct(self.boards, 0.99) <= BOARD_AIM)
            and self.current <= CURRENT_AIM
            and not self.stale_active
        )

    @property
    def stale_active(self) -> int:  # (a finished game's final board is reported apart)
        return sum(n for key, n in self.stale.items() if key.endswith(" active"))


async def _row(env: Any, games: list[Game], gate: Gate, f: Figures, seconds: float, seed: int) -> Figures:
    """Clicks at ``f.rate`` for ``seconds`` under a global bucket of ``f.per_second``."""
    limits = gate.limits = Limits(f.per_second)
    started = sum(g.started for g in games)
    rng, flying, done = random.Random(seed), list[Click](), list[Click]()
    t0 = time.perf_counter()
    for i in range(int(f.rate * seconds)):
        await _poll(env, flying, t0 + i / f.rate)
        c = await _click(env, games, rng)
        if c is None:
            f.missed += 1
            continue
        flying.append(c)
        done.append(c)
    last = time.perf_counter()
    f.actual = len(done) / max(last - t0, 1e-9)
    settled = asyncio.ensure_future(asyncio.gather(*(env.bot.surfaces.settle(g.mid) for g in games if g.mid)))
    while (flying or not settled.done()) and time.perf_counter() - last < PATIENCE:
        await _poll(env, flying, time.perf_counter() + TICK)
        if settled.done() and f.current == float("inf"):
            f.current = time.perf_counter() - last
    settled.cancel()
    # (cancelled, or a settle that failed: not current)
    with contextlib.suppress(asyncio.CancelledError, Exception):
        await settled
    f.clicks, f.requests = len(done), limits.requests
    f.started = sum(g.started for g in games) - started
    for g in games:
        # (an Uonga board showing a player's chosen piece, its targets offered, is as it should be)
        chosen = g.mid and g.kind == "uonga" and custom_ids(board(g.channel), "g:")
        if g.mid and not chosen and not await _board_shown(env, g):
            f.stale[f"{g.kind} {(await env.bot.matches.get(g.mid))[0].status}"] += 1
    f.global_429, f.channel_429 = limits.global_429, limits.channel_429
    f.acks = [c.record.answered_at - c.at if c.record.answered_at else float("inf") for c in done]
    f.boards = [(c.board_at or float("inf")) - c.at for c in done if c.committed]
    f.unseen = Counter(c.game.kind for c in done if c.committed and c.board_at is None)
    gate.limits = None
    return f


async def _open_games(env: Any, per_table: int, games: tuple[str, ...]) -> list[Game]:
    tables = [(kind, *table) for kind in games for table in TABLES for _ in range(per_table)]
    return [Game(k, *await _open(env, k, people, ai), ai) for k, people, ai in tables]


def _arrivals(env: Any, games: tuple[str, ...], n: int, first: int) -> list[Game]:
    """Two people at each of ``n`` new tables (the games in turn from ``first``), no game yet."""
    return [Game(games[(first + i) % len(games)], *setup_table(env, 2)[1:], 0) for i in range(n)]


async def measure(
    rate: float,
    seconds: float,
    per_table: int,
    equivalents: tuple[int, ...],
    seed: int = 35,
    games: tuple[str, ...] = GAMES,
) -> list[Figures]:
    """A row per equivalent click rate, all in one bot over the same games (opened once)."""
    out = []
    with tempfile.TemporaryDirectory() as tmp, _fast_idle(), no_recaps():
        # the clock watch past the whole run: SimCord fires a bot timer once its delay has passed in
        # real time too, advancing its clock in the middle of the clicks (tests/bot/test_burst.py)
        bot = create_bot(
            str(Path(tmp) / "bench.db"), rate_limits=False, clock_watch_seconds=WATCH, turn_seconds=DAY
        )
        try:
            async with simcord.run(bot) as env:
                opened = await _open_games(env, per_table, games)
                n = max(1, round(ARRIVALS * rate * seconds))
                arriving = [_arrivals(env, games, n, i * n) for i in range(len(equivalents) + 1)]
                gate = Gate()
                stamp_answers(env)
                with gated(env, gate):
                    env._begin_operation("bench.bucket")
                    try:
                        # unmeasured, unlimited: the first clicks after the set-up paid for it (the
                        # first row read an ack p99 of 2.4 s, the later ones 0.01-0.03 s)
                        opened += arriving.pop()
                        await _row(env, opened, gate, Figures(0, rate, 1e9, len(opened)), 3.0, seed - 1)
                        for i, r in enumerate(equivalents):
                            opened += arriving[i]
                            f = Figures(r, rate, rate * DISCORD_GLOBAL / r, len(opened))
                            out.append(await _row(env, opened, gate, f, seconds, seed + i))
                    finally:
                        env._end_operation()
        finally:
            await bot.matches.close()
            await bot.store.close()
    return out


def _s(x: float) -> str:
    return "never" if x == float("inf") else f"{x:.2f}"


HEAD = (
    "equiv. clicks/s", "clicks/s here", "bucket B/s", "games", "started", "clicks", "bot-token req/click (429s too)",
    "429 global", "429 channel", "ack p50", "ack p99", "ack max", "board p50", "board p99",
    "current after last (s)", "stale after (going)", "verdict",
)  # fmt: skip


def lines(rows: list[Figures]) -> list[tuple[str, ...]]:
    out = []
    for f in rows:
        boards = f.boards or [0.0]
        verdict = "ok" if f.verdict else ("breaks" if f.equivalent not in EQUIVALENT else "MISS")
        out.append(
            (
                f"{f.equivalent:,}",
                f"{f.actual:.1f}",
                f"{f.per_second:.2f}",
                str(f.games),
                str(f.started),
                str(f.clicks),
                f"{f.requests / max(f.clicks, 1):.3f}",
                str(f.global_429),
                str(f.channel_429),
                _s(pct(f.acks, 0.5)),
                _s(pct(f.acks, 0.99)),
                _s(max(f.acks)),
                _s(pct(boards, 0.5)),
                _s(pct(boards, 0.99)),
                _s(f.current),
                str(f.stale_active),
                verdict,
            )
        )
    return out


def figures(quick: bool) -> list[Figures]:
    rate, seconds, per_table = (10.0, 6.0, 1) if quick else (20.0, 15.0, 3)
    return asyncio.run(measure(rate, seconds, per_table, (*EQUIVALENT, *BREAKS)))


def printed(rows: list[Figures]) -> str:
    note = (
        f"scale model: clicks at {rows[0].rate:.0f}/s here; global bucket B = rate x 50 / R for R"
        f" equivalent clicks/s; channel posts 5 per 5 s (Discord's own); load average {load_average()}"
    )
    unseen = [f"{f.equivalent:,}: {dict(f.unseen)}" for f in rows if f.unseen]
    tail = f"\nboards not seen complete within {HELD:.0f} s: " + "; ".join(unseen) if unseen else ""
    stale = [f"{f.equivalent:,}: {dict(f.stale)}" for f in rows if f.stale]
    tail += "\nboards stale after, by game and status: " + "; ".join(stale) if stale else ""
    return note + "\n" + text_table(lines(rows), HEAD) + tail


def run(quick: bool) -> list[Row]:
    out = []
    for f in figures(quick):
        boards = f.boards or [0.0]
        value = (
            f"ack max {_s(max(f.acks))} s, board p99 {_s(pct(boards, 0.99))} s, current {_s(f.current)} s"
            f" ({f.clicks} clicks at {f.actual:.1f}/s, B {f.per_second:.2f}/s,"
            f" 429s {f.global_429} global {f.channel_429} channel)"
        )
        if f.stale or f.unseen:  # what a MISS with every figure in bounds is made of
            value += f"; stale after {dict(f.stale)}, unseen {dict(f.unseen)}"
        aim = f"ack <= {ACK_AIM:.0f}, board p99 <= {BOARD_AIM:.0f}, current <= {CURRENT_AIM:.0f}"
        ok = f.verdict if f.equivalent in EQUIVALENT else None
        out.append(Row(f"budget under load: as {f.equivalent:,} clicks/s (scale model)", value, aim, ok))
    return out


if __name__ == "__main__":
    from bot import render_pool

    render_pool.warm_up()
    try:
        print(printed(figures("--quick" in sys.argv)))
    finally:
        from engine import compute

        compute.shutdown()
        render_pool.shutdown()
