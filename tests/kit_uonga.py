"""Uonga's test kit (tests/kits.py): every click on the public message's 5x5 grid. A move or a
two-choice placement takes two clicks; the kit makes the first (display-only) one itself and returns
the click that commits."""

from __future__ import annotations

import random
from typing import Any, ClassVar

from engine.games.uonga import RULES
from tests.bot.helpers import board, button_id, custom_ids
from tests.kits import Click, Kit


def first_click(state: Any, action: str) -> str | None:
    """The display-only click that puts ``action``'s button on the grid, or None when the action's
    button is there already (a single-kind placement, a herd tie)."""
    kind, *args = action.split(".")
    if kind == "move":
        return f"sel.{args[0]}"
    if kind == "place" and args[0] != "M" and not state.half:
        return f"pl.{args[1]}"
    return None


async def prepare(actor: Any, channel: Any, state: Any, action: str) -> Click:
    """Make the display-only first click of ``action`` (if it has one) and return the click that
    commits it, on the board as it is then."""
    display = first_click(state, action)
    if display is not None and _arg_id(board(channel), action, "g") is None:
        if _arg_id(board(channel), display, "v") is None:
            # the square shows a choice of an earlier first click (the Youngling next to the chosen
            # square): choose another square first, as a person would
            other = next(a for a in _args(board(channel), "v") if a.startswith(display.split(".")[0] + "."))
            await _click_display(actor, channel, other)
        await _click_display(actor, channel, display)
    msg = board(channel)
    return Click(actor, msg, button_id(msg, action, "g"))


def _args(msg: Any, kind: str) -> list[str]:
    return [cid.split(":", 3)[3] for cid in custom_ids(msg, kind + ":")]


def _arg_id(msg: Any, arg: str, kind: str) -> str | None:
    return next((cid for cid in custom_ids(msg, kind + ":") if cid.split(":", 3)[3] == arg), None)


async def _click_display(actor: Any, channel: Any, display: str) -> None:
    r = await actor.click(board(channel), custom_id=button_id(board(channel), display, "v"))
    assert not r.ephemeral, r.response and r.response.content


async def play(actor: Any, channel: Any, state: Any, action: str) -> Any:
    """``actor`` plays ``action`` by clicking the grid as a person would; returns the last result."""
    return await (await prepare(actor, channel, state, action))()


class UongaKit(Kit):
    game = "uonga"
    players = 2
    options: ClassVar[dict[str, Any]] = {"side": "cavemen"}
    fuzz = (*Kit.fuzz, "move.a1.a1", "place.M.z9", "take.c3", "place.H.a1.b2", "move.a1")

    async def next_click(
        self, env: Any, channel: Any, players: list[Any], mid: int, rng: random.Random
    ) -> Click:
        m, state = await env.bot.matches.get(mid)
        (seat,) = RULES.to_move(state)
        actor = next(p for p in players if p.id == m.seats[seat].user_id)
        action = rng.choice(RULES.legal_actions(state, seat))
        return await prepare(actor, channel, state, action)

    def perturb_hidden(self, state: Any, rng: random.Random) -> Any:
        return state  # Uonga has no hidden information
