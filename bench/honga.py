"""Honga benchmarks: ``python -m bench.honga`` prints (metric | result | aim), about a minute.

Computer strength is measured on seeded 3-player games (seat rotated): the strongest level against
two random players and against two of the next level. Times come from the same games: one decision
and one whole computer turn (place, every use, end). Render figures use public views of seeded
random games. Samples are small to keep the run short, so win rates move by ±10 points between
seeds; the aims are the issue's.

The SimCord part (harness.sim's drivers) has two people play short games from their turn panels: a
click on the mover's ephemeral panel is timed until the panel is edited, against a no-op button in
the same run (clicks rotate, so machine noise hits both alike), and every public board image the
bot draws is kept and drawn again alone for its render time and bytes.
"""

from __future__ import annotations

import asyncio
import functools
import random
import tempfile
import time
from pathlib import Path
from typing import Any

import simcord

from bench import pct
from bench.discord_roundtrip import NOOP_IDS, NoopButton, _fast_idle, live_matches, noop_table
from bot.games import UIS
from engine.games.honga import RULES, HongaState
from engine.games.honga_ai import COMPUTER
from engine.rng import Rng
from harness.honga import pick
from harness.sim import DAY, bench_bot, board, button_id, components, no_recaps
from render.honga import render_honga

NAMES = ["Ada", "Borg the Bold", "Chen", "Dana", "Ewa"]
KIB = 1024


def _game(seed: int, players: list[str], decisions: list[float], turns: list[float]) -> list[int]:
    """One game; records the strongest level's decision and turn times. Returns the winners."""
    s = RULES.setup(len(players), seed, {})
    rng = Rng(seed ^ 0x5EED)
    turn_seat = s.current
    spent = 0.0
    while s.phase != "over":
        seat = s.current
        if seat != turn_seat:
            turn_seat, spent = seat, 0.0
        level = players[seat]
        t0 = time.perf_counter()
        act = (
            rng.choice(RULES.legal_actions(s, seat)) if level == "random" else COMPUTER.choose(s, seat, level)
        )
        took = time.perf_counter() - t0
        if level == COMPUTER.levels[0]:
            decisions.append(took)
            spent += took
            if act == "end" or act.startswith("keep."):
                turns.append(spent)
        s, _ = RULES.apply(s, seat, act)
    out = RULES.outcome(s)
    assert out is not None
    return out.winners


def win_rates(games: int) -> tuple[list[tuple[str, str, str]], list[float], list[float]]:
    best, next_level = COMPUTER.levels[0], COMPUTER.levels[1]
    decisions: list[float] = []
    turns: list[float] = []
    rows = []
    for opponent, aim in (("random", 0.70), (next_level, 0.55)):
        wins = 0
        for g in range(games):
            me = g % 3
            players = [best if x == me else opponent for x in range(3)]
            wins += _game(1000 + g, players, decisions, turns) == [me]
        rate = wins / games
        rows.append((f"{best} vs 2x {opponent}, 3 players ({games} games)", f"{rate:.0%}", f"≥ {aim:.0%}"))
    return rows, decisions, turns


def playouts(seconds: float = 3.0) -> tuple[str, str, str]:
    rng = random.Random(0)
    t0, games, moves = time.perf_counter(), 0, 0
    while time.perf_counter() - t0 < seconds:
        s = RULES.setup(rng.randint(2, 5), rng.getrandbits(32), {})
        while s.phase != "over":
            s, _ = RULES.apply(s, s.current, rng.choice(RULES.legal_actions(s, s.current)))
            moves += 1
        games += 1
    took = time.perf_counter() - t0
    return ("random playouts/s (moves/s)", f"{games / took:.1f} ({moves / took:.0f})", "-")


def _views(count: int) -> list[dict]:
    rng, out = random.Random(3), []
    for k in range(count):
        s: HongaState = RULES.setup(2 + k % 4, k, {})
        for _ in range(rng.randint(0, 900)):
            if s.phase == "over":
                break
            s, _ = RULES.apply(s, s.current, rng.choice(RULES.legal_actions(s, s.current)))
        out.append(RULES.view(s, None))
    return out


def render_rows(count: int = 16, rounds: int = 5) -> list[tuple[str, str, str]]:
    views = _views(count)
    render_honga(views[0], NAMES)  # builds the cached assets once per process
    times, sizes = [], []
    for _ in range(rounds):
        for view in views:
            t0 = time.perf_counter()
            png = render_honga(view, NAMES[: view["n"]])
            times.append(time.perf_counter() - t0)
            sizes.append(len(png))
    return [
        (f"render+encode p50 ({count} states x {rounds})", f"{pct(times, 0.5) * 1e3:.1f} ms", "≤ 12 ms"),
        ("render+encode p99", f"{pct(times, 0.99) * 1e3:.1f} ms", "≤ 30 ms"),
        ("render PNG size max", f"{max(sizes) / KIB:.1f} KiB", "≤ 25 KiB"),
    ]


# ---- SimCord: the turn panel's click round trip and the public board as posted ----------------------

PANEL_ACTIONS = ("p:", "q:")  # the panel's controls that commit (buttons, selects)
# discord.py gives an ephemeral message's view the token's lifetime (15 minutes), so every panel
# opened leaves a timer behind, and SimCord's settle scans every pending timer on each poll: left
# alone, clicks slow down with the number of panels opened (5x after 150). Every few turns virtual
# time jumps past that lifetime, as for panels left open on Discord.
PANEL_LIFETIME, JUMP_EVERY = 15 * 60 + 1, 8


class _Series:
    """Samples of one SimCord run, in seconds."""

    def __init__(self) -> None:
        self.move: list[float] = []  # a panel click that commits: until the panel is edited
        self.public: list[float] = []  # ... until the public message is edited too
        self.preview: list[float] = []  # a panel preview (display only): until the panel is edited
        self.preview_shown: list[float] = []  # ... until its picture is shown too
        self.noop: list[float] = []  # the no-op button (acknowledge only)
        self.noop_edit: list[float] = []  # the no-op that edits its own message
        self.in_bot: list[float] = []  # the public image's render+encode in the bot's worker thread
        self.posted: list[tuple[Any, ...]] = []  # the arguments of every public image the bot drew
        self.games = 0


class _Edits:
    """When each message was first edited since ``start()``. The panel is ephemeral: SimCord, like
    Discord, sends no MESSAGE_UPDATE for it, so this wraps the backend's edit itself (the bench's
    _FirstEdit only sees gateway events)."""

    def __init__(self, backend: Any) -> None:
        self.at: dict[int, float] = {}
        edit = backend.edit_message

        def recording_edit(channel_id: int, message_id: int, fields: dict[str, Any]) -> Any:
            out = edit(channel_id, message_id, fields)
            self.at.setdefault(message_id, time.perf_counter())
            return out

        backend.edit_message = recording_edit

    async def click(self, coro: Any, *message_ids: int) -> tuple[list[float], float, Any]:
        """Run the click: (seconds until each message was first edited, seconds until settled, the
        result). A message that was not edited counts as edited when the bot settled."""
        self.at.clear()
        t0 = time.perf_counter()
        result = await coro
        done = time.perf_counter() - t0
        return [self.at[m] - t0 if m in self.at else done for m in message_ids], done, result


def _record_public_renders(series: _Series) -> None:
    """Wrap Honga's render on this process's UI: keep the arguments of every public image the bot
    draws (re-rendered alone afterwards, for a clean time) and its time inside the bot. The panel's
    previews go through the same method: told apart by their view, which names a seat."""
    ui = UIS["honga"]
    plain = type(ui).render

    def render(view: dict[str, Any], *args: Any, **kw: Any) -> bytes:
        t0 = time.perf_counter()
        png = plain(ui, view, *args, **kw)
        if view.get("me") is None:
            series.in_bot.append(time.perf_counter() - t0)
            series.posted.append((view, *args))
        return png

    ui.render = render  # type: ignore[method-assign]


def _panel_controls(panel: Any, kinds: tuple[str, ...]) -> list[tuple[str, tuple[str, ...]]]:
    """(custom_id, option values) of the panel's enabled controls of the given kinds."""
    out = []
    for c in components(panel):
        cid = getattr(c, "custom_id", None) or ""
        if cid.startswith(kinds) and not getattr(c, "disabled", False):
            out.append((cid, tuple(o.value for o in getattr(c, "options", None) or [])))
    return out


async def _new_game(env: Any, channel: Any, players: list[Any]) -> int:
    """/honga start (short target) by the first player, the second joins, start."""
    await players[0].slash(channel, "honga start", target="short", turn_seconds=DAY)
    await players[1].click(board(channel), custom_id=button_id(board(channel), "join", "l"))
    await players[0].click(board(channel), custom_id=button_id(board(channel), "start", "l"))
    return (await env.bot.matches.live_in_channel(channel.id)).id


async def _open_panel(channel: Any, actor: Any) -> Any:
    r = await actor.click(board(channel), custom_id=button_id(board(channel), "hand", "h"))
    assert r.ephemeral, "the panel is an ephemeral reply"
    return r.response.message


async def _noops(edits: _Edits, players: list[Any], msg: Any, series: _Series) -> None:
    for how, samples in (("defer", series.noop), ("edit", series.noop_edit)):
        click = players[len(samples) % 2].click(msg, custom_id=NOOP_IDS[how])
        (dt,), _, r = await edits.click(click, msg.id)
        assert r.acknowledged and not r.ephemeral
        samples.append(dt)


async def _panel_turn(
    env: Any, edits: _Edits, channel: Any, players: list[Any], mid: int, rng: random.Random, series: _Series
) -> None:
    """One decision of the mover, taken on their panel: in step 1 now and then a preview first, then
    one committing click picked at random among the panel's controls."""
    m, state = await env.bot.matches.get(mid)
    actor = next(p for p in players if p.id == m.seats[state.current].user_id)
    panel = await _open_panel(channel, actor)
    previews = _panel_controls(panel, ("y:",))
    if state.phase == "place" and previews and len(series.preview) <= len(series.move) // 4:
        cid, values = pick(previews, rng)
        (dt,), shown, _ = await edits.click(actor.select(panel, list(values), custom_id=cid), panel.id)
        series.preview.append(dt)
        series.preview_shown.append(shown)
        panel = await _open_panel(channel, actor)
    cid, values = pick(_panel_controls(panel, PANEL_ACTIONS), rng)
    click = actor.select(panel, list(values), custom_id=cid) if values else actor.click(panel, custom_id=cid)
    (dt, public), _, r = await edits.click(click, panel.id, board(channel).id)
    assert r.acknowledged and not r.ephemeral, r.response and r.response.content
    series.move.append(dt)
    series.public.append(public)


async def _panel_run(db_path: str, clicks: int) -> _Series:
    bot = bench_bot(db_path, NoopButton)  # as in tests: SimCord time stands still between clicks
    series, ui, rng = _Series(), UIS["honga"], random.Random(7)
    _record_public_renders(series)
    try:
        async with simcord.run(bot) as env:
            edits = _Edits(env.backend)
            channel, players, noop_msg = await noop_table(env, bot)
            new_game = functools.partial(_new_game, env, channel, players)
            async for mid, new in live_matches(bot, new_game, lambda: len(series.move) < clicks):
                series.games += new
                await _noops(edits, players, noop_msg, series)  # rotated with the moves: same noise
                await _panel_turn(env, edits, channel, players, mid, rng, series)
                if len(series.move) % JUMP_EVERY == 0:
                    await env.advance_time(PANEL_LIFETIME)
    finally:
        vars(ui).pop("render", None)
        await bot.matches.close()
        await bot.store.close()
    return series


def _rerender(posted: list[tuple[Any, ...]]) -> tuple[list[float], list[int]]:
    """The public images the bot drew, drawn again one by one on an idle process: render+encode
    time without the event loop competing for the GIL, and the bytes posted."""
    ui = UIS["honga"]
    times, sizes = [], []
    for args in posted:
        t0 = time.perf_counter()
        sizes.append(len(ui.render(*args)))
        times.append(time.perf_counter() - t0)
    return times, sizes


def _ms(samples: list[float], *qs: float) -> str:
    return " / ".join(f"{pct(samples, q) * 1e3:.1f}" for q in qs) + " ms"


def panel_rows(clicks: int = 240) -> list[tuple[str, str, str]]:
    """The turn panel's click round trip against the no-op button in the same run, and the public
    board images the bot drew during those games."""
    with tempfile.TemporaryDirectory() as tmp, _fast_idle(), no_recaps():
        s = asyncio.run(_panel_run(str(Path(tmp) / "bench.db"), clicks))
    times, sizes = _rerender(s.posted)
    move, noop, edit = pct(s.move, 0.5), pct(s.noop, 0.5), pct(s.noop_edit, 0.5)
    png = f"{pct(sizes, 0.5) / KIB:.1f} / {max(sizes) / KIB:.1f} KiB"
    return [
        (f"panel click round trip p50 / p99 (n={len(s.move)}, {s.games} games)", _ms(s.move, 0.5, 0.99), "-"),
        ("  public message edited too, p50", _ms(s.public, 0.5), "-"),
        ("no-op click p50: defer / edits its message", f"{noop * 1e3:.1f} / {edit * 1e3:.1f} ms", "-"),
        ("panel click / no-op p50", f"{move / noop:.2f}x (vs editing no-op {move / edit:.2f}x)", "≤ 2x"),
        (
            f"panel preview p50: panel edited / picture shown (n={len(s.preview)})",
            f"{pct(s.preview, 0.5) * 1e3:.1f} / {pct(s.preview_shown, 0.5) * 1e3:.1f} ms",
            "-",
        ),
        (
            f"public board as posted: render+encode p50 / p99 (n={len(times)})",
            _ms(times, 0.5, 0.99),
            "p50 ≤ 12 ms",
        ),
        ("  same, inside the bot (worker thread, loop running) p50", _ms(s.in_bot, 0.5), "-"),
        ("public board as posted: PNG p50 / max", png, "≤ 25 KiB"),
    ]


def run(games: int = 18) -> list[tuple[str, str, str]]:
    rows, decisions, turns = win_rates(games)
    ai = [
        ("AI decision p50 / max", f"{pct(decisions, 0.5) * 1e3:.1f} / {max(decisions) * 1e3:.0f} ms", "-"),
        ("AI full turn p50 / max", f"{pct(turns, 0.5) * 1e3:.0f} / {max(turns) * 1e3:.0f} ms", "p50 ≤ 1 s"),
    ]
    return ai + rows + [playouts()] + render_rows() + panel_rows()


if __name__ == "__main__":
    t0 = time.perf_counter()
    table = [("metric", "result", "aim"), *run()]
    widths = [max(len(r[i]) for r in table) for i in range(3)]
    for row in table:
        print(" | ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)))
    print(f"({time.perf_counter() - t0:.0f} s)")
