"""``python -m bench [--quick]``: run every benchmark and print one table (progress goes to stderr)."""

from __future__ import annotations

import argparse
import os
import sys
import time

from bench import (
    Row,
    clicks,
    discord_roundtrip,
    engine,
    honga,
    ladder,
    platform,
    render,
    store,
    ubongo,
    uonga,
)
from bench import load as load_step


def table(rows: list[Row]) -> str:
    cells = [("metric", "value", "aim", "ok?")]
    cells += [(r.metric, r.value, r.aim, "-" if r.ok is None else "ok" if r.ok else "MISS") for r in rows]
    widths = [max(len(c[i]) for c in cells) for i in range(4)]
    lines = [" | ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip() for row in cells]
    lines.insert(1, "-+-".join("-" * w for w in widths))
    return "\n".join(lines)


def game_rows(rows: list[tuple[str, str, str]]) -> list[Row]:
    """A game module's (metric, result, aim) rows; the aim is judged by the module's own table."""
    return [Row(metric, result, aim) for metric, result, aim in rows]


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer samples (about 3 minutes instead of ~6)")
    parser.add_argument(
        "--profile", metavar="GAME", choices=clicks.GAMES, help="print the top CPU costs of GAME's move click"
    )
    parser.add_argument(
        "--ladder",
        metavar="GAME",
        nargs="*",
        help="play every game's ladder (or GAME's) instead: bench.ladder",
    )
    args = parser.parse_args()
    if args.ladder is not None:
        ladder.main(args.ladder)
        return
    if args.profile:
        print(clicks.profile(args.profile))
        return
    quick = args.quick
    views = render.public_views(8 if quick else 16)
    steps = [
        ("every game's move click against its floors", lambda: clicks.run(quick)),
        ("render", lambda: render.render_time(views, 3 if quick else 10)),
        ("every game's render", lambda: render.per_game(60 if quick else 240)),
        ("store", lambda: store.commit_time(500 if quick else 3000)),
        ("discord round trip", lambda: discord_roundtrip.roundtrip(60 if quick else 300)),
        ("event loop", lambda: render.loop_stall(views, 3 if quick else 20)),
        ("computer vs random", lambda: engine.ai_vs_random(200 if quick else 1000)),
        ("playouts", lambda: engine.playouts(200 if quick else 1000)),
        ("four seats at once", lambda: platform.four_seats(10 if quick else 40)),
        ("loop delay during a search", lambda: platform.loop_delay(1.0 if quick else 3.0)),
        ("uonga clicks", lambda: platform.grid_roundtrip("uonga", 40 if quick else 150)),
        ("ubongo", lambda: game_rows(ubongo.run())),
        ("honga", lambda: game_rows(honga.run())),
        ("uonga", lambda: game_rows(uonga.run())),
        ("load (SQLite, PostgreSQL)", lambda: load_step.run(quick)),
    ]
    rows, t0 = [], time.perf_counter()
    for name, step in steps:
        print(f"bench: {name} ...", file=sys.stderr, flush=True)
        rows += step()
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"{'quick' if quick else 'full'} run, {time.perf_counter() - t0:.0f} s, load average {load}")
    print(table(rows))


if __name__ == "__main__":
    main()
