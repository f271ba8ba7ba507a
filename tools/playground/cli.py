"""``python -m tools.playground``: serve the playground until Ctrl-C (see the package's docstring)."""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import sys
import tempfile
from pathlib import Path

from simcord import SetupError

from engine import compute
from tools.playground.pages import Page
from tools.playground.session import DEFAULT_PORT, MEMBERS, Playground, open_playground

# the languages the bot speaks, as Discord locales (what a Discord client sends)
LOCALES = {"en": "en-US", "de": "de", "es": "es-ES"}


def banner(play: Playground) -> str:
    ports = [page.port for page in play.pages]
    forwards = " ".join(f"-L {p}:127.0.0.1:{p}" for p in ports)
    lines = [
        "Playground running: the real bot on a simulated Discord (no token, nothing leaves this machine)."
    ]
    lines += [f"  {page.name:<14} {page.url}" for page in play.pages]
    lines += [
        "In #games type /ugah start in the message box and switch 'viewing as' to play every seat;",
        "what the bot sends by DM (Ubongo's workspaces) shows on that member's DMs page; a game",
        "started in a thread of its own gets a page of its own, its URL printed here when it opens.",
        "Served on 127.0.0.1 only. From another machine forward the ports over SSH:",
        f"  ssh {forwards} HOST",
        "then open the same URLs there. Ctrl-C stops.",
    ]
    return "\n".join(lines)


async def _until_stopped(play: Playground, stop: asyncio.Event) -> str:
    """Wait for Ctrl-C (or SIGTERM) or a page's "End preview session"; say which."""
    stopped = asyncio.ensure_future(stop.wait())
    closed = asyncio.ensure_future(play.wait_closed())
    try:
        await asyncio.wait([stopped, closed], return_when=asyncio.FIRST_COMPLETED)
    finally:
        stopped.cancel()
        closed.cancel()
    return "stopping…" if stop.is_set() else "a page ended its preview session: stopping…"


def announce(page: Page) -> None:
    """A page opened after the start (a game's thread): where to find it."""
    print(f"  {page.name:<14} {page.url}   (new thread; forward port {page.port} too)", flush=True)


def parse_locales(values: list[str]) -> tuple[str, dict[str, str]]:
    """``--locale de`` (the server and everyone) and ``--locale bob=es`` (one member)."""
    server, members = "en-US", {}
    for value in values:
        name, _, lang = value.rpartition("=")
        if lang not in LOCALES or (name and name not in MEMBERS):
            raise ValueError(value)
        if name:
            members[name] = LOCALES[lang]
        else:
            server = LOCALES[lang]
    return server, members


async def serve(
    db_path: str, port: int, locale: str = "en-US", locales: dict[str, str] | None = None
) -> None:
    # Ctrl-C sets an event instead of raising KeyboardInterrupt inside whatever task runs, so the
    # pages, the simulated Discord, the matches and the store close in order, without a traceback.
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    try:
        async with open_playground(db_path, port=port, locale=locale, locales=locales) as play:
            print(banner(play), flush=True)
            play.on_page = announce
            print(await _until_stopped(play, stop), flush=True)
    finally:
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(sig)


def start_quiet_worker() -> None:
    """Ctrl-C in a terminal signals the whole process group, so the computer players' worker
    process (engine.compute, spawned on the first computer move) would print a KeyboardInterrupt
    traceback. Start it now with SIGINT ignored, which it inherits; exiting still stops it."""
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        compute.pool().submit(int).result()
    finally:
        signal.signal(signal.SIGINT, previous)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="playground", description="The bot on a simulated Discord, played in a browser."
    )
    parser.add_argument("--db", help="SQLite file to keep the games in (default: a throw-away file)")
    parser.add_argument(
        "--port",
        type=int,
        default=DEFAULT_PORT,
        help=f"first port: #games, then alice's, bob's and carol's DMs, then threads (default {DEFAULT_PORT})",
    )
    parser.add_argument(
        "--locale",
        action="append",
        default=[],
        metavar="[MEMBER=]LANG",
        help=f"language ({', '.join(LOCALES)}) of the server and everyone, or of one member (bob=es); repeatable",
    )
    args = parser.parse_args(argv)
    try:
        locale, locales = parse_locales(args.locale)
    except ValueError as exc:
        parser.error(
            f"--locale {exc}: LANG is one of {', '.join(LOCALES)}, MEMBER one of {', '.join(MEMBERS)}"
        )
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    start_quiet_worker()
    with tempfile.TemporaryDirectory(prefix="playground-") as tmp:
        db_path = args.db or str(Path(tmp) / "playground.db")
        try:
            asyncio.run(serve(db_path, args.port, locale, locales))
        except SetupError as exc:  # e.g. a port already taken
            hint = " (already running? choose other ports with --port N)" if "bind" in str(exc) else ""
            print(f"playground: {exc}{hint}", file=sys.stderr)
            return 1
    print("stopped.")
    return 0
