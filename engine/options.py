"""Typed game options, validated in one place: every path that opens a match (slash commands, tests,
a forged interaction) goes through ``resolve``, so a bound the client enforces is enforced here too."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from engine.core import Choice, Flag, Integer, Option
from engine.errors import LobbyError

# Options every game has, handled by the match engine rather than the rules.
TURN_SECONDS = Integer("turn_seconds", default=120, low=10, high=86400)
# play the match in its own thread (bot.surfaces.thread); unset: the server's setting decides
THREAD = Flag("thread", default=False)
PLATFORM: tuple[Option, ...] = (TURN_SECONDS, THREAD)
# games that run for days (engine.pace), for every game but a real-time one (``Rules.real_time``):
# ``live`` plays with ``turn_seconds``; ``daily`` with ``turn_hours``; and, at either pace, what a turn
# that runs out does: the computer plays it (``computer``), or after two the player forfeits (``forfeit``)
PACE = Choice("pace", ("live", "daily"))
TURN_HOURS = Integer("turn_hours", default=24, low=1, high=168)
TIMEOUT = Choice("timeout", ("computer", "forfeit"))
DAILY: tuple[Option, ...] = (PACE, TURN_HOURS, TIMEOUT)


def declared(game_options: Iterable[Option], real_time: bool = False) -> tuple[Option, ...]:
    return (*game_options, *PLATFORM, *(() if real_time else DAILY))


def default_of(option: Option) -> Any:
    return option.fallback if isinstance(option, Choice) else option.default


def check(option: Option, value: Any) -> Any:
    """The value if it fits the option's type and bounds, else LobbyError('lobby.bad_option')."""
    if isinstance(option, Choice):
        if isinstance(value, str) and value in option.choices:
            return value
        raise LobbyError("lobby.bad_option", name=option.name, choices=", ".join(option.choices))
    if isinstance(option, Integer):
        if option.accepts(value):
            return value
        raise LobbyError("lobby.bad_number", name=option.name, low=option.low, high=option.high)
    if isinstance(option, Flag) and isinstance(value, bool):
        return value
    raise LobbyError("lobby.bad_flag", name=option.name)


def resolve(
    game_options: Iterable[Option],
    raw: Mapping[str, Any],
    defaults: Mapping[str, Any] | None = None,
    *,
    real_time: bool = False,
) -> dict[str, Any]:
    """Every declared option with a checked value (``raw``, else ``defaults``, else its own default).
    Unknown names are refused: a typo must not silently fall back to a default."""
    options = declared(game_options, real_time)
    known = {o.name for o in options}
    for name in raw:
        if name not in known:
            raise LobbyError("lobby.unknown_option", name=str(name)[:40])
    out: dict[str, Any] = {}
    for option in options:
        if option.name in raw and raw[option.name] is not None:
            out[option.name] = check(option, raw[option.name])
        elif defaults and option.name in defaults:
            out[option.name] = check(option, defaults[option.name])
        else:
            out[option.name] = default_of(option)
    return out
