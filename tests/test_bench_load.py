"""Smoke test of bench/load.py at a tiny scale, SQLite only: every figure comes back as a number (the
real figures are ``python -m bench.load``)."""

from __future__ import annotations

import re

from bench import load
from engine.store.sqlite import SqliteStore

TINY = {"matches": 20, "clicks": 40, "live": 200, "tasks": 5, "seconds": 0.3}


async def test_load_figures_at_a_tiny_scale(tmp_path):
    figures = await load.scenarios(lambda name: SqliteStore(str(tmp_path / f"{name}.db")), TINY)

    clicks, start, sat = figures["clicks"], figures["startup"], figures["saturation"]
    assert clicks["matches"] == 20 and clicks["bytes_per_match"] > 0
    for series in ("flat", "paced"):
        assert clicks[series]["moves"] and clicks[series]["noops"]
        assert all(t > 0 for t in clicks[series]["moves"] + clicks[series]["noops"])
    assert start["live"] == 200 and start["checked"] == 200
    assert start["decoded_by_recover"] == 0, "start-up decodes lazily"
    assert 0 < start["total"] < 5 and start["check_live"] > 0
    assert sat["moves"] > 0 and sat["moves_per_s"] > 0 and sat["raw_per_s"] > 0

    rows = load.rows({"SQLite": figures, "PostgreSQL": "skipped: not in this test"})
    assert rows[0].metric == "load PostgreSQL" and rows[0].value.startswith("skipped")
    assert len(rows) == 1 + 12
    for row in rows[1:]:
        assert row.metric.startswith("load SQLite") and re.search(r"\d", row.value), row
    startup = next(r for r in rows if "start-up p90" in r.metric)  # issue 19's aims
    assert startup.aim == "≤ 0.3 s" and startup.ok is not None and "of 5 restarts" in startup.metric
    paced = next(r for r in rows if "apart" in r.metric)
    assert paced.aim == "p99 ≤ 10 ms" and paced.ok is not None
    assert list(tmp_path.glob("*.db")), "the scenarios wrote their databases where they were told"
