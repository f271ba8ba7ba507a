"""SIGTERM (a service manager's stop, ``docker stop``) closes the bot as Ctrl-C does: what it holds
is written before the process ends. Here that is a surface's note, which waits for the surfaces to
be at rest (bot.surfaces.addresses); killed on the spot, the bot lost it.

A real ``python -m bot`` process (``main()``) with a simulated login: its ``setup_hook`` opens the
database, notes a surface while a click's work is still under way, says "ready" and waits, as a
connected bot would (connecting would reach Discord)."""

from __future__ import annotations

import os
import select
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")

ROOT = Path(__file__).resolve().parents[1]
FAKE = "A" * 24 + "." + "B" * 6 + "." + "C" * 27

SCRIPT = """
import asyncio, sys
from discord.http import HTTPClient
from bot import __main__ as entry
from bot.client import GameBot
from bot.surfaces import quiet
from engine.store import SurfaceRow

async def static_login(self, token):
    return {"id": "1", "username": "bot", "discriminator": "0", "avatar": None, "bot": True}

async def application_info(self):
    owner = {"id": "2", "username": "owner", "discriminator": "0", "avatar": None}
    return {"id": "1", "name": "bot", "description": "", "icon": None, "bot_public": True,
            "bot_require_code_grant": False, "owner": owner, "verify_key": "k", "flags": 0}

async def setup_hook(self):
    self._stop_on_sigterm()
    await self.store.open()
    quiet.QUIET_SECONDS = 1.5  # the note waits: a click's work is under way
    self.surfaces._quiet.begin()
    await self.surfaces.addresses.note(SurfaceRow(7, "ping", -1, 1, 2, None, 3, 0.0))
    print("ready", flush=True)
    await asyncio.Event().wait()

closing = GameBot.close

async def close(self):
    await closing(self)
    print("closed", flush=True)

HTTPClient.static_login = static_login
HTTPClient.application_info = application_info
GameBot.setup_hook = setup_hook
GameBot.close = close
entry.check_database = lambda path, **options: None
STOPS = {stops}
if not STOPS:
    GameBot._stop_on_sigterm = lambda self: None
print(entry.main(), flush=True)
"""


def _run(tmp_path: Path, stops: bool) -> tuple[int, list[str], Path]:
    db = tmp_path / "bot.db"
    env = {
        **os.environ,
        "DISCORD_TOKEN": FAKE,
        "DATABASE_PATH": str(db),
        "RENDER_PROCESSES": "0",
        "PYTHONPATH": str(ROOT),
    }
    bot = subprocess.Popen(
        [sys.executable, "-c", SCRIPT.replace("{stops}", str(stops))],
        cwd=tmp_path,  # no .env of the checkout's
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert bot.stdout is not None
        ready, _, _ = select.select([bot.stdout], [], [], 60)
        assert ready and bot.stdout.readline().strip() == "ready", bot.stderr and bot.stderr.read()
        bot.send_signal(signal.SIGTERM)
        out, _ = bot.communicate(timeout=30)
    finally:
        bot.kill()
        bot.wait()
    return bot.returncode, out.split(), db


def _noted(db: Path) -> list[tuple[int, str, int]]:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT match_id, kind, message_id FROM surfaces").fetchall()


def test_sigterm_closes_the_bot_and_what_it_noted_is_written(tmp_path):
    code, said, db = _run(tmp_path, stops=True)
    assert (code, said) == (0, ["closed", "0"])
    assert _noted(db) == [(7, "ping", 2)]


def test_without_it_sigterm_ends_the_process_on_the_spot_and_the_note_is_lost(tmp_path):
    """The same process with Python's default for SIGTERM: what the test above guards against."""
    code, said, db = _run(tmp_path, stops=False)
    assert (code, said) == (-signal.SIGTERM, [])
    assert _noted(db) == []
