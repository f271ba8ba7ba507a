"""What a game's Discord face provides; the shared presenter and cogs need nothing else."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import discord

from bot.i18n import Translator
from engine.core import Event
from engine.store import MatchRow


class GameUI(Protocol):
    game: str
    image_name: str

    def option_text(self, options: dict[str, Any], tr: Translator) -> str: ...

    def controls(self, m: MatchRow, state: Any, tr: Translator) -> list[discord.ui.Item[Any]]:
        """The public message's game controls (the shared presenter adds the 'my hand' button)."""

    def select_action(self, arg: str, values: Sequence[str]) -> str:
        """Turn a select's chosen values into an action code (validated by the rules)."""

    def event_lines(self, events: list[Event], names: list[str], tr: Translator) -> list[str]: ...

    def caption(self, events: list[Event], names: list[str], tr: Translator) -> str | None:
        """One line for the image's banner: the latest thing worth reading that the image doesn't show."""

    def status_line(self, m: MatchRow, state: Any, names: list[str], tr: Translator) -> str: ...

    def alt_text(self, view: dict[str, Any], names: list[str], tr: Translator) -> str: ...

    def render(self, view: dict[str, Any], names: list[str], caption: str | None, tr: Translator) -> bytes:
        """PNG bytes; called in a worker thread."""

    def hand(self, state: Any, seat: int, names: list[str], tr: Translator) -> str: ...
