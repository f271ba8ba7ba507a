"""One test kit per game: how to start a match through SimCord, find the next legal click on the
right surface (public message, DM or ephemeral panel), perturb only hidden information, and which
codes to fuzz. The crash, fault, hostile-input, timer and secrecy tests are written once against
this interface (tests/bot/test_kits.py), so a new game gets all of them by writing its kit."""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass
from typing import Any, ClassVar

import pytest

from tests.bot.helpers import board, button_id, custom_ids, setup_table


@dataclass(frozen=True)
class Click:
    """One click a player can make: who, on which message, which control (and a select's values)."""

    actor: Any  # a member actor (public / panel) or a user handle (DM)
    message: Any
    custom_id: str
    values: tuple[str, ...] = ()
    in_dm: bool = False

    async def __call__(self) -> Any:
        if self.values:
            return await self.actor.select(self.message, list(self.values), custom_id=self.custom_id)
        return await self.actor.click(self.message, custom_id=self.custom_id)


class Kit:
    game: str
    players = 2
    options: ClassVar[dict[str, Any]] = {}
    fuzz = ("", "nonsense", "x" * 80, "1.2.3", "resign", "timeout.1")

    def register(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """Games that are not in the production registries add themselves here."""

    async def start(self, env: Any, *, ai: int = 0) -> tuple[Any, list[Any], int]:
        _, channel, players = setup_table(env, self.players)
        host = players[0]
        r = await host.slash(channel, f"{self.game} start", **self.options)
        assert not r.ephemeral, r.response and r.response.content
        for p in players[1:]:
            await p.click(board(channel), custom_id=button_id(board(channel), "join", "l"))
        for _ in range(ai):
            level = next(c for c in custom_ids(board(channel), "l:") if c.split(":")[3].startswith("ai."))
            await host.click(board(channel), custom_id=level)
        await host.click(board(channel), custom_id=button_id(board(channel), "start", "l"))
        m = await env.bot.matches.live_in_channel(channel.id)
        return channel, players, m.id

    async def next_click(
        self, env: Any, channel: Any, players: list[Any], mid: int, rng: random.Random
    ) -> Click:
        raise NotImplementedError

    def perturb_hidden(self, state: Any, rng: random.Random) -> Any:
        """A state that differs from ``state`` only in what the public may not know."""
        return state

    def __repr__(self) -> str:
        return self.game


def _actor(players: list[Any], user_id: int | None) -> Any:
    return next(p for p in players if p.id == user_id)


class UgahKit(Kit):
    game = "ugah"
    players = 3
    options: ClassVar[dict[str, Any]] = {"variant": "uncertain"}

    async def next_click(self, env, channel, players, mid, rng):
        m, state = await env.bot.matches.get(mid)
        actor = _actor(players, m.seats[state.current].user_id)
        msg = board(channel)
        selects = custom_ids(msg, "s:")
        if selects and rng.random() < 0.3:
            options = [o.value for row in msg.components for c in row.children
                       if getattr(c, "custom_id", "") == selects[0] for o in c.options]  # fmt: skip
            return Click(actor, msg, selects[0], tuple(rng.sample(options, rng.randint(1, len(options)))))
        return Click(actor, msg, rng.choice(custom_ids(msg, "g:")))

    def perturb_hidden(self, state, rng):
        """Face-down chip values and the stashes' contents (their sizes are public) are hidden."""
        path = list(state.path)
        hidden = [i for i, v in enumerate(path) if v is not None and not state.face_up[i]]
        if state.pending:
            hidden = [i for i in hidden if i not in state.pending.values()]
        values = [path[i] for i in hidden]
        rng.shuffle(values)
        for i, v in zip(hidden, values, strict=True):
            path[i] = v
        stashes = [[rng.randint(1, 6) for _ in stash] for stash in state.stashes]
        return dataclasses.replace(state, path=path, stashes=stashes)


class TallyKit(Kit):
    """The test-only game (toy): every seat acts at once through its own DM."""

    game = "toy"
    players = 3
    options: ClassVar[dict[str, Any]] = {"target": 8}

    def register(self, monkeypatch):
        from toy.ui import register

        register(monkeypatch)

    async def next_click(self, env, channel, players, mid, rng):
        m, state = await env.bot.matches.get(mid)
        from engine.registry import rules_for

        movers = sorted(rules_for("toy").to_move(state))
        seat = rng.choice([s for s in movers if not m.seats[s].ai])
        player = _actor(players, m.seats[seat].user_id)
        dm = list(player.user.dm_channel.history())[-1]
        return Click(player.user, dm, rng.choice(custom_ids(dm, "p:")), in_dm=True)

    def perturb_hidden(self, state, rng):
        if state.phase == "over":
            return state
        counts = tuple(
            c if i in state.finished else rng.randint(0, state.target - 1) for i, c in enumerate(state.counts)
        )
        return dataclasses.replace(state, counts=counts)
