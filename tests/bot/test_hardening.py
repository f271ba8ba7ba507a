"""Issue 7 through the real bot: many tables at once, a database that misbehaves, griefers, forged
places and hostile names. Each test drives SimCord as players (and a broken machine) would."""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import random
import sqlite3
import time
import unicodedata

import discord
import pytest

from bot import __main__ as entry
from bot.client import CHANNEL_LIMIT
from bot.i18n import translator
from bot.names import BIDI_CONTROLS, ZWSP, clean_name
from engine.registry import rules_for
from engine.store.migrations import MIGRATIONS
from engine.store.sqlite import SqliteStore as Store
from harness.sim import SIM_CLOCK_WATCH
from tests.bot.concurrent import concurrent_clicks
from tests.bot.helpers import (
    board,
    board_message_id,
    button_id,
    custom_ids,
    forge_first_button,
    open_and_start,
    play_one,
    public_messages,
    restart,
    setup_table,
)
from tests.bot.test_settings import FAKE
from tests.engine.test_store_faults import fill_disk, read_only
from tests.replayed import replayed

TR = translator(None)


async def tables(env, n: int, **options):
    """n channels, each with a running two-player game: [(channel, players, match id)]."""
    out = []
    for i in range(n):
        guild = env.create_guild()
        channel = guild.create_text_channel(f"games{i}")
        players = [guild.add_member(env.create_user(f"p{i}{name}")) for name in ("a", "b")]
        out.append((channel, players, await open_and_start(env, channel, players, **options)))
    return out


async def mover_click(env, channel, players, mid, rng):
    """(actor, board, custom_id) of a legal button click by the player to move."""
    m, state = await env.bot.matches.get(mid)
    actor = next(p for p in players if p.id == m.seats[state.current].user_id)
    return actor, board(channel), rng.choice(custom_ids(board(channel), "g:"))


def player_moves(log):
    return [a for a in log if a.source == "player"]


# ---- 1: moves in different channels at the same moment ------------------------------------------


async def test_clicks_in_three_channels_at_once_are_all_applied(simcord_env):
    env = simcord_env
    rng = random.Random(1)
    games = await tables(env, 3)
    refused, answered = 0, 0
    for _ in range(12):
        live = [g for g in games if (await env.bot.matches.get(g[2]))[0].status == "active"]
        results = await concurrent_clicks(env, [await mover_click(env, *g, rng) for g in live])
        answered += sum(r.acknowledged for r in results)
        refused += sum(r.ephemeral for r in results)
    assert answered > 30 and refused == 0, f"{refused} of {answered} legitimate moves refused"
    for _, _, mid in games:
        assert await replayed(env.bot.matches, mid) == (await env.bot.matches.get(mid))[1]


async def test_a_failed_computer_commit_never_reports_the_players_move_as_failed(simcord_env, monkeypatch):
    env = simcord_env
    monkeypatch.setattr("engine.clock.RETRY_SECONDS", (1,))
    _, channel, players = setup_table(env, 1)
    mid = await open_and_start(env, channel, players, ai=1)
    real, failed = env.bot.store.commit, []

    async def computer_commit_fails(m, actions, now, read_version):
        actions = list(actions)
        if not failed and any(a.source == "computer" for a in actions):
            failed.append(m.version)
            raise sqlite3.OperationalError("disk I/O error")
        return await real(m, actions, now, read_version)

    monkeypatch.setattr(env.bot.store, "commit", computer_commit_fails)
    rng = random.Random(3)
    answered = 0
    for _ in range(40):
        m, state = await env.bot.matches.get(mid)
        if failed or m.status != "active":
            break
        if state.current == 0:
            r = await play_one(env, channel, players, mid, rng)
            assert r.acknowledged and not r.ephemeral, r.response and r.response.content
            answered += 1
        else:
            await env.advance_time(1)
    assert failed, "the computer never had to move"
    await env.advance_time(3)  # the computer's timer is retried
    log = await env.bot.store.actions(mid)
    assert len(player_moves(log)) == answered, "every move answered as done was saved"
    assert any(a.source == "computer" and a.version >= failed[0] for a in log), "the computer moved on"
    assert await replayed(env.bot.matches, mid) == (await env.bot.matches.get(mid))[1]


# ---- 3 and 4: start-up failures: one line on stderr, exit 2 ---------------------------------------


@pytest.fixture
def run_main(monkeypatch, capsys, tmp_path):
    """The real entry point with a fake token; reaching Discord would be a failure to stop."""
    monkeypatch.setenv("DISCORD_TOKEN", FAKE)
    monkeypatch.setattr(discord.utils, "setup_logging", lambda **kw: None)
    connected = []

    def run(self, token, **kwargs):
        connected.append(token)

    monkeypatch.setattr("bot.client.GameBot.run", run)

    def go(path: str) -> tuple[int, list[str], bool]:
        monkeypatch.setenv("DATABASE_PATH", path)
        code = entry.main()
        err = capsys.readouterr().err
        return code, [line for line in err.splitlines() if line.strip()], bool(connected)

    return go


def make_database(path: str, *, newer: bool = False) -> None:
    async def create():
        store = Store(path)
        await store.open()
        await store.close()

    asyncio.run(create())
    if newer:
        db = sqlite3.connect(path)
        db.execute(f"PRAGMA user_version={len(MIGRATIONS) + 5}")
        db.commit()
        db.close()


def case_folder(tmp_path, monkeypatch):
    return str(tmp_path), "is a folder"


def case_uncreatable_folder(tmp_path, monkeypatch):
    (tmp_path / "plain-file").write_text("x")
    return str(tmp_path / "plain-file" / "data" / "games.db"), "must name a file in a folder"


def case_corrupt_file(tmp_path, monkeypatch):
    path = tmp_path / "games.db"
    path.write_bytes(b"\x00garbage\xff" * 2000)
    return str(path), "restore a backup"


def case_bad_pages(tmp_path, monkeypatch):
    path = str(tmp_path / "games.db")
    make_database(path)
    with open(path, "r+b") as f:  # bad bytes over the schema page: the file is no database any more
        f.seek(100)
        f.write(os.urandom(3000))
    return path, "restore a backup"


def case_read_only(tmp_path, monkeypatch):
    path = str(tmp_path / "games.db")
    make_database(path)
    read_only(path, monkeypatch)
    return path, "needs write access"


def case_second_instance(tmp_path, monkeypatch):
    path = str(tmp_path / "games.db")
    make_database(path)
    holder = open(f"{path}.lock", "a+")  # noqa: SIM115 (another bot process holds its instance lock)
    fcntl.flock(holder, fcntl.LOCK_EX | fcntl.LOCK_NB)
    monkeypatch.setattr(entry, "_test_holder", holder, raising=False)
    return path, "already in use by another bot instance"


def case_locked_by_a_program(tmp_path, monkeypatch):
    path = str(tmp_path / "games.db")
    make_database(path)
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    monkeypatch.setattr(entry, "_test_holder", holder, raising=False)
    return path, "another program holds the database"


def case_newer_schema(tmp_path, monkeypatch):
    path = str(tmp_path / "games.db")
    make_database(path, newer=True)
    return path, "newer than this bot"


@pytest.mark.parametrize(
    "case",
    [
        case_folder,
        case_uncreatable_folder,
        case_corrupt_file,
        case_bad_pages,
        case_read_only,
        case_second_instance,
        case_locked_by_a_program,
        case_newer_schema,
    ],
)
def test_an_unusable_database_stops_the_bot_with_one_line_and_exit_2(run_main, tmp_path, monkeypatch, case):
    path, advice = case(tmp_path, monkeypatch)
    code, lines, connected = run_main(path)
    assert (code, len(lines)) == (2, 1), lines
    assert lines[0].startswith("error: database unusable:") and advice in lines[0], lines[0]
    assert "Traceback" not in lines[0] and not connected
    if case not in (case_corrupt_file, case_bad_pages, case_newer_schema):
        assert "restore a backup" not in lines[0], "advice that fits the cause"


def test_a_store_error_raised_inside_setup_hook_also_exits_2(run_main, tmp_path, monkeypatch):
    """discord.py lets an exception from setup_hook out of bot.run() unchanged: the database that
    turned unusable between the check and the start is reported the same way."""
    from discord.http import HTTPClient

    monkeypatch.undo()  # the real bot.run this time, with a simulated login
    monkeypatch.setenv("DISCORD_TOKEN", FAKE)
    monkeypatch.setenv("DATABASE_PATH", str(tmp_path))
    monkeypatch.setattr(discord.utils, "setup_logging", lambda **kw: None)
    monkeypatch.setattr(entry, "check_database", lambda path: None)

    async def static_login(self, token):
        return {"id": "1", "username": "bot", "discriminator": "0", "avatar": None, "bot": True}

    async def application_info(self):
        owner = {"id": "2", "username": "owner", "discriminator": "0", "avatar": None}
        return {"id": "1", "name": "bot", "description": "", "icon": None, "bot_public": True,
                "bot_require_code_grant": False, "owner": owner, "verify_key": "k", "flags": 0}  # fmt: skip

    monkeypatch.setattr(HTTPClient, "static_login", static_login)
    monkeypatch.setattr(HTTPClient, "application_info", application_info)
    code, lines, _ = run_main(str(tmp_path))
    assert (code, len(lines)) == (2, 1), lines
    assert "is a folder" in lines[0]


def test_bad_bytes_in_one_match_do_not_stop_the_start(run_main, tmp_path):
    path = str(tmp_path / "games.db")
    make_database(path)
    write_undecodable_match(path)
    code, lines, connected = run_main(path)
    assert (code, lines, connected) == (0, [], True)


def write_undecodable_match(path: str) -> None:
    """A live match whose stored state is not even UTF-8 (bad bytes inside one row)."""
    db = sqlite3.connect(path)
    db.execute(
        "INSERT INTO matches (game, guild_id, channel_id, host_id, status, version, seed, seats, options, "
        "state, meta, created, updated) VALUES ('ugah', 1, 10, 1, 'active', 2, 7, '[]', '{}', "
        "CAST(x'7bff80fe' AS TEXT), '{}', 0, 0)"
    )
    db.commit()
    db.close()


async def test_an_undecodable_match_is_set_aside_and_said_in_its_channel(simcord_env, bot_factory):
    env = simcord_env
    games = await tables(env, 2)
    (bad_channel, bad_players, bad), (good_channel, good_players, good) = games
    db = sqlite3.connect(env.bot.store.path)
    db.execute("UPDATE matches SET state = CAST(x'7b22ff80fe' AS TEXT) WHERE id=?", (bad,))
    db.commit()
    db.close()
    await restart(env, bot_factory)
    with contextlib.closing(sqlite3.connect(env.bot.store.path)) as db:
        statuses = dict(db.execute("SELECT id, status FROM matches"))
    assert statuses == {bad: "broken", good: "active"}
    said = [m.content for m in public_messages(bad_channel)]
    assert TR("match.set_aside") in said, said
    r = await play_one(env, good_channel, good_players, good, random.Random(5))
    assert r.acknowledged and not r.ephemeral, "the other match goes on"
    r = await bad_players[0].slash(bad_channel, "ugah start")
    assert not r.ephemeral, "the set-aside match does not block its channel"


# ---- 5: a full disk ------------------------------------------------------------------------------


@pytest.mark.simcord(check_errors=False)
async def test_disk_full_logs_the_cause_and_afterwards_one_board_and_every_click_works(
    simcord_env, monkeypatch, logged_errors, caplog
):
    env = simcord_env
    _, channel, players = setup_table(env, 2)
    mid = await open_and_start(env, channel, players)
    rng = random.Random(9)
    full = fill_disk(env.bot.store, monkeypatch)
    r = await play_one(env, channel, players, mid, rng)
    assert r.acknowledged and r.ephemeral
    r = await players[1].slash(channel, "game board")  # a board posted again during the outage
    assert r.acknowledged
    r = await play_one(env, channel, players, mid, rng)
    assert r.acknowledged and r.ephemeral
    causes = [str(rec.exc_info[1]) for rec in logged_errors.take()] + [caplog.text]
    assert any("database or disk is full" in c for c in causes), causes
    full[0] = False  # space is back
    for _ in range(6):
        r = await play_one(env, channel, players, mid, rng)
        assert r.acknowledged and not r.ephemeral, r.response and r.response.content
    with_controls = [m for m in public_messages(channel) if custom_ids(m)]
    _, state = await env.bot.matches.get(mid)
    assert [b.id for b in with_controls] == [await board_message_id(env, mid)], "one board with controls"
    assert await replayed(env.bot.matches, mid) == state


# ---- 6: another process holding the database lock ---------------------------------------------


async def test_a_held_database_lock_is_answered_busy_in_time_and_other_channels_keep_moving(simcord_env):
    env = simcord_env
    rng = random.Random(6)
    games = await tables(env, 4)
    holder = sqlite3.connect(env.bot.store.path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        before = [len(await env.bot.store.actions(mid)) for _, _, mid in games]
        started = time.monotonic()
        results = await concurrent_clicks(env, [await mover_click(env, *g, rng) for g in games[:3]])
        took = time.monotonic() - started
        assert took < 3.0, f"answered after {took:.1f}s: Discord allows 3 s"
        for r in results:
            assert r.acknowledged and r.ephemeral and r.response.content == TR("error.db_busy")
        # what needs no write goes on meanwhile in another channel: the hand panel opens at once
        channel, players, _ = games[3]
        started = time.monotonic()
        r = await players[0].click(board(channel), custom_id=button_id(board(channel), "hand", "h"))
        assert r.acknowledged and r.ephemeral and r.response.content != TR("error.db_busy")
        # answered at once; noting the panel's address afterwards waits for the lock and gives up
        assert time.monotonic() - started < 3.0
    finally:
        holder.rollback()
        holder.close()
    assert [len(await env.bot.store.actions(mid)) for _, _, mid in games] == before, "nothing half-written"
    results = await concurrent_clicks(env, [await mover_click(env, *g, rng) for g in games])
    assert all(r.acknowledged and not r.ephemeral for r in results), "every channel moves again"


# ---- 7: a failed answer to /ugah start -----------------------------------------------------------


@pytest.mark.simcord(check_errors=False)
async def test_a_lobby_whose_message_failed_does_not_block_the_channel(simcord_env):
    env = simcord_env
    _, channel, (alice, bob) = setup_table(env, 2)
    env.inject_error("POST", "/interactions/*/callback", status=404, code=10062, times=1)
    await alice.slash(channel, "ugah start")
    assert await env.bot.matches.live_in_channel(channel.id) is None, "no invisible lobby"
    assert not [m for m in public_messages(channel) if custom_ids(m)]
    r = await alice.slash(channel, "ugah start")
    assert not r.ephemeral, r.response and r.response.content
    r = await bob.click(board(channel), custom_id=button_id(board(channel), "join", "l"))
    assert not r.ephemeral and "bob" in board(channel).content


# ---- 8: rate-limit griefing ----------------------------------------------------------------------


@pytest.mark.parametrize("simcord_bot", [{"rate_limits": True}], indirect=True)
async def test_members_outside_the_game_cannot_use_up_its_channel_budget(simcord_env):
    env = simcord_env
    guild, channel, players = setup_table(env, 2)
    mid = await open_and_start(env, channel, players)
    griefers = [guild.add_member(env.create_user(f"griefer{i}")) for i in range(4)]
    await env.advance_time(11)  # the lobby's clicks are out of the window
    hand = button_id(board(channel), "hand", "h")
    clicks = 0
    for griefer in griefers:
        for i in range(12):
            cid = hand if i % 2 else custom_ids(board(channel), "g:")[0]
            r = await griefer.click(board(channel), custom_id=cid)
            assert r.acknowledged and r.ephemeral
            clicks += 1
    assert clicks > CHANNEL_LIMIT[0]
    for _ in range(3):  # the player to move is not held up
        r = await play_one(env, channel, players, mid, random.Random(8))
        assert r.acknowledged and not r.ephemeral, r.response and r.response.content
    assert len(player_moves(await env.bot.store.actions(mid))) == 3


# ---- 9: option bounds, sent raw ------------------------------------------------------------------


@pytest.mark.parametrize("seconds", [-5, 0, 9, 86401, 2**62])
async def test_raw_out_of_bounds_options_are_refused_by_the_bot(simcord_env, monkeypatch, seconds):
    """A modified client sends values Discord's own client would refuse."""
    import simcord.interactions

    monkeypatch.setattr(simcord.interactions, "validate_option_value", lambda command, option, value: value)
    env = simcord_env
    _, channel, (alice, _) = setup_table(env, 2)
    r = await alice.slash(channel, "ugah start", turn_seconds=seconds)
    assert r.acknowledged and r.ephemeral and "turn_seconds" in r.response.content
    assert await env.bot.matches.live_in_channel(channel.id) is None
    await env.advance_time(60)
    assert not [m for m in public_messages(channel) if custom_ids(m)]


# ---- 10: a computer seat left to move by a crash -------------------------------------------------


async def test_a_computer_left_to_move_by_a_crash_moves_right_after_start_up(simcord_env, bot_factory):
    env = simcord_env
    _, channel, players = setup_table(env, 1)

    async def dies_while_thinking(*args):
        await asyncio.sleep(10**6)  # the process is killed before the computer's move is saved

    env.bot.matches.run = dies_while_thinking
    mid = await open_and_start(env, channel, players, ai=1, turn_seconds=600)
    rng = random.Random(10)
    for _ in range(40):
        m, state = await env.bot.matches.get(mid)
        if 1 in rules_for(m.game).to_move(state):
            break
        await play_one(env, channel, players, mid, rng)
    assert 1 in rules_for(m.game).to_move(state), "the computer is to move"
    before = len(await env.bot.store.actions(mid))
    await restart(env, bot_factory, turn_seconds=600)
    await env.advance_time(2)
    for _ in range(100):  # the computer decides in the worker process: wait for its commit
        log = await env.bot.store.actions(mid)
        if len(log) > before:
            break
        await asyncio.sleep(0.05)
    assert [a.source for a in log[before:]][:1] == ["computer"], "moved right after start-up"
    m, _ = await env.bot.matches.get(mid)
    assert not m.seats[1].away and "timeout" not in {a.source for a in log}


# ---- 11: a click acts only on a match of the channel it came from --------------------------------


async def test_a_control_copied_to_another_guild_or_channel_acts_on_nothing(simcord_env):
    env = simcord_env
    _, channel, (alice, bob) = setup_table(env, 2)
    await alice.slash(channel, "ugah start")
    lobby = await env.bot.matches.live_in_channel(channel.id)
    join, cancel = (button_id(board(channel), op, "l") for op in ("join", "cancel"))
    other = env.create_guild()
    admins = other.create_role("Admins", permissions=discord.Permissions(administrator=True))
    elsewhere = other.create_text_channel("elsewhere")
    mallory = other.add_member(env.create_user("mallory"))
    admin = other.add_member(env.create_user("admin"), roles=[admins])
    same_guild_other_channel = channel.guild.create_text_channel("side")
    for place, actor in ((elsewhere, mallory), (elsewhere, admin), (same_guild_other_channel, bob)):
        host = actor if place is elsewhere else alice
        await host.slash(place, "ugah start")  # a message of ours there, whose button is then forged
        for cid in (join, cancel):
            forge_first_button(env, place, cid)
            r = await actor.click(board(place), custom_id=cid)
            assert r.ephemeral and r.response.content == TR("error.wrong_place")
    row = await env.bot.store.get(lobby.id)
    assert row.status == "lobby" and [s.name for s in row.seats] == ["alice"]


# ---- 12: display names as plain text -------------------------------------------------------------


HOSTILE = "\u202eevil\u202c <@123> @everyone \u2066<#42>\u2069 @here\u200f"


def test_clean_name_removes_bidi_controls_and_breaks_mentions():
    text = clean_name(HOSTILE)
    assert not set(BIDI_CONTROLS) & set(text)
    for syntax in ("<@123>", "@everyone", "<#42>", "@here"):
        assert syntax not in text
    assert text.replace(ZWSP, "") == "evil <@123> @everyone <#42> @here", "nothing visible is lost"
    assert clean_name("\u202e\u200e") == "player" and clean_name("line\nbreak") == "line break"
    assert clean_name("Zoë 🦖 **bold**") == "Zoë 🦖 **bold**"


async def test_hostile_display_names_are_shown_as_plain_text(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    host = guild.add_member(env.create_user("host", global_name=HOSTILE))
    guest = guild.add_member(env.create_user("guest"), nick="@everyone\u202e<@&99>")
    await host.slash(channel, "ugah start")
    await guest.click(board(channel), custom_id=button_id(board(channel), "join", "l"))
    lobby_text = board(channel).content
    await host.click(board(channel), custom_id=button_id(board(channel), "start", "l"))
    m = await env.bot.matches.live_in_channel(channel.id)
    texts = [lobby_text, board(channel).content, *(a.description or "" for a in board(channel).attachments)]
    texts += [s.name for s in m.seats]
    for text in texts:
        assert not set(BIDI_CONTROLS) & set(text), repr(text)
        assert not any(unicodedata.category(c) == "Cc" for c in text.replace("\n", ""))
        for syntax in ("<@123>", "@everyone", "<#42>", "@here", "<@&99>"):
            assert syntax not in text, (syntax, text)
    assert "evil" in lobby_text and "everyone" in lobby_text, "the names are still shown"
    assert m.seats[0].name.replace(ZWSP, "") == "evil <@123> @everyone <#42> @here"


# ---- the crash story through the real bot: SIGKILL of a process running it under SimCord --------

CRASH_CHANNELS = 4
# seconds of killing, at least CRASH_MIN_KILLS rounds whatever the machine (CRASH_BUDGET=120 for more)
CRASH_BUDGET = float(os.environ.get("CRASH_BUDGET", 10))
CRASH_MIN_KILLS = 5
GENERIC = TR("error.generic")


def crash_child(db_path: str, offset: str, seed: str, old: str) -> None:
    """One life of the bot: the same simulated world (same ids) every time, the clock moved on past
    the previous life, boards brought back with /game board, the previous life's buttons clicked,
    then several channels clicking at once, computer seats and turn limits, until killed."""
    import json
    import logging

    from simcord import Env

    from bot import render_pool
    from engine.compute import run_inline

    def out(line: str) -> None:
        os.write(1, (line + "\n").encode())

    class Errors(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            if record.exc_info:
                out(f"ERR {record.getMessage()} {record.exc_info[1]!r}"[:300])
                logging.lastResort.handle(record)  # the traceback, on stderr

    for name in ("bot", "engine", "discord"):
        logging.getLogger(name).addHandler(Errors(logging.ERROR))

    async def life() -> None:
        bot = entry.create_bot(
            db_path, rate_limits=False, turn_seconds=30, clock_watch_seconds=SIM_CLOCK_WATCH
        )
        bot.matches.run = run_inline  # no worker process to outlive the kill
        render_pool.PROCESSES = False  # nor a drawing process (tests/bot/test_render_pool.py kills those)
        env = Env(bot, check_errors=False)
        guild = env.create_guild()
        channels = [guild.create_text_channel(f"t{i}") for i in range(CRASH_CHANNELS)]
        players = [
            [guild.add_member(env.create_user(f"c{i}{n}")) for n in "ab"] for i in range(CRASH_CHANNELS)
        ]
        env.backend.clock.advance(float(offset))
        real_commit = bot.store.commit

        async def commit(*args, **kwargs):
            out("B")
            await real_commit(*args, **kwargs)
            out("C")

        bot.store.commit = commit
        await env.start()
        rng = random.Random(int(seed))

        async def answered(i: int, result) -> None:
            if not result.acknowledged:
                out("unanswered")
            elif result.response.content == GENERIC:
                out("generic")
            elif not result.ephemeral:
                m = await bot.matches.live_in_channel(channels[i].id) or None
                mid = m.id if m else None
                log = await bot.store.actions(mid) if mid else []
                mine = [a.version for a in log if a.source == "player"]
                if mine:
                    out(f"ack {mid} {mine[-1]}")

        old_buttons = json.loads(old)
        for i, channel in enumerate(channels):  # the boards come back; the previous life's buttons
            m = await bot.matches.live_in_channel(channel.id)
            if m is None:
                continue
            await players[i][0].slash(channel, "game board")
            cid = old_buttons.get(str(i))
            if cid is None or not public_messages(channel) or not custom_ids(board(channel)):
                continue
            stored = env.backend.get_message(channel.id, board(channel).id)
            button = stored.components[0]["components"][0]
            saved, button["custom_id"] = button["custom_id"], cid
            m, state = await bot.matches.get(m.id)
            seat = m.seats[getattr(state, "current", 0)]
            actor = next((p for p in players[i] if p.id == seat.user_id), players[i][0])
            r = await actor.click(board(channel), custom_id=cid)
            button["custom_id"] = saved
            out("old ok" if r.acknowledged and r.response.content != GENERIC else "old bad")
            await answered(i, r)
        out("ready")
        while True:
            for i, channel in enumerate(channels):
                m = await bot.matches.live_in_channel(channel.id)
                if m is not None and m.status == "lobby":  # a lobby the previous life left: end it
                    await players[i][0].slash(channel, "game end")
                    m = await bot.matches.live_in_channel(channel.id)
                if m is None:
                    await open_and_start(env, channel, players[i], ai=i % 2)
            clicks, where = [], []
            for i, channel in enumerate(channels):
                m = await bot.matches.live_in_channel(channel.id)
                if m is None or m.status != "active":
                    continue
                if not public_messages(channel):
                    await players[i][0].slash(channel, "game board")
                _, state = await bot.matches.get(m.id)
                seat = m.seats[state.current]
                ids = custom_ids(board(channel), "g:") if public_messages(channel) else []
                if seat.ai or not ids:
                    continue
                actor = next(p for p in players[i] if p.id == seat.user_id)
                clicks.append((actor, board(channel), rng.choice(ids)))
                where.append(i)
            for i, r in zip(where, await concurrent_clicks(env, clicks) if clicks else [], strict=True):
                await answered(i, r)
            for i, channel in enumerate(channels):
                ids = custom_ids(board(channel), "g:") if public_messages(channel) else []
                if ids:
                    out(f"board {i} {ids[0]}")
            if not clicks or rng.random() < 0.3:
                await env.advance_time(rng.choice([1, 1, 5, 31]))
            out(f"T {env.backend.clock.elapsed}")

    asyncio.run(life())


def zygote() -> None:
    """Imports everything once, then forks one bot life per line of arguments on stdin (a life
    starts in milliseconds, so the time goes to killing): says ``pid N``, then ``exit STATUS``."""
    import json
    import sys
    import traceback

    for line in sys.stdin:
        pid = os.fork()
        if pid == 0:
            try:
                crash_child(*json.loads(line))
            except BaseException:
                traceback.print_exc()
            finally:
                os._exit(1)  # a life ends only by being killed
        os.write(1, f"pid {pid}\n".encode())
        os.write(1, f"exit {os.waitpid(pid, 0)[1]}\n".encode())


def test_killing_the_real_bot_under_simcord_loses_no_answered_move(tmp_path):
    """SIGKILL a process running the real bot under SimCord (several channels clicking at once,
    computer seats, turn limits) at random moments; after every kill the database equals the replay
    of its action logs, every answered move is in it, and the next life answers the old buttons."""
    import json
    import queue
    import signal
    import subprocess
    import sys
    import threading

    from tests.engine.test_crash import _verify

    db_path = str(tmp_path / "bot.db")
    errors = tmp_path / "stderr.txt"
    rng = random.Random(2026)
    acked: set[tuple[int, int]] = set()
    kills = inside = old_ok = old_bad = 0
    offset, old, started = 0.0, {}, time.monotonic()
    with open(errors, "wb") as err:
        proc = subprocess.Popen(
            [sys.executable, "-c", "from tests.bot.test_hardening import zygote; zygote()"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=err,
            cwd=os.getcwd(),
        )
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [lines.put(raw.decode().rstrip("\n")) for raw in proc.stdout]).start()

    def next_line(timeout: float = 20) -> str:
        try:
            return lines.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"the bot is silent: {errors.read_text()[-2000:]}") from None

    try:
        while kills < CRASH_MIN_KILLS or time.monotonic() - started < CRASH_BUDGET:
            life = [db_path, str(offset), str(rng.getrandbits(32)), json.dumps(old)]
            proc.stdin.write((json.dumps(life) + "\n").encode())
            proc.stdin.flush()
            seen = [next_line()]
            assert seen[0].startswith("pid "), seen
            pid = int(seen[0].split()[1])
            while seen[-1] != "ready":
                seen.append(next_line())
                assert not seen[-1].startswith("exit"), (
                    f"the bot did not come back: {errors.read_text()[-2000:]}"
                )
            time.sleep(rng.uniform(0.05, 1.0))
            with contextlib.suppress(ProcessLookupError):  # (gone already: the status says why)
                os.kill(pid, signal.SIGKILL)
            while not seen[-1].startswith("exit "):
                seen.append(next_line())
            status = int(seen[-1].split()[1])
            assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL, (
                f"the bot died by itself ({status}): {seen[-5:]} {errors.read_text()[-2000:]}"
            )
            kills += 1
            marks = [x for x in seen if x in ("B", "C")]
            inside += bool(marks) and marks[-1] == "B"
            for line in seen:
                kind, _, rest = line.partition(" ")
                assert kind not in ("ERR", "generic", "unanswered"), f"{line}\n{errors.read_text()[-3000:]}"
                if kind == "ack":
                    mid, version = rest.split()
                    acked.add((int(mid), int(version)))
                elif kind == "board":
                    i, cid = rest.split()
                    old[i] = cid
                elif kind == "T":
                    offset = max(offset, float(rest) + 60)
                elif line == "old ok":
                    old_ok += 1
                elif line == "old bad":
                    old_bad += 1
            # every life starts a second later at least: its messages get new ids, as Discord's never
            # repeat (the bot keeps message ids, a turn ping's among them, across restarts)
            offset += 1
            _verify(db_path, acked)  # consistent, and no answered move lost
    finally:
        proc.stdin.close()
        proc.wait(timeout=10)
    print(
        f"\nbot crash test: {kills} kills ({inside} inside a commit), {len(acked)} answered moves checked, "
        f"0 lost; {old_ok} old buttons answered after restarts ({old_bad} badly)"
    )
    assert old_bad == 0 and old_ok >= kills // 2 and len(acked) > 20
