"""Uonga rules engine (rules: docs/rules/uonga.md, clauses R1-R39, variants V1-V3, decisions A1-A17).

Pure and deterministic, in the style of engine.games.ugah: ``apply`` works on a copy and raises a typed
error before changing anything. The board is a 25-character string (``.HYM``, index = rank*5 + file),
cheap to copy, hash and store. Sides are "C" (Cavemen) and "M" (Mastodons); ``cav_seat`` says which
seat plays the Cavemen (option ``side``; a random side comes from the Rng state kept in the game).

Action codes: ``place.H.c3`` / ``place.Y.b2`` / ``place.M.d4`` (placement), ``move.b4.c4``
(movement), ``take.c3`` (a tied herd, R30/A12). Passing (R36) happens inside ``apply``: no action.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from engine.core import Choice, Event, Flag, Integer, Outcome, Rules, Seat, Timer
from engine.errors import BadActionCode, IllegalAction, MatchOver, NotYourTurn
from engine.games.uonga_board import (
    can_move,
    captures_after,
    cav_count,
    group_of,
    herds,
    piece_moves,
    put,
    side_moves,
    surround,
)
from engine.games.uonga_data import CAVEMEN, EMPTY, HUNTER, INDEX, MASTODON, SQUARES, YOUNGLING
from engine.games.uonga_turn import (
    DEFAULT_MOVE_LIMIT,
    DEFAULT_REPETITIONS,
    UongaState,
    clone,
    copy_last,
    move,
    outcome,
    place,
    resign,
    take,
    target,
    to_move,
)
from engine.games.uonga_variants import OFFERED, VARIANTS, variant_of
from engine.games.uonga_view import public_view
from engine.rng import Rng

SIDES = ("cavemen", "mastodons", "random")


# ---- action codes -------------------------------------------------------------------------------------


def parse_action(code: object) -> tuple[str, tuple[str, ...]]:
    """Split a code into (kind, args); anything that is not a canonical code is BadActionCode."""
    if not isinstance(code, str) or len(code) > 16:  # the longest code, "place.H.c3", has 10
        raise BadActionCode("not a short string")
    kind, *args = code.split(".")
    if not args or not all(a in INDEX for a in args[-1:]):
        raise BadActionCode(code)
    if kind == "place" and len(args) == 2 and args[0] in (HUNTER, YOUNGLING, MASTODON):
        return kind, tuple(args)
    if kind == "move" and len(args) == 2 and args[0] in INDEX and args[0] != args[1]:
        return kind, tuple(args)
    if kind == "take" and len(args) == 1:
        return kind, tuple(args)
    raise BadActionCode(code)


def _option(options: dict[str, Any], name: str, default: Any, kind: type) -> Any:
    """An option's value checked against its type (engine.options validates first; this guards
    direct callers such as tests and replays of old matches stored with text values)."""
    value = options.get(name, default)
    if kind is bool and isinstance(value, str) and value in ("true", "false"):
        value = value == "true"  # tolerate options stored as text
    if kind is int and isinstance(value, str) and value.isdigit():
        value = int(value)
    if type(value) is not kind:
        raise IllegalAction("bad option", option=name)
    return value


# ---- the Rules object ----------------------------------------------------------------------------------


class UongaRules(Rules[UongaState]):
    name = "uonga"
    min_players = 2
    max_players = 2
    options = (
        Choice("side", SIDES, default="random"),  # R13: the side seat 0 (the host) plays
        Flag("v1", False),  # V1: Mastodons need 10 points
        Flag("v2", False),  # V2: the Mastodon player chooses in herd ties
        Integer("repetitions", DEFAULT_REPETITIONS, 0, 9),  # V3 for R37 (0 = off)
        Integer("move_limit", DEFAULT_MOVE_LIMIT, 0, 200),  # V3 for R38 (0 = off)
        Choice("variant", OFFERED, default=OFFERED[0]),  # V4-V6: not in the rulebook (uonga_variants)
    )

    def setup(self, n_players: int, seed: int, options: dict[str, Any]) -> UongaState:
        side = options.get("side", "random")
        if n_players != 2 or side not in SIDES:
            raise IllegalAction("bad setup", n=n_players, side=side)
        v1 = _option(options, "v1", False, bool)
        v2 = _option(options, "v2", False, bool)
        reps = _option(options, "repetitions", DEFAULT_REPETITIONS, int)
        limit = _option(options, "move_limit", DEFAULT_MOVE_LIMIT, int)
        variant = _option(options, "variant", OFFERED[0], str)
        if (
            not (0 <= reps <= 9 and 0 <= limit <= 200) or variant not in VARIANTS
        ):  # the bench measures them all
            raise IllegalAction("bad setup", repetitions=reps, move_limit=limit, variant=variant)
        rng = Rng(seed)
        cav = {"cavemen": 0, "mastodons": 1}.get(side)
        if cav is None:  # R13: at random
            cav = rng.below(2)
        first = variant_of(variant).first_place
        return UongaState(
            cav, rng.state, v1=v1, v2=v2, repetitions=reps, move_limit=limit, variant=variant, side=first
        )

    def to_move(self, s: UongaState) -> frozenset[Seat]:
        return to_move(s)

    def legal_actions(self, s: UongaState, seat: Seat) -> list[str]:
        if seat not in self.to_move(s):
            return []
        if s.phase == "take":
            return [f"take.{sq}" for tie in s.pending for sq in tie]
        if s.phase == "place":
            kinds = [MASTODON] if s.side == "M" else [k for k in (HUNTER, YOUNGLING) if k != s.half]
            empty = [SQUARES[i] for i, p in enumerate(s.board) if p == EMPTY]
            return [f"place.{k}.{sq}" for k in kinds for sq in empty]
        return [f"move.{SQUARES[a]}.{SQUARES[b]}" for a, b in side_moves(s.board, s.side)]

    def apply(self, s: UongaState, seat: Seat, action: str) -> tuple[UongaState, list[Event]]:
        kind, args = parse_action(action)
        if s.phase == "over":
            raise MatchOver(action)
        if seat not in self.to_move(s):
            raise NotYourTurn(action, seat=seat)
        if not self._legal(s, kind, args):
            raise IllegalAction(action)
        t, ev = clone(s), []
        if kind == "place":
            place(t, args[0], args[1], ev)
        elif kind == "move":
            move(t, INDEX[args[0]], INDEX[args[1]], ev)
        else:
            take(t, args[0], ev)
        return t, ev

    @staticmethod
    def _legal(s: UongaState, kind: str, args: tuple[str, ...]) -> bool:
        """The same answer as ``code in legal_actions`` without listing every action."""
        if kind == "take":
            return s.phase == "take" and any(args[0] in tie for tie in s.pending)
        if kind == "place":
            if s.phase != "place" or s.board[INDEX[args[1]]] != EMPTY:
                return False
            return (
                args[0] == MASTODON if s.side == "M" else args[0] in (HUNTER, YOUNGLING) and args[0] != s.half
            )
        if s.phase != "move":
            return False
        a, b = INDEX[args[0]], INDEX[args[1]]
        mine = s.board[a] == MASTODON if s.side == "M" else s.board[a] in CAVEMEN
        return mine and b in piece_moves(s.board, a)

    def timers(self, s: UongaState) -> list[Timer]:
        """One turn limit per decision of the seat to move (the match's ``turn_seconds``)."""
        return [Timer("turn", seat=seat, per_move=True) for seat in self.to_move(s)]

    def outcome(self, s: UongaState) -> Outcome | None:
        return outcome(s)

    def view(self, s: UongaState, seat: Seat | None) -> dict[str, Any]:
        """Public: Uonga has no hidden information, so every seat sees the same picture."""
        return public_view(s)

    def dump(self, s: UongaState) -> dict[str, Any]:
        d = {f.name: getattr(s, f.name) for f in _FIELDS}
        d.update(points=list(s.points), seen=dict(s.seen), pending=[list(t) for t in s.pending],
                 sure=list(s.sure), chosen=list(s.chosen), last=copy_last(s.last))  # fmt: skip
        return d

    def load(self, d: dict[str, Any]) -> UongaState:
        return clone(UongaState(**d))


_FIELDS = dataclasses.fields(UongaState)
RULES = UongaRules()
# what other code imports from here: the rules object, the state, the board rules, the view
__all__ = [
    "RULES",
    "UongaRules",
    "UongaState",
    "can_move",
    "captures_after",
    "cav_count",
    "group_of",
    "herds",
    "parse_action",
    "piece_moves",
    "public_view",
    "put",
    "resign",
    "side_moves",
    "surround",
    "target",
]
