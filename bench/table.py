"""The bench's printing: its rows as one table, and the machine's load beside the figures (every
entry point prints both: ``python -m bench`` and a step run alone)."""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable

from bench import Row


def table(rows: list[Row]) -> str:
    cells = [("metric", "value", "aim", "ok?")]
    cells += [(r.metric, r.value, r.aim, "-" if r.ok is None else "ok" if r.ok else "MISS") for r in rows]
    widths = [max(len(c[i]) for c in cells) for i in range(4)]
    lines = [" | ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip() for row in cells]
    lines.insert(1, "-+-".join("-" * w for w in widths))
    return "\n".join(lines)


def load_average() -> str:
    """The load average over 1, 5 and 15 minutes: figures taken on a busy machine read slower."""
    return ", ".join(f"{x:.2f}" for x in os.getloadavg())


def run_alone(name: str, doc: str, run: Callable[[bool], list[Row]], quick_help: str) -> None:
    """``python -m bench.NAME [--quick]``: one step alone, its table, and the load before and after."""
    parser = argparse.ArgumentParser(prog=f"python -m bench.{name}", description=doc.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help=quick_help)
    quick = parser.parse_args().quick
    t0, before = time.perf_counter(), load_average()
    out = run(quick)
    print(
        f"{name} step, {'quick' if quick else 'full'}, {time.perf_counter() - t0:.0f} s, "
        f"load average {before} before, {load_average()} after"
    )
    print(table(out))
