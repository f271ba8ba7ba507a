"""Screenshot of a game as a Discord user sees it (message text, buttons, board), for the docs.

Not part of the test suite: needs ``pip install 'simcord[preview]==3.2.1'`` and Debian's ``chromium``.
Run from the repository root: ``.venv/bin/python -m tools.preview_screenshot docs/images/discord_preview.png``.
"""

from __future__ import annotations

import asyncio
import random
import sys
import tempfile
from pathlib import Path

import simcord

from bot.client import create_bot
from harness.sim import SIM_CLOCK_WATCH, next_click, open_and_start, setup_table

CHROMIUM = ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--virtual-time-budget=8000", "--window-size=1100,1000"]  # fmt: skip


async def main(out: str) -> None:
    bot = create_bot(
        str(Path(tempfile.mkdtemp()) / "preview.db"), rate_limits=False, clock_watch_seconds=SIM_CLOCK_WATCH
    )
    try:
        async with simcord.run(bot) as env:
            _, channel, players = setup_table(env, 3)
            mid = await open_and_start(env, channel, players, variant="basic")
            rng = random.Random(21)
            for _ in range(14):  # the player to move clicks one of the game buttons
                click = await next_click(env, channel, players, mid, rng)
                await click()
            preview = env.preview(
                channel, viewers=players[:1], layout="channel", display="fixed", width=1100, height=1000
            )
            async with preview as page:
                profile = f"--user-data-dir={tempfile.mkdtemp()}"
                shot = f"--screenshot={Path(out).resolve()}"
                proc = await asyncio.create_subprocess_exec(*CHROMIUM, profile, shot, page.url)
                await asyncio.wait_for(proc.wait(), 120)
    finally:
        await bot.matches.close()
        await bot.store.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1] if len(sys.argv) > 1 else "docs/images/discord_preview.png"))
