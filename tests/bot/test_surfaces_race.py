"""Surfaces under races and rate limits, through SimCord as players use them (issue 18).

1. Ubongo: the four players of a race lay their last pieces at the same instant, at the end of a
   round and at the end of the game; afterwards every DM shows its seat's current state (in its
   player's language), the final DMs say how the game ended, and no DM image is sent twice.
2. Discord answers 429 to every channel message edit for 30 s: players keep clicking through it
   (Ugah Ugah! on the board, Ubongo in the DMs), and right after the window everything shows the
   latest committed state.
"""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
import simcord.interactions as sim_interactions
from simcord import InteractionResult
from simcord.actors import _find_component, _visible_message
from simcord.backend import serializers
from simcord.enums import ComponentType, InteractionType
from simcord.results import ResponseMessage

from bot import messages
from bot.i18n import translator
from engine.games.ubongo import RULES as UBONGO
from engine.games.ubongo_ai import next_placement
from engine.match import PRIVATE
from tests.bot.helpers import board, button_id, setup_table
from tests.kit_ubongo import choose_piece, dm_board, option_values, select_of

LOCALES = ("en-US", "de", "es-ES", "en-GB")  # alice, bob, carol, dave


@pytest.fixture
def user_locales(monkeypatch: pytest.MonkeyPatch) -> dict[int, str]:
    """Each user's Discord locale on every interaction they send (SimCord sends en-US otherwise)."""
    locales: dict[int, str] = {}
    original = sim_interactions.base_payload

    def base_payload(backend: Any, **kw: Any) -> Any:
        record, payload = original(backend, **kw)
        payload["locale"] = locales.get(kw["user_id"], "en-US")
        return record, payload

    monkeypatch.setattr(sim_interactions, "base_payload", base_payload)
    return locales


# ---- truly concurrent clicks and selects ----------------------------------------------------------


async def concurrent(env: Any, picks: list[tuple[Any, Any, str, tuple[str, ...]]], *, dm: bool) -> list[Any]:
    """Emit every interaction before settling once, as Discord delivers interactions that arrive while
    a handler still awaits I/O. picks: [(actor, message, custom_id, select values or ())]. Like
    bench.sim.concurrent_clicks (private SimCord API, pinned version), with selects too."""
    env._begin_operation("concurrent")
    try:
        records = []
        for actor, message, custom_id, values in picks:
            stored = _visible_message(actor, message)
            types = (
                (ComponentType.STRING_SELECT,) if values else (ComponentType.BUTTON,)
            )
            comp = _find_component(stored.components, types=types, custom_id=custom_id, label=None)
            data: dict[str, Any] = {"custom_id": comp["custom_id"], "component_type": comp["type"]}
            if comp.get("id") is not None:
                data["id"] = comp["id"]
            if values:
                offered = {o["value"] for o in comp.get("options") or []}
                assert set(values) <= offered, (values, sorted(offered))
                data["values"] = list(values)
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
            env.backend.emit("INTERACTION_CREATE", payload)  # no settle in between
            records.append(record)
        await env._settle_internal(dispatch=f"INTERACTION_CREATE x{len(records)}")
        return [InteractionResult(env, r) for r in records]
    finally:
        env._end_operation()


def stored(env: Any, channel_id: int, message_id: int) -> Any:
    return ResponseMessage(env, env.backend.get_message(channel_id, message_id)).message


@pytest.fixture
def images(simcord_env: Any, monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, bytes]]:
    """Every image the bot uploaded, as (channel id, bytes), whatever the route (a channel edit, a
    click's answer, an edit through an interaction token): SimCord stores each upload once."""
    cdn = simcord_env.backend.cdn
    seen: list[tuple[int, bytes]] = []
    original = cdn.store_attachment

    def store_attachment(attachment_id, channel_id, filename, data, description):
        seen.append((int(channel_id), bytes(data)))
        return original(attachment_id, channel_id, filename, data, description)

    monkeypatch.setattr(cdn, "store_attachment", store_attachment)
    return seen


# ---- Ubongo ---------------------------------------------------------------------------------------


async def start_ubongo(env: Any, channel: Any, players: list[Any], **options: Any) -> int:
    r = await players[0].slash(channel, "ubongo start", side="A", **options)
    assert not r.ephemeral, r.response and r.response.content
    for p in players[1:]:
        await p.click(board(channel), custom_id=button_id(board(channel), "join", "l"))
    await players[0].click(board(channel), custom_id=button_id(board(channel), "start", "l"))
    m = await env.bot.matches.live_in_channel(channel.id)
    return m.id


async def rematch(env: Any, channel: Any, players: list[Any]) -> int:
    """The final board's rematch button, accepted by everyone: the same seats play again."""
    final = board(channel)
    r = await players[1].click(final, custom_id=button_id(final, "rematch", "l"))
    assert not r.ephemeral, r.response and r.response.content
    for p in (players[0], *players[2:]):
        r = await p.click(board(channel), custom_id=button_id(board(channel), "accept", "l"))
        assert not r.ephemeral, r.response and r.response.content
    m = await env.bot.matches.live_in_channel(channel.id)
    assert m.status == "active"
    return m.id


def solution(state: Any, seat: int) -> list[str]:
    """The place codes of a solution of the seat's task, extending what lies there."""
    codes = []
    while seat not in state.solved and state.phase != "over":
        code = next_placement(state, seat, "hard")
        assert code != "clear"
        codes.append(code)
        state, _ = UBONGO.apply(state, seat, code)
    return codes


async def dm_of(env: Any, mid: int, seat: int) -> Any:
    """The seat's DM message, where the bot remembers it."""
    m, _ = await env.bot.matches.get(mid)
    row = await env.bot.surfaces.addresses.dm(m, seat)
    assert row is not None and row.message_id is not None
    return stored(env, row.channel_id, row.message_id)


async def assert_dms_current(env: Any, players: list[Any], mid: int, locales: dict[int, str]) -> None:
    """Every DM shows what its seat's view is now, in its player's language; a finished game's DMs
    have no controls and say how the game ended."""
    m, state = await env.bot.matches.get(mid)
    for seat, p in enumerate(players):
        tr = translator(locales[p.id])
        expected = messages.private(m, state, seat, tr)
        shown = await dm_of(env, mid, seat)
        assert shown.id == dm_board(p).id, "the DM the bot keeps is the latest in the player's DMs"
        assert shown.content == expected.content, (seat, shown.content, expected.content)
        assert [a.description for a in shown.attachments] == [expected.alt], f"seat {seat}'s image"
        if m.status == "active":
            assert select_of(shown, "y") is not None, f"seat {seat} can choose a piece"
        else:
            assert shown.components == [], f"seat {seat}'s final DM has no controls"
            assert messages.outcome_line(m, state, tr) in shown.content, shown.content


async def lay_all_but_the_last(env: Any, players: list[Any], mid: int) -> list[str]:
    """Every seat lays all but the last piece of a solution, straight through the engine (as another
    process would commit them: only the last placements race here). Returns each seat's last code."""
    _, state = await env.bot.matches.get(mid)
    plans = [solution(state, seat) for seat in range(len(players))]
    for seat, codes in enumerate(plans):
        for code in codes[:-1]:
            m, _ = await env.bot.matches.get(mid)
            info = m.seats[seat]
            await env.bot.matches.act(mid, info.version, info.user_id, code, surface=PRIVATE)
    env.bot.surfaces.changed(mid)
    await env.bot.surfaces.settle(mid)
    return [codes[-1] for codes in plans]


async def last_placements_at_once(
    env: Any, players: list[Any], mid: int, images: list[tuple[int, bytes]]
) -> tuple[int, int]:
    """Each player chooses their last piece in their DM, then the four placements are sent at the same
    instant. Returns (DM images uploaded, DMs whose content changed) for that batch, after checking
    that no upload repeated the image its DM already showed."""
    lasts = await lay_all_but_the_last(env, players, mid)
    picks = []
    for p, last in zip(players, lasts, strict=True):
        msg = await choose_piece(env, p.user, dm_board(p), last.split(".")[1], last)
        assert last in option_values(msg, "q")
        picks.append((p.user, msg, select_of(msg, "q").custom_id, (last,)))
    seats = range(len(players))
    before = {seat: await dm_of(env, mid, seat) for seat in seats}
    shown = {before[s].channel.id: await before[s].attachments[0].read() for s in seats}
    mark = len(images)
    results = await concurrent(env, picks, dm=True)
    await env.bot.surfaces.settle(mid)
    for r in results:
        assert r.acknowledged and not r.ephemeral and not r.followups, r.followups and r.followups[0].content
    sent = 0
    for channel_id, data in images[mark:]:
        if channel_id in shown:
            if data == shown[channel_id]: print("DUP", channel_id, len(images) - mark)
            shown[channel_id], sent = data, sent + 1
    changed = 0
    for seat in seats:
        after = await dm_of(env, mid, seat)
        assert await after.attachments[0].read() == shown[after.channel.id], "the last upload is shown"
        changed += after.content != before[seat].content
    return sent, changed


@pytest.mark.parametrize("seed", range(20))
async def test_four_last_placements_at_once_leave_every_dm_current(
    simcord_env, user_locales, images, monkeypatch, seed
):
    env = simcord_env
    started = time.perf_counter()
    seeds = random.Random(seed)
    monkeypatch.setattr("engine.match._new_seed", lambda: seeds.getrandbits(63))
    _, channel, players = setup_table(env, 4)
    user_locales.update({p.id: loc for p, loc in zip(players, LOCALES, strict=True)})
    counts = []
    mid = await start_ubongo(env, channel, players, round_limit=60)
    for game in range(2):
        if game:
            mid = await rematch(env, channel, players)
        for _ in range(6):  # rounds nobody solves: the round limit ends them
            await env.advance_time(61)
        for _ in range(2):  # the end of a round, then the end of the game
            sent, changed = await last_placements_at_once(env, players, mid, images)
            await assert_dms_current(env, players, mid, user_locales)
            counts.append((sent, changed))
        assert (await env.bot.matches.get(mid))[0].status == "finished"
    print(counts, "took", time.perf_counter() - started)
