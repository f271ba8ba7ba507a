"""``python -m bench [--quick]``: run every benchmark and print one table (progress goes to stderr)."""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from bench import clicks, ladder
from bench.steps import as_a_bot, run_step, steps
from bench.table import load_average, table


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer samples (a few minutes instead of ~9)")
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
        as_a_bot()
        print(clicks.profile(args.profile))
        return
    quick = args.quick
    rows, t0 = [], time.perf_counter()
    # each step in a fresh process: a step measured after the others inherited their heap (longer
    # collections), threads and drawing processes; the load step's p99 read 11-26 ms that way against
    # 7-8.5 ms alone, in the same hour
    spawn = multiprocessing.get_context("spawn")
    for name in steps(quick):
        print(f"bench: {name} ...", file=sys.stderr, flush=True)
        with ProcessPoolExecutor(max_workers=1, mp_context=spawn) as one:
            rows += one.submit(run_step, name, quick).result()
    print(
        f"{'quick' if quick else 'full'} run, {time.perf_counter() - t0:.0f} s, load average {load_average()}"
    )
    print(table(rows))


if __name__ == "__main__":
    main()
