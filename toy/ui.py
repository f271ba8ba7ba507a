"""Tally's Discord face: a public scoreboard without controls, and per seat a DM with the add
buttons and a display-only "show as bar" toggle. Registered like every game, by one spec (``SPEC``),
but only for the tests that ask (``register``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import discord

from bot import games
from bot.games.base import Ctx, GameUI, Surface
from bot.games.spec import GameSpec
from bot.i18n import Translator
from engine.core import Event
from render.renderer import Renderer
from toy.rules import ENGINE

MESSAGES = {
    "game.toy": "Tally",
    "cmd.toy": "Tally: a test game",
    "cmd.toy.start": "Open a Tally lobby",
    "opt.toy.target": "Count to reach",
    "rules.toy": "Add 1 or 2 until you reach the target.",
    "button.hand.toy": "My counter",
    "level.steady": "steady",
    "level.about.toy.steady": "always adds 1",
}


def _no_picture(view: dict[str, Any], names: list[str], **_: Any) -> bytes:
    return b""  # no image: the platform sends none


def _no_samples(labels: Mapping[str, str] | None = None) -> dict[str, bytes]:
    return {}


RENDERER = Renderer("toy", {}, _no_picture, _no_samples, _no_samples)


class ToyUI(GameUI):
    game = "toy"
    image_name = "toy.png"
    renderer = RENDERER
    private = "dm"
    hand_emoji = "🔢"
    layout = "classic"

    def option_text(self, options: dict[str, Any], tr: Translator, players: int = 0) -> str:
        return f"target {options.get('target')}"

    def controls(self, ctx: Ctx) -> list[discord.ui.Item[Any]]:
        return []

    def private_surface(self, ctx: Ctx) -> Surface:
        view = ctx.view()
        count = view["count"]
        shown = "#" * count if ctx.display == "bar" else str(count)
        items: list[discord.ui.Item[Any]] = [ctx.button(a, a) for a in ctx.legal()]
        toggle = "" if ctx.display == "bar" else "bar"
        items.append(ctx.display_button(toggle, "number" if toggle == "" else "bar"))
        return Surface(f"Tally: your count is {shown}", items)

    def select_action(self, arg: str, values: Sequence[str]) -> str:
        return arg

    def event_lines(self, events: list[Event], ctx: Ctx) -> list[str]:
        return [f"{ctx.shown_names[e.data['seat']]} finished" for e in events if e.kind == "finished"]

    def caption(self, events: list[Event], ctx: Ctx) -> str | None:
        return None

    def status_line(self, ctx: Ctx) -> str:
        return f"Tally: {ctx.view()['phase']}"

    def alt_text(self, view: dict[str, Any], ctx: Ctx) -> str:
        return f"Tally board, phase {view['phase']}"


SPEC = GameSpec(ToyUI(), MESSAGES)


def register(monkeypatch: Any) -> None:
    """Register Tally, as every game is, for the duration of one test."""
    games.register(SPEC, ENGINE, monkeypatch.setitem)
