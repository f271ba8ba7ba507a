"""Honga on Discord. The public message carries the board image, the story of the turn and every
control that reveals nothing (where to place the disk, using or declining each hand, payments,
ending the turn). The seat's disk in hand, its bonus cards, the two disks of EXTRA_DISK and the
placement yields live only on the seat's ephemeral panel, built from ``rules.view(state, seat)``.

A turn is many small decisions; each control is one action code (engine.games.honga), so the
rules validate everything and a restart resumes at the exact decision."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import discord

from bot.games.base import Ctx, GameUI, Surface
from bot.games.common import MAX_ALT, MAX_LABEL, story_lines
from bot.games.honga_panel import act_items, keep_codes, option, place_options, with_disk
from bot.games.honga_words import LINES, compact, cost_text, disk_text, hands_text, points_text, space_name
from bot.i18n import Translator
from engine.core import Event
from engine.games.honga_data import SPACES
from render.graphemes import ELLIPSIS, cut, fit_names
from render.honga import EN_LABELS, RENDERER

# every select's values are whole action codes; its argument only keeps custom_ids unique
SELECT_ARGS = ("place", "lure", "trade", "other", "cards")
RESULTS = ("gathered", "lured", "traded", "climbed", "summit", "card_played", "final_round", "honga_moved")


# ---- the UI --------------------------------------------------------------------------------------


class HongaUI(GameUI):
    game = "honga"
    image_name = "honga.png"
    renderer = RENDERER
    private = "panel"
    hand_emoji = "🐯"
    layout = "classic"  # a select per row is all a turn needs; the image carries the board

    def option_text(self, options: dict[str, Any], tr: Translator, players: int = 0) -> str:
        target = tr(f"honga.target.{options.get('target', 'standard')}")
        cap = tr(f"honga.track_cap.{options.get('track_cap', '9')}")
        return f"{target} · {cap}"

    def controls(self, ctx: Ctx) -> list[discord.ui.Item[Any]]:
        """What the mover may do that reveals nothing: never bonus cards or the disks to keep."""
        view = ctx.view()
        legal = [c for c in ctx.legal(view["current"]) if not c.startswith(("card.", "keep."))]
        if view["phase"] == "place":
            placeholder = ctx.tr("honga.ctl.place")
            return [ctx.select("place", place_options(ctx.tr, None), placeholder=placeholder, row=0)]
        if view["phase"] == "act":
            return act_items(ctx, legal, cards=False)
        return []  # keep: the two disks are the mover's secret; the panel offers them

    def private_surface(self, ctx: Ctx) -> Surface:
        seat = ctx.seat
        assert seat is not None
        view = ctx.view()
        text = self.hand_text(view, ctx)
        if view["current"] != seat or view["over"]:
            return Surface(text)
        legal = ctx.legal()
        items: list[discord.ui.Item[Any]] = []
        if view["phase"] == "place" and view["disk"] is not None:
            return self._place_panel(ctx, view, text)
        if view["phase"] == "act":
            items = act_items(ctx, legal, cards=True)
        elif view["phase"] == "keep":
            drawn = view["drawn"] or []
            codes = keep_codes(drawn)
            for code in codes:
                i = int(code[5:])
                disk = disk_text(ctx.tr, drawn[i])
                label = (
                    ctx.tr("honga.ctl.keep", n=i + 1, disk=disk)
                    if len(codes) > 1
                    else ctx.tr("honga.ctl.keep_alike", disk=disk)
                )
                items.append(ctx.button(code, cut(label, MAX_LABEL, ELLIPSIS), row=0))
        return Surface(text, items)

    def _place_panel(self, ctx: Ctx, view: dict[str, Any], text: str) -> Surface:
        """Step 1 on the panel: place at once from a select that names each placement's yield, or
        preview one first: the board drawn with the disk there (private: the panel is ephemeral)."""
        tr = ctx.tr
        options = place_options(tr, view["disk"])
        place = ctx.select("place", options, placeholder=tr("honga.ctl.place"), row=0)
        previews = [option(o.label, "prev." + o.value[6:], o.description) for o in options]
        chosen = ctx.display[5:] if ctx.display.startswith("prev.") else ""
        for o in previews:
            o.default = o.value == ctx.display
        preview = ctx.display_select(previews, placeholder=tr("honga.ctl.preview"), row=1)
        surface = Surface(text, [place, preview])
        space, _, rot = chosen.partition(".")
        if space in SPACES and rot in ("0", "1", "2", "3"):
            caption = next(o.label for o in options if o.value == f"place.{chosen}")
            pv = with_disk(view, space, int(rot))
            surface.draw = functools.partial(self.render, pv, ctx.names, caption, tr)
            surface.filename, surface.alt = "honga-preview.png", caption
        return surface

    def hand_text(self, view: dict[str, Any], ctx: Ctx) -> str:
        tr, seat = ctx.tr, view["me"]
        me = view["players"][seat]
        counts = zip(("f", "b", "m", "w"), me["res"], strict=True)
        res = [tr(f"honga.pay.{k}", n=n) for k, n in counts] + [tr("honga.cost.mammoths", n=me["board"])]
        lines = [tr("honga.hand.res", res=", ".join(res), score=points_text(tr, me["score"]))]
        disk = view["disk"]
        if disk is not None:
            lines.append(
                tr(
                    "honga.hand.disk",
                    colour=tr("honga.colour." + disk["colour"]),
                    hands=disk_text(tr, disk).split(": ", 1)[1],
                )
            )
        else:
            lines.append(tr("honga.hand.no_disk"))
        cards = ", ".join(tr(f"honga.card.{c}") for c in view["cards"] or []) or tr("honga.hand.none")
        lines.append(tr("honga.hand.cards", cards=cards))
        if me["pending"]:
            lines.append(tr("honga.hand.pending", n=me["pending"]))
        if view["drawn"]:
            a, b2 = (disk_text(tr, d) for d in view["drawn"])
            lines.append(tr("honga.hand.drawn", a=a, b=b2))
        if not view["over"]:
            turn = (
                tr("honga.hand.your_turn")
                if view["current"] == seat
                else tr("honga.hand.wait", name=ctx.shown_names[view["current"]])
            )
            lines.append(turn)
        return "\n".join(lines)

    def select_action(self, arg: str, values: Sequence[str]) -> str:
        """Every option's value is a whole action code (the rules refuse anything else)."""
        if arg not in SELECT_ARGS or len(values) != 1:
            return "invalid"
        return values[0]

    # ---- the story ---------------------------------------------------------------------------------

    def _line(self, e: Event, names: list[str], tr: Translator) -> str | None:
        """The story line of one public event (None: nothing worth a line, e.g. 'turn')."""
        words = LINES.get(e.kind)
        if words is None:
            return None
        d = e.data
        name = names[d["seat"]] if isinstance(d.get("seat"), int) else ""
        return words(d, name, names, tr)

    @staticmethod
    def _actor(e: Event) -> int | None:
        seat = e.data.get("seat")
        return seat if isinstance(seat, int) and e.kind not in ("mammoth_home", "final_round") else None

    @staticmethod
    def _is_result(e: Event) -> bool:
        return e.kind in RESULTS

    def event_lines(self, events: list[Event], ctx: Ctx) -> list[str]:
        lines = story_lines(
            [e for e in events if e.visible_to(None)],
            ctx,
            line=lambda e: self._line(e, ctx.shown_names, ctx.tr),
            actor=self._actor,
            is_result=self._is_result,
        )
        prefix = ctx.tr("ev.computer_turn", text="")
        ai_names = [n for n, seat in zip(ctx.shown_names, ctx.m.seats, strict=False) if seat.ai]
        return [compact(x, prefix, ai_names) if x.startswith(prefix) else x for x in lines]

    def caption(self, events: list[Event], ctx: Ctx) -> str | None:
        """The turn's latest result (a trade, a lure, the summit, a timeout); otherwise the
        renderer's own caption names who does which step."""
        if ctx.m.status == "finished":
            return None  # the renderer names the winners and the tie-break
        public = [e for e in events if e.visible_to(None)]
        results = [e for e in public if e.kind in ("traded", "lured", "summit", "final_round", "timeout")]
        if not results:
            return None
        last = results[-1]
        if last.kind == "timeout":
            return ctx.tr("ev.timeout", name=ctx.names[last.data["seat"]]).replace("⏱ ", "")
        text = self._line(last, ctx.names, ctx.tr) or ""
        return text.split(" ", 1)[1] if text[:1] in "🦣🤝⛰🔥" else text

    def status_line(self, ctx: Ctx) -> str:
        tr, names = ctx.tr, ctx.shown_names
        view = ctx.view()
        if view["over"]:
            scores = ", ".join(f"{names[i]} {p['score']}" for i, p in enumerate(view["players"]))
            winners = " & ".join(names[w] for w in view["winners"])
            return tr("honga.status.over", winners=winners, scores=scores,
                      tiebreak=tr(f"honga.tiebreak.{view['tiebreak']}"))  # fmt: skip
        name = names[view["current"]]
        if view["phase"] == "act":
            left = hands_text(tr, view["turn_state"]["left"])
            return (
                tr("honga.status.act", name=name, left=left)
                if left
                else tr("honga.status.act_none", name=name)
            )
        return tr(f"honga.status.{view['phase']}", name=name)

    def alt_text(self, view: dict[str, Any], ctx: Ctx) -> str:
        """The whole public position in words (screen readers; the image's description). Past
        Discord's 1,024 characters the names are shortened (on grapheme boundaries, with "…"), so
        every player's score and goods stay."""
        return fit_names(lambda names: self._alt_text(view, ctx, names), ctx.names, MAX_ALT)

    def _alt_text(self, view: dict[str, Any], ctx: Ctx, names: list[str]) -> str:
        tr = ctx.tr
        parts = [tr("honga.alt.head", turn=view["turn"], n=view["target"],
                    final=tr("honga.alt.final") if view["final_round"] else "")]  # fmt: skip
        # whose turn comes first: the most wanted fact when only a screen reader's first words are heard
        if view["over"] and view.get("winners") is not None:
            parts.append(tr("honga.alt.over", winners=" & ".join(names[w] for w in view["winners"])))
        elif view.get("ended") and not view.get("ended_result"):  # ended by the host or a moderator
            parts.append(tr("honga.alt.ended"))
        elif not view.get("ended") and f"step_{view['phase']}" in EN_LABELS:
            parts.append(tr(f"render.honga.step_{view['phase']}", name=names[view["current"]]) + ".")
            if left := hands_text(tr, view["turn_state"]["left"]):
                parts.append(tr("honga.alt.left", hands=left))
        for space, info in view["spaces"].items():
            top = info["top"]
            if top is None:
                parts.append(tr("honga.alt.space_empty", space=space_name(tr, space)) + ".")
            else:
                parts.append(
                    tr("honga.alt.space", space=space_name(tr, space), disk=hands_text(tr, top["fields"]))
                    + "."
                )
        h = view["honga"]
        parts.append(tr("honga.alt.honga_field") if h is None else tr("honga.alt.honga_at", name=names[h]))
        owners = ", ".join(names[o] for o in view["herd"]) or tr("honga.alt.empty")
        tusk = names[view["tusk"]] if view["tusk"] is not None else tr("honga.alt.nobody")
        parts.append(
            tr("honga.alt.herd", n=len(view["herd"]), cap=view["herd_cap"], owners=owners, tusk=tusk)
        )
        cards = [
            tr("honga.alt.trade_card", slot=i + 1, cost=cost_text(tr, c["food"], c["mammoths"]), n=c["vp"])
            if c
            else f"{i + 1}) {tr('honga.alt.empty')}"
            for i, c in enumerate(view["trade"])
        ]
        parts.append(tr("honga.alt.trade", cards="; ".join(cards)))
        steps = ", ".join(f"{names[i]} {p['step']}" for i, p in enumerate(view["players"]))
        parts.append(tr("honga.alt.mountain", steps=steps))
        for i, p in enumerate(view["players"]):
            f, b, m, w = (tr(f"honga.pay.{k}", n=n) for k, n in zip("fbmw", p["res"], strict=True))
            pending = tr("honga.alt.pending", n=p["pending"]) if p["pending"] else ""
            parts.append(tr("honga.alt.player", name=names[i], score=tr("honga.points", n=p["score"]), f=f,
                            b=b, m=m, w=w, x=tr("honga.cost.mammoths", n=p["board"]),
                            cards=tr("honga.alt.cards", n=p["cards"])) + pending + ".")  # fmt: skip
        return " ".join(parts)
