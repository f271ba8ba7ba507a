"""Driving games through SimCord as players would: shared by the tests, the benchmarks and the
playground tools (which import nothing from tests/ nor from each other)."""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import Iterator, Sequence
from typing import Any

import discord
import simcord.interactions as sim_interactions  # looked up at each call: a test may wrap it
from simcord import InteractionResult
from simcord.actors import _find_component, _resolve_visible_command, _visible_message
from simcord.backend import serializers
from simcord.backend.models import Interaction
from simcord.enums import AppCommandType, ComponentType, InteractionType

from bot.client import create_bot
from bot.surfaces import recap

# engine.match's clock watch for a bot under SimCord, which waits in real time for any bot timer due
# within its settle timeout (5 s): a shorter watch would make every click wait for it
SIM_CLOCK_WATCH = 30.0
DAY = 86400  # nobody's turn runs out: SimCord also fires a bot timer once its delay passed in real time


BENCH_IDS = "bench:"  # the custom ids of the benchmarks' own buttons (no-op, floor, shape)


def bench_bot(db_path: str, *buttons: type) -> Any:
    """A bot for a benchmark under SimCord: no rate limits, SimCord's clock watch, nobody's turn
    running out, and the benchmark's own buttons (DynamicItems with ``bench:`` ids) answered by
    themselves: the bot answers any id it does not own as forged."""
    bot = create_bot(db_path, rate_limits=False, clock_watch_seconds=SIM_CLOCK_WATCH, turn_seconds=DAY)
    if buttons:
        bot.add_dynamic_items(*buttons)
        unknown_id_reply = bot.on_interaction

        async def on_interaction(interaction: discord.Interaction) -> None:
            if not str((interaction.data or {}).get("custom_id", "")).startswith(BENCH_IDS):
                await unknown_id_reply(interaction)
            elif interaction.type is discord.InteractionType.component:
                # it answers itself; its watch ends here as the router ends every click's: left
                # open, it made the next click look like one of a burst (``Clicks.alone``), and a
                # move then drew its picture only after its commit
                bot.router.clicks.handled(interaction)

        bot.on_interaction = on_interaction
    return bot


@contextlib.contextmanager
def no_recaps() -> Iterator[None]:
    """Nor is a finished game's recap due while a benchmark plays: a recap timer firing in real time
    makes SimCord advance its clock and settle while the recap is drawn beside the busy loop, past
    its 5 s limit (bench.clicks' Uonga run failed so about every third time; the Ugah round trip,
    which plays many short games, every time)."""
    delay, recap.DELAY_SECONDS = recap.DELAY_SECONDS, DAY
    try:
        yield
    finally:
        recap.DELAY_SECONDS = delay


def _follow_up(m: discord.Message) -> bool:
    """A turn ping posted as a click's follow-up (through the click's interaction token, outside the
    bot token's budget: issue 35). Discord shows it under the message clicked, and a follow-up can't
    be a reply: so it is told by what it is, a message of an interaction's that only mentions
    (no controls, no file), unlike a board or an offer that has lost its controls."""
    return (
        m.interaction_metadata is not None and bool(m.raw_mentions) and not m.components and not m.attachments
    )


def not_pings(followups: list[Any]) -> list[Any]:
    """A click's follow-ups (SimCord's ResponseMessage) besides the turn ping it may carry: the ping is
    public, mentions, and has no controls."""
    return [f for f in followups if f.flags.ephemeral or f.components or "<@" not in (f.content or "")]


def public_messages(channel: Any) -> list[discord.Message]:
    """Public messages, without the turn pings (replies to the board, or clicks' follow-ups)."""
    return [
        m for m in channel.history() if not m.flags.ephemeral and m.reference is None and not _follow_up(m)
    ]


def pings(channel: Any) -> list[discord.Message]:
    """Turn pings: replies to the board without a file (the recap of a finished game has its GIF), or
    a click's follow-up (``pointed_at``)."""
    return [
        m
        for m in channel.history()
        if not m.flags.ephemeral and ((m.reference is not None and not m.attachments) or _follow_up(m))
    ]


def pointed_at(env: Any, ping: discord.Message) -> int | None:
    """The message a ping points at: the one it replies to, or the one whose click it follows up."""
    if ping.reference is not None:
        return ping.reference.message_id
    if ping.interaction_metadata is None:
        return None
    return env.backend.interactions[ping.interaction_metadata.id].source_message_id


def recaps(channel: Any) -> list[discord.Message]:
    """The animated recaps posted under finished games' boards."""
    return [
        m for m in channel.history() if not m.flags.ephemeral and m.reference is not None and m.attachments
    ]


def board(channel: Any) -> discord.Message:
    """The game's channel message (the latest public bot message)."""
    msgs = public_messages(channel)
    assert msgs, "no public message in channel"
    return msgs[-1]


def components(msg: Any) -> list[Any]:
    """Every component of a message, however deeply nested (classic rows or Components V2)."""
    out, stack = [], list(msg.components)
    while stack:
        c = stack.pop(0)
        out.append(c)
        for attr in ("children", "components", "items"):
            inner = getattr(c, attr, None)
            if isinstance(inner, list):
                stack.extend(inner)
        accessory = getattr(c, "accessory", None)
        if accessory is not None:
            stack.append(accessory)
    return out


def custom_ids(msg: Any, prefix: str = "") -> list[str]:
    return [
        c.custom_id
        for c in components(msg)
        if getattr(c, "custom_id", None) and c.custom_id.startswith(prefix)
    ]


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
        options = [o for c in components(msg) if getattr(c, "custom_id", "") == selects[0] for o in c.options]
        values = rng.sample([o.value for o in options], rng.randint(1, len(options)))
        return lambda: actor.select(msg, values, custom_id=selects[0])
    cid = rng.choice(buttons)
    return lambda: actor.click(msg, custom_id=cid)


def emit_click(
    env: Any, actor: Any, message: Any, custom_id: str, values: Sequence[str] = (), *, dm: bool = False
) -> Any:
    """Deliver one click (a select's choice with ``values``) to the bot without settling: SimCord's
    interaction record, answered when the bot answers. Within an operation of the caller's
    (``env._begin_operation``), as ``concurrent_clicks`` and bench.bucket's steady clicks."""
    stored = _visible_message(actor, message)
    types = (ComponentType.STRING_SELECT,) if values else (ComponentType.BUTTON,)
    comp = _find_component(stored.components, types=types, custom_id=custom_id, label=None)
    data: dict[str, Any] = {"custom_id": comp["custom_id"], "component_type": comp["type"]}
    if comp.get("id") is not None:
        data["id"] = comp["id"]
    if values:
        offered = {o["value"] for o in comp.get("options") or []}
        assert set(values) <= offered, (values, sorted(offered))
        data["values"] = list(values)
    return emit_component(env, actor, stored, data, dm=dm)


def emit_component(env: Any, actor: Any, stored: Any, data: dict[str, Any], *, dm: bool = False) -> Any:
    """The INTERACTION_CREATE of a component interaction on SimCord's ``stored`` message, carrying
    ``data`` as given (checked by the caller, or not: a late click's custom_id), unsettled."""
    record, payload = sim_interactions.base_payload(
        env.backend,
        type=InteractionType.MESSAGE_COMPONENT,
        channel_id=stored.channel_id,
        guild_id=None if dm else actor.guild.id,
        user_id=actor.id,
        data=data,
    )
    payload["message"] = dict(serializers.message_payload(env.backend, stored))
    record.source_message_id = stored.id
    env.backend.emit("INTERACTION_CREATE", payload)
    return record


def emit_slash(env: Any, actor: Any, channel: Any, name: str, **options: Any) -> Any:
    """A slash command delivered as ``emit_click`` delivers a click (what SimCord's ``slash`` does
    before it settles): its interaction record."""
    parts = name.split()
    root = _resolve_visible_command(actor, channel.id, parts[0], AppCommandType.CHAT_INPUT)
    leaf, nesting = sim_interactions.walk_to_subcommand(root, parts[1:])
    leaf_options, resolved = sim_interactions.build_options(actor, name, leaf, options, channel_id=channel.id)
    data: dict[str, Any] = {
        "id": root["id"],
        "name": root["name"],
        "type": root.get("type", AppCommandType.CHAT_INPUT),
        "options": sim_interactions.nest_options(root, nesting, leaf_options),
    }
    if resolved:
        data["resolved"] = resolved
    record, payload = sim_interactions.base_payload(
        env.backend,
        type=InteractionType.APPLICATION_COMMAND,
        channel_id=channel.id,
        guild_id=actor.guild.id,
        user_id=actor.id,
        data=data,
    )
    env.backend.emit("INTERACTION_CREATE", payload)
    return record


async def concurrent_clicks(
    env: Any, clicks: Sequence[tuple[Any, ...]], *, dm: bool = False, answers_first: bool = False
) -> list[InteractionResult]:
    """Emit every click before settling once, as Discord delivers interactions that arrive while a
    handler still awaits I/O. clicks: [(actor, message, custom_id), ...], or (actor, message,
    custom_id, values) for a select's choice: member actors in a guild, or user handles with
    ``dm=True`` for controls in their DMs. SimCord's own verbs settle after each
    click, so this uses its private helpers (pinned version).

    ``answers_first``: let the bot run on its own until every click is answered (waiting in real
    time, at most 30 s), and settle only then. SimCord's settle inspects every waiting task each
    time one finishes: with hundreds of clicks waiting on a real socket (PostgreSQL), that
    bookkeeping, not the bot, would fill the time being measured."""
    env._begin_operation("concurrent_clicks")
    try:
        records = [
            emit_click(env, actor, message, cid, *chosen, dm=dm) for actor, message, cid, *chosen in clicks
        ]
        if answers_first:
            loop = asyncio.get_running_loop()
            for _ in range(3000):
                if all(r.responded for r in records):
                    break
                await loop.run_in_executor(None, time.sleep, 0.01)  # real time, whatever the loop's clock
        await env._settle_internal(dispatch=f"INTERACTION_CREATE x{len(records)}")
        return [InteractionResult(env, r) for r in records]
    finally:
        env._end_operation()


async def concurrent_dm_clicks(env: Any, clicks: list[tuple[Any, Any, str]]) -> list[InteractionResult]:
    """concurrent_clicks for buttons in DMs: [(user_handle, dm_message, custom_id), ...]."""
    return await concurrent_clicks(env, clicks, dm=True)


class Stamped(Interaction):
    """An interaction record that notes (in real time) when the bot first answered it."""

    answered_at: float | None = None

    def __setattr__(self, name: str, value: object) -> None:
        if name == "responded" and value and self.answered_at is None:
            object.__setattr__(self, "answered_at", time.perf_counter())
        object.__setattr__(self, name, value)


def stamp_answers(env: Any) -> list[Stamped]:
    """From now on every interaction record notes when it was answered; returns them, in order."""
    made, make = [], env.backend.new_interaction

    def new_interaction(*args: Any, **kwargs: Any) -> Any:
        record = make(*args, **kwargs)
        record.__class__ = Stamped
        made.append(record)
        return record

    env.backend.new_interaction = new_interaction
    return made
