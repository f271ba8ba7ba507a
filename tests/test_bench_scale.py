"""Smoke test of bench/scale.py at a tiny scale: one process holding its live matches on SQLite and on
PostgreSQL, with every move's commit timed apart, and one and two bot processes on one PostgreSQL;
every figure comes back as a number and the rows are well formed (the real figures are
``python -m bench.scale``)."""

from __future__ import annotations

import asyncio
import re

from bench import load, scale
from engine.store.postgres import PostgresStore
from engine.store.sqlite import SqliteStore


def _held_ok(f: dict) -> None:
    assert f["live"] == 200 and f["bytes_per_match"] > 0 and 0 < f["startup"] < 5
    assert f["restarts"] == scale.RESTARTS
    moves, own, commits = f["paced"]["moves"], f["own"], f["commits"]
    assert moves and len(own) == len(commits) == len(moves), "every move's commit was timed"
    assert all(c > 0 for c in commits), "every move committed through the wrapped Store.commit"
    assert all(0 < o < m for o, m in zip(own, moves, strict=True)), (
        "the bot's part is the move less its commit"
    )


async def test_one_process_holding_its_live_matches_on_sqlite(tmp_path):
    f = await scale.one_process(lambda name: SqliteStore(str(tmp_path / f"{name}.db")), 200, 40, pause=0.005)
    _held_ok(f)
    assert list(tmp_path.glob("*.db")), "the scenario wrote its databases where it was told"


async def test_one_process_holding_its_live_matches_on_postgresql(postgres_url, pg_schema):
    def new_store(name: str) -> PostgresStore:
        return PostgresStore(postgres_url, schema=f"{pg_schema}_{name}", pool_size=load.PG_POOL)

    _held_ok(await scale.one_process(new_store, 200, 40, pause=0.005))


def test_processes_on_one_postgresql_and_the_rows(postgres_url, pg_schema, tmp_path):
    """One, then two bot processes (spawned) on one schema, moving together; then the step's rows."""
    # the test session's server is not this test's to read the CPU of: no server processes given
    procs = [scale.processes(postgres_url, lambda: [], count, 3, 0.3, pg_schema) for count in (1, 2)]
    for count, p in enumerate(procs, start=1):
        assert p["processes"] == count and p["moves"] > 0 and p["moves_per_s"] > 0
        assert p["bot_cpu_per_move"] > 0 and p["server_cpu_per_move"] == 0 and p["cores_busy"] > 0

    new_store = lambda name: SqliteStore(str(tmp_path / f"{name}.db"))  # noqa: E731
    f = asyncio.run(scale.one_process(new_store, 200, 40, pause=0.005))
    rows = scale.rows({"SQLite": f, "PostgreSQL": "skipped: not in this test"}, procs, quick=True)
    assert rows[0].metric == "scale PostgreSQL" and rows[0].value.startswith("skipped")
    assert len(rows) == 1 + 6 + 2
    for row in rows[1:]:
        assert row.metric.startswith("scale ") and re.search(r"\d", row.value), row
    own = next(r for r in rows if "bot's own part" in r.metric)
    assert own.aim == "p99 ≤ 2 ms" and own.ok is not None
    assert "quick run" in next(r for r in rows if "paced move" in r.metric).metric
    two = next(r for r in rows if r.metric.startswith("scale PostgreSQL: 2 process"))
    assert "cores in all" in two.metric and re.search(r"\d\.\d\dx one process", two.value), two
    assert re.search(r"cores busy: these \d\.\d\d, the machine \d\.\d\d of \d", two.value), two
