"""Tally's Discord face: a public scoreboard without controls, and per seat a DM with the add
buttons and a display-only "show as bar" toggle."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

from bot.games.base import Ctx, Surface
from bot.i18n import Translator
from engine.core import Event

MESSAGES = {
    "game.toy": "Tally",
    "cmd.toy": "Tally: a test game",
    "cmd.toy.start": "Open a Tally lobby",
    "opt.toy.target": "Count to reach",
    "rules.toy": "Add 1 or 2 until you reach the target.",
    "button.hand.toy": "My counter",
    "level.steady": "steady",
}


class ToyUI:
    game = "toy"
    image_name = "toy.png"
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

    def render(
        self, view: dict[str, Any], names: list[str], caption: str | None, tr: Translator, display: str = ""
    ) -> bytes:
        return b""  # no image: the platform sends none


def register(monkeypatch: Any) -> None:
    """Add Tally to every registry the bot reads (for the duration of one test)."""
    from bot.games import UIS
    from bot.locales import en
    from engine import registry
    from toy.rules import COMPUTER, RULES

    monkeypatch.setitem(registry.GAMES, "toy", RULES)
    monkeypatch.setitem(registry.COMPUTERS, "toy", COMPUTER)
    monkeypatch.setitem(UIS, "toy", ToyUI())
    for key, text in MESSAGES.items():
        monkeypatch.setitem(en.MESSAGES, key, text)
