"""What a game's Discord face provides; the shared router, builders and delivery need nothing else.

A game's UI builds its surfaces from a ``Ctx``: the committed row and state, the viewer, the
translator and any display-only state carried by the click (a selected piece, a cursor). Controls are
made through the Ctx, which stamps each one with the right kind and version, so a game never handles
custom_ids or staleness itself.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.components import (
    ACT,
    CHOOSE,
    DISPLAY,
    DISPLAY_CHOICE,
    PRIVATE_SURFACE,
    PUBLIC_SURFACE,
    ActionButton,
    ActionSelect,
    kind_for,
)
from bot.games.labels import image_labels
from bot.i18n import Translator, seat_name
from engine import result
from engine.core import Event
from engine.match import PRIVATE, PUBLIC
from engine.registry import rules_for
from engine.result import Final
from engine.store import MatchRow
from render.lesson import Lesson
from render.renderer import Renderer


@dataclass
class Ctx:
    m: MatchRow
    state: Any
    tr: Translator
    seat: int | None = None  # the viewer of a private surface; None for the public message
    display: str = ""  # display-only state from the click that asked for this surface
    _view: dict[str, Any] | None = field(default=None, repr=False, compare=False)
    _public: dict[str, Any] | None = field(default=None, repr=False, compare=False)

    @property
    def surface(self) -> str:
        return PUBLIC if self.seat is None else PRIVATE

    @property
    def version(self) -> int:
        return self.m.public_version if self.seat is None else self.m.seats[self.seat].version

    @property
    def names(self) -> list[str]:
        """Seat names as typed (for images and alt text)."""
        return [seat_name(s.name, s.ai, self.tr) for s in self.m.seats]

    @property
    def shown_names(self) -> list[str]:
        """Seat names for message text: markdown stays literal."""
        return [discord.utils.escape_markdown(n) for n in self.names]

    def _kind(self, intent: str) -> str:
        return kind_for(PUBLIC_SURFACE if self.seat is None else PRIVATE_SURFACE, intent)

    def view(self) -> dict[str, Any]:
        """The viewer's view (computed once per surface built: read it, never change it)."""
        if self._view is None:
            self._view = self._decided(rules_for(self.m.game).view(self.state, self.seat))
        return self._view

    def public_view(self) -> dict[str, Any]:
        """What everyone sees (the viewer's view when this is the public message's Ctx)."""
        if self.seat is None:
            return self.view()
        if self._public is None:
            self._public = self._decided(rules_for(self.m.game).view(self.state, None))
        return self._public

    def final(self) -> Final | None:
        """How the match ended, decided once in the engine (engine.result); None while it runs."""
        return result.final(self.m, self.state)

    def _decided(self, view: dict[str, Any]) -> dict[str, Any]:
        """A finished game's view names the decided winners (never a member who resigned) and what
        decided between them, so every text and picture drawn from it agrees with /stats."""
        if view.get("winners") is None:
            return view
        final = self.final()
        if final is None or not final.changed:
            return view
        out = {**view, "winners": list(final.winners)}
        if "tiebreak" in view:
            out["tiebreak"] = final.tiebreak
        return out

    def legal(self, seat: int | None = None) -> list[str]:
        seat = self.seat if seat is None else seat
        return rules_for(self.m.game).legal_actions(self.state, seat) if seat is not None else []

    def button(
        self, action: str, label: str, style: Any = discord.ButtonStyle.primary, **kw: Any
    ) -> ActionButton:
        """A button that applies ``action`` (a game action code) for whoever clicks it."""
        return ActionButton(self._kind(ACT), self.m.id, self.version, action, label=label, style=style, **kw)

    def display_button(
        self, display: str, label: str, style: Any = discord.ButtonStyle.secondary, **kw: Any
    ) -> ActionButton:
        """A button that only redraws this surface with ``display`` as its display state: it commits
        nothing, and the state lives in the custom_id, so it survives a restart."""
        return ActionButton(
            self._kind(DISPLAY), self.m.id, self.version, display, label=label, style=style, **kw
        )

    def select(self, arg: str, options: list[discord.SelectOption], **kw: Any) -> ActionSelect:
        """A select whose chosen values the game's ``select_action`` turns into an action code."""
        return ActionSelect(self._kind(CHOOSE), self.m.id, self.version, arg, options=options, **kw)

    def display_select(self, options: list[discord.SelectOption], **kw: Any) -> ActionSelect:
        """A select that only redraws this surface: the chosen option's value becomes the display
        state (choose a piece, then where it goes); nothing is committed."""
        return ActionSelect(self._kind(DISPLAY_CHOICE), self.m.id, self.version, "d", options=options, **kw)


@dataclass
class Surface:
    """A private surface's content: text, controls, and optionally an image."""

    content: str
    items: list[discord.ui.Item[Any]] = field(default_factory=list)
    draw: Callable[[], bytes] | None = None
    filename: str = "view.png"
    alt: str = ""


@dataclass(frozen=True)
class QuickStart:
    """An extra command of a game's group (``/<game> <name>``) that opens a game and starts it at once,
    for a player alone: one choice option whose every value stands for a set of game options. Texts:
    ``cmd.<game>.<name>``, ``opt.<game>.<name>.<option>`` and ``<game>.<name>.<value>``."""

    name: str
    option: str
    choices: dict[str, dict[str, Any]]  # choice value -> the game options it sets (the first: default)


class GameUI:
    """A game's Discord face. A game subclasses it, sets the attributes and writes the methods that
    raise NotImplementedError; the hooks below them have defaults that suit most games."""

    game: str
    image_name: str
    renderer: Renderer  # its pictures (render/<game>/): the public board is drawn by ``render``
    # Where each seat's private surface lives: "dm" (a DM per seat, with the panel as fallback when
    # DMs are closed), "panel" (an ephemeral reply from the public message's hand button), or None
    # for a game without private information (no hand button).
    private: str | None
    hand_emoji: str
    # "classic" (text, image and up to 5 rows of controls) or "v2" (Components V2: text, image and
    # up to 40 components, e.g. a 5x5 grid plus a row of other controls)
    layout: str = "classic"
    quick_starts: tuple[QuickStart, ...] = ()
    """Extra commands of the game's group that open a game and start it at once (``/ubongo solo``)."""
    option_names: tuple[tuple[str, str], ...] = ()
    """(engine option, the name Discord shows) pairs, where the spec's name says nothing to a player
    (Uonga's ``v1``)."""

    def option_text(self, options: dict[str, Any], tr: Translator, players: int = 0) -> str:
        """The options as the header shows them; ``players``: the seats of a started game (0 in the
        lobby), so that options a game of that size ignores are not shown."""
        raise NotImplementedError

    def controls(self, ctx: Ctx) -> list[discord.ui.Item[Any]]:
        """The public message's game controls (the shared builder adds the hand button)."""
        raise NotImplementedError

    def private_surface(self, ctx: Ctx) -> Surface:
        """The private surface of ``ctx.seat``, from ``rules.view(state, seat)`` only."""
        raise NotImplementedError

    def select_action(self, arg: str, values: Sequence[str]) -> str:
        """Turn a select's chosen values into an action code (validated by the rules)."""
        raise NotImplementedError

    def event_lines(self, events: list[Event], ctx: Ctx) -> list[str]:
        """Message lines for public events: every line about a human, one line per computer turn."""
        raise NotImplementedError

    def caption(self, events: list[Event], ctx: Ctx) -> str | None:
        """One line for the image's banner: the turn's result the image doesn't show."""
        raise NotImplementedError

    def status_line(self, ctx: Ctx) -> str:
        """Whose move it is and what they decide (or the result when over)."""
        raise NotImplementedError

    def alt_text(self, view: dict[str, Any], ctx: Ctx) -> str:
        """The public image's description (alt text), from the public view."""
        raise NotImplementedError

    # ---- hooks with defaults ------------------------------------------------------------------------

    def help_text(self, ctx: Ctx) -> str | None:
        """What the ? button tells ``ctx.seat``, the player to move. None: the labels of their legal
        actions' controls."""
        return None

    def turn_text(self, ctx: Ctx) -> str | None:
        """What the turn is, for the ping of the players whose turn begins ("round 3: solve your
        puzzle"). None: the generic words."""
        return None

    def action_text(self, code: str, ctx: Ctx) -> str | None:
        """A decision in words for the recap that teaches, where no control's label says it
        (Uonga's two-click moves, Ugah's picks of several symbols). None: the control's label."""
        return None

    def recap_moments(self, candidates: list[int], views: list[dict[str, Any]]) -> list[int]:
        """Which steps the animated recap of a finished game shows, refined from ``candidates``
        (``bot.replay.moments`` keeps the first and last and caps them). Default: the candidates."""
        return candidates

    def picture(self, view: dict[str, Any], display: str) -> tuple[dict[str, Any], dict[str, Any]]:
        """The view the public picture draws and what it marks (keyword arguments of the renderer's
        ``board``) for the display state of a display-only click. Default: the view, nothing marked."""
        return view, {}

    def render(
        self,
        view: dict[str, Any],
        names: list[str],
        caption: str | None,
        tr: Translator | None = None,
        display: str = "",
        lesson: Lesson | None = None,
    ) -> bytes:
        """PNG bytes of the public view in the language of ``tr`` (English without one), with the
        display state of a display-only click, if any, or a costly decision drawn over it (``lesson``:
        the 🎓 step of /replay; only a game with lessons gets one); called in a worker thread."""
        drawn, mark = self.picture(view, display)
        if lesson is not None:
            mark = {**mark, "lesson": lesson}
        labels = image_labels(self.game, self.renderer.labels, tr)
        return self.renderer.board(drawn, names, caption=caption, labels=labels, **mark)
