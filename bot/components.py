"""Persistent buttons and selects. A custom_id carries everything needed to act after a restart:
``<kind>:<match id>:<surface version>:<argument>``. Kinds, by the surface they sit on:

- public message: l = lobby op (also ``rematch`` on a finished game, ``accept``/``decline`` on a
  rematch offer), g = game action, s = select (its values become an action code), v = display only
  (redraws the message; the argument is the display state), x = display-only select (the chosen
  value is the display state), h = a private answer (``hand``: my panel; ``watch``: the board for a
  spectator; ``help``: what the player to move can do);
- a seat's private surface (DM or ephemeral panel): p = game action, q = select, w = display only,
  y = display-only select;
- a tournament's message: t = a tournament operation (the id field is the tournament's: ``join``,
  ``leave``, ``start``, ``cancel``, ``show``; bot.tournament);
- the ephemeral ``/replay`` message of a finished match: r = go to a step (the version field is the
  step it shows, 0 = the start; the argument ``first``/``prev``/``next``/``last`` names the button).

The version is the one of the surface the control sits on (engine.match: staleness per viewer), except
for ``r``, whose surface never changes (a finished match)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import discord

# The one decoding of a kind letter: which surface the control sits on, and what a click on it means.
# Nothing else tests kind letters; ids in this format from any earlier version keep routing.
PUBLIC_SURFACE, PRIVATE_SURFACE, REPLAY_SURFACE, TOURNAMENT_SURFACE = (
    "public",
    "private",
    "replay",
    "tournament",
)
LOBBY, ACT, CHOOSE, DISPLAY, DISPLAY_CHOICE, OPEN, STEP = (
    "lobby", "act", "choose", "display", "display_choice", "open", "step"
)  # fmt: skip
KINDS: dict[str, tuple[str, str]] = {
    "l": (PUBLIC_SURFACE, LOBBY),
    "g": (PUBLIC_SURFACE, ACT),
    "s": (PUBLIC_SURFACE, CHOOSE),
    "v": (PUBLIC_SURFACE, DISPLAY),
    "x": (PUBLIC_SURFACE, DISPLAY_CHOICE),
    "h": (PUBLIC_SURFACE, OPEN),
    "p": (PRIVATE_SURFACE, ACT),
    "q": (PRIVATE_SURFACE, CHOOSE),
    "w": (PRIVATE_SURFACE, DISPLAY),
    "y": (PRIVATE_SURFACE, DISPLAY_CHOICE),
    "r": (REPLAY_SURFACE, STEP),
    "t": (TOURNAMENT_SURFACE, "tournament"),
}
_KIND_OF = {v: k for k, v in KINDS.items()}


def kind_for(surface: str, intent: str) -> str:
    return _KIND_OF[(surface, intent)]


_ARG = r"[A-Za-z0-9._-]{0,80}"
BUTTON_ID = rf"(?P<kind>[lghpvwrt]):(?P<mid>[0-9]{{1,18}}):(?P<ver>[0-9]{{1,9}}):(?P<arg>{_ARG})"
SELECT_ID = rf"(?P<kind>[sqxy]):(?P<mid>[0-9]{{1,18}}):(?P<ver>[0-9]{{1,9}}):(?P<arg>{_ARG})"
OURS = re.compile(rf"[lghpvwrtsqxy]:[0-9]{{1,18}}:[0-9]{{1,9}}:{_ARG}")


@dataclass(frozen=True)
class Click:
    """A parsed component interaction: what the custom_id carried, plus a select's chosen values."""

    kind: str
    match_id: int
    version: int
    arg: str
    values: tuple[str, ...] = ()

    def __str__(self) -> str:
        return custom_id(self.kind, self.match_id, self.version, self.arg)

    @property
    def surface(self) -> str:
        """public, private (a seat's DM or panel) or replay."""
        return KINDS[self.kind][0]

    @property
    def intent(self) -> str:
        return KINDS[self.kind][1]

    @property
    def display(self) -> str:
        """A display-only click's display state: the button's argument, or the chosen option."""
        if self.intent == DISPLAY_CHOICE:
            return self.values[0][:100] if self.values else ""
        return self.arg[:100]


def decode(raw: str) -> Click | None:
    """A custom_id of ours as a Click (without a select's values), or None (forged, foreign)."""
    if not OURS.fullmatch(raw):
        return None
    kind, mid, version, arg = raw.split(":", 3)
    return Click(kind, int(mid), int(version), arg)


def custom_id(kind: str, match_id: int, version: int, arg: str) -> str:
    return f"{kind}:{match_id}:{version}:{arg}"


class _NotKept:
    """A view discord.py never keeps to dispatch clicks: every click of ours is routed by its
    custom_id alone (bot.router.Router.on_interaction), the same after a restart. A view kept per
    message sent, and one rebuilt from the clicked message for each click (its DynamicItem
    dispatch), were work for nothing (issue 35: the bot's CPU per move)."""

    def is_dispatchable(self) -> bool:
        return False

    def is_finished(self) -> bool:  # (what every way of sending a view asks before keeping it)
        return True


class Controls(_NotKept, discord.ui.View):
    """A message's controls."""

    def __init__(self, items: Iterable[discord.ui.Item[Any]] = ()) -> None:
        super().__init__(timeout=None)
        for item in items:
            self.add_item(item)


class ControlsLayout(_NotKept, discord.ui.LayoutView):
    """A Components V2 message's layout."""

    def __init__(self) -> None:
        super().__init__(timeout=None)


class _Routed:
    """A control that knows the click it stands for (its custom_id's four parts)."""

    kind: str
    match_id: int
    version: int
    arg: str


class ActionButton(_Routed, discord.ui.DynamicItem[discord.ui.Button[Any]], template=BUTTON_ID):
    def __init__(
        self,
        kind: str,
        match_id: int,
        version: int,
        arg: str,
        *,
        label: str | None = None,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        emoji: str | None = None,
        row: int | None = None,
        disabled: bool = False,
    ) -> None:
        self.kind, self.match_id, self.version, self.arg = kind, match_id, version, arg
        super().__init__(
            discord.ui.Button(
                label=label,
                style=style,
                emoji=emoji,
                row=row,
                disabled=disabled,
                custom_id=custom_id(kind, match_id, version, arg),
            )
        )


class ActionSelect(_Routed, discord.ui.DynamicItem[discord.ui.Select[Any]], template=SELECT_ID):
    def __init__(
        self,
        kind: str,
        match_id: int,
        version: int,
        arg: str,
        *,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
        min_values: int = 1,
        max_values: int = 1,
        row: int | None = None,
    ) -> None:
        self.kind, self.match_id, self.version, self.arg = kind, match_id, version, arg
        super().__init__(
            discord.ui.Select(
                custom_id=custom_id(kind, match_id, version, arg),
                options=options or [discord.SelectOption(label="-")],
                placeholder=placeholder,
                min_values=min_values,
                max_values=max_values,
                row=row,
            )
        )
