"""Screenshot of the playground page (``#games`` as alice, Ugah Ugah! in progress) for the README.

Not part of the test suite: needs Debian's ``chromium`` (``apt-get install -y chromium``) and the
playground extra. Run from the repository root:
``.venv/bin/python -m tools.playground_screenshot [docs/images/playground.png]``.
"""

from __future__ import annotations

import asyncio
import random
import sys
import tempfile
from pathlib import Path

from harness.sim import next_click, open_and_start
from tools.playground import Playground, open_playground

OUT = "docs/images/playground.png"
WIDTH, HEIGHT = 1280, 960
CHROMIUM = ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--virtual-time-budget=8000", "--hide-scrollbars", f"--window-size={WIDTH},{HEIGHT}"]  # fmt: skip
MOVES = 6  # then on until it is alice's turn: the page is viewed as alice


async def play_a_little(play: Playground) -> None:
    """alice hosts, bob joins, one computer seat, a few moves: a game in progress on the page."""
    players = play.members[:2]
    match_id = await open_and_start(play.env, play.channel, players, ai=1, variant="basic")
    rng = random.Random(7)
    for move in range(MOVES * 3):
        if move >= MOVES and await _to_move(play, match_id) == players[0].id:
            return
        click = await next_click(play.env, play.channel, players, match_id, rng)
        await click()


async def _to_move(play: Playground, match_id: int) -> int:
    match, state = await play.env.bot.matches.get(match_id)
    return match.seats[state.current].user_id


async def shoot(url: str, out: Path, profile: str) -> None:
    proc = await asyncio.create_subprocess_exec(
        *CHROMIUM, f"--user-data-dir={profile}", f"--screenshot={out}", url
    )
    await asyncio.wait_for(proc.wait(), 120)
    if proc.returncode != 0 or not out.exists():
        raise SystemExit(f"chromium failed (exit {proc.returncode})")


async def main(out: Path) -> None:
    with tempfile.TemporaryDirectory(prefix="playground-shot-") as tmp:
        # no clock: the moves above drive SimCord directly, as the tests do
        async with open_playground(str(Path(tmp) / "shot.db"), port=0, clock=False) as play:
            async with play.driving():
                await play_a_little(play)
            await play.tick(0)  # republishes the pages the moves changed
            await shoot(play.games.url, out, str(Path(tmp) / "chromium"))
    print(out)


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1] if len(sys.argv) > 1 else OUT).resolve()))
