"""Ubongo Fun-Size on Discord: every seat solves in its own DM, all at once.

A seat's DM is its workspace: the task image (render_task) and controls. Choosing a piece is a
display-only select (``pc.<piece>``, nothing is written); the places where that piece fits now
(``piece_spots``) follow as an action select that places it at once, and ◀ ▶ browse them on the
image (display state ``pc.<piece>.<i>``) with **Place here** for the one shown. Lift, clear and (solo)
skip are buttons. Only ``place``, ``lift``, ``clear`` and ``skip`` are actions, so only they are in
the log. The channel message is built from the public view only: no task is on it before its round
is over (the public view has none).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import discord

from bot.games.base import Ctx, GameUI, QuickStart, Surface
from bot.games.common import MAX_ALT, MAX_OPTION, MAX_PLACEHOLDER, image_labels, story_lines
from bot.games.ubongo_records import record_lines
from bot.i18n import Translator
from engine.core import Event
from engine.games.ubongo import (
    COUNTDOWN,
    ROUND_LIMIT,
    ROUNDS,
    SOLO_MODES,
    SOLO_SIZES,
    piece_spots,
)
from engine.games.ubongo_pieces import AREA, PIECE_IDS, cells_at
from render.graphemes import ELLIPSIS, cut, fit_names
from render.ubongo import EN_LABELS, RENDERER, render_task

PAGE = 25  # Discord's most options in one select
PLACE = "place"  # the argument of the action select of places
DISPLAY_PREFIX = "pc"
# /ubongo solo: each choice of its mode option stands for the V4/V5 options (records are kept per choice)
SOLO_STARTS = {
    f"{mode}.{size}": {"solo": mode, "solo_size": size} for mode in SOLO_MODES for size in SOLO_SIZES
}


def _order(tr: Translator, order: int) -> str:
    return tr(f"render.ubongo.order_{order}") if 1 <= order <= 4 else str(order)


def _spot(code: str) -> tuple[str, int, int, int]:
    """``place.<piece>.<o>.<x>.<y>`` -> (piece, o, x, y); only for codes the rules produced."""
    _, piece, o, x, y = code.split(".")
    return piece, int(o), int(x), int(y)


def _rule_due(ctx: Ctx) -> int | None:
    """The running rule timer's absolute due time (round limit, countdown or solo clock)."""
    due = [t for k, t in ctx.m.timers.items() if not k.startswith("ai:")]
    return int(min(due)) if due else None


def _when(ctx: Ctx) -> str | None:
    """A Discord relative timestamp: every client counts down itself, so nothing is edited per second."""
    due = _rule_due(ctx)
    return f"<t:{due}:R>" if due is not None else None


def parse_display(display: str, pieces: Sequence[str]) -> tuple[str | None, int]:
    """The display state of a workspace: (chosen piece or None, index of the place shown). Anything a
    client may send is accepted and read as "nothing chosen" unless it names a piece in hand."""
    parts = display.split(".")
    if len(parts) not in (2, 3) or parts[0] != DISPLAY_PREFIX or parts[1] not in pieces:
        return None, 0
    index = parts[2] if len(parts) == 3 else "0"
    return parts[1], int(index) if index.isdigit() and len(index) <= 3 else 0


def _fits_text(tr: Translator, n: int) -> str:
    if n == 0:
        return tr("ubongo.pick.fits_none")
    return tr("ubongo.pick.fits_one") if n == 1 else tr("ubongo.pick.fits", n=n)


_PICTURED = ("side", "round", "mode", "rounds", "need", "done_round", "placed", "task", "pieces", "allowed")


def display_of(piece: str, index: int = 0) -> str:
    return f"{DISPLAY_PREFIX}.{piece}.{index}" if index else f"{DISPLAY_PREFIX}.{piece}"


def _pictured(view: dict[str, Any], seat: int) -> dict[str, Any]:
    """What the seat's workspace picture draws of its view: of who solved only its own place, of the
    phase only whether the countdown runs (others' solves, scores and history make no new picture)."""
    solved = view.get("solved") or []
    return {
        **{k: view.get(k) for k in _PICTURED},
        "solved": solved[: solved.index(seat) + 1] if seat in solved else [],
        "phase": "countdown" if view.get("phase") == "countdown" else "",
    }


def _task_image(view: dict[str, Any], seat: int, tr: Translator, cursor: dict[str, Any] | None) -> bytes:
    """A seat's workspace picture. Its labels are looked up here, where it is drawn: what travels to
    a drawing process is the view and the language (a read-only label mapping does not pickle)."""
    return render_task(view, seat, image_labels("ubongo", EN_LABELS, tr), cursor)


class UbongoUI(GameUI):
    game = "ubongo"
    image_name = "ubongo.png"
    renderer = RENDERER
    private = "dm"
    hand_emoji = "🧩"
    layout = "classic"  # five rows: pieces, places, browsing, lift / clear, set aside
    quick_starts = (QuickStart("solo", "mode", SOLO_STARTS),)  # /ubongo solo: alone, at once

    # ---- lobby ------------------------------------------------------------------------------------

    def option_text(self, options: dict[str, Any], tr: Translator, players: int = 0) -> str:
        """A lone player's game ignores the race's clock, a race the solo settings: a started game
        shows only what it plays by."""
        side = options.get("side", "A")
        if side == "mixed":
            parts = [tr("ubongo.opt.mixed", seats=tr(f"ubongo.b_seats.{options.get('b_seats', 'none')}"))]
        else:
            parts = [tr(f"ubongo.side.{side}")]

        def seconds(value: Any, by_side: dict[str, int]) -> str:
            """0 means "by side" in the rules: say what that is when every seat plays one side."""
            value = value or by_side.get(side)
            return tr("ubongo.opt.seconds", n=value) if value else tr("ubongo.opt.by_side")

        if players != 1:
            countdown = seconds(options.get("countdown"), COUNTDOWN)
            parts.append(
                tr(
                    "ubongo.opt.clock",
                    countdown=countdown,
                    limit=seconds(options.get("round_limit"), ROUND_LIMIT),
                )
            )
        if options.get("no_yellow", "none") != "none":
            parts.append(tr("ubongo.opt.no_yellow", seats=tr(f"ubongo.no_yellow.{options['no_yellow']}")))
        if options.get("gems"):
            parts.append(tr("ubongo.opt.gems"))
        solo, size = options.get("solo", "time"), options.get("solo_size", "5")
        # the solo settings matter only to one player: said when chosen, or when one plays
        if players == 1 or (players == 0 and (solo, size) != ("time", "5")):
            parts.append(tr(f"ubongo.opt.solo.{solo}", size=size))
        return " · ".join(parts)

    # ---- the public message -----------------------------------------------------------------------

    def controls(self, ctx: Ctx) -> list[discord.ui.Item[Any]]:
        return []  # everything happens in the DMs (the shared builder adds the My puzzle button)

    def select_action(self, arg: str, values: Sequence[str]) -> str:
        """The places select: its one value is the place code (the rules check it like any click)."""
        if arg == PLACE and len(values) == 1 and values[0].startswith("place."):
            return values[0]
        return f"{arg}.invalid"

    def _scores(self, ctx: Ctx, view: dict[str, Any]) -> str:
        names = ctx.shown_names
        return ", ".join(
            ctx.tr("ubongo.scores", name=names[i], points=p) for i, p in enumerate(view["scores"])
        )

    def _solved_list(self, ctx: Ctx, solved: list[int], typed: list[str] | None = None) -> str:
        """Who solved, in order; ``typed`` names in place of the seats' own (the alt text's shortened)."""
        names = ctx.shown_names if typed is None else [discord.utils.escape_markdown(n) for n in typed]
        return ", ".join(
            ctx.tr("ubongo.order", name=names[s], order=_order(ctx.tr, i + 1)) for i, s in enumerate(solved)
        )

    def _gains(self, ctx: Ctx, gained: list[int], names: list[str]) -> str:
        parts = [ctx.tr("ubongo.ev.gain", name=names[i], n=g) for i, g in enumerate(gained) if g]
        return ", ".join(parts) or ctx.tr("ubongo.ev.no_gains")

    def _line(self, e: Event, ctx: Ctx) -> str | None:
        tr, d, names = ctx.tr, e.data, ctx.shown_names
        if e.kind in ("round_started", "task_started") and ctx.m.status != "active":
            return None  # a puzzle dealt just before the clock ended the game is not one to go and solve
        if e.kind == "round_started":
            return tr("ubongo.ev.round", n=d["round"], total=ROUNDS)
        if e.kind == "task_started":
            return tr("ubongo.ev.task", n=d["number"])
        if e.kind == "solved" and ctx.view()["mode"] == "race":
            return tr("ubongo.ev.solved", name=names[d["seat"]], order=_order(tr, d["order"]))
        if e.kind == "ubongo":
            return tr("ubongo.ev.ubongo", name=names[d["seat"]], seconds=d["seconds"])
        if e.kind == "round_over":
            reason = tr(f"ubongo.reason.{d['reason']}")
            return tr(
                "ubongo.ev.round_over",
                n=d["round"],
                reason=reason,
                gains=self._gains(ctx, d["gained"], names),
            )
        if e.kind == "skipped":
            return tr("ubongo.ev.skipped", n=d["number"])
        return None  # placements are private events; game_over is the status line

    def event_lines(self, events: list[Event], ctx: Ctx) -> list[str]:
        return story_lines(
            [e for e in events if e.visible_to(None)],
            ctx,
            line=lambda e: self._line(e, ctx),
            actor=lambda e: None,  # every solve is a result worth its own line, computer or not
            is_result=lambda e: True,
        )

    def caption(self, events: list[Event], ctx: Ctx) -> str | None:
        """A round's result for the image's banner; the image itself shows who solved and the clock."""
        if ctx.m.status == "finished":
            return None  # the image's status line names the winners
        for e in reversed([e for e in events if e.visible_to(None)]):
            if e.kind == "round_over":
                gains = self._gains(ctx, e.data["gained"], ctx.names)  # names as typed: the image draws them
                return ctx.tr("ubongo.caption.round_over", n=e.data["round"], gains=gains)
        return None

    def turn_text(self, ctx: Ctx) -> str | None:
        """What a race's turn ping calls the turn: a new round's puzzle (None: the shared words)."""
        view = ctx.view()
        if view["mode"] != "race":
            return None
        return ctx.tr("ubongo.turn", round=view["round"], rounds=view["rounds"])

    def status_line(self, ctx: Ctx) -> str:
        """Round, who solved in which order and the scores; the shared builder adds the clock."""
        tr, view = ctx.tr, ctx.public_view()
        names = ctx.shown_names
        if view["mode"] != "race":
            solo = view["solo"]
            if view["over"]:
                over = tr("ubongo.status.solo_over", done=solo["done"], skipped=solo["skipped"])
                return " ".join([over, *record_lines(ctx)])
            mode = tr(
                f"render.ubongo.{'time_attack' if view['mode'] == 'time' else 'speed_run'}", size=solo["size"]
            )
            return tr("ubongo.status.solo", mode=mode, done=solo["done"], skipped=solo["skipped"])
        if view["over"]:
            winners = " & ".join(names[w] for w in view["winners"] or [])
            return tr("ubongo.status.over", winners=winners, scores=self._scores(ctx, view))
        n, total, scores = view["round"], view["rounds"], self._scores(ctx, view)
        if not view["solved"]:
            return tr("ubongo.status.solving", n=n, total=total, count=view["n"], scores=scores)
        solved = self._solved_list(ctx, view["solved"])
        return tr("ubongo.status.racing", n=n, total=total, solved=solved, scores=scores)

    def alt_text(self, view: dict[str, Any], ctx: Ctx) -> str:
        """The whole position in words (the image's description). Past Discord's 1,024 characters
        the names are shortened (on grapheme boundaries), so every player's facts stay."""
        return fit_names(lambda names: self._alt_text(view, ctx, names), ctx.names, MAX_ALT)

    def _alt_text(self, view: dict[str, Any], ctx: Ctx, names: list[str]) -> str:
        tr = ctx.tr
        if view["mode"] == "race":
            head = tr("render.ubongo.round", n=view["round"], total=view["rounds"])
        else:
            head = tr("render.ubongo.task_number", n=view["round"])
        parts = [tr("ubongo.alt.head", round=head)]
        solved = view["solved"]
        if view["over"]:
            winners = " & ".join(names[w] for w in view["winners"] or [])
            parts.append(tr("ubongo.alt.over", winners=winners))
        elif view.get("ended"):  # ended before its finish: nobody is solving any more
            parts.append(tr("ubongo.alt.ended"))
        else:
            if solved:
                parts.append(tr("ubongo.alt.solved", list=self._solved_list(ctx, solved, names)))
            solving = [names[s] for s in range(view["n"]) if s not in solved]
            if solving and view["mode"] == "race":
                parts.append(tr("ubongo.alt.solving", list=", ".join(solving)))
        if view["mode"] == "race":
            scores = ", ".join(f"{names[i]} {p}" for i, p in enumerate(view["scores"]))
            parts.append(tr("ubongo.alt.scores", scores=scores))
        if view["history"]:
            last = view["history"][-1]
            marks = [
                tr(
                    "ubongo.alt.solved_mark" if s in last["solved"] else "ubongo.alt.unsolved_mark",
                    name=names[s],
                )
                for s in range(len(last["tasks"]))
            ]
            parts.append(tr("ubongo.alt.last", n=last["round"], list=", ".join(marks)))
        return " ".join(parts)

    # ---- the DM workspace -------------------------------------------------------------------------

    def private_surface(self, ctx: Ctx) -> Surface:
        assert ctx.seat is not None
        view = ctx.view()
        if view["over"] or not view.get("task") or ctx.m.status != "active":
            return self._final_surface(ctx)
        piece, index = parse_display(ctx.display, view["pieces"])
        spots = piece_spots(ctx.state, ctx.seat, piece) if piece else []
        index = min(index, len(spots) - 1) if spots else 0
        cursor = None
        if spots:
            p, o, x, y = _spot(spots[index])
            cursor = {"piece": p, "o": o, "x": x, "y": y}
        solving = not view["done_round"]
        items = self._workspace_controls(ctx, view, piece, index, spots) if solving else []
        draw = functools.partial(_task_image, _pictured(view, ctx.seat), ctx.seat, ctx.tr, cursor)
        text = self._workspace_text(ctx, view, piece, index, spots)
        return Surface(text, items, draw, "ubongo_task.png", self._workspace_alt(ctx, view))

    def _final_surface(self, ctx: Ctx) -> Surface:
        """The game is over: the DM shows the final table and the result (a game ended before its
        finish drawn as the channel's is: ended, nobody solving)."""
        public, caption = ctx.public_view(), None
        if ctx.m.status != "active" and not public["over"]:
            public = {**public, "ended": True}
            if ctx.m.meta.result is not None:
                public["ended_result"] = {"winners": list(ctx.m.meta.result.winners)}
            else:
                caption = ctx.tr("match.ended_caption")
        text = ctx.tr("ubongo.dm.over", result=self.status_line(ctx))
        draw = functools.partial(self.render, public, ctx.names, caption, ctx.tr)
        return Surface(text, [], draw, self.image_name, self.alt_text(public, ctx))

    def _workspace_text(
        self, ctx: Ctx, view: dict[str, Any], piece: str | None, index: int, spots: list[str]
    ) -> str:
        tr, names = ctx.tr, ctx.shown_names
        if view["mode"] == "race":
            when = tr("ubongo.dm.round", n=view["round"], total=view["rounds"])
        else:
            when = tr("ubongo.dm.task", n=view["round"])
        side = tr("ubongo.dm.side", side=view["side"])
        lines = [tr("ubongo.dm.head", round=when, side=side, need=view["need"])]
        clock = _when(ctx)
        if clock and view["mode"] != "race":
            lines.append(tr("ubongo.dm.solo_clock", when=clock))
        elif clock and view["solved"]:
            lines.append(tr("ubongo.dm.countdown", name=names[view["solved"][0]], when=clock))
        elif clock:
            lines.append(tr("ubongo.dm.limit", when=clock))
        lines.extend(record_lines(ctx))  # solo: the record to beat
        if view["solved"] and view["mode"] == "race":
            lines.append(tr("ubongo.dm.solved_by", list=self._solved_list(ctx, view["solved"])))
        lines.append(self._prompt(ctx, view, piece, index, spots))
        if view["history"] and view["mode"] == "race" and not view["placed"]:
            last = view["history"][-1]
            result = tr(
                "ubongo.ev.round_over",
                n=last["round"],
                reason=tr(f"ubongo.reason.{last['reason']}"),
                gains=self._gains(ctx, last["gained"], names),
            )
            lines.append(tr("ubongo.dm.last", result=result))
        return "\n".join(lines)

    def _prompt(self, ctx: Ctx, view: dict[str, Any], piece: str | None, index: int, spots: list[str]) -> str:
        """What to do next, and why a placement cannot work when that is the case."""
        tr = ctx.tr
        if view["done_round"]:
            return tr("ubongo.dm.done", order=_order(tr, view["solved"].index(ctx.seat) + 1))
        cells = sum(row.count("#") for row in view["task"])
        if view["placed"] and sum(AREA[p] for p in view["placed"]) == cells:  # R21 / E2
            return tr("ubongo.dm.wrong_count", need=view["need"])
        if piece and spots:
            return tr("ubongo.dm.chosen", piece=piece, i=index + 1, n=len(spots))
        if piece:
            return tr("ubongo.dm.nowhere", piece=piece)
        return tr("ubongo.dm.choose")

    def _workspace_alt(self, ctx: Ctx, view: dict[str, Any]) -> str:
        tr = ctx.tr
        placed = [
            tr("ubongo.dm.alt_piece", piece=p, o=o, x=x, y=y) for p, (o, x, y) in view["placed"].items()
        ]
        text = tr(
            "ubongo.dm.alt",
            side=view["side"],
            rows=" / ".join(view["task"]),
            placed=", ".join(placed) or tr("ubongo.dm.alt_none"),
            pieces=", ".join(view["pieces"]) or tr("ubongo.dm.alt_none"),
        )
        return cut(text, MAX_ALT, ELLIPSIS)

    def _workspace_controls(
        self, ctx: Ctx, view: dict[str, Any], piece: str | None, index: int, spots: list[str]
    ) -> list[discord.ui.Item[Any]]:
        """Row 0 the pieces in hand, row 1 the places of the chosen one, row 2 browsing them, row 3
        lift and clear, row 4 (solo) set aside."""
        items: list[discord.ui.Item[Any]] = []
        if view["pieces"]:
            items.append(self._piece_select(ctx, view, piece))
        if piece and spots:
            items.append(self._spot_select(ctx, piece, index, spots))
            items.extend(self._browse_buttons(ctx, piece, index, spots))
        items.extend(self._lift_buttons(ctx, view))
        if view["mode"] != "race":
            items.append(
                ctx.button("skip", ctx.tr("ubongo.button.skip"), discord.ButtonStyle.secondary, row=4)
            )
        return items

    @staticmethod
    def _lift_buttons(ctx: Ctx, view: dict[str, Any]) -> list[discord.ui.Item[Any]]:
        """A Lift button per placed piece (at most 4) and Clear all: one row of at most five."""
        tr, secondary = ctx.tr, discord.ButtonStyle.secondary
        items: list[discord.ui.Item[Any]] = [
            ctx.button(f"lift.{p}", tr("ubongo.button.lift", piece=p), secondary, row=3)
            for p in view["placed"]
        ]
        if view["placed"]:
            items.append(ctx.button("clear", tr("ubongo.button.clear"), discord.ButtonStyle.danger, row=3))
        return items

    def _piece_select(self, ctx: Ctx, view: dict[str, Any], chosen: str | None) -> discord.ui.Item[Any]:
        """The pieces in hand, each saying how many places it fits now (display only: choosing one
        writes nothing)."""
        tr, seat = ctx.tr, ctx.seat
        assert seat is not None
        options = []
        for p in (p for p in PIECE_IDS if p in view["pieces"]):
            label = tr("ubongo.pick.option", piece=p, colour=tr(f"ubongo.colour.{p}"), size=AREA[p])
            fits = _fits_text(tr, len(piece_spots(ctx.state, seat, p)))
            options.append(
                discord.SelectOption(
                    label=cut(label, MAX_OPTION, ELLIPSIS),
                    value=display_of(p),
                    description=cut(fits, MAX_OPTION, ELLIPSIS),
                    default=p == chosen,
                )
            )
        return ctx.display_select(options, placeholder=tr("ubongo.pick.placeholder"), row=0)

    def _spot_select(self, ctx: Ctx, piece: str, index: int, spots: list[str]) -> discord.ui.Item[Any]:
        """The page of places holding the one shown; choosing one places the piece there."""
        tr = ctx.tr
        first = index - index % PAGE
        page = spots[first : first + PAGE]
        options = []
        for i, code in enumerate(page, start=first + 1):
            p, o, x, y = _spot(code)
            cells = " ".join(f"{cx},{cy}" for cx, cy in cells_at(p, o, x, y))
            label = tr("ubongo.spot.option", i=i, x=x, y=y, o=o)
            options.append(
                discord.SelectOption(
                    label=cut(label, MAX_OPTION, ELLIPSIS),
                    value=code,
                    description=cut(tr("ubongo.spot.cells", cells=cells), MAX_OPTION, ELLIPSIS),
                )
            )
        placeholder = tr(
            "ubongo.spot.placeholder", piece=piece, first=first + 1, last=first + len(page), n=len(spots)
        )
        return ctx.select(PLACE, options, placeholder=cut(placeholder, MAX_PLACEHOLDER, ELLIPSIS), row=1)

    def _browse_buttons(
        self, ctx: Ctx, piece: str, index: int, spots: list[str]
    ) -> list[discord.ui.Item[Any]]:
        """◀ Place here ▶, and a jump to the next page of places when there are more than 25. A target
        already offered is not repeated (custom_ids must be unique on a message)."""
        tr, n = ctx.tr, len(spots)
        items: list[discord.ui.Item[Any]] = []
        seen = {index}

        def browse(target: int, label: str, emoji: str | None = None) -> None:
            if target not in seen:
                seen.add(target)
                items.append(ctx.display_button(display_of(piece, target), label, emoji=emoji, row=2))

        browse((index - 1) % n, tr("ubongo.button.prev"), "◀️")
        items.append(ctx.button(spots[index], tr("ubongo.button.place"), discord.ButtonStyle.success, row=2))
        browse((index + 1) % n, tr("ubongo.button.next"), "▶️")
        if n > PAGE:
            start = (index - index % PAGE + PAGE) % n
            browse(start, tr("ubongo.button.page", first=start + 1, last=min(start + PAGE, n)))
        return items
