"""A match's meta: what the engine notes about a match beside its game state (the story since the
last human move, how and by whom it ended, its rematch, its language, a solo player's record...).

Typed and versioned: ``MatchMeta.dump()`` gives the JSON object stored in the ``meta`` column,
``MatchMeta.load()`` reads it back. Version 1 keeps the key names and value shapes of the untyped
dicts written before it (version 0: no ``version`` key), so old rows load unchanged and a row
written now is still readable by an older bot. Keys this version does not know (written by a newer
bot, or by hand) are PRESERVED deliberately in ``extra`` and written back as they were: every commit
rewrites the meta, and dropping them would silently lose another version's data.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from engine.core import Event, Outcome

META_VERSION = 1


@dataclass(frozen=True)
class RecordNote:
    """A solo player's personal record as the surfaces show it: read as the run started (``best``:
    the record to beat, None: none yet), completed in the finishing commit (``value``: the run's
    result; ``new``: it set a new record; ``previous``: the record before it, None if it was the
    first; ``best`` is then the record as it stands)."""

    best: float | None = None
    value: float | None = None
    new: bool = False
    previous: float | None = None

    def dump(self) -> dict[str, Any]:
        out: dict[str, Any] = {"best": self.best}
        if self.value is not None:  # (a run that finished; the start notes only the record to beat)
            out.update(value=self.value, new=self.new, previous=self.previous)
        return out

    @staticmethod
    def load(d: Mapping[str, Any]) -> RecordNote:
        return RecordNote(
            best=_number(d.get("best")),
            value=_number(d.get("value")),
            new=bool(d.get("new", False)),
            previous=_number(d.get("previous")),
        )


@dataclass
class MatchMeta:
    version: int = META_VERSION  # the schema of this meta (a newer one is read as far as it is known)
    locale: str | None = None  # the server's language when the match was opened
    events: list[Event] = field(default_factory=list)  # the story since the last human move
    new_turn: list[int] = field(default_factory=list)  # seats whose turn began with the last commit
    started_at: float | None = None  # when the game started (None in the lobby)
    finished_at: float | None = None  # when it finished by its rules (or a resignation)
    result: Outcome | None = None  # how it ended outside the rules (a resignation with two seats)
    resigned: list[int] = field(default_factory=list)  # seats whose member resigned (engine.result)
    timed_out: list[int] = field(default_factory=list)  # seats whose turn the computer played on time
    reminded: list[int] = field(default_factory=list)  # seats reminded with the last commit (engine.pace)
    strikes: list[int] = field(default_factory=list)  # a seat per daily time-out (engine.pace: forfeit)
    ended_by: int | None = None  # the user who ended, cancelled or declined it
    ended_by_name: str | None = None  # ... and their display name (a moderator may not be seated)
    pending: list[int] | None = None  # a rematch offer: the users yet to accept (None: not an offer)
    rematch: int | None = None  # the rematch offered after this match (once only)
    rematch_of: int | None = None  # the match this one is the rematch of
    record: RecordNote | None = None  # a solo run's personal record (engine.records)
    recap: float | None = None  # when the recap of the finished game was taken on (once per match)
    broken: str | None = None  # why the stored match was set aside (it could not be decoded)
    tournament: int | None = None  # the tournament whose table this match is (engine.tournament)
    extra: dict[str, Any] = field(default_factory=dict)  # unknown keys, kept as read (see above)

    def copy(self) -> MatchMeta:
        """A copy to change: its lists and unknown keys are its own; events, result and record are
        frozen values, shared."""
        return replace(
            self,
            events=list(self.events),
            new_turn=list(self.new_turn),
            resigned=list(self.resigned),
            timed_out=list(self.timed_out),
            reminded=list(self.reminded),
            strikes=list(self.strikes),
            pending=None if self.pending is None else list(self.pending),
            extra=copy.deepcopy(self.extra),
        )

    def dump(self) -> dict[str, Any]:
        """The stored JSON object: ``version``, and each field that is not at its default."""
        out: dict[str, Any] = {**self.extra, "version": self.version}
        plain = {
            "locale": self.locale,
            "started_at": self.started_at,
            "finished_at": self.finished_at,
            "ended_by": self.ended_by,
            "ended_by_name": self.ended_by_name,
            "pending": None if self.pending is None else list(self.pending),
            "rematch": self.rematch,
            "rematch_of": self.rematch_of,
            "recap": self.recap,
            "broken": self.broken,
            "tournament": self.tournament,
            "result": None if self.result is None else asdict(self.result),
            "record": None if self.record is None else self.record.dump(),
        }
        out.update({k: v for k, v in plain.items() if v is not None})
        if self.events:
            out["events"] = [e.dump() for e in self.events]
        if self.new_turn:
            out["new_turn"] = list(self.new_turn)
        if self.resigned:
            out["resigned"] = list(self.resigned)
        if self.timed_out:
            out["timed_out"] = list(self.timed_out)
        if self.reminded:
            out["reminded"] = list(self.reminded)
        if self.strikes:
            out["strikes"] = list(self.strikes)
        return out

    @classmethod
    def load(cls, d: Mapping[str, Any] | None) -> MatchMeta:
        """Read a stored meta, of this version or an older one (no ``version`` key: the untyped dicts
        of before, same keys). Raises ValueError, TypeError or KeyError on a malformed one (the engine
        then sets the match aside, as for a state it cannot decode)."""
        if d is None:
            return cls()
        if not isinstance(d, Mapping):
            raise TypeError(f"a match's meta is a JSON object, not {type(d).__name__}")
        rest = dict(d)
        version = rest.pop("version", 0)
        if type(version) is not int or version < 0:
            raise ValueError(f"bad meta version {version!r}")
        # version 0 -> 1: the same keys, now typed (no key was renamed or dropped)
        known = {name: rest.pop(name, None) for name in _KNOWN}
        result = known["result"]
        record = known["record"]
        return cls(
            version=max(version, META_VERSION),
            locale=_text(known["locale"]),
            events=[Event.load(e) for e in known["events"] or []],
            new_turn=[int(s) for s in known["new_turn"] or []],
            resigned=[int(s) for s in known["resigned"] or []],
            timed_out=[int(s) for s in known["timed_out"] or []],
            reminded=[int(s) for s in known["reminded"] or []],
            strikes=[int(s) for s in known["strikes"] or []],
            started_at=_number(known["started_at"]),
            finished_at=_number(known["finished_at"]),
            result=None
            if not result
            else Outcome(list(result["scores"]), list(result["winners"]), result.get("reason", "win")),
            ended_by=_integer(known["ended_by"]),
            ended_by_name=_text(known["ended_by_name"]),
            pending=None if known["pending"] is None else [int(u) for u in known["pending"]],
            rematch=_integer(known["rematch"]),
            rematch_of=_integer(known["rematch_of"]),
            record=None if record is None else RecordNote.load(record),
            recap=_number(known["recap"]),
            broken=_text(known["broken"]),
            tournament=_integer(known["tournament"]),
            extra=rest,
        )


_KNOWN = (
    "locale",
    "events",
    "new_turn",
    "resigned",
    "timed_out",
    "reminded",
    "strikes",
    "started_at",
    "finished_at",
    "result",
    "ended_by",
    "ended_by_name",
    "pending",
    "rematch",
    "rematch_of",
    "record",
    "recap",
    "broken",
    "tournament",
)


def _number(v: Any) -> float | None:
    return None if v is None else float(v)


def _integer(v: Any) -> int | None:
    return None if v is None else int(v)


def _text(v: Any) -> str | None:
    return None if v is None else str(v)


__all__ = ["META_VERSION", "MatchMeta", "RecordNote"]
