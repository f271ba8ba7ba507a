"""The bench's printing: its rows as one table, and the machine's load beside the figures (every
entry point prints both: ``python -m bench`` and a step run alone)."""

from __future__ import annotations

import os

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
