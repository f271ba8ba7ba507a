"""Uonga on Discord: the board image and a 5x5 grid of buttons laid out like the board (rank 5 on
top, files a-e left to right). Everything is public, so there is no private surface.

Discord allows 5 rows of 5 buttons in a classic message, so every choice lives inside the grid:

- a move takes two clicks: the piece (display only, ``sel.b4``: nothing is committed, the grid and
  the image then show its destinations in green), then a destination (``move.b4.c4``);
- a placement: the Mastodon player and the Cavemen's second piece of a turn click the square; when
  the Cavemen may still place either piece, the square first (display only, ``pl.c3``), then the
  green H or Y shown on that square and its neighbour (both place on the chosen square);
- a herd tie (R30): the tied Mastodons become the ``take.<sq>`` buttons;
- resignation is ``/game resign``.

Every other square is a display-only button too (``why.<sq>`` or ``why.<from>.<sq>``): clicking it
commits nothing and answers privately why it cannot be played (not your piece, a blocked path, a
landing on a Mastodon). The display state lives in the custom_id, so a selection survives a restart.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

from bot.games.base import Ctx, GameUI, Surface
from bot.games.common import MAX_ALT, story_lines
from bot.i18n import Translator
from engine.core import Event
from engine.errors import IllegalAction
from engine.games.uonga import piece_moves
from engine.games.uonga_data import EMPTY, HUNTER, INDEX, MASTODON, SQUARES, YOUNGLING
from engine.games.uonga_data import FILES as BOARD_FILES
from render.graphemes import fit_names
from render.uonga import RENDERER

SIDE_OF = {"C": "cavemen", "M": "mastodons"}
OWN = {"cavemen": (HUNTER, YOUNGLING), "mastodons": (MASTODON,)}
STYLE = {  # the owner's colour: Cavemen blue, Mastodons red, empty grey; green = what to click now
    HUNTER: discord.ButtonStyle.primary,
    YOUNGLING: discord.ButtonStyle.primary,
    MASTODON: discord.ButtonStyle.danger,
    EMPTY: discord.ButtonStyle.secondary,
}
GO = discord.ButtonStyle.success
ROWS = 5


class Refused(IllegalAction):
    """A display-only click on a square that cannot be played: answered privately with why."""

    def __init__(self, key: str, **params: object) -> None:
        super().__init__(key, **params)
        self.key = key


def board_string(view: dict[str, Any]) -> str:
    """The engine's 25-character board from a public view (index = rank*5 + file)."""
    raw = view.get("board") or {}
    return "".join(raw.get(sq, EMPTY) for sq in SQUARES)


def side_of_seat(view: dict[str, Any], seat: int) -> str:
    """The side a seat plays (in a herd tie under V2 the Mastodon player chooses on the Cavemen's
    turn, so the side to move is not the chooser's)."""
    return "cavemen" if view["seats"]["cavemen"] == seat else "mastodons"


def grid_row(sq: str) -> int:
    """Rank 5 is the top row of buttons, as on the image."""
    return ROWS - int(sq[1])


def parse_display(display: str) -> tuple[str, list[str]]:
    """``sel.b4`` -> ("sel", ["b4"]); anything malformed -> ("", [])."""
    kind, *args = display.split(".") if display else ("",)
    if kind in ("sel", "pl", "why") and 1 <= len(args) <= 2 and all(a in INDEX for a in args):
        return kind, args
    return "", []


def selection(view: dict[str, Any], display: str) -> tuple[str | None, list[str]]:
    """The selected square and its destinations, if the display names a piece that may move now."""
    kind, args = parse_display(display)
    if view.get("over") or view.get("ended"):
        return None, []
    if kind == "pl" and view.get("phase") == "place" and len(args) == 1:
        return (args[0], []) if args[0] not in (view.get("board") or {}) else (None, [])
    if kind != "sel" or view.get("phase") != "move" or len(args) != 1:
        return None, []
    board = board_string(view)
    sq = args[0]
    if board[INDEX[sq]] not in OWN[view["side"]]:
        return None, []
    return sq, [SQUARES[j] for j in piece_moves(board, INDEX[sq])]


# ---- why a square cannot be played (the answer to a display-only click on it) ------------------------


def _why_move(board: str, side: str, src: str, dst: str) -> tuple[str, dict[str, str]]:
    """The reason the selected piece on ``src`` cannot go to ``dst`` (R20-R23)."""
    piece, there = board[INDEX[src]], board[INDEX[dst]]
    if there in OWN[side]:
        return "uonga.why.own", {"square": dst}
    if there == MASTODON:
        return "uonga.why.on_mastodon", {"square": dst}
    if there != EMPTY and piece != MASTODON:
        return "uonga.why.occupied", {"square": dst}
    df = ord(dst[0]) - ord(src[0])
    dr = int(dst[1]) - int(src[1])
    if piece == MASTODON:
        straight = df == 0 or dr == 0
        return ("uonga.why.blocked" if straight else "uonga.why.mastodon_line"), {"square": dst}
    line = df == 0 or dr == 0 or abs(df) == abs(dr)
    if piece == HUNTER and line and max(abs(df), abs(dr)) == 2:
        return "uonga.why.blocked", {"square": dst}
    return f"uonga.why.reach_{piece}", {"square": dst}


def _why_square(view: dict[str, Any], sq: str) -> tuple[str, dict[str, str]]:
    """The reason a square without a selection cannot be clicked now."""
    there = (view.get("board") or {}).get(sq, EMPTY)
    phase, side = view["phase"], view["side"]
    if phase == "take":
        return "uonga.why.take", {"square": sq}
    if phase == "place":
        return ("uonga.why.taken_square" if there != EMPTY else "uonga.why.unknown"), {"square": sq}
    if there == EMPTY:
        return "uonga.why.empty", {"square": sq}
    if there not in OWN[side]:
        return "uonga.why.not_yours", {"square": sq}
    return "uonga.why.stuck", {"square": sq}


class UongaUI(GameUI):
    game = "uonga"
    image_name = "uonga.png"
    renderer = RENDERER
    private = None  # nothing is hidden: no hand button
    hand_emoji = "🦣"
    layout = "classic"  # the 5x5 grid fills the 5 rows of 5 a classic message allows
    option_names = (
        ("v1", "mastodons_need_10"),
        ("v2", "mastodons_pick_ties"),
    )  # the variants, by what they do

    def option_text(self, options: dict[str, Any], tr: Translator, players: int = 0) -> str:
        parts = [tr(f"uonga.opt.side.{options.get('side', 'random')}")]
        for flag in ("v1", "v2"):
            if options.get(flag) in (True, "true"):
                parts.append(tr(f"uonga.opt.{flag}"))
        variant = options.get("variant", "rulebook")
        if variant != "rulebook":  # not in the rulebook: the lobby says so (issue 37)
            parts.append(tr(f"uonga.opt.variant.{variant}"))
        reps, limit = options.get("repetitions", 3), options.get("move_limit", 40)
        if (reps, limit) != (3, 40):
            parts.append(tr("uonga.opt.limits", repetitions=reps or "-", move_limit=limit or "-"))
        return " · ".join(parts)

    def action_text(self, code: str, ctx: Ctx) -> str | None:
        """A decision in words (the recap that teaches): "Hunter b4→c4", "Youngling on c3"."""
        kind, *args = code.split(".")
        tr, board = ctx.tr, board_string(ctx.view())
        if kind == "move" and len(args) == 2 and all(a in INDEX for a in args):
            piece = self._piece(tr, board[INDEX[args[0]]])
            return tr("uonga.do.move", piece=piece, frm=args[0], to=args[1])
        if kind == "place" and len(args) == 2 and args[1] in INDEX:
            return tr("uonga.do.place", piece=self._piece(tr, args[0]), square=args[1])
        if kind == "take" and len(args) == 1:
            return tr("uonga.do.take", square=args[0])
        return None

    # ---- the grid ----------------------------------------------------------------------------------

    def controls(self, ctx: Ctx) -> list[discord.ui.Item[Any]]:
        view = ctx.view()
        if view["over"]:
            return []
        kind, args = parse_display(ctx.display)
        if kind == "why":  # a square that cannot be played: say why, privately; nothing changes
            key, params = self._why(view, args)
            raise Refused(key, **params)
        if ctx.display and kind == "":
            raise Refused("uonga.why.unknown")
        if view["phase"] == "take":
            return self._take_grid(ctx, view)
        if view["phase"] == "place":
            return self._place_grid(ctx, view, args[0] if kind == "pl" else None)
        return self._move_grid(ctx, view, args[0] if kind == "sel" else None)

    def _why(self, view: dict[str, Any], args: list[str]) -> tuple[str, dict[str, str]]:
        if len(args) == 2 and view["phase"] == "move":
            return _why_move(board_string(view), view["side"], args[0], args[1])
        return _why_square(view, args[-1])

    @staticmethod
    def _cell(ctx: Ctx, board: str, sq: str, display: str) -> discord.ui.Item[Any]:
        """A square that is not a choice now: its piece (or 🟫) in its owner's colour, display only."""
        piece = board[INDEX[sq]]
        label = ctx.tr(f"uonga.grid.{piece if piece != EMPTY else 'empty'}")
        return ctx.display_button(display, label, style=STYLE[piece], row=grid_row(sq))

    @staticmethod
    def _go(ctx: Ctx, action: str, label: str, sq: str) -> discord.ui.Item[Any]:
        return ctx.button(action, label, style=GO, row=grid_row(sq))

    def _ordered(self, items: dict[str, discord.ui.Item[Any]]) -> list[discord.ui.Item[Any]]:
        """Buttons row by row, rank 5 first, files a-e left to right."""
        return [items[f"{f}{r}"] for r in range(ROWS, 0, -1) for f in BOARD_FILES]

    def _take_grid(self, ctx: Ctx, view: dict[str, Any]) -> list[discord.ui.Item[Any]]:
        board = board_string(view)
        tied = {sq for tie in view["pending"] for sq in tie}
        items = {
            sq: self._go(ctx, f"take.{sq}", ctx.tr("uonga.grid.M"), sq)
            if sq in tied
            else self._cell(ctx, board, sq, f"why.{sq}")
            for sq in SQUARES
        }
        return self._ordered(items)

    def _place_grid(self, ctx: Ctx, view: dict[str, Any], chosen: str | None) -> list[discord.ui.Item[Any]]:
        board, kinds = board_string(view), view["to_place"]
        items: dict[str, discord.ui.Item[Any]] = {}
        for sq in SQUARES:
            if board[INDEX[sq]] != EMPTY:
                items[sq] = self._cell(ctx, board, sq, f"why.{sq}")
            elif len(kinds) == 1:  # one kind to place: the square is the whole choice
                items[sq] = ctx.button(f"place.{kinds[0]}.{sq}", ctx.tr("uonga.grid.empty"),
                                       style=STYLE[EMPTY], row=grid_row(sq))  # fmt: skip
            else:  # both kinds: the square first (display only), then the kind
                items[sq] = self._cell(ctx, board, sq, f"pl.{sq}")
        if chosen is not None and board[INDEX[chosen]] == EMPTY and len(kinds) == 2:
            items[chosen] = self._go(ctx, f"place.{HUNTER}.{chosen}", ctx.tr("uonga.grid.H"), chosen)
            # the Youngling's button has to borrow the neighbour's slot: it points back at the square
            other = _neighbour(chosen)
            towards = "left" if other > chosen else "right"
            label = ctx.tr(f"uonga.grid.Y_{towards}", square=chosen)
            items[other] = self._go(ctx, f"place.{YOUNGLING}.{chosen}", label, other)
        return self._ordered(items)

    def _move_grid(self, ctx: Ctx, view: dict[str, Any], chosen: str | None) -> list[discord.ui.Item[Any]]:
        board, side = board_string(view), view["side"]
        sel, targets = selection(view, f"sel.{chosen}" if chosen else "")
        items: dict[str, discord.ui.Item[Any]] = {}
        for sq in SQUARES:
            piece = board[INDEX[sq]]
            if sq == sel:  # clicking the selected piece again drops the selection
                items[sq] = ctx.display_button("", ctx.tr(f"uonga.grid.{piece}"), style=GO, row=grid_row(sq))
            elif sq in targets:
                label = ctx.tr(f"uonga.grid.{piece}" if piece != EMPTY else "uonga.grid.target")
                items[sq] = self._go(ctx, f"move.{sel}.{sq}", label, sq)
            elif piece in OWN[side]:
                items[sq] = self._cell(ctx, board, sq, f"sel.{sq}")
            else:
                items[sq] = self._cell(ctx, board, sq, f"why.{sel}.{sq}" if sel else f"why.{sq}")
        return self._ordered(items)

    # ---- the other GameUI parts ---------------------------------------------------------------------

    def private_surface(self, ctx: Ctx) -> Surface:
        return Surface(ctx.tr("error.no_hand"))

    def select_action(self, arg: str, values: Sequence[str]) -> str:
        return f"{arg}.invalid"  # Uonga has no selects

    def _piece(self, tr: Translator, piece: str) -> str:
        return tr(f"uonga.piece.{piece}")

    def _line(self, e: Event, ctx: Ctx, names: list[str]) -> str | None:
        d, tr = e.data, ctx.tr
        name = names[d["seat"]] if "seat" in d else ""
        if e.kind == "placed":
            return tr("uonga.ev.placed", name=name, piece=self._piece(tr, d["piece"]), square=d["square"])
        if e.kind == "moved":
            return tr(
                "uonga.ev.moved", name=name, piece=self._piece(tr, d["piece"]), frm=d["from"], to=d["to"]
            )
        if e.kind == "captured":
            side = "cavemen" if d["piece"] == MASTODON else "mastodons"
            return tr(f"uonga.ev.captured_{side}", name=name, piece=self._piece(tr, d["piece"]),
                      square=d["square"], points=d["points"], target=ctx.view()["targets"][side])  # fmt: skip
        if e.kind == "tie_pending":
            herds = "; ".join(tr("uonga.or").join(h) for h in d["herds"])
            return tr("uonga.ev.tie", name=name, herds=herds)
        if e.kind == "taken":
            return tr("uonga.ev.taken", name=name, square=d["square"])
        if e.kind == "passed":
            return tr("uonga.ev.passed", name=name)
        if e.kind == "movement":
            return tr("uonga.ev.movement")
        if e.kind == "draw":
            return tr(f"uonga.ev.draw_{d['by']}")
        if e.kind == "game_over" and len(d["winners"]) == 1:
            return self._winner_line(ctx, d["winners"][0], names)
        return None

    def _winner_line(self, ctx: Ctx, seat: int, names: list[str]) -> str:
        view = ctx.view()
        side = side_of_seat(view, seat)
        return ctx.tr("uonga.ev.won", name=names[seat], side=ctx.tr(f"uonga.team.{side}"),
                      n=view["points"][side])  # fmt: skip

    @staticmethod
    def _actor(e: Event) -> int | None:
        return e.data.get("seat") if e.kind not in ("turn", "movement") else None

    @staticmethod
    def _is_result(e: Event) -> bool:
        return e.kind not in ("turn",)  # a computer's turn is told in full: its move is the news

    def event_lines(self, events: list[Event], ctx: Ctx) -> list[str]:
        return story_lines(
            [e for e in events if e.visible_to(None)],
            ctx,
            line=lambda e: self._line(e, ctx, ctx.shown_names),
            actor=self._actor,
            is_result=self._is_result,
        )

    def caption(self, events: list[Event], ctx: Ctx) -> str | None:
        """The turn's result for the image's banner: a capture, a pass, a tie, a draw, the winner."""
        result = ctx.m.meta.result
        if result is not None and result.reason == "resignation":
            return ctx.tr("uonga.caption.resigned", name=ctx.names[result.winners[0]])
        shown = ("captured", "passed", "tie_pending", "taken", "draw", "game_over", "timeout")
        results = [e for e in events if e.visible_to(None) and e.kind in shown]
        if not results:
            return None  # the renderer's own caption says who is to move
        last = results[-1]
        if last.kind == "timeout":
            return ctx.tr("ev.timeout", name=ctx.names[last.data["seat"]])
        if last.kind == "game_over" and len(last.data["winners"]) != 1:
            return ctx.tr("uonga.caption.draw")
        return self._line(last, ctx, ctx.names)

    def status_line(self, ctx: Ctx) -> str:
        view, tr, names = ctx.view(), ctx.tr, ctx.shown_names
        score = tr("uonga.status.points", cav=view["points"]["cavemen"], cav_target=view["targets"]["cavemen"],
                   mast=view["points"]["mastodons"], mast_target=view["targets"]["mastodons"])  # fmt: skip
        if view["over"]:
            return f"{self._over_line(ctx, view)} {score}"
        seat = view["current"]
        side = tr(f"uonga.team.{side_of_seat(view, seat)}")
        who = tr("uonga.status.who", name=names[seat], side=side)
        if ctx.m.seats[seat].ai:  # the computer's move follows in a moment
            parts = [f"{who} {tr('uonga.status.thinking')}"]
        else:
            parts = [f"{who} {self._prompt(ctx, view)}"]
        if view["placement"]:
            parts.append(tr("uonga.status.placement", k=view["placement"]["k"], of=view["placement"]["of"]))
        elif view["moves_left"] is not None:
            parts.append(tr("uonga.status.moves_left", n=view["moves_left"]))
        parts.append(score)
        return " · ".join(parts)

    def _over_line(self, ctx: Ctx, view: dict[str, Any], names: list[str] | None = None) -> str:
        """Who won and why; ``names`` (as typed) in place of the seats' own (the alt text's shortened)."""
        tr = ctx.tr
        shown = ctx.shown_names if names is None else [discord.utils.escape_markdown(n) for n in names]
        if len(view["winners"]) == 1:
            return tr("uonga.status.won", name=shown[view["winners"][0]],
                      side=tr(f"uonga.team.{view['result']}"), why=tr(f"uonga.why_end.{view['ended_by']}"))  # fmt: skip
        return tr("uonga.status.draw", why=tr(f"uonga.why_end.{view['ended_by']}"))

    def _prompt(self, ctx: Ctx, view: dict[str, Any]) -> str:
        """What the player to move clicks now (follows the display state of their last click)."""
        tr = ctx.tr
        if view["phase"] == "take":
            return tr(
                "uonga.status.take", squares=tr("uonga.or").join(sq for t in view["pending"] for sq in t)
            )
        sel, targets = selection(view, ctx.display)
        if view["phase"] == "place":
            kinds = view["to_place"]
            if sel is not None:
                return tr("uonga.status.place_kind", square=sel)
            if len(kinds) == 1:
                return tr("uonga.status.place_one", piece=self._piece(tr, kinds[0]))
            return tr("uonga.status.place_both")
        if sel is not None:
            piece = self._piece(tr, board_string(view)[INDEX[sel]])
            key = "uonga.status.selected" if targets else "uonga.status.selected_stuck"
            return tr(key, piece=piece, square=sel)
        return tr("uonga.status.move")

    def alt_text(self, view: dict[str, Any], ctx: Ctx) -> str:
        """The whole position in words: who plays what, every piece, herds, points, the turn.
        Past Discord's 1,024 characters the names are shortened (on grapheme boundaries),
        so every player's facts stay."""
        return fit_names(lambda names: self._alt_text(view, ctx, names), ctx.names, MAX_ALT)

    def _alt_text(self, view: dict[str, Any], ctx: Ctx, names: list[str]) -> str:
        tr = ctx.tr
        view = _as_ended(view)
        board = view.get("board") or {}

        def on(piece: str) -> str:
            return ", ".join(sq for sq in SQUARES if board.get(sq) == piece) or tr("uonga.alt.none")

        parts = [
            tr("uonga.alt.head", cav=names[view["seats"]["cavemen"]], mast=names[view["seats"]["mastodons"]]),
            tr("uonga.alt.pieces", hunters=on(HUNTER), younglings=on(YOUNGLING), mastodons=on(MASTODON)),
        ]
        if view["herds"]:
            parts.append(tr("uonga.alt.herds", herds="; ".join("-".join(h) for h in view["herds"])))
        parts.append(tr("uonga.alt.points", cav=view["points"]["cavemen"], cav_target=view["targets"]["cavemen"],
                        mast=view["points"]["mastodons"], mast_target=view["targets"]["mastodons"]))  # fmt: skip
        if last := self._last_text(view, tr):
            parts.append(last)
        if view["over"]:
            parts.append(self._over_line(ctx, view, names).replace("*", ""))
        elif view.get("ended"):
            parts.append(tr("uonga.alt.ended"))
        else:
            side = tr(f"uonga.team.{side_of_seat(view, view['current'])}")
            parts.append(tr("uonga.alt.turn", name=names[view["current"]], side=side))
        return " ".join(parts)

    def _last_text(self, view: dict[str, Any], tr: Translator) -> str:
        last = view.get("last")
        if not last or last.get("kind") not in ("place", "move"):
            return ""
        piece = self._piece(tr, last["piece"])
        if last["kind"] == "place":
            return tr("uonga.alt.last_place", piece=piece, square=last["to"])
        return tr("uonga.alt.last_move", piece=piece, frm=last["from"], to=last["to"])

    def picture(self, view: dict[str, Any], display: str) -> tuple[dict[str, Any], dict[str, Any]]:
        """A game ended by the platform drawn as over, and the selection of a display-only click
        with its destinations."""
        sel, targets = selection(view, display)
        highlight = {"square": sel, "targets": targets} if sel else None
        return _as_ended(view), {"highlight": highlight}


def _neighbour(sq: str) -> str:
    """The square next to ``sq`` in its row (to the right, or to the left on file e): it shows the
    Youngling choice while ``sq`` shows the Hunter one."""
    f = BOARD_FILES.index(sq[0])
    return f"{BOARD_FILES[f + 1 if f < 4 else f - 1]}{sq[1]}"


def _as_ended(view: dict[str, Any]) -> dict[str, Any]:
    """A game the rules did not end (resignation) drawn as over, with the platform's winner."""
    result = view.get("ended_result")
    if not view.get("ended") or view.get("over") or not isinstance(result, dict):
        return view
    winners = result.get("winners") or []
    seats = view.get("seats") or {}
    side = next((s for s, seat in seats.items() if winners and seat == winners[0]), None)
    return {**view, "over": True, "phase": "over", "current": None, "winners": winners, "result": side,
            "ended_by": result.get("reason")}  # fmt: skip
