"""Honga player views (R45): what one seat (or a spectator, seat None) may know, JSON-safe.

Public: the board, top disks on the spaces, trade slots, herd, tusk, HONGA, every player board,
the mountain, scores, hand *sizes*. The owner alone sees their disk in hand, their bonus cards and
(EXTRA_DISK) the two disks they choose between. Nobody sees pending cards or any pile's order: only
counts go out, and the Rng state never does.
"""

from __future__ import annotations

from typing import Any

from engine.core import Seat
from engine.games.honga_data import DISKS, HONGA, TRADE_CARDS
from engine.games.honga_turn import HongaState, hands_by_field, result


def disk_info(disk: int, space: str | None = None, rot: int = 0) -> dict[str, Any]:
    colour, pattern = DISKS[disk]
    info: dict[str, Any] = {"id": disk, "colour": colour, "hands": list(pattern)}
    if space is not None:
        info.update(rot=rot, fields=hands_by_field(space, rot, pattern))
    return info


def _trade(card: str | None) -> dict[str, Any] | None:
    if card is None:
        return None
    food, k, vp = TRADE_CARDS[card]
    return {"id": card, "food": food, "mammoths": k, "vp": vp}


def _player(s: HongaState, seat: Seat) -> dict[str, Any]:
    return {
        "res": list(s.res[seat]),
        "board": s.board[seat],
        "supply": s.supply[seat],
        "in_herd": s.herd.count(seat),
        "step": s.steps[seat],
        "score": s.scores[seat],
        "cards": len(s.cards[seat]),
        "pending": len(s.pending[seat]),
        "has_disk": s.disk[seat] is not None,
    }


def _turn(s: HongaState) -> dict[str, Any]:
    placed = None
    if s.placed is not None:
        space, rot, disk = s.placed
        placed = {"space": space, "rot": rot, "disk": disk_info(disk, space, rot)}
    return {
        "placed": placed,
        "left": dict(s.left),
        "played": list(s.played),
        "barter": s.barter,
        "swap": s.swap,
        "frugal": s.frugal,
        "extra": s.extra,
    }


def view(s: HongaState, seat: Seat | None) -> dict[str, Any]:
    me = seat if seat is not None and 0 <= seat < s.n else None
    over = s.phase == "over"
    spaces = {
        sp: {"top": disk_info(stack[-1][0], sp, stack[-1][1]) if stack else None, "depth": len(stack)}
        for sp, stack in s.stacks.items()
    }
    out: dict[str, Any] = {
        "game": "honga",
        "n": s.n,
        "me": me,
        "current": s.current,
        "start": s.start,
        "phase": s.phase,
        "turn": s.turn,
        "target": s.target,
        "track_cap": s.cap,
        "herd_cap": s.herd_cap,
        "final_round": s.final,
        "spaces": spaces,
        "honga": s.honga,
        "honga_field": HONGA,
        "herd": list(s.herd),
        "tusk": s.tusk,
        "trade": [_trade(c) for c in s.slots],
        "piles": {
            "grey": len(s.piles["grey"]),
            "red": len(s.piles["red"]),
            "trade": len(s.trade_pile),
            "trade_discard": len(s.trade_discard),
            "bonus": len(s.bonus_pile),
            "bonus_discard": len(s.bonus_discard),
        },
        "bonus_discard_top": s.bonus_discard[-1] if s.bonus_discard else None,
        "players": [_player(s, x) for x in range(s.n)],
        "turn_state": _turn(s),
        "over": over,
        "winners": None,
        "tiebreak": None,
        # private to ``me`` (R45)
        "disk": None,
        "cards": None,
        "drawn": None,
    }
    if over:
        out["winners"], out["tiebreak"] = result(s)
    if me is not None:
        d = s.disk[me]
        out["disk"] = disk_info(d) if d is not None else None
        out["cards"] = sorted(s.cards[me])
        if me == s.current and s.drawn:
            out["drawn"] = [disk_info(x) for x in s.drawn]
    return out
