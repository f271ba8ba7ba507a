"""Ugah Ugah! on Discord: buttons per die symbol, a multi-select to name several at once,
move-order and keep/give buttons, texts built only from public views and public events. The private
panel (My chips) shows a seat's chips and, in Uncertain hunting, offers the keep choice with the
face-down values that only the active player may see."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import discord

from bot.components import ActionButton
from bot.games.base import Ctx, GameUI, Surface
from bot.games.common import MAX_ALT, MAX_LABEL, story_lines
from bot.i18n import Translator
from engine.core import Event
from engine.games.ugah import open_stretch, simulate_moves
from render.graphemes import ELLIPSIS, cut, fit_names
from render.ugah import RENDERER

ORDER = ("dinosaur", "mammoth", "bird", "mm", "bb")
EMOJI = {
    "bone": "🦴",
    "dinosaur": "🦖",
    "mammoth": "🦣",
    "bird": "🐦",
    "mm": "🔵",
    "bb": "🟣",
}  # board colours


def _chip(tr: Translator, value: int | None) -> str:
    if value is None:
        return tr("ugah.chip.hidden")
    return tr("ugah.chip.caterpillar") if value == 1 else tr("ugah.chip.value", value=value)


def _chip_at(tr: Translator, path: list[Any], j: int) -> str:
    """The chip on place ``j`` as the public sees it: its value, or which face-down chip it is."""
    value = path[j]["v"]
    return tr("ugah.chip.hidden_at", n=j + 1) if value is None else _chip(tr, value)


class UgahUI(GameUI):
    game = "ugah"
    image_name = "ugah.png"
    renderer = RENDERER
    private = "panel"
    hand_emoji = "🎒"
    layout = "classic"

    def option_text(self, options: dict[str, Any], tr: Translator, players: int = 0) -> str:
        variant = tr(f"ugah.variant.{options.get('variant', 'basic')}")
        rolling = tr(f"ugah.rolling.{options.get('rolling', 'multi')}")
        return f"{variant} · {rolling}"

    def action_text(self, code: str, ctx: Ctx) -> str | None:
        """A pick in words (the recap that teaches): one symbol as its button says it, several
        (picked in the select) joined, "🦖 Dinosaur ×1 + 🦣 Mammoth ×2"."""
        kind, *symbols = code.split(".")
        if kind != "pick" or not symbols or not all(sym in EMOJI for sym in symbols):
            return None
        counts = Counter(ctx.view()["rolled"])
        return " + ".join(f"{EMOJI[sym]} {ctx.tr('ugah.sym.' + sym)} ×{counts[sym]}" for sym in symbols)

    def controls(self, ctx: Ctx) -> list[discord.ui.Item[Any]]:
        view, tr = ctx.view(), ctx.tr
        legal = ctx.legal(view["current"])
        items: list[discord.ui.Item[Any]] = []
        if view["phase"] == "pick":
            counts = Counter(view["rolled"])
            present = [s for s in ORDER if counts[s]]
            for sym in present:
                if f"pick.{sym}" in legal:
                    label = f"{tr('ugah.sym.' + sym)} ×{counts[sym]}"
                    items.append(ctx.button(f"pick.{sym}", label, emoji=EMOJI[sym]))
            if len(present) > 1 and not view["single"]:
                options = [
                    discord.SelectOption(label=f"{tr('ugah.sym.' + s)} ×{counts[s]}", value=s, emoji=EMOJI[s])
                    for s in present
                ]
                placeholder = tr("ugah.pick.several")
                items.append(
                    ctx.select(
                        "pick", options, min_values=1, max_values=len(present), placeholder=placeholder, row=1
                    )
                )
        elif view["phase"] == "order":
            for hunter in ("mm", "bb"):
                items.append(
                    ctx.button(f"first.{hunter}", self._order_label(ctx, hunter), emoji=EMOJI[hunter])
                )
        elif view["phase"] == "keep":
            items.extend(self._keep_buttons(ctx, legal))
        return items

    def help_text(self, ctx: Ctx) -> str:
        """The ? button for the player to move (ctx.seat), from their view: the dice showing and
        how to set them aside, what each hunter order leads to, or each keep/give choice with values."""
        view, tr = ctx.view(), ctx.tr
        if view["phase"] == "pick":
            counts = Counter(view["rolled"])
            shown = ", ".join(f"{EMOJI[s]} {tr('ugah.sym.' + s)} ×{counts[s]}" for s in ORDER if counts[s])
            key = "ugah.help.pick_single" if view["single"] else "ugah.help.pick"
            return tr(key, dice=shown)
        if view["phase"] == "order":
            choices = [self._order_label(ctx, h) for h in ("mm", "bb")]
            return tr("ugah.help.order", choices="\n".join(f"• {c}" for c in choices))
        if view["phase"] == "keep":
            labels = [str(b.item.label) for b in self._keep_buttons(ctx, ctx.legal())]
            return tr("ugah.help.keep", choices="\n".join(f"• {c}" for c in labels))
        return ""

    @staticmethod
    def _order_label(ctx: Ctx, hunter: str) -> str:
        """What each order leads to, from the board everyone sees (R24-R32): where the hunters stop,
        or, when they meet on one chip, the chip taken and the chips lost as the game ends."""
        tr, view = ctx.tr, ctx.view()
        a, b = view["aside"].count("mm"), view["aside"].count("bb")
        path = [None if c["taken"] else c for c in view["path"]]
        mm, bb, _ = simulate_moves(path, view["mm"], view["bb"], a, b, hunter == "mm")
        results = []  # the fullest that fits in a button label (80 characters) is shown
        if mm != bb:
            for chip in (_chip_at, lambda tr, path, j: _chip(tr, path[j]["v"])):
                results.append(tr("ugah.first.result", mm=chip(tr, path, mm), bb=chip(tr, path, bb)))
        else:  # they meet: that chip is taken, the game ends and the others between them are lost
            take = tr("ugah.first.take", chip=_chip_at(tr, path, mm))
            lost = [_chip_at(tr, path, j) for j in open_stretch(path, view["mm"], view["bb"]) if j != mm]
            if len(lost) == 1:
                results.append(tr("ugah.first.take_lost", chip=take, lost=lost[0]))
            elif len(lost) == 2:
                results.append(tr("ugah.first.take_lost2", chip=take, lost=lost[0], lost2=lost[1]))
            if len(lost) > 1:
                results.append(tr("ugah.first.take_lost_n", chip=take, n=len(lost)))
            results.append(take)
        first = tr(f"ugah.first.{hunter}")
        labels = [tr("ugah.first.label", first=first, result=r) for r in results]
        return next((x for x in labels if len(x) <= MAX_LABEL), cut(labels[-1], MAX_LABEL, ELLIPSIS))

    def _keep_buttons(self, ctx: Ctx, legal: list[str]) -> list[ActionButton]:
        """Keep/give buttons labelled from the viewer's own view: the public message never shows a
        face-down value, the active player's panel does."""
        tr = ctx.tr
        pending = ctx.view()["pending"]
        items: list[ActionButton] = []
        for i, action in enumerate(a for a in legal if a.startswith("keep.")):
            _, kept, to = action.split(".")
            given = "bb" if kept == "mm" else "mm"
            words = {
                "keep": tr(f"ugah.short.{kept}"),
                "keep_chip": _chip(tr, pending[f"{kept}_v"]),
                "give": tr(f"ugah.short.{given}"),
                "give_chip": _chip(tr, pending[f"{given}_v"]),
            }
            # a long name is shortened (on grapheme boundaries), never the chips kept and given
            label = fit_names(
                lambda n, w=words: tr("ugah.keep", **w, name=n[0]), [ctx.names[int(to)]], MAX_LABEL
            )
            items.append(ctx.button(action, label, style=discord.ButtonStyle.success, row=i // 2))
        return items

    def private_surface(self, ctx: Ctx) -> Surface:
        view, seat = ctx.view(), ctx.seat
        assert seat is not None
        text = self.hand(view, seat, ctx.tr)
        items: list[discord.ui.Item[Any]] = []
        if view["phase"] == "keep" and view["current"] == seat:
            items = [*self._keep_buttons(ctx, ctx.legal())]
        return Surface(text, items)

    def select_action(self, arg: str, values: Sequence[str]) -> str:
        if arg != "pick" or not values:
            return f"{arg}.invalid"
        return "pick." + ".".join(sorted(set(values), key=lambda v: ORDER.index(v) if v in ORDER else 99))

    def _line(self, e: Event, names: list[str], tr: Translator) -> str | None:
        d = e.data
        name = names[d["seat"]] if "seat" in d else ""
        if e.kind == "rolled":
            faces = " ".join(EMOJI[f] for f in [*d["faces"]])
            return tr("ugah.ev.rolled", name=name, faces=faces)
        if e.kind == "set_aside":
            syms = ", ".join(tr("ugah.sym." + s) for s in d["symbols"])
            return tr("ugah.ev.set_aside", name=name, symbols=syms, count=d["count"])
        if e.kind == "spoils":
            key = "ugah.ev.spoils_from" if d.get("from") is not None else "ugah.ev.spoils"
            victim = names[d["from"]] if d.get("from") is not None else ""
            return tr(key, name=name, animal=tr("ugah.sym." + d["animal"]), victim=victim)
        if e.kind == "moved":
            steps = d["steps"]
            key = "ugah.ev.moved_forfeit" if d.get("forfeited") else "ugah.ev.moved"
            hunter = tr("ugah.sym." + d["hunter"])
            return tr(key, hunter=hunter, steps=tr("ugah.steps", n=steps),
                      forfeited=d.get("forfeited", 0))  # fmt: skip
        if e.kind == "chip_taken":
            return tr("ugah.ev.taken", name=name, chip=_chip(tr, d.get("value")))
        if e.kind == "chip_given":
            return tr(
                "ugah.ev.given",
                giver=names[d["from"]],
                receiver=names[d["to"]],
                chip=_chip(tr, d.get("value")),
            )
        return None

    @staticmethod
    def _actor(e: Event) -> int | None:
        d = e.data
        return d.get("seat", d.get("from")) if e.kind != "moved" else None

    @staticmethod
    def _is_result(e: Event) -> bool:
        return e.kind in ("spoils", "chip_taken", "chip_given")

    def event_lines(self, events: list[Event], ctx: Ctx) -> list[str]:
        return story_lines(
            [e for e in events if e.visible_to(None)],
            ctx,
            line=lambda e: self._line(e, ctx.shown_names, ctx.tr),
            actor=self._actor,
            is_result=self._is_result,
        )

    def caption(self, events: list[Event], ctx: Ctx) -> str | None:
        """The turn's result (chip taken, timeout, winner), not its last micro-step; the throw itself
        is drawn on the board (and emoji would not render in the image font)."""
        if ctx.m.status == "finished":
            return None  # the renderer's own caption names the winners
        public = [e for e in events if e.visible_to(None)]
        results = [e for e in public if self._is_result(e) or e.kind == "timeout"]
        if results:
            last = results[-1]
            if last.kind == "timeout":
                return ctx.tr("ev.timeout", name=ctx.names[last.data["seat"]])
            return self._line(last, ctx.names, ctx.tr)
        return None  # no result yet: the renderer's caption says who is doing what (not a micro-step)

    def status_line(self, ctx: Ctx) -> str:
        view, names, tr = ctx.public_view(), ctx.shown_names, ctx.tr
        if view["scores"] is not None:  # the rules' outcome
            scores = ", ".join(f"{names[i]} {s}" for i, s in enumerate(view["scores"]))
            winners = " & ".join(names[w] for w in view["winners"])
            return tr("ugah.status.over", winners=winners, scores=scores)
        pending = view["pending"]
        if pending and None in (pending["mm_v"], pending["bb_v"]):  # face-down chips: the panel shows them
            return tr("ugah.status.keep_hidden", name=names[view["current"]])
        phase = "pick_single" if view["phase"] == "pick" and view["single"] else view["phase"]
        return tr(f"ugah.status.{phase}", name=names[view["current"]])

    def alt_text(self, view: dict[str, Any], ctx: Ctx) -> str:
        """The whole position in words (the image's description). Past Discord's 1,024 characters
        the names are shortened (on grapheme boundaries), so every player's facts stay."""
        return fit_names(lambda names: self._alt_text(view, ctx, names), ctx.names, MAX_ALT)

    def _alt_text(self, view: dict[str, Any], ctx: Ctx, names: list[str]) -> str:
        tr = ctx.tr
        path = view["path"]
        between = [c for j, c in enumerate(path) if view["mm"] < j < view["bb"] and not c["taken"]]
        shown = [str(c["v"]) for c in between if c["v"] is not None]
        hidden = sum(1 for c in between if c["v"] is None)
        spoils = ", ".join(
            f"{tr('ugah.sym.' + a)}: {names[h] if h is not None else tr('ugah.alt.middle')}"
            for a, h in view["spoils"].items()
        )
        stashes = ", ".join(f"{names[i]} {n}" for i, n in enumerate(view["stash_sizes"]))

        def where(pos: int) -> str:  # places as a player counts them, not internal indexes
            return (
                tr("ugah.alt.at_start") if pos < 0 or pos >= len(path) else tr("ugah.alt.at_chip", n=pos + 1)
            )

        parts = [
            tr(
                "ugah.alt.head",
                mm=where(view["mm"]),
                bb=where(view["bb"]),
                n=len(between),
                values=" ".join(shown) or "-",
                hidden=hidden,
            ),
            tr(
                "ugah.alt.dice",
                aside=", ".join(tr("ugah.sym." + f) for f in view["aside"]) or "-",
                rolled=", ".join(tr("ugah.sym." + f) for f in view["rolled"]) or "-",
            ),
            tr("ugah.alt.spoils", spoils=spoils),
            tr("ugah.alt.stashes", stashes=stashes),
        ]
        if view["over"]:
            scores = ", ".join(f"{names[i]} {s}" for i, s in enumerate(view["scores"]))
            parts.append(tr("ugah.alt.scores", scores=scores))
        elif view.get("ended"):
            parts.append(tr("ugah.alt.ended"))
        else:
            parts.append(tr("ugah.alt.turn", name=names[view["current"]]))
        return " ".join(parts)

    def hand(self, view: dict[str, Any], seat: int, tr: Translator) -> str:
        """The seat's chips and spoils, from its own view."""
        chips = view["stash"] or []
        lines = [
            tr(
                "ugah.hand.chips",
                chips=", ".join(_chip(tr, v) for v in sorted(chips, reverse=True)) or tr("ugah.hand.none"),
                n=sum(chips),
                count=len(chips),
            ),
        ]
        held = [a for a, h in view["spoils"].items() if h == seat]
        if held:
            cards = ", ".join(tr("ugah.sym." + a) for a in held)
            lines.append(tr("ugah.hand.spoils", cards=cards, points=3 * len(held)))
        pending = view["pending"]
        if pending and view["current"] == seat:
            lines.append(
                tr("ugah.hand.pending", mm=_chip(tr, pending["mm_v"]), bb=_chip(tr, pending["bb_v"]))
            )
        return "\n".join(lines)
