"""Every game's move click against floors measured in the same SimCord run (issue 19).

For each game two people play seeded random games while a spectator sits in the channel. Clicks
rotate, so machine noise hits all series alike:

- **refused**: the spectator clicks a control of the board and is told, privately, that they are not
  in the game: the cheapest answer the bot gives (decode, one cached read, one ephemeral reply).
- **floor**: a button answering with one board-sized flat image through the bot's encoder
  (``render.common.encode_png``, on the event loop: no hop to a drawing process) in its single
  response: the cheapest way to put a new board-sized PNG on a message. Board-sized is the size of
  the picture the last move changed (Ubongo's 600x526 workspace, not the table in the channel,
  which it was until 2026-12-05: a floor a third of the size the move draws). (It was encoded in a drawing
  process until 2026-12-04, a hop the move pays as well; the issue asked for this floor instead.)
- **move**: the player to move makes a move the way players do (Ugah and Uonga on the board, Honga
  on the turn panel, Ubongo placing a piece in the DM workspace).
- **answer**: the move's answer again, alone: the spectator clicks a button that answers with the
  text, controls and (already drawn) PNG the move's surface got, in the same requests (one, or two
  when the picture followed the text). Against
  the move's CPU it says what the simulated Discord's handling of those requests takes by itself,
  and the move's drawing (the drawing processes' CPU) is said beside it: the rest is the bot's.

Times are real (``time.perf_counter``): *first answer* is when the simulated Discord recorded the
interaction's response; *image complete* is when the surface whose picture the move changes (the
board; Ubongo: the workspace) was last edited with a new attachment, the click's other surfaces
(pings, panels) aside. CPU is the process's (every thread) from the click until the bot settled, plus what
the drawing processes spent on it. SimCord looks at the bot every millisecond while it settles, and
that looking is counted too: a click that only waits 15 ms off the loop took 6.3-7.0 ms of CPU so
watched, 3.3-3.5 ms at SimCord's own 50 ms, in the same wall time. A refused click, which waits for
nothing, is cheapest so watched (2.2 ms, against 2.6 ms at 10 ms): kept, the ratios are not flattered.

*The bot's CPU per move* takes SimCord's and the bench's own CPU out of the move's, by a sampling
profile of the event loop's thread (``bench.cpu_split``). ``python -m bench --profile GAME`` plays the
same clicks and prints where the bot's samples were taken.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import functools
import io
import random
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord
import simcord
from PIL import Image

from bench import Row, cpu_split, ms, pct
from bench.discord_roundtrip import MadeOnClick, _fast_idle

# Honga's panels are let expire now and then, as on Discord (see bench.honga)
from bench.honga import JUMP_EVERY, PANEL_ACTIONS, PANEL_LIFETIME, _open_panel, _panel_controls
from bench.ubongo import _ready_to_place
from bot import render_pool
from bot.games import SPECS
from engine.registry import rules_for
from harness.honga import pick
from harness.sim import DAY, bench_bot, board, button_id, custom_ids, no_recaps, setup_table
from render import common

ROOT = str(Path(__file__).resolve().parents[1]) + "/"
GAMES = tuple(SPECS)  # every registered game
FLOOR_ID = "bench:floor"
ANSWER_ID = "bench:answer"


class FloorButton(MadeOnClick, discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"bench:floor"):
    """Answers with one flat image the size of the last board, encoded like a board."""

    size: tuple[int, int] = (800, 544)

    def __init__(self) -> None:
        super().__init__(discord.ui.Button(label="floor", custom_id=FLOOR_ID))

    async def callback(self, interaction: discord.Interaction) -> None:
        png = _flat_png(FloorButton.size)
        await interaction.response.edit_message(attachments=[discord.File(io.BytesIO(png), "floor.png")])


@functools.lru_cache(maxsize=1)
def _palette() -> Image.Image:
    return common.build_palette([(236, 226, 200), (60, 40, 20)])


def _flat_png(size: tuple[int, int]) -> bytes:
    return common.encode_png(Image.new("RGB", size, (236, 226, 200)), _palette())


class AnswerButton(MadeOnClick, discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"bench:answer"):
    """The requests of the move's answer and nothing else: the text, controls and new PNG (drawn
    already) the move's surface got, in as many requests as the move's answer took: one (an
    interaction response with the upload), or two when its picture followed the text (then an edit
    through the interaction's webhook). No commit, no drawing, no ping: what the move's own answer
    costs against this simulated Discord."""

    whole: bool = False  # the move's answer carried its picture in its one response
    content: str = ""
    copied: Any = None  # the message whose components are copied
    png: bytes = b""
    view: discord.ui.View | None = None  # the copied controls: stopped after the click (see done)

    def __init__(self) -> None:
        super().__init__(discord.ui.Button(label="answer", custom_id=ANSWER_ID))

    async def callback(self, interaction: discord.Interaction) -> None:
        view = AnswerButton.view = discord.ui.View.from_message(AnswerButton.copied, timeout=None)
        files = [discord.File(io.BytesIO(AnswerButton.png), "board.png")]
        if AnswerButton.whole:
            await interaction.response.edit_message(
                content=AnswerButton.content, view=view, attachments=files
            )
            return
        await interaction.response.edit_message(content=AnswerButton.content, view=view)
        await interaction.edit_original_response(attachments=files)

    @staticmethod
    def done() -> None:
        """Drop the copied controls from discord.py's view store (the bot's own controls are dynamic
        items and never stored): SimCord looks through every stored view as it settles, so kept
        copies made each later click cost more."""
        if AnswerButton.view is not None:
            AnswerButton.view.stop()
            AnswerButton.view = None


class Stamps:
    """When the simulated Discord recorded each interaction's first response, and each message's
    edits that carried attachments (real time)."""

    def __init__(self, backend: Any) -> None:
        self.answered: dict[int, float] = {}
        self.imaged: dict[int, float] = {}
        make, edit = backend.new_interaction, backend.edit_message
        stamps = self

        def new_interaction(*args: Any, **kwargs: Any) -> Any:
            record = make(*args, **kwargs)
            plain = type(record)

            class Stamped(plain):  # type: ignore[valid-type, misc]
                def __setattr__(self, name: str, value: object) -> None:
                    if name == "responded" and value:
                        stamps.answered.setdefault(id(self), time.perf_counter())
                    plain.__setattr__(self, name, value)

            record.__class__ = Stamped
            stamps.last = record
            return record

        def edit_message(channel_id: int, message_id: int, fields: dict[str, Any]) -> Any:
            out = edit(channel_id, message_id, fields)
            if fields.get("attachments"):
                self.imaged[message_id] = time.perf_counter()
            return out

        backend.new_interaction, backend.edit_message = new_interaction, edit_message
        self.last: Any = None

    def clear(self) -> None:
        self.answered.clear()
        self.imaged.clear()


@dataclass
class Click:
    """One timed click: who clicks what, and the message whose image it changes (None: none)."""

    run: Callable[[], Awaitable[Any]]
    image_of: int | None = None


@dataclass
class Series:
    first: list[float] = field(default_factory=list)
    image: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    drawing: list[float] = field(default_factory=list)  # the drawing processes' share of cpu
    bot: list[float] = field(default_factory=list)  # cpu without SimCord's and the bench's (cpu_split)
    sampled: list[float] = field(default_factory=list)  # those clicks' whole cpu, the sampler's too
    whole: list[bool] = field(
        default_factory=list
    )  # its first answer carried the picture (no second request)


async def _timed(stamps: Stamps, click: Click, series: Series, *, sampled: bool = False) -> Any:
    """A timed click; ``sampled``: its CPU split by owner instead (the sampler's signals slow the
    loop, so a sampled click's times and CPU are not kept)."""
    stamps.clear()
    with cpu_split.Sampler() if sampled else contextlib.nullcontext() as split:
        t0, d0, c0 = time.perf_counter(), render_pool.child_cpu(), time.process_time()
        result = await click.run()
        done, drawing = time.perf_counter(), render_pool.child_cpu() - d0
        cpu = time.process_time() - c0 + drawing
    if split is not None:
        series.bot.append(cpu - split.handler - split.theirs_cpu)
        series.sampled.append(cpu)
        return result
    answered = stamps.answered.get(id(stamps.last), done)
    series.first.append(answered - t0)
    series.cpu.append(cpu)
    series.drawing.append(drawing)
    if click.image_of is not None:
        series.image.append(stamps.imaged.get(click.image_of, done) - t0)
    return result


# ---- how each game's mover moves -------------------------------------------------------------------


@dataclass
class Table:
    env: Any
    channel: Any
    players: list[Any]
    spectator: Any
    game: str
    rng: random.Random
    match_id: int | None = None
    moves: int = 0

    async def mover(self) -> tuple[Any, Any]:
        m, state = await self.env.bot.matches.get(self.match_id)
        seat = min(rules_for(self.game).to_move(state))
        return next(p for p in self.players if p.id == m.seats[seat].user_id), state


async def _start(t: Table) -> None:
    options: dict[str, Any] = {"turn_seconds": DAY, **SPECS[t.game].bench.options}
    await t.players[0].slash(t.channel, f"{t.game} start", **options)
    await t.players[1].click(board(t.channel), custom_id=button_id(board(t.channel), "join", "l"))
    await t.players[0].click(board(t.channel), custom_id=button_id(board(t.channel), "start", "l"))
    t.match_id = (await t.env.bot.matches.live_in_channel(t.channel.id)).id


async def _on_the_board(t: Table) -> Click:
    """A control of the board (any game's move, unless it has a way of its own below)."""
    actor, _ = await t.mover()
    msg = board(t.channel)
    return Click(lambda: actor.click(msg, custom_id=t.rng.choice(custom_ids(msg, "g:"))), msg.id)


async def _uonga(t: Table) -> Click:
    """Select a piece or square (display only, untimed), then click one of the green targets."""
    actor, _ = await t.mover()
    msg = board(t.channel)
    while not custom_ids(msg, "g:"):
        picks = [c for c in custom_ids(msg, "v:") if c.split(":", 3)[3].startswith(("sel.", "pl."))]
        await actor.click(msg, custom_id=t.rng.choice(picks))
        msg = board(t.channel)
    return Click(lambda: actor.click(msg, custom_id=t.rng.choice(custom_ids(msg, "g:"))), msg.id)


async def _honga(t: Table) -> Click:
    """Open the turn panel (untimed), then one committing control of it, moves that gain preferred
    (as bench.honga's panel games)."""
    actor, _ = await t.mover()
    panel = await _open_panel(t.channel, actor)
    cid, values = pick(_panel_controls(panel, PANEL_ACTIONS), t.rng)

    def run() -> Awaitable[Any]:
        return (
            actor.select(panel, list(values), custom_id=cid) if values else actor.click(panel, custom_id=cid)
        )

    return Click(run, board(t.channel).id)


async def _ubongo(t: Table) -> Click:
    """Choose a piece that fits (untimed; the workspace is cleared first when two are down, so a
    placement never solves), then place it: the workspace's task image is redrawn."""
    seat = t.moves % 2
    player = t.players[seat]
    msg, place = await _ready_to_place(t.env, player, t.match_id, seat)
    return Click(lambda: player.user.click(msg, custom_id=place), msg.id)


MOVERS: dict[str, Callable[[Table], Awaitable[Click]]] = {  # the games that move otherwise
    "uonga": _uonga,
    "honga": _honga,
    "ubongo": _ubongo,
}


def _refused(t: Table) -> Click:
    """The spectator clicks the board's first game control (or its hand button)."""
    msg = board(t.channel)
    ids = custom_ids(msg, "g:") or custom_ids(msg, "v:") or [button_id(msg, "hand", "h")]
    return Click(lambda: t.spectator.click(msg, custom_id=ids[0]))


def _floor(t: Table, floor_msg: Any) -> Click:
    return Click(lambda: t.spectator.click(floor_msg, custom_id=FLOOR_ID), floor_msg.id)


async def _answer(t: Table, moved: int, channel: Any) -> Click:
    """The move's answer again, alone (untimed: a message in ``channel`` with the answer button, and
    what the move's surface shows now, copied into the button)."""
    where = [t.channel, *(p.user.dm_channel for p in t.players if p.user.dm_channel is not None)]
    msg = next(m for c in where for m in c.history() if m.id == moved)
    AnswerButton.content, AnswerButton.copied = msg.content, msg
    AnswerButton.png = await msg.attachments[0].read()
    # the next floor puts a picture the size of this one on its message: the picture the move
    # changes (Ubongo's is the 600x526 workspace in a DM, not the table in the channel)
    FloorButton.size = Image.open(io.BytesIO(AnswerButton.png)).size
    view = discord.ui.View(timeout=None).add_item(AnswerButton())
    sent = await t.env.bot.get_partial_messageable(channel.id).send("answer", view=view)
    target = next(m for m in channel.history() if m.id == sent.id)
    return Click(lambda: t.spectator.click(target, custom_id=ANSWER_ID), target.id)


async def _size_of_board(t: Table) -> tuple[int, int]:
    msg = board(t.channel)
    if not msg.attachments:
        return FloorButton.size
    return Image.open(io.BytesIO(await msg.attachments[0].read())).size


def _whole(requests: list[Any]) -> bool:
    """Whether a click's answer carried its picture in its one response (an upload in the
    interaction's callback), none following through the interaction's token after the text."""
    uploaded = any(
        r.path.endswith("/callback") and ((r.json or {}).get("data") or {}).get("attachments")
        for r in requests
    )
    return uploaded and not any(
        r.method == "PATCH" and r.path.endswith("/messages/@original") for r in requests
    )


def _in_pairs(move: int) -> bool:
    """Moves sampled for the CPU split: two of every four (by pairs, not by turn: moves alternate
    between the players, and Ubongo's between an empty workspace and one with a piece)."""
    return (move // 2) % 2 == 1


async def play(
    game: str,
    moves: int,
    *,
    before_move: Callable[[], Any] | None = None,
    sampled: Callable[[int], bool] = _in_pairs,
) -> dict[str, Series]:
    """Seeded games of ``game`` until ``moves`` move clicks were timed (each after a refused and a
    floor click). ``before_move``/its result's ``__exit__``: a context around each timed move only;
    ``sampled``: which moves' CPU is split by owner (their times are not kept)."""
    out = {"refused": Series(), "floor": Series(), "move": Series(), "answer": Series()}
    render_pool.warm_up()  # the drawing processes ready, as in a bot that has run for a while
    with tempfile.TemporaryDirectory() as tmp, _fast_idle(), no_recaps():
        bot = bench_bot(str(Path(tmp) / "bench.db"), FloorButton, AnswerButton)
        try:
            async with simcord.run(bot) as env:
                stamps = Stamps(env.backend)
                guild, channel, players = setup_table(env, 2)
                spectator = guild.add_member(env.create_user("spectator"))
                answers = guild.create_text_channel("answers")
                view = discord.ui.View(timeout=None).add_item(FloorButton())
                sent = await bot.get_partial_messageable(channel.id).send("floor", view=view)
                floor_msg = next(m for m in channel.history() if m.id == sent.id)
                t = Table(env, channel, players, spectator, game, random.Random(19))
                while t.moves < moves:
                    if t.match_id is None or (await bot.matches.get(t.match_id))[0].status != "active":
                        await _start(t)
                        FloorButton.size = await _size_of_board(t)  # until a move shows its own
                    r = await _timed(stamps, _refused(t), out["refused"])
                    assert r.ephemeral, "the spectator's click is refused privately"
                    await _timed(stamps, _floor(t, floor_msg), out["floor"])
                    click = await MOVERS.get(game, _on_the_board)(t)
                    # a picture drawn before is reused (Ubongo's placements here repeat): time drawing it
                    render_pool.forget_drawings(bands=False)
                    at = len(env.http_requests)
                    with before_move() if before_move else contextlib.nullcontext():
                        r = await _timed(stamps, click, out["move"], sampled=sampled(t.moves))
                    AnswerButton.whole = _whole(env.http_requests[at:])
                    out["move"].whole.append(AnswerButton.whole)
                    assert r.acknowledged and not r.ephemeral, r.response and r.response.content
                    assert click.image_of is not None
                    await _timed(stamps, await _answer(t, click.image_of, answers), out["answer"])
                    AnswerButton.done()
                    t.moves += 1
                    if game == "honga" and t.moves % JUMP_EVERY == 0:
                        await env.advance_time(PANEL_LIFETIME)
        finally:
            await bot.matches.close()
            await bot.store.close()
    return out


def _ratio(a: float, b: float) -> str:
    return f"{a / b:.1f}x"


def rows_of(game: str, s: dict[str, Series]) -> list[Row]:
    move, refused, floor, answer = s["move"], s["refused"], s["floor"], s["answer"]
    first = pct(move.first, 0.5) / pct(refused.first, 0.5)
    image50 = pct(move.image, 0.5) / pct(floor.image, 0.5)
    image90 = pct(move.image, 0.9) / pct(floor.image, 0.9)
    cpu = pct(move.cpu, 0.5) / pct(refused.cpu, 0.5)
    answer_cpu = pct(answer.cpu, 0.5) / pct(refused.cpu, 0.5)
    drawing = pct(move.drawing, 0.5) / pct(refused.cpu, 0.5)
    n = len(move.first)
    aim = SPECS[game].bench.cpu_per_move
    return [
        Row(
            f"{game}: refused click, first answer p50 / board-sized floor, image p50 / p90",
            f"{ms(pct(refused.first, 0.5))} / {ms(pct(floor.image, 0.5))} / {ms(pct(floor.image, 0.9))}",
        ),
        # a first answer that carries the picture is the whole board: the image rows judge it (the
        # picture no longer follows a Discord round trip later); one of text alone is held to 4x
        Row(
            f"{game}: move first answer p50 (n={n}), x refused; answers that carried the picture",
            f"{ms(pct(move.first, 0.5))} ({_ratio(pct(move.first, 0.5), pct(refused.first, 0.5))});"
            f" {sum(move.whole)} of {len(move.whole)}",
            "≤ 4x (text alone)",
            first <= 4 if sum(move.whole) * 2 < len(move.whole) else None,
        ),
        Row(
            f"{game}: move image complete p50, x floor",
            f"{ms(pct(move.image, 0.5))} ({image50:.1f}x)",
            "≤ 3x",
            image50 <= 3,
        ),
        Row(
            f"{game}: move image complete p90, x floor p90",
            f"{ms(pct(move.image, 0.9))} ({image90:.1f}x)",
            "≤ 5x",
            image90 <= 5,
        ),
        Row(
            f"{game}: CPU per move p50, x refused", f"{ms(pct(move.cpu, 0.5))} ({cpu:.1f}x)", "≤ 5x", cpu <= 5
        ),
        # the move's CPU taken apart: what its answer's two requests cost the simulated Discord by
        # themselves, and what its picture cost the drawing processes (the rest is the bot's)
        Row(
            f"{game}:   of which its answer's requests alone / its drawing, x refused",
            f"{ms(pct(answer.cpu, 0.5))} ({answer_cpu:.1f}x) / {ms(pct(move.drawing, 0.5))} ({drawing:.1f}x)",
        ),
        Row(
            f"{game}: the bot's CPU per move p50 / p90 (SimCord's and the bench's taken out)",
            f"{ms(pct(move.bot, 0.5))} / {ms(pct(move.bot, 0.9))}",
            f"≤ {aim * 1e3:.0f} ms",
            pct(move.bot, 0.5) <= aim,
        ),
    ]


def run(quick: bool) -> list[Row]:
    rows: list[Row] = []
    for game in GAMES:
        rows += rows_of(game, asyncio.run(play(game, 40 if quick else 200)))
    return rows


# ---- --profile GAME ----------------------------------------------------------------------------------


@contextlib.contextmanager
def _recording(counts: collections.Counter[tuple[str, str]]) -> Iterator[None]:
    cpu_split.RECORD = counts
    try:
        yield
    finally:
        cpu_split.RECORD = None


def profile(game: str, moves: int = 120, top: int = 25) -> str:
    """Where the bot's CPU of ``game``'s move clicks goes, by the sampling split of bench.cpu_split
    (the event loop's thread; the drawing processes and other threads said as totals)."""
    counts: collections.Counter[tuple[str, str]] = collections.Counter()
    recording = functools.partial(_recording, counts)
    s = asyncio.run(play(game, moves, before_move=recording, sampled=lambda _: True))["move"]
    total = sum(counts.values()) or 1
    lines = [
        f"{game}: {moves} move clicks; the bot's CPU p50 {ms(pct(s.bot, 0.5))} (SimCord's and the"
        f" bench's taken out); {total} of the bot's samples on the event loop's thread:",
        "",
        "share  running",
    ]
    for name, n in collections.Counter({k[0]: 0 for k in counts} | _sum(counts, 0)).most_common(top):
        lines.append(f"{n / total * 100:4.1f}%  {name}")
    lines += ["", "share  for this project's function (innermost)"]
    for name, n in _sum(counts, 1).most_common(top):
        lines.append(f"{n / total * 100:4.1f}%  {name}")
    return "\n".join(lines)


def _sum(counts: collections.Counter[tuple[str, str]], part: int) -> collections.Counter[str]:
    out: collections.Counter[str] = collections.Counter()
    for key, n in counts.items():
        out[key[part]] += n
    return out


if __name__ == "__main__":  # python -m bench.clicks [--quick]: this step alone
    import sys

    from bench import clicks  # this file again as bench.clicks: the floor's drawing then pickles
    from bench.table import load_average, table

    print(f"load average {load_average()}")
    print(table(clicks.run("--quick" in sys.argv)))
