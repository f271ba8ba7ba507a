"""A match row as the ``matches`` table holds it: which columns, and how a row is encoded and read."""

from __future__ import annotations

import json
from typing import Any

from engine.meta import MatchMeta
from engine.store.rows import MatchRow, SeatInfo

# The version of the envelope a game's state is stored in. It is READ, not only written: a row whose
# envelope this bot does not know (a newer bot wrote it) is refused as undecodable (set aside, never
# misread and written back in a shape the newer bot cannot read). The game's own dump has no number of
# its own, so this is the one place a future change of how states are stored can be recognised by rows
# written before it, row by row, in a database that several processes of different versions may share.
STATE_SCHEMA = 1


def _envelope(game: str, state: dict[str, Any] | None) -> str | None:
    if state is None:
        return None
    return json.dumps({"schema": STATE_SCHEMA, "game": game, "state": state}, separators=(",", ":"))


def _unwrap(text: str | None) -> dict[str, Any] | None:
    """The game's dump out of its stored envelope; ValueError for an envelope of another version."""
    if not text:
        return None
    env = json.loads(text)
    if env["schema"] != STATE_SCHEMA:
        raise ValueError(f"state stored in envelope {env['schema']!r}; this bot reads {STATE_SCHEMA}")
    return env["state"]


_COLUMNS = (
    "id, game, guild_id, channel_id, host_id, status, version, seed, seats, options, state, meta, timers, "
    "public_version"
)
_MUTABLE = "channel_id, status, version, seats, options, state, meta, timers, public_version, deadline"
_MUTABLE_SLOTS = ",".join("?" * (len(_MUTABLE.split(",")) + 1))  # ... and "updated"
_LIVE_SQL = "status IN ('lobby','active')"
_SEATS = _COLUMNS.split(", ").index("seats")  # where a row's seats are, in _COLUMNS
_HOST = _COLUMNS.split(", ").index("host_id")


def _row_to_match(r: tuple[Any, ...]) -> MatchRow:
    (mid, game, guild, channel, host, status, version, seed, seats, options, state, meta, timers,
     public_version) = r[:14]  # fmt: skip
    return MatchRow(
        id=mid,
        game=game,
        guild_id=guild,
        channel_id=channel,
        host_id=host,
        status=status,
        version=version,
        seed=seed,
        seats=[SeatInfo(**s) for s in json.loads(seats)],
        options=json.loads(options),
        state=_unwrap(state),
        meta=MatchMeta.load(json.loads(meta)),
        timers=json.loads(timers),
        public_version=public_version,
    )


def _mutable_values(m: MatchRow) -> tuple[Any, ...]:
    """The columns a commit rewrites, in _MUTABLE's order."""
    seats = json.dumps([s.dump() for s in m.seats])
    return (m.channel_id, m.status, m.version, seats, json.dumps(m.options), _envelope(m.game, m.state),
            json.dumps(m.meta.dump()), json.dumps(m.timers), m.public_version, m.deadline)  # fmt: skip
