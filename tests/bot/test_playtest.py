"""Issue 8, play-tested through SimCord: every click answered, every turn announced, every result
visible. One test (or more) per numbered point of the issue; each fails on the behaviour it reports."""

from __future__ import annotations

import io
import itertools
import os
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from simcord import InteractionResult
from simcord.actors import _visible_message
from simcord.backend import serializers
from simcord.enums import ComponentType, InteractionType
from simcord.interactions import base_payload

import engine.lobby
from bot.games.base import Ctx
from bot.games.ugah import UgahUI
from bot.i18n import translator
from bot.locales.en import MESSAGES as EN
from engine.core import Event
from engine.games.ugah import RULES, UgahState
from engine.games.ugah_data import ANIMALS, N_CHIPS
from harness.sim import pointed_at
from render import common as c
from tests.bot.helpers import (
    board,
    button_id,
    custom_ids,
    game_under_way,
    open_and_start,
    pings,
    play_one,
    setup_table,
    turns,
)
from tests.replayed import replayed

UI = UgahUI()
TR = translator(None)


@pytest.fixture(autouse=True)
def fixed_seeds(monkeypatch):
    """Matches dealt from fixed seeds: the random play below is the same on every run."""
    seeds = itertools.count(int(os.environ.get("PLAYTEST_SEED", "8")))
    monkeypatch.setattr(engine.lobby, "_new_seed", lambda: next(seeds))


async def late_click(env: Any, actor: Any, message: Any, custom_id: str) -> InteractionResult:
    """A click carrying a custom_id the message no longer has (the second half of a double click,
    a client behind an edit). SimCord's own click only presses buttons that are on the message, so
    the INTERACTION_CREATE is emitted by hand, as harness.sim.concurrent_clicks does."""
    env._begin_operation("late_click")
    try:
        stored = _visible_message(actor, message)
        record, payload = base_payload(
            env.backend,
            type=InteractionType.MESSAGE_COMPONENT,
            channel_id=stored.channel_id,
            guild_id=actor.guild.id,
            user_id=actor.id,
            data={"custom_id": custom_id, "component_type": ComponentType.BUTTON},
        )
        payload["message"] = dict(serializers.message_payload(env.backend, stored))
        record.source_message_id = stored.id
        env.backend.emit("INTERACTION_CREATE", payload)
        await env._settle_internal(dispatch="INTERACTION_CREATE late")
        return InteractionResult(env, record)
    finally:
        env._end_operation()


async def current_player(env: Any, players: list[Any], mid: int) -> Any:
    m, state = await env.bot.matches.get(mid)
    return next(p for p in players if p.id == m.seats[state.current].user_id)


def ping_posts(env: Any) -> list[Any]:
    """Every turn ping the bot posted: a click's follow-up (``POST /webhooks/<app>/<token>``, outside
    the bot token's budget) that mentions, or without a recent click a channel message replying to
    the board."""
    return [
        r
        for r in env.http_requests
        if r.method == "POST"
        and isinstance(r.json, dict)
        and (
            (r.path.endswith("/messages") and r.json.get("message_reference"))
            or (
                r.path.startswith("/webhooks/")
                and r.path.count("/") == 3
                and "<@" in (r.json.get("content") or "")
            )
        )
    ]


async def expected_board(env: Any, mid: int) -> Any:
    m, state = await env.bot.matches.get(mid)
    return await env.bot.surfaces.public_board(m, state)


def labels(components: list[Any], prefix: str) -> dict[str, str]:
    """custom_id -> label of the buttons whose id starts with ``prefix`` (components as dicts or
    discord.py objects)."""
    out = {}
    for row in components:
        children = row["components"] if isinstance(row, dict) else row.children
        for b in children:
            cid = b.get("custom_id") if isinstance(b, dict) else getattr(b, "custom_id", None)
            label = b.get("label") if isinstance(b, dict) else getattr(b, "label", None)
            if cid and cid.startswith(prefix):
                out[cid] = label or ""
    return out


# ---- 1. a late click on an outdated button gets an answer ----------------------------------------


async def test_1_late_click_on_a_button_the_board_no_longer_has_is_answered(simcord_env):
    env = simcord_env
    _, channel, players = setup_table(env, 2)
    mid = await open_and_start(env, channel, players)
    current = await current_player(env, players, mid)
    first = custom_ids(board(channel), "g:")[0]
    r = await current.click(board(channel), custom_id=first)
    assert not r.ephemeral
    assert first not in custom_ids(board(channel))
    before = await env.bot.store.actions(mid)
    # the second half of a double click: the board has moved on, the id is not on it any more
    r = await late_click(env, current, board(channel), first)
    assert r.acknowledged, "no answer: the player sees 'This interaction failed'"
    assert r.ephemeral and "moved on" in r.response.content
    assert await env.bot.store.actions(mid) == before, "nothing is applied"
    # a failed answer and two failed edits: the board's reconciler retries until it is in line
    env.inject_error("POST", "/interactions/*/callback", status=503, times=1)
    env.inject_error("PATCH", "/channels/*/messages/*", status=500, times=2)
    current = await current_player(env, players, mid)
    second = custom_ids(board(channel), "g:")[0]
    await current.click(board(channel), custom_id=second)
    await env.bot.surfaces.settle(mid)
    assert board(channel).content == (await expected_board(env, mid)).content, "the board caught up"
    m, _ = await env.bot.matches.get(mid)
    late = f"g:{mid}:{m.public_version}:pick.dinosaur.mammoth.bird.mm.bb"  # not on the stale board
    assert late not in custom_ids(board(channel))
    r = await late_click(env, current, board(channel), late)
    assert r.acknowledged and r.ephemeral and "moved on" in r.response.content
    expected = await expected_board(env, mid)
    assert board(channel).content == expected.content, "the board is brought in line"
    assert custom_ids(board(channel)) == [i.custom_id for i in expected.view.children]


# ---- 2. an ended game is drawn as ended ------------------------------------------------------------


async def test_2_ended_game_picture_asks_for_nothing(simcord_env):
    env = simcord_env
    channel, players, mid, _ = await game_under_way(env, 2, clicks=3, seed=4)
    live = board(channel).attachments[0]
    assert "Turn:" in live.description
    r = await players[0].slash(channel, "game end")
    assert r.ephemeral
    m, state = await env.bot.matches.get(mid)
    assert m.status == "cancelled"
    msg = board(channel)
    assert "ended by alice" in msg.content and custom_ids(msg) == []
    alt = msg.attachments[0].description
    assert "Turn:" not in alt and alt.endswith(EN["ugah.alt.ended"])
    png = await msg.attachments[0].read()
    view = RULES.view(state, None)
    names = [s.name for s in m.seats]
    ended = UI.render({**view, "ended": True}, names, EN["match.ended_caption"], TR)
    assert png == ended, "drawn as ended: no prompt, no turn marker, the 'ended' caption"
    assert png != UI.render(view, names, None, TR), "not the picture of a game waiting for a move"
    # nothing is highlighted: no turn marker row, no throw to choose from, no chips awaiting keep/give
    assert _highlighted(await live.read()) > 0 and _highlighted(png) == 0
    assert pings(channel) == [], "nobody is asked to move in an ended game"


def _highlighted(png: bytes) -> int:
    """Pixels in the board's "your move" colours (the current player's row, the live throw, halos)."""
    img = Image.open(io.BytesIO(png)).convert("RGB")
    counts = dict((colour, n) for n, colour in img.getcolors(1 << 16) or [])
    return counts.get(tuple(c.HILITE), 0) + counts.get(tuple(c.GOLD), 0)


# ---- 3. the player to move is pinged, once per turn ----------------------------------------------------


def _check_ping(env: Any, channel: Any, users: list[int]) -> None:
    [ping] = pings(channel)  # the previous turn's ping is gone
    stored = env.backend.get_message(channel.id, ping.id)
    assert ping.content.startswith(" ".join(f"<@{u}>" for u in users))
    assert re.search(r"<t:\d+:R>", ping.content), "says how long they have"
    assert stored.allowed_mentions.users == frozenset(users)
    assert not stored.allowed_mentions.everyone and not stored.allowed_mentions.roles
    assert not stored.allowed_mentions.replied_user
    assert sorted(stored.ping_user_ids) == sorted(users), "only the players to move are notified"
    assert pointed_at(env, ping) == board(channel).id, "under the board: its click's follow-up, or a reply"


async def test_3_turn_ping_mentions_only_the_player_to_move_once_per_turn(simcord_env):
    env = simcord_env
    _, channel, players = setup_table(env, 3)
    mid = await open_and_start(env, channel, players, ai=1, turn_seconds=90)
    m, state = await env.bot.matches.get(mid)
    _check_ping(env, channel, [m.seats[state.current].user_id])
    assert len(ping_posts(env)) == 1
    rng = random.Random(2)
    within, passed = 0, 0
    for _ in range(40):
        m, state = await env.bot.matches.get(mid)
        if m.status != "active":
            break
        turn, posted = state.turn, len(ping_posts(env))
        await play_one(env, channel, players, mid, rng)
        m, state = await env.bot.matches.get(mid)
        new = ping_posts(env)[posted:]
        if m.status != "active":
            assert pings(channel) == []
            break
        if state.turn == turn:  # a click within one player's turn: no new ping
            within += 1
            assert new == [], [p.json for p in new]
        else:  # the turn passed (the computer seat may have played in between): one ping, for the human
            passed += 1
            assert len(new) == 1
            _check_ping(env, channel, [m.seats[state.current].user_id])
        # the board itself names players without notifying anyone
        assert env.backend.get_message(channel.id, board(channel).id).ping_user_ids == []
    assert within >= 5 and passed >= 5, (within, passed)


# ---- 4. a player's own result is never hidden -----------------------------------------------------------


async def test_4_three_computer_seats_every_human_line_survives(simcord_env):
    env = simcord_env
    _, channel, players = setup_table(env, 1)
    mid = await open_and_start(env, channel, players, ai=3)
    rng = random.Random(6)
    long_stories = 0
    async for _ in turns(env, mid, 200):
        await play_one(env, channel, players, mid, rng)
        m, state = await env.bot.matches.get(mid)
        story = [e for e in m.meta.events if e.visible_to(None)]
        content = board(channel).content
        assert "…" not in content
        ctx = Ctx(m, state, TR)
        lines = [t for e in story if (t := UI._line(e, ctx.shown_names, TR))]
        human = [UI._line(e, ctx.shown_names, TR) for e in story if UI._actor(e) == 0]
        for line in filter(None, human):
            assert line in content, f"{line!r} hidden from {content!r}"
        ai_turns = [e for e in story if e.kind == "turn" and e.data["seat"] > 0]
        computer_lines = [x for x in content.splitlines() if x.startswith("🤖")]
        assert len(computer_lines) <= len(ai_turns) + 1, "one line per computer turn"
        for e in story:  # a computer's results are in its one line
            who = UI._actor(e)
            if who and UI._is_result(e):
                assert any(UI._line(e, ctx.shown_names, TR) in x for x in computer_lines)
        took = any(e.kind == "chip_taken" and e.data["seat"] == 0 for e in story)
        if took and len(ai_turns) >= 3 and len(lines) > 8:
            long_stories += 1
        # the image's caption carries the turn's result, not its last micro-step
        caption = (await env.bot.surfaces.public_board(m, state)).draw.args[2]
        results = [e for e in story if UI._is_result(e) or e.kind == "timeout"]
        if m.status == "active":
            assert caption == (UI._line(results[-1], ctx.names, TR) if results else None)
    assert long_stories >= 1, "the human's own chip line was tested where it used to be cut"


# ---- 5. the keep step in Uncertain hunting, and the order step ------------------------------------------


async def _reach_hidden_keep(env: Any, channel: Any, players: list[Any], mid: int) -> tuple[Any, UgahState]:
    rng = random.Random(11)
    for _ in range(300):
        m, state = await env.bot.matches.get(mid)
        assert m.status == "active", "no keep step with face-down chips reached"
        if state.phase == "keep":
            pend = state.pending
            assert pend is not None
            if not (state.face_up[pend["mm"]] and state.face_up[pend["bb"]]):
                return m, state
        await play_one(env, channel, players, mid, rng)
    raise AssertionError("no keep step reached")


async def test_5_uncertain_keep_choice_is_made_where_the_values_are(simcord_env):
    env = simcord_env
    _, channel, players = setup_table(env, 3)
    mid = await open_and_start(env, channel, players, variant="uncertain")
    m, state = await _reach_hidden_keep(env, channel, players, mid)
    pend = state.pending
    values = {h: state.path[pend[h]] for h in ("mm", "bb")}
    hidden = {h for h in ("mm", "bb") if not state.face_up[pend[h]]}
    # the public buttons never show a face-down value
    public = labels(board(channel).components, "g:")
    assert len(public) == 4 and all(cid.split(":")[3].startswith("keep.") for cid in public)
    for label in public.values():
        assert label.count(EN["ugah.chip.hidden"]) == len(hidden), label
    assert "My chips" in board(channel).content
    # the player to move opens My chips: keep buttons with both values
    mover = next(p for p in players if p.id == m.seats[state.current].user_id)
    r = await mover.click(board(channel), custom_id=button_id(board(channel), "hand", "h"))
    assert r.ephemeral
    private = labels(r.response.components, "p:")
    assert sorted(cid.split(":")[3] for cid in private) == sorted(cid.split(":")[3] for cid in public)
    for cid, label in private.items():
        _, kept, to = cid.split(":")[3].split(".")
        given = "bb" if kept == "mm" else "mm"
        assert EN["ugah.chip.hidden"] not in label
        for v in (values[kept], values[given]):
            assert (EN["ugah.chip.caterpillar"] if v == 1 else str(v)) in label
        assert m.seats[int(to)].name in label
    # the other players' panels offer no choice and no value
    other = next(p for p in players if p is not mover)
    r2 = await other.click(board(channel), custom_id=button_id(board(channel), "hand", "h"))
    assert labels(r2.response.components, "p:") == {}
    # keeping from the panel plays the move
    cid = next(iter(private))
    r3 = await mover.click(r.response.message, custom_id=cid)
    assert r3.acknowledged and not (r3.response and "moved on" in r3.response.content)
    logged = await env.bot.store.actions(mid)
    assert [a.action for a in logged if a.source == "player"][-1] == cid.split(":")[3]
    _, after = await env.bot.matches.get(mid)
    assert after.phase != "keep" or after.turn != state.turn
    assert board(channel).content == (await expected_board(env, mid)).content


def _order_state(variant: str = "basic") -> UgahState:
    """E1 of the spec: MM on emptied place 14, BB on emptied place 17, chips on 15 and 16; two MM
    and two BB dice aside, so the order decides which chip is taken and which is lost."""
    values = [(i % 6) + 1 for i in range(N_CHIPS)]
    path: list[int | None] = list(values)
    path[14] = path[17] = None
    s = UgahState(2, variant, False, 7, path, [True] * N_CHIPS, mm=14, bb=17, current=0, turn=3)
    s.spoils = {a: None for a in ANIMALS}
    s.stashes = [[], []]
    s.aside, s.rolled = ["bone"], ["mm", "mm", "bb", "bb"]
    s, _ = RULES.apply(s, 0, "pick.mm.bb")
    assert s.phase == "order"
    return s


async def test_5_order_buttons_say_what_each_order_leads_to(simcord_env):
    env = simcord_env
    _, channel, players = setup_table(env, 2)
    mid = await open_and_start(env, channel, players)
    m, _ = await env.bot.matches.get(mid)
    s = _order_state()
    items = UI.controls(Ctx(m, s, TR))
    by_action = {i.custom_id.split(":")[3]: i.item.label for i in items}
    assert set(by_action) == {"first.mm", "first.bb"}
    # MM first: both end on 16 (value 5), chip 15 (value 4) is lost; BB first: the other way round
    assert by_action["first.mm"] == "Mammoth Masher first: you take the 5, the 4 is lost"
    assert by_action["first.bb"] == "Bone Breaker first: you take the 4, the 5 is lost"
    for order, label in by_action.items():
        t, _ = RULES.apply(s, 0, order)
        assert t.phase == "over" and f"take the {t.stashes[0][0]}," in label
    # uncertain: the public buttons name no face-down value, yet still tell the two orders apart
    hidden = _order_state("uncertain")
    hidden.face_up = [False] * N_CHIPS
    hidden_labels = [i.item.label for i in UI.controls(Ctx(m, hidden, TR))]
    assert hidden_labels == [  # the chip lost is left out: the full label would pass 80 characters
        "Mammoth Masher first: you take the face-down chip 17 of 31",
        "Bone Breaker first: you take the face-down chip 16 of 31",
    ]
    twin = _order_state("uncertain")
    twin.face_up = [False] * N_CHIPS
    twin.path = [None if v is None else 7 - v for v in twin.path]
    assert [i.item.label for i in UI.controls(Ctx(m, twin, TR))] == hidden_labels


# ---- 6. a forced choice is made for the player, and said ------------------------------------------------


async def test_6_single_legal_action_is_played_and_announced(simcord_env):
    env = simcord_env
    _, channel, players = setup_table(env, 2)
    mid = await open_and_start(env, channel, players)
    rng = random.Random(3)
    announced = 0
    async for m, state in turns(env, mid, 120):
        # the board never asks a human to click the only thing they can do
        assert len(RULES.legal_actions(state, state.current)) > 1
        assert len(custom_ids(board(channel), "g:")) > 1
        await play_one(env, channel, players, mid, rng)
        m, _ = await env.bot.matches.get(mid)
        forced = [e for e in m.meta.events if e.kind == "forced"]
        for e in forced:
            name = m.seats[e.data["seat"]].name
            assert EN["ev.forced"].format(name=name) in board(channel).content
        announced += len(forced)
    logged = await env.bot.store.actions(mid)
    assert announced >= 3 and sum(a.source == "forced" for a in logged) >= announced
    assert await replayed(env.bot.matches, mid) == (await env.bot.matches.get(mid))[1]


# ---- 7. wording ---------------------------------------------------------------------------------------------


async def test_7_single_symbol_mode_status_and_steps(simcord_env):
    env = simcord_env
    _, channel, players = setup_table(env, 2)
    mid = await open_and_start(env, channel, players, rolling="single")
    assert "name one symbol to set aside" in board(channel).content
    assert "one or more" not in board(channel).content
    assert custom_ids(board(channel), "s:") == [], "no multi-select when one symbol per throw"
    rng = random.Random(8)
    seen: set[str] = set()
    for _ in range(150):
        m, _ = await env.bot.matches.get(mid)
        if m.status != "active":
            break
        content = board(channel).content
        assert "step(s)" not in content and "one or more" not in content
        for n, s in re.findall(r"walks (\d+) step(s?)", content):
            assert (s == "s") == (n != "1"), content
            seen.add("1" if n == "1" else "n")
        await play_one(env, channel, players, mid, rng)
    assert seen == {"1", "n"}


async def test_7_alt_text_names_places_as_players_count_them(simcord_env):
    env = simcord_env
    _, channel, players = setup_table(env, 2)
    mid = await open_and_start(env, channel, players)
    alt = board(channel).attachments[0].description
    assert "Mammoth Masher at its start, Bone Breaker at its start" in alt
    rng = random.Random(5)
    for _ in range(60):
        m, state = await env.bot.matches.get(mid)
        if m.status != "active":
            break
        await play_one(env, channel, players, mid, rng)
        m, state = await env.bot.matches.get(mid)
        alt = board(channel).attachments[0].description
        assert "place" not in alt and "-1" not in alt
        for hunter, pos in (("Mammoth Masher", state.mm), ("Bone Breaker", state.bb)):
            where = "at its start" if pos in (-1, N_CHIPS) else f"on chip {pos + 1} of 31"
            assert f"{hunter} {where}" in alt, alt


async def test_7_caterpillar_chip_shows_a_one(simcord_env):
    from render.ugah.sprites import chip
    from render.ugah.style import CHIP_INK

    env = simcord_env
    _, channel, players = setup_table(env, 2)
    await open_and_start(env, channel, players)
    assert UI._line(Event("chip_taken", {"seat": 0, "value": 1}), ["alice", "bob"], TR) == (
        "alice takes chip: caterpillar (1)"
    )
    # on the image: the digit's ink in the chip's upper left, clear of the worm (drawn lower down)
    size = 64
    img = chip(size, 1).convert("RGB")
    ink = CHIP_INK[1]
    digit = [
        (x, y)
        for x in range(int(0.18 * size), int(0.42 * size))
        for y in range(int(0.12 * size), int(0.42 * size))
        if sum(abs(a - b) for a, b in zip(img.getpixel((x, y)), ink, strict=True)) < 60
    ]
    assert len(digit) > 10, "no '1' on the caterpillar chip"


# ---- 9. /game rules defaults to the channel's game ------------------------------------------------------


async def test_9_game_rules_without_a_game_name(simcord_env):
    env = simcord_env
    guild, channel, players = setup_table(env, 2)
    r = await players[0].slash(channel, "game rules")
    assert r.ephemeral and "/ugah start" in r.response.content, "no game here: the list of games"
    await open_and_start(env, channel, players)
    r = await players[1].slash(channel, "game rules")
    assert r.ephemeral and r.response.content == EN["rules.ugah"]
    other = guild.create_text_channel("elsewhere")
    r = await players[1].slash(other, "game rules", game="ugah")
    assert r.response.content == EN["rules.ugah"]


# ---- 8. first run and failures at start ------------------------------------------------------------------

ROOT = Path(__file__).resolve().parents[2]
FAKE_TOKEN = "A" * 24 + "." + "B" * 6 + "." + "C" * 27
START = """
import socket, sys
import discord, discord.http
from bot.client import GameBot
if sys.argv[1] == "refused":  # a real connection attempt, to a local port nobody listens on
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    discord.http.Route.BASE = f"http://127.0.0.1:{port}/api/v10"
else:
    async def start(self, token, *, reconnect=True):
        raise discord.GatewayNotFound()
    GameBot.start = start
from bot.__main__ import main
raise SystemExit(main())
"""


STUB_PYTHON = r"""#!/bin/sh
mkdir -p .venv/bin
printf '#!/bin/sh\necho "$@" >> calls\n' > .venv/bin/python
chmod +x .venv/bin/python
"""


@pytest.mark.parametrize("failure", ["refused", "gateway"])
def test_8_discord_unreachable_one_clear_line_and_exit_2(tmp_path, failure):
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "DISCORD_TOKEN": FAKE_TOKEN,
        "DATABASE_PATH": str(tmp_path / "bot.db"),
    }
    run = subprocess.run(
        [sys.executable, "-c", START, failure],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    err = run.stderr.strip().splitlines()
    assert run.returncode == 2, run.stderr
    assert err[-1].startswith("error: cannot reach Discord"), run.stderr
    assert "Traceback" not in run.stderr and len(err) <= 3, run.stderr
    assert "PyNaCl" not in run.stderr and "davey" not in run.stderr, (
        "no voice warnings for a bot without voice"
    )
    assert FAKE_TOKEN not in run.stderr + run.stdout


def test_8_run_says_what_it_does_before_installing(tmp_path):
    """./run on a fresh checkout: one line before the long install (Python and pip are stubs here)."""
    shutil.copy(ROOT / "run", tmp_path / "run")
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    stub = tmp_path / "python3"
    # `python3 -m venv .venv` makes a .venv whose python only records how it was called
    stub.write_text(STUB_PYTHON)
    stub.chmod(0o755)
    env = {**os.environ, "PYTHON": str(stub)}
    first = subprocess.run(["bash", "run", "bot"], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert first.returncode == 0, first.stderr
    assert first.stderr.splitlines()[0].startswith("first run: creating .venv and installing"), first.stderr
    calls = (tmp_path / "calls").read_text().splitlines()
    assert calls[-1] == "-m bot" and any("pip install" in c for c in calls[:-1])
    again = subprocess.run(["bash", "run", "bot"], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert again.returncode == 0 and again.stderr == "", "quiet once installed"
