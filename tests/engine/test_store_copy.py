"""MatchRow.copy: the private copy a move changes before its commit shares nothing mutable with the
cached row but the state's dump (replaced whole by a commit, never edited)."""

from __future__ import annotations

import dataclasses

from engine.core import Event, Outcome
from engine.meta import MatchMeta, RecordNote
from engine.store import MatchRow, SeatInfo

MUTABLE = (list, dict, set)


def _row() -> MatchRow:
    """A row with every field away from its default, mutable parts non-empty."""
    meta = MatchMeta(
        locale="de",
        events=[Event("rolled", {"dice": [1, 2]})],
        new_turn=[1],
        started_at=1.0,
        finished_at=2.0,
        result=Outcome([3, 1], [0]),
        ended_by=7,
        ended_by_name="alice",
        pending=[8],
        rematch=4,
        rematch_of=2,
        record=RecordNote(best=3.0),
        recap=5.0,
        broken="no",
        tournament=6,
        extra={"future": {"nested": [1]}},
        resigned=[1],
        timed_out=[0],
        reminded=[1],
        strikes=[0, 0],
    )
    seats = [SeatInfo(7, "alice", locale="de"), SeatInfo(None, "Computer", ai=True, level="hard")]
    return MatchRow(
        1, "ugah", 2, 3, 7, "active", 9, 11, seats, {"variant": "basic", "more": [1]},
        {"board": [1, 2]}, meta, {"turn": 100.0}, 8,
    )  # fmt: skip


def _mutable_parts(obj: object, path: str = "row") -> list[tuple[str, object]]:
    """Every mutable object reachable through ``obj``'s dataclass fields, lists and dicts (not into
    frozen dataclasses, which are shared by design: events, results, records)."""
    out: list[tuple[str, object]] = []
    if dataclasses.is_dataclass(obj) and not obj.__dataclass_params__.frozen:  # type: ignore[attr-defined]
        out.append((path, obj))
        for f in dataclasses.fields(obj):
            out += _mutable_parts(getattr(obj, f.name), f"{path}.{f.name}")
    elif isinstance(obj, dict):
        out.append((path, obj))
        for k, v in obj.items():
            out += _mutable_parts(v, f"{path}[{k!r}]")
    elif isinstance(obj, MUTABLE):
        out.append((path, obj))
        for i, v in enumerate(obj):
            out += _mutable_parts(v, f"{path}[{i}]")
    return out


def test_the_copy_equals_the_row_and_shares_only_the_state() -> None:
    row = _row()
    copied = row.copy()
    assert copied == row
    assert copied.state is row.state, "the state's dump is shared (a commit replaces it whole)"
    theirs = {id(o) for p, o in _mutable_parts(row) if not p.startswith("row.state")}
    shared = [p for p, o in _mutable_parts(copied) if not p.startswith("row.state") and id(o) in theirs]
    assert shared == [], f"shared with the cached row: {shared}"


def test_every_field_of_the_row_is_set_away_from_its_default_here() -> None:
    """The test above covers a new field only if ``_row`` sets it: fail until it does."""
    row = _row()
    for obj in (row, row.meta, row.seats[0]):
        defaults = {
            f.name
            for f in dataclasses.fields(obj)
            if getattr(obj, f.name)
            in (
                f.default if f.default is not dataclasses.MISSING else object(),
                f.default_factory() if f.default_factory is not dataclasses.MISSING else object(),
            )
        }
        assert defaults <= {"version", "away", "idle", "ai", "level"}, defaults


def test_changing_the_copy_leaves_the_cached_row_alone() -> None:
    row = _row()
    before = dataclasses.replace(row)  # (compared by value below)
    before_dump = (repr(row.seats), repr(row.meta), repr(row.options), repr(row.timers))
    c = row.copy()
    c.seats[0].away = True
    c.seats.append(SeatInfo(9, "carol"))
    c.options["more"].append(2)
    c.meta.events.append(Event("x"))
    c.meta.new_turn.append(0)
    assert c.meta.pending is not None
    c.meta.pending.append(9)
    c.meta.resigned.append(0)
    c.meta.timed_out.append(1)
    c.meta.extra["future"]["nested"].append(2)
    c.timers["lobby"] = 1.0
    c.version += 1
    assert (repr(row.seats), repr(row.meta), repr(row.options), repr(row.timers)) == before_dump
    assert row.version == before.version
