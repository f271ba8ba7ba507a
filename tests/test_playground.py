"""The playground (tools/playground/) end to end, headless: a short Ugah Ugah! game against the
computer driven through the same loopback HTTP surface the browser page uses (no browser)."""

from __future__ import annotations

import asyncio
import logging
import math
import os
import re
import signal
import subprocess
import sys
import uuid
from collections.abc import Callable
from datetime import datetime
from typing import Any
from urllib.parse import urlsplit

import aiohttp
import pytest

from bot.i18n import translator
from tools.playground import open_playground
from tools.playground.cli import parse_locales

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
DM_CHANNEL = 1  # Discord channel type


class BrowserPage:
    """What the page's JavaScript does (static/app.js, actions.js, transport.js): open a page
    context, poll /api/state, post sequenced actions against the last published revision."""

    def __init__(self, http: aiohttp.ClientSession, url: str) -> None:
        parts = urlsplit(url)
        assert parts.hostname == "127.0.0.1", url  # loopback only
        self.http = http
        self.base = f"{parts.scheme}://{parts.netloc}"
        self.headers = {"X-Simcord-Capability": parts.fragment}
        self.sequence = 0
        self.snap: dict[str, Any] = {}

    async def _json(self, method: str, path: str, **kwargs: Any) -> Any:
        async with self.http.request(method, self.base + path, headers=self.headers, **kwargs) as r:
            assert r.status == 200, (path, r.status, await r.text())
            return await r.json()

    async def open(self) -> dict[str, Any]:
        self.snap = await self._json("POST", "/api/pages", json={})
        self.headers["X-Simcord-Context"] = self.snap["context"]["id"]
        return self.snap

    async def state(self) -> dict[str, Any]:
        """The page's state, unless an older one than the page has (two reads in flight at once
        may answer out of order: the page's script keeps the newer, session.js)."""
        snap = await self._json("GET", "/api/state")
        had = (self.snap.get("context", {}).get("generation", 0), self.snap.get("publishedRevision", 0))
        older = (snap["context"]["generation"], snap["publishedRevision"]) < had
        if not older:
            self.snap = snap
        return self.snap

    async def send(self, kind: str, **extra: Any) -> dict[str, Any]:
        """One action against the revision the page last read, as the page sends it; the
        receipt, whatever it says."""
        self.sequence += 1
        body = {
            **extra,
            "kind": kind,
            "protocol_version": 3,
            "sequence": self.sequence,
            "request_id": str(uuid.uuid4()),
            "generation": self.snap["context"]["generation"],
            "bot_generation": self.snap["botGeneration"],
            "published_revision": self.snap["publishedRevision"],
        }
        receipt = await self._json("POST", "/api/action", json=body)
        if receipt["rejected"]:
            self.sequence -= 1  # a refused action does not use up its sequence number
        return receipt

    async def act(self, kind: str, **extra: Any) -> dict[str, Any]:
        """One action that must complete (what the page would say: not "Action was not
        completed.", not "outcome uncertain"); then the page reads its state, as the page does."""
        receipt = await self.send(kind, **extra)
        assert completed(receipt), (kind, extra, receipt["diagnostics"], receipt["settlement"])
        await self.state()
        return receipt

    async def until(self, check: Callable[[], Any], what: str, seconds: float = 15) -> None:
        """Poll the page's state (the page polls every 0.5 s) until ``check()`` holds: what the
        bot does after answering (the image, the computer's move) arrives as it is ready."""
        for _ in range(int(seconds / 0.1)):
            await self.state()
            if check():
                return
            await asyncio.sleep(0.1)
        raise AssertionError(f"the page never showed {what}")

    async def run(self, invocation: str, **options: Any) -> dict[str, Any]:
        catalog = await self._json("GET", "/api/commands")
        entry = next(e for e in catalog["entries"] if e["invocation"] == invocation)
        return await self.act(
            "run_command",
            command_id=entry["commandId"],
            path=entry["path"],
            schema_fingerprint=entry["schemaFingerprint"],
            options=options,
        )

    def messages(self) -> list[dict[str, Any]]:
        return [self.snap["messages"][mid] for mid in self.snap["timeline"]]

    def board(self) -> dict[str, Any]:
        """The game message: the latest one carrying an image."""
        return next(m for m in reversed(self.messages()) if m["attachments"])

    @staticmethod
    def buttons(message: dict[str, Any]) -> list[dict[str, Any]]:
        found, stack = [], list(message["components"])
        while stack:
            item = stack.pop(0)
            if item.get("type") == 2:
                found.append(item)
            stack.extend(item.get("components") or [])
        return found

    async def click(self, message: dict[str, Any], button: dict[str, Any]) -> dict[str, Any]:
        return await self.act("click", control_key=button["control_key"], target_id=message["id"])

    async def click_label(self, label: str) -> dict[str, Any]:
        message = next(
            m for m in reversed(self.messages()) if any(b.get("label") == label for b in self.buttons(m))
        )
        button = next(b for b in self.buttons(message) if b.get("label") == label)
        return await self.click(message, button)

    async def board_image(self) -> bytes:
        """The board's image as the page shows it now. A page serves the assets of its latest state
        only: one read a moment ago is gone once the board moved on (the computer's move), so the
        latest is read again then (a page's script does the same as it polls)."""
        for _ in range(20):
            if has_image(self):  # (a state read while the board's new picture is on its way: none)
                image = self.board()["attachments"][0]
                url = f"{self.base}/api/assets/{image['asset_id']}"
                async with self.http.get(url, headers=self.headers) as r:
                    if r.status == 200:
                        return await r.read()
                    assert r.status == 404, r.status
            await asyncio.sleep(0.05)
            await self.state()
        raise AssertionError("the board's image was never served")


def completed(receipt: dict[str, Any]) -> bool:
    """What the page's script (actions.js) reports as done, not "Action was not completed." nor
    "Action outcome uncertain. It will not be retried."."""
    return (
        not receipt["rejected"]
        and not receipt["uncertain"]
        and receipt["settlement"] == "settled"
        and receipt["acknowledgement"] != "unacknowledged"
    )


def has_image(page: BrowserPage) -> bool:
    return any(m["attachments"] for m in page.messages())


def game_buttons(page: BrowserPage, message: dict[str, Any]) -> list[dict[str, Any]]:
    return [b for b in page.buttons(message) if b.get("custom_id", "").startswith("g:") and not b["disabled"]]


async def test_playground_plays_ugah_against_the_computer(tmp_path, caplog):
    caplog.set_level(logging.WARNING)
    async with (
        open_playground(str(tmp_path / "playground.db"), port=0) as play,
        aiohttp.ClientSession() as http,
    ):
        page = BrowserPage(http, play.games.url)
        snap = await page.open()
        assert [v["name"] for v in snap["viewers"]] == ["alice", "bob", "carol"]  # "viewing as"
        alice = snap["viewerId"]

        await page.run("ugah start")
        await page.click_label("Add AI (medium)")
        await page.click_label("Start")

        await page.until(lambda: has_image(page) and page.board()["attachments"][0]["available"], "the board")
        board = page.board()
        image = board["attachments"][0]
        assert image["content_type"] == "image/png" and image["available"]
        assert (await page.board_image()).startswith(PNG_MAGIC)
        assert game_buttons(page, board), page.buttons(board)

        # a few moves: the computer answers after its think time, then it is alice's turn again
        def alices_turn() -> bool:
            board = page.board() if has_image(page) else None
            return board is not None and (
                not game_buttons(page, board) or "alice" in board["content"].split("\n")[-1]
            )

        for _ in range(4):
            await page.until(alices_turn, "alice's turn")
            board = page.board()
            choices = game_buttons(page, board)
            if not choices:  # the game ended early
                break
            await page.click(board, choices[0])
            now = page.snap["messages"].get(board["id"])
            assert now is None or now["content"] != board["content"], "the click's answer shows at once"
        await page.until(lambda: has_image(page) and page.board()["attachments"][0]["available"], "the board")

        # private reply: alice sees it, bob (switching "viewing as") does not
        await page.click_label("My chips")
        assert any(m["ephemeral"] for m in page.messages())
        await page.act("viewer", viewer_id=next(v["id"] for v in snap["viewers"] if v["name"] == "bob"))
        assert page.snap["viewerId"] != alice
        assert not any(m["ephemeral"] for m in page.messages())

        # each member's DMs are served as that member
        for dm, name in zip(play.pages[1:], ("alice", "bob", "carol"), strict=True):
            dm_snap = await BrowserPage(http, dm.url).open()
            assert dm_snap["channel"]["type"] == DM_CHANNEL
            assert [v["name"] for v in dm_snap["viewers"]] == [name]

        # the clock runs virtual time with wall time (bounded wait), and skips a tick while an
        # action holds the simulated Discord
        before = play.env.now()
        for _ in range(100):
            if (play.env.now() - before).total_seconds() >= 1:
                break
            await asyncio.sleep(0.05)
        assert (play.env.now() - before).total_seconds() >= 1
        async with play.lock:
            assert not await play.tick()
    logged = [
        f"{r.levelname} {r.name}: {r.getMessage()}" for r in caplog.records if r.levelno >= logging.WARNING
    ]
    assert not logged, logged  # (the terminal shows no warning nor traceback)


async def test_playground_command_stops_cleanly_on_ctrl_c(tmp_path):
    """``python -m tools.playground``: prints the loopback URLs and the SSH hint, and Ctrl-C stops
    it with exit code 0 and no traceback."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tools.playground",
        "--port",
        "0",
        "--db",
        str(tmp_path / "kept.db"),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
    )
    try:
        banner = []
        while not any("Ctrl-C" in line for line in banner):
            line = await asyncio.wait_for(proc.stdout.readline(), 15)
            assert line, (banner, await proc.stderr.read())
            banner.append(line.decode())
        text = "".join(banner)
        assert "http://127.0.0.1:" in text and "ssh -L" in text and "127.0.0.1 only" in text
        proc.send_signal(signal.SIGINT)
        _, err = await asyncio.wait_for(proc.communicate(), 15)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    assert proc.returncode == 0, err.decode()
    assert b"Traceback" not in err, err.decode()
    assert (tmp_path / "kept.db").exists()


def test_the_bot_never_imports_simcord():
    """The playground is optional: building the bot must not pull SimCord in."""
    code = "import sys, bot.client; bot.client.create_bot(':memory:'); sys.exit('simcord' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=30, check=False)
    assert result.returncode == 0, result.stderr.decode()


async def test_countdowns_on_a_page_open_for_minutes_are_true(tmp_path):
    """Issue 20, point 1: a page draws relative times ("runs out in 10 minutes") against its
    presentation time, which the preview fixes when the page publishes. A page whose world does not
    change publishes again, with the simulated clock's now, when one of its relative times would
    read differently, so after three quiet minutes a 10-minute turn limit reads 7 minutes, not
    still 10; the message showing it is marked with its presentation time, as the page redraws a
    message only when the message changed."""
    async with (
        open_playground(str(tmp_path / "playground.db"), port=0, clock=False) as play,
        aiohttp.ClientSession() as http,
    ):
        page = BrowserPage(http, play.games.url)
        await page.open()
        await page.run("ugah start", turn_seconds="600")  # (the page sends what is typed)
        await page.click_label("Add AI (medium)")
        await page.click_label("Start")
        # (the computer may move first: its move comes at once, and then the countdown is alice's)
        await page.until(lambda: has_image(page) and "<t:" in page.board()["content"], "alice's turn")
        (due,) = [int(t) for t in re.findall(r"<t:(\d+):R>", page.board()["content"])]
        for _ in range(6):  # three minutes in which nothing happens
            assert await play.tick(30)
        await page.state()
        shown_at = datetime.fromisoformat(page.snap["profile"]["presentationTime"])

        def minutes(at: datetime) -> int:  # as the page words it (Math.round)
            return math.floor((due - at.timestamp()) / 60 + 0.5)

        assert minutes(shown_at) == minutes(play.env.now()) == 7, "the page reads 7 minutes left"
        assert (play.env.now() - shown_at).total_seconds() < 60
        assert page.board()["presentedAt"] == page.snap["profile"]["presentationTime"]


async def test_two_tabs_of_one_page_show_the_same_game(tmp_path):
    """Issue 20, point 2: two tabs on the same URL are two page contexts over one simulated Discord.
    A click in either shows in both at once (same messages, same board), so does the clock, and
    "viewing as" stays each tab's own."""
    async with (
        open_playground(str(tmp_path / "playground.db"), port=0, clock=False) as play,
        aiohttp.ClientSession() as http,
    ):
        one, two = BrowserPage(http, play.games.url), BrowserPage(http, play.games.url)
        snap = await one.open()
        await two.open()
        await one.run("ugah start")
        await two.state()  # (a page polls its state, as the browser's page does)
        await two.click_label("Add AI (medium)")  # the second tab sees the lobby the first opened
        await one.state()
        await one.click_label("Start")
        await one.until(lambda: has_image(one), "the board")

        def shown(page: BrowserPage) -> Any:
            board = page.board()
            image = {k: v for k, v in board["attachments"][0].items() if k != "asset_id"}  # (per tab)
            return page.snap["timeline"], board["content"], image

        async def same() -> None:
            """Both tabs show the same messages and board (read one after the other: the clock
            may publish in between, so read again, bounded)."""
            for _ in range(50):
                await one.state()
                await two.state()
                if has_image(one) and has_image(two) and shown(one) == shown(two):
                    return
                await asyncio.sleep(0.1)
            assert shown(one) == shown(two)

        await same()
        await two.click(two.board(), game_buttons(two, two.board())[0])  # the other tab plays alice
        await same()
        assert await play.tick(30)
        await same()
        bob = next(v["id"] for v in snap["viewers"] if v["name"] == "bob")
        await two.act("viewer", viewer_id=bob)
        await one.state()
        assert two.snap["viewerId"] == bob and one.snap["viewerId"] == snap["viewerId"]


async def test_the_playground_speaks_german_and_spanish(tmp_path):
    """``--locale de --locale bob=es``: the server and alice German, bob Spanish. The lobby (the
    server's language) and alice's private answers are German, bob's Spanish."""
    async with (
        open_playground(
            str(tmp_path / "playground.db"), port=0, clock=False, locale="de", locales={"bob": "es-ES"}
        ) as play,
        aiohttp.ClientSession() as http,
    ):
        page = BrowserPage(http, play.games.url)
        snap = await page.open()
        await page.run("ugah start")
        lobby = next(m for m in reversed(page.messages()) if page.buttons(m))
        assert translator("de")("game.ugah") in lobby["content"]
        assert "Players" not in lobby["content"], lobby["content"]  # (English: "Players (1/4 ...")

        def private(text: str) -> Callable[[], bool]:
            return lambda: any(m["ephemeral"] and text in m["content"] for m in page.messages())

        await page.click_label(
            next(b["label"] for b in page.buttons(lobby) if b["custom_id"].endswith(":join"))
        )
        await page.until(private(translator("de")("lobby.already_seated")), "alice's answer in German")
        await page.act("viewer", viewer_id=next(v["id"] for v in snap["viewers"] if v["name"] == "bob"))
        start = next(b["label"] for b in page.buttons(lobby) if b["custom_id"].endswith(":start"))
        await page.click_label(start)
        await page.until(private(translator("es")("lobby.host_only")), "bob's answer in Spanish")


def test_locale_options():
    """``--locale LANG`` sets the server's and everyone's language, ``--locale MEMBER=LANG`` one
    member's; an unknown language or member is refused."""
    assert parse_locales([]) == ("en-US", {})
    assert parse_locales(["de", "bob=es"]) == ("de", {"bob": "es-ES"})
    for wrong in (["fr"], ["dave=de"]):
        with pytest.raises(ValueError):
            parse_locales(wrong)


async def test_a_select_is_shown_afresh_after_a_choice(tmp_path):
    """The page keeps what was chosen in a select by the select's key: a panel showing the same
    select again on the next turn kept the last choice, and choosing it again sent nothing
    (issue 33, Honga's live panel). After a choice the select has a key of its own, so the page
    shows it as Discord does, with nothing chosen."""
    async with (
        open_playground(str(tmp_path / "playground.db"), port=0, clock=False) as play,
        aiohttp.ClientSession() as http,
    ):
        page = BrowserPage(http, play.games.url)
        await page.open()
        await page.run("ugah start")
        await page.click_label("Add AI (medium)")
        await page.click_label("Start")

        def select() -> tuple[dict[str, Any], dict[str, Any]] | None:
            for message in reversed(page.messages()):
                for row in message["components"]:
                    for item in row.get("components") or []:
                        if item.get("type") == 3 and str(item.get("custom_id", "")).startswith("s:"):
                            return message, item
            return None

        await page.until(
            lambda: select() is not None and "alice" in select()[0]["content"].split("\n")[-1],
            "alice's select",
        )
        found = select()
        assert found is not None
        message, menu = found
        base, _, tag = menu["control_key"].partition("@")
        assert tag.endswith(".0"), menu["control_key"]
        await page.act(
            "select",
            control_key=menu["control_key"],
            target_id=message["id"],
            values=[menu["options"][0]["value"]],
        )
        shown = [
            c["control_key"]
            for m in page.messages()
            for row in m["components"]
            for c in row.get("components") or []
            if str(c.get("control_key", "")).startswith(base + "@")
        ]
        assert shown and all(key.endswith(".1") for key in shown), shown
        assert play.games.revisions.chosen == {base: 1}
