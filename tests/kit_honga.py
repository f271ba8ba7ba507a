"""Honga's test kit (tests/kits.py): clicks on the public message or on the mover's ephemeral panel
(bonus cards, the placement with its yields, keeping one of two disks), and a perturbation of
exactly what R45 hides: disks in hand, bonus cards (held and pending), the piles' order."""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

from engine.games.honga_data import BONUS_CARDS, DISKS
from harness.honga import pick
from tests.bot.helpers import board, button_id
from tests.kits import Click, Kit

ACTION_KINDS = ("g:", "s:", "p:", "q:")  # display-only controls ("More choices") commit nothing


def _controls(msg: Any) -> list[tuple[str, tuple[str, ...]]]:
    """(custom_id, option values) for every action control on a message."""
    out = []
    for row in msg.components:
        for c in getattr(row, "children", []):
            cid = getattr(c, "custom_id", None) or ""
            if cid.startswith(ACTION_KINDS) and not getattr(c, "disabled", False):
                out.append((cid, tuple(o.value for o in getattr(c, "options", []) or [])))
    return out


async def open_panel(channel: Any, actor: Any) -> Any:
    """The mover's panel: the ephemeral reply to the public message's hand button."""
    r = await actor.click(board(channel), custom_id=button_id(board(channel), "hand", "h"))
    assert r.ephemeral, "the panel is ephemeral"
    return r.response.message


class HongaKit(Kit):
    game = "honga"
    players = 2
    options: ClassVar[dict[str, Any]] = {"target": "short"}

    async def next_click(self, env, channel, players, mid, rng, *, cards: bool = True):
        """A random click of the mover's; ``cards=False`` keeps the bonus cards in hand (the panel
        is then opened only when the public message offers nothing, i.e. keeping a disk)."""
        m, state = await env.bot.matches.get(mid)
        actor = next(p for p in players if p.id == m.seats[state.current].user_id)
        msg = board(channel)
        public = _controls(msg)
        has_cards = cards and state.phase == "act" and bool(state.cards[state.current])
        if not public or (has_cards and rng.random() < 0.4) or (cards and rng.random() < 0.1):
            msg = await open_panel(channel, actor)
            public = _controls(msg)
        if not cards:
            public = [(cid, tuple(v for v in vs if not v.startswith("card."))) for cid, vs in public]
            public = [(cid, vs) for cid, vs in public if vs or ":cards" not in cid]
        cid, values = pick(public, rng)
        return Click(actor, msg, cid, values)

    def perturb_hidden(self, state, rng):
        """Disks in hand (same colour: the draw's colour is announced), bonus cards held and pending
        (their counts are public), EXTRA_DISK's two disks, and every pile's order."""
        s = dataclasses.replace(state)
        s.piles = {k: rng.sample(v, len(v)) for k, v in state.piles.items()}
        s.disk = list(state.disk)
        for seat, d in enumerate(s.disk):
            pile = s.piles[DISKS[d][0]] if d is not None else []
            if pile:
                i = rng.randrange(len(pile))
                s.disk[seat], pile[i] = pile[i], d
        kinds = sorted(BONUS_CARDS)
        s.cards = [[rng.choice(kinds) for _ in hand] for hand in state.cards]
        s.pending = [[rng.choice(kinds) for _ in row] for row in state.pending]
        s.drawn = [
            rng.choice([x for x in range(len(DISKS)) if DISKS[x][0] == DISKS[d][0]]) for d in state.drawn
        ]
        s.trade_pile = rng.sample(state.trade_pile, len(state.trade_pile))
        s.bonus_pile = rng.sample(state.bonus_pile, len(state.bonus_pile))
        s.rng = rng.randrange(1, 2**31)
        return s
