"""Write docs/images/recap.gif (the animated recap a finished game gets) and recap_frame.png (one of its
frames) from a seeded four-seat Ugah Ugah! game played by the computer, rebuilt from seed + action log
exactly as the bot does: ``python -m tools.recap_sample [OUT_DIR]``. Prints size and build time."""

from __future__ import annotations

import io
import sys
import time
from pathlib import Path

from PIL import Image

from bot.i18n import translator
from bot.replay import moments, recap
from engine import options
from engine.meta import MatchMeta
from engine.registry import computer_for, rules_for
from engine.replay import rebuild
from engine.store import LoggedAction, MatchRow, SeatInfo

GAME, SEED, NAMES = "ugah", 2026, ("Grok", "Ula", "Mog", "Zug")


def finished_match() -> tuple[MatchRow, list[LoggedAction]]:
    rules, computer = rules_for(GAME), computer_for(GAME)
    opts = options.resolve(rules.options, {"variant": "basic"}, {"turn_seconds": 120})
    state = rules.setup(len(NAMES), SEED, opts)
    log: list[LoggedAction] = []
    while movers := sorted(rules.to_move(state)):
        seat = movers[0]
        action = computer.choose(state, seat, computer.levels[0])
        state, _ = rules.apply(state, seat, action)
        log.append(LoggedAction(len(log) + 2, seat, action, "computer"))
    m = MatchRow(
        id=1, game=GAME, guild_id=1, channel_id=1, host_id=1, status="finished",
        version=len(log) + 1, seed=SEED, seats=[SeatInfo(None, n, ai=True) for n in NAMES], options=opts,
        state=rules.dump(state), meta=MatchMeta(locale="en"),
    )  # fmt: skip
    return m, log


def main(argv: list[str]) -> None:
    out = Path(argv[0] if argv else "docs/images")
    m, log = finished_match()
    started = time.perf_counter()
    steps = rebuild(rules_for(GAME), len(m.seats), m.seed, m.options, log)
    data = recap(m, steps, translator("en"))
    took = time.perf_counter() - started
    (out / "recap.gif").write_bytes(data)
    frames = Image.open(io.BytesIO(data))
    frames.seek(frames.n_frames // 2)
    frames.convert("RGB").save(out / "recap_frame.png", optimize=True)
    print(f"{len(log)} actions, {len(moments(m, steps))} frames, {len(data) / 1e6:.2f} MB in {took:.2f} s")


if __name__ == "__main__":
    main(sys.argv[1:])
