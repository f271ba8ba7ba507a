"""Ubongo's test kit (tests/kits.py) and the DM helpers its SimCord tests share.

Every seat solves in its own DM at once. ``next_click`` plays as a player who knows a solution (the
engine's own solver, through the computer's ``next_placement``): it chooses the piece in the DM's
piece select (display only, nothing is written) and returns the action that places it, so the
returned click is always one that commits, on the seat's own DM.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any, ClassVar

from simcord.results import ResponseMessage

from engine.games.ubongo import RULES, UbongoState, card_tasks
from engine.games.ubongo_ai import next_placement
from tests.bot.helpers import custom_ids
from tests.kits import Click, Kit

PAGE = 25


def dm_board(player: Any) -> Any:
    """The player's workspace: the latest bot message in their DM."""
    msgs = list(player.user.dm_channel.history())
    assert msgs, f"{player.user.name} got no DM"
    return msgs[-1]


def select_of(msg: Any, kind: str) -> Any | None:
    """The message's select of ``kind`` (y: the pieces, display only; q: the places, an action)."""
    for row in msg.components:
        for child in getattr(row, "children", []):
            if getattr(child, "custom_id", "").startswith(kind + ":") and hasattr(child, "options"):
                return child
    return None


def option_values(msg: Any, kind: str) -> list[str]:
    select = select_of(msg, kind)
    return [o.value for o in select.options] if select is not None else []


def offers(msg: Any, piece: str) -> bool:
    """The places select shows ``piece``'s places (the redraw after choosing it arrived)."""
    values = option_values(msg, "q")
    return bool(values) and all(v.split(".")[1] == piece for v in values)


def fresh(env: Any, msg: Any) -> Any:
    """The message as it is stored now (after an edit, or unchanged when a Discord fault ate it)."""
    return ResponseMessage(env, env.backend.get_message(msg.channel.id, msg.id)).message


async def choose_piece(env: Any, user: Any, msg: Any, piece: str, code: str | None = None) -> Any:
    """Choose ``piece`` in the workspace's piece select, then page on until the places select offers
    ``code`` (if given). Returns the message as redrawn (the ephemeral panel or the DM)."""
    await user.select(msg, [f"pc.{piece}"], custom_id=select_of(msg, "y").custom_id)
    msg = fresh(env, msg)
    while code is not None and offers(msg, piece) and code not in option_values(msg, "q"):
        pages = [c for c in custom_ids(msg, "w:") if c.split(":", 3)[3].startswith(f"pc.{piece}.")]
        target = [c for c in pages if int(c.rsplit(".", 1)[1]) % PAGE == 0]
        assert target, f"{code} not offered and no next page: {custom_ids(msg)}"
        await user.click(msg, custom_id=target[-1])
        msg = fresh(env, msg)
    return msg


def place_click(user: Any, msg: Any, code: str, *, in_dm: bool = True) -> Click:
    return Click(user, msg, select_of(msg, "q").custom_id, (code,), in_dm)


def button(msg: Any, arg: str, kind: str = "p") -> str:
    return next(c for c in custom_ids(msg, kind + ":") if c.split(":", 3)[3] == arg)


async def solving_click(
    env: Any, user: Any, msg: Any, state: UbongoState, seat: int, rng: random.Random
) -> Click:
    """The next click of a player who knows a solution; now and then a lift, as people change their mind."""
    placed = state.placed[seat]
    if placed and rng.random() < 0.1:
        return Click(user, msg, button(msg, f"lift.{rng.choice(sorted(placed))}"), in_dm=True)
    code = next_placement(state, seat, "hard")
    if code == "clear":
        return Click(user, msg, button(msg, "clear"), in_dm=True)
    piece = code.split(".")[1]
    for _ in range(3):  # a Discord fault may swallow a redraw: choose again
        msg = await choose_piece(env, user, msg, piece, code)
        if code in option_values(msg, "q"):
            return place_click(user, msg, code)
    raise AssertionError(f"the DM never offered {code}")


class UbongoKit(Kit):
    game = "ubongo"
    players = 2
    options: ClassVar[dict[str, Any]] = {"side": "A"}
    # never legal for a player: outside the task, no such piece, solo only, the SYSTEM's own, not canonical
    fuzz = (*Kit.fuzz, "place.L4.0.99.99", "place.X9.0.0.0", "skip", "stop.1", "place.L4.00.1.1")

    async def next_click(self, env, channel, players, mid, rng):
        m, state = await env.bot.matches.get(mid)
        movers = [s for s in sorted(RULES.to_move(state)) if not m.seats[s].ai]
        seat = rng.choice(movers)
        player = next(p for p in players if p.id == m.seats[seat].user_id)
        return await solving_click(env, player.user, dm_board(player), state, seat, rng)

    def perturb_hidden(self, state, rng):
        """The round's cards, tasks and workspaces are secret until the round is over, and so is the
        order of the stack; the history (finished rounds, face up) is public."""
        if state.phase == "over":
            return state
        cards = [rng.randrange(len(card_tasks())) for _ in range(state.n)]
        tasks = [list(card_tasks()[c][state.sides[i]]) for i, c in enumerate(cards)]
        stack = list(state.stack)
        rng.shuffle(stack)
        placed = [{} for _ in range(state.n)]
        return dataclasses.replace(state, cards=cards, tasks=tasks, placed=placed, stack=stack)
