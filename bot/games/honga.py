"""Honga on Discord. The public message carries the board image, the story of the turn and every
control that reveals nothing (where to place the disk, using or declining each hand, payments,
ending the turn). The seat's disk in hand, its bonus cards, the two disks of EXTRA_DISK and the
placement yields live only on the seat's ephemeral panel, built from ``rules.view(state, seat)``.

A turn is many small decisions; each control is one action code (engine.games.honga), so the
rules validate everything and a restart resumes at the exact decision."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Sequence
from typing import Any

import discord

from bot.games.base import Ctx, GameUI, Surface
from bot.games.common import MAX_ALT, MAX_LABEL, MAX_OPTION, MAX_PLACEHOLDER, story_lines
from bot.i18n import Translator
from engine.core import Event
from engine.games.honga import FIELD_CODES, GATHER_CODES
from engine.games.honga_data import DISKS, FIELDS, HONGA, NEIGHBOURS, SPACES, TRADE_CARDS
from engine.games.honga_pay import Pay, parse_pay
from engine.games.honga_turn import hands_by_field
from render.graphemes import ELLIPSIS, cut, fit_names
from render.honga import EN_LABELS, RENDERER

MAX_OPTIONS = 25  # Discord: options per select
# every select's values are whole action codes; its argument only keeps custom_ids unique
SELECT_ARGS = ("place", "lure", "trade", "other", "cards")
BUTTON_CODES = ("fish", "water", "berry", "mushroom", "draw", "climb")
RESULTS = ("gathered", "lured", "traded", "climbed", "summit", "card_played", "final_round", "honga_moved")
FOOD_KEY = {"f": "honga.res.f", "b": "honga.res.b", "m": "honga.res.m"}


# ---- words for codes ----------------------------------------------------------------------------


def _field(tr: Translator, fld: str) -> str:
    return tr(f"honga.field.{fld}")


def _space(tr: Translator, space: str) -> str:
    return tr(f"honga.space.{space}")


def pay_text(tr: Translator, code: str) -> str:
    """A canonical payment in words: '1 fish, 2 water, herd mammoth #3'."""
    p = parse_pay(code)
    if p is None:
        return code
    return _pay_words(tr, p)


def _pay_words(tr: Translator, p: Pay) -> str:
    parts = []
    for key, n in (("f", p.f), ("b", p.b), ("m", p.m), ("w", p.w)):
        if n:
            parts.append(tr(f"honga.pay.{key}", n=n))
    if p.g:
        parts.append(tr("honga.pay.g"))
    if p.x:
        parts.append(tr("honga.pay.x", n=p.x))
    parts += [tr("honga.pay.herd", pos=i + 1) for i in p.herd]
    return ", ".join(parts) or tr("honga.pay.nothing")


def _cost(tr: Translator, food: str, mammoths: int) -> str:
    """A trade card's cost: '2 fish, 1 berry + 1 mammoth'."""
    words = ", ".join(tr(f"honga.pay.{c}", n=food.count(c)) for c in "fbm" if c in food)
    more = tr("honga.cost.mammoths", n=mammoths) if mammoths else ""
    return tr("honga.cost", food=words, plus=" + " if words and more else "", mammoths=more)


def _hands(tr: Translator, fields: dict[str, int]) -> str:
    """'2 trades, 1 climb' in the board's field order (empty quarters left out)."""
    return ", ".join(tr(f"honga.hands.{f}", n=fields[f]) for f in FIELDS if fields.get(f))


def _points(tr: Translator, n: int) -> str:
    return tr("honga.points", n=n)


def _outcome(code: str, herd: Sequence[int]) -> tuple[Any, ...]:
    """What a code does, for telling equal choices apart: a payment with herd mammoths is named by
    the herd left behind, so taking mammoth #1, #2 or #3 of a run of one owner's mammoths is one
    choice (the herd closes up the same way); any other code is its own outcome."""
    kind, _, rest = code.partition(".")
    if kind == "trade":
        slot, _, pay = rest.partition(".")
        p = parse_pay(pay)
        if p is not None and p.herd:
            left = tuple(owner for i, owner in enumerate(herd) if i not in p.herd)
            return (kind, slot, dataclasses.replace(p, herd=()), len(p.herd), left)
    return (code,)


def distinct_codes(codes: Sequence[str], herd: Sequence[int]) -> list[str]:
    """``codes`` with each distinct outcome once (the first code of each: the rules keep taking
    the others, so old action logs still replay)."""
    seen: set[tuple[Any, ...]] = set()
    out = []
    for code in codes:
        key = _outcome(code, herd)
        if key not in seen:
            seen.add(key)
            out.append(code)
    return out


def keep_codes(drawn: Sequence[dict[str, Any]]) -> list[str]:
    """EXTRA_DISK: one keep code per different-looking disk (two alike disks: keeping either is the
    same choice)."""
    looks = [(d["colour"], tuple(d["hands"])) for d in drawn]
    return [f"keep.{i}" for i, look in enumerate(looks) if look not in looks[:i]]


def _disk_text(tr: Translator, disk: dict[str, Any]) -> str:
    quarters = ", ".join(tr("honga.hand.quarter", q=i + 1, n=n) for i, n in enumerate(disk["hands"]))
    return f"{tr('honga.colour.' + disk['colour'])}: {quarters}"


def _option(label: str, value: str, description: str | None = None) -> discord.SelectOption:
    return discord.SelectOption(
        label=cut(label, MAX_OPTION, ELLIPSIS),
        value=value,
        description=cut(description, MAX_OPTION, ELLIPSIS) if description else None,
    )


def _paged(options: list[discord.SelectOption], page: int) -> list[discord.SelectOption]:
    """One page of at most 25 options; ``page`` wraps around."""
    pages = max(1, -(-len(options) // MAX_OPTIONS))
    start = (page % pages) * MAX_OPTIONS
    return options[start : start + MAX_OPTIONS]


def _page_of(display: str) -> int:
    """The display state of the 'More choices' button: 'page.<n>'."""
    kind, _, n = display.partition(".")
    return int(n) if kind == "page" and n.isdigit() else 0


# ---- controls ------------------------------------------------------------------------------------


def _place_options(tr: Translator, disk: dict[str, Any] | None) -> list[discord.SelectOption]:
    """The 16 placements. Without the disk (public) they say only which way the disk is turned;
    with it (the mover's panel) what each placement yields and whether HONGA is fed."""
    out = []
    for space in SPACES:
        nb = NEIGHBOURS[space]
        for rot in range(4):
            sp, facing = _space(tr, space), _field(tr, nb[rot])
            order = ", ".join(_field(tr, nb[(i + rot) % 4]) for i in range(4))
            desc = tr("honga.ctl.place_desc", fields=order)
            if disk is None:
                label = tr("honga.ctl.place_option", space=sp, field=facing)
            else:
                hands = hands_by_field(space, rot, disk["hands"])
                fed = tr("honga.ctl.fed") if hands.get(HONGA) else tr("honga.ctl.not_fed")
                yields = _hands(tr, {f: k for f, k in hands.items() if f != HONGA}) or "-"
                label = tr("honga.ctl.place_yield", space=sp, field=facing, yields=f"{yields} · {fed}")
            out.append(_option(label, f"place.{space}.{rot}", desc))
    return out


def _card_label(tr: Translator, code: str) -> str:
    parts = code.split(".")
    card = tr(f"honga.cardname.{parts[1]}")
    if len(parts) == 2:
        return tr("honga.ctl.card_option", card=tr(f"honga.card.{parts[1]}"))
    arg = parts[2]
    if parts[1] == "buyvp":
        return tr("honga.ctl.card_buy", card=card, pay=pay_text(tr, arg))
    if arg == "chase":
        return tr("honga.ctl.card_chase", card=card)
    if arg == "climb":
        return tr("honga.ctl.card_climb", card=card)
    return tr("honga.ctl.card_field", card=card, field=_field(tr, arg))


def _trade_label(tr: Translator, code: str, view: dict[str, Any]) -> str:
    _, slot, pay = code.split(".")
    card = view["trade"][int(slot) - 1]
    vp = _points(tr, card["vp"]) if card else "?"
    return tr("honga.ctl.trade_option", slot=slot, vp=vp, pay=pay_text(tr, pay))


class _Builder:
    """Lays the step-3 controls out in rows: buttons on row 0, then one select per row."""

    def __init__(self, ctx: Ctx, first_row: int = 1) -> None:
        self.ctx, self.tr = ctx, ctx.tr
        self.page = _page_of(ctx.display)
        self.row = first_row
        self.buttons: list[discord.ui.Item[Any]] = []
        self.selects: list[discord.ui.Item[Any]] = []
        self.overflow = False

    def add_select(self, arg: str, placeholder: str, options: list[discord.SelectOption]) -> None:
        if not options or self.row > 4:
            return
        pages = -(-len(options) // MAX_OPTIONS)
        if pages > 1:  # say which page this is: the rest is behind "More choices"
            self.overflow = True
            placeholder = f"{placeholder} ({self.page % pages + 1}/{pages})"
        shown = _paged(options, self.page)
        self.selects.append(
            self.ctx.select(arg, shown, placeholder=cut(placeholder, MAX_PLACEHOLDER, ELLIPSIS), row=self.row)
        )
        self.row += 1

    def items(self) -> list[discord.ui.Item[Any]]:
        if self.overflow:
            more = self.ctx.display_button(f"page.{self.page + 1}", self.tr("honga.ctl.more"), row=0)
            self.buttons.append(more)
        return self.buttons + self.selects


def _act_items(ctx: Ctx, legal: list[str], *, cards: bool) -> list[discord.ui.Item[Any]]:
    """Step 3: a button per hand use, End turn, and selects for luring, trading, declining and
    exchanging water; on the mover's panel also the bonus cards (``cards``)."""
    tr, view = ctx.tr, ctx.view()
    left = view["turn_state"]["left"]
    legal = distinct_codes(legal, view["herd"])
    b = _Builder(ctx)
    for code in BUTTON_CODES:
        if code in legal:
            fld = GATHER_CODES.get(code) or next(f for f, c in FIELD_CODES.items() if c == code)
            b.buttons.append(ctx.button(code, tr(f"honga.ctl.{code}", n=left.get(fld, 1)), row=0))
    b.buttons.append(ctx.button("end", tr("honga.ctl.end"), style=discord.ButtonStyle.danger, row=0))
    lure = [
        _option(tr("honga.ctl.lure_option", pay=pay_text(tr, c[5:])), c) for c in legal if c[:5] == "lure."
    ]
    b.add_select("lure", tr("honga.ctl.lure"), lure)
    trade = [_option(_trade_label(tr, c, view), c) for c in legal if c.startswith("trade.")]
    b.add_select("trade", tr("honga.ctl.trade"), trade)
    other = [
        _option(tr("honga.ctl.skip", field=_field(tr, c[5:]), n=left.get(c[5:], 1)), c)
        for c in legal
        if c.startswith("skip.")
    ]
    other += [
        _option(tr("honga.ctl.convert", food=tr(FOOD_KEY[c[-1]])), c)
        for c in legal
        if c.startswith("convert.")
    ]
    b.add_select("other", tr("honga.ctl.other"), other)
    if cards:
        played = len(view["turn_state"]["played"])
        options = [_option(_card_label(tr, c), c) for c in legal if c.startswith("card.")]
        b.add_select("cards", tr("honga.ctl.cards", n=2 - played), options)
    return b.items()


def _with_disk(view: dict[str, Any], space: str, rot: int) -> dict[str, Any]:
    """The seat's view with its disk in hand drawn on ``space`` turned ``rot`` (a preview)."""
    disk = view["disk"]
    top = {**disk, "rot": rot, "fields": hands_by_field(space, rot, disk["hands"])}
    depth = view["spaces"][space]["depth"] + 1
    # drawn as the disk being used (ringed, its hands live) so it stands out from the others
    left = {f: k for f, k in top["fields"].items() if k and f != HONGA}
    turn = {**view["turn_state"], "placed": {"space": space, "rot": rot, "disk": top}, "left": left}
    spaces = {**view["spaces"], space: {"top": top, "depth": depth}}
    return {**view, "spaces": spaces, "phase": "act", "turn_state": turn}


# ---- story lines, one small function per event kind -------------------------------------------------

Line = Callable[[dict[str, Any], str, list[str], Translator], str | None]


def _placed(d: dict[str, Any], name: str, names: list[str], tr: Translator) -> str:
    colour, pattern = DISKS[d["disk"]]
    hands = _hands(tr, hands_by_field(d["space"], d["rot"], pattern))
    colour_word = tr(f"honga.colour.{colour}")
    return tr("honga.ev.placed", name=name, colour=colour_word, space=_space(tr, d["space"]), hands=hands)


def _honga_ate(d: dict[str, Any], name: str, names: list[str], tr: Translator) -> str:
    if d["item"] is None:
        return tr("honga.ev.honga_hungry", name=name)
    item = tr("honga.res.mammoth") if d["item"] == "mammoth" else tr(f"honga.res.{d['item']}")
    return tr("honga.ev.honga_ate", name=name, item=item)


def _honga_moved(d: dict[str, Any], name: str, names: list[str], tr: Translator) -> str:
    if d["to"] is None:
        return tr("honga.ev.honga_home", name=names[d["from"]])
    return tr("honga.ev.honga_came", name=names[d["to"]])


def _gathered(d: dict[str, Any], name: str, names: list[str], tr: Translator) -> str:
    item = tr(f"honga.res.{d['item']}")
    if not d["gained"]:  # R14: the track was full
        return tr("honga.ev.gathered_capped", name=name, item=item)
    return tr("honga.ev.gathered", name=name, amount=tr(f"honga.pay.{d['item']}", n=d["gained"]))


def _card_played(d: dict[str, Any], name: str, names: list[str], tr: Translator) -> str:
    card, choice = tr(f"honga.cardname.{d['card']}"), d.get("choice")
    if choice is None:
        return tr("honga.ev.card_played", name=name, card=card)
    what = _field(tr, choice) if choice in FIELDS else choice
    return tr("honga.ev.card_choice", name=name, card=card, choice=what)


def _trade_revealed(d: dict[str, Any], name: str, names: list[str], tr: Translator) -> str:
    food, mammoths, vp = TRADE_CARDS[d["card"]]
    cost = _cost(tr, food, mammoths)
    return tr("honga.ev.trade_revealed", slot=d["slot"] + 1, cost=cost, vp=_points(tr, vp))


def _disk_drawn(d: dict[str, Any], name: str, names: list[str], tr: Translator) -> str | None:
    if "count" not in d:  # the owner's copy naming the disks: never public
        return None
    key = {0: "honga.ev.disk_none", 1: "honga.ev.disk_drawn"}.get(d["count"], "honga.ev.disk_drawn2")
    return tr(key, name=name, colour=tr(f"honga.colour.{d['colour']}"))


def _summit(d: dict[str, Any], name: str, names: list[str], tr: Translator) -> str:
    gains = ", ".join(f"{names[i]} +{g}" for i, g in enumerate(d["gains"]) if g)
    return tr("honga.ev.summit", name=name, gains=gains)


def _tusk(d: dict[str, Any], name: str, names: list[str], tr: Translator) -> str:
    return tr("honga.ev.tusk_none") if d["to"] is None else tr("honga.ev.tusk", name=names[d["to"]])


_LINES: dict[str, Line] = {
    "placed": _placed,
    "honga_ate": _honga_ate,
    "honga_moved": _honga_moved,
    "gathered": _gathered,
    "card_played": _card_played,
    "trade_revealed": _trade_revealed,
    "disk_drawn": _disk_drawn,
    "summit": _summit,
    "tusk": _tusk,
    "converted": lambda d, name, names, tr: tr(
        "honga.ev.converted", name=name, item=tr(f"honga.res.{d['item']}")
    ),
    "bonus_drawn": lambda d, name, names, tr: tr("honga.ev.bonus_drawn", name=name),
    "lured": lambda d, name, names, tr: tr("honga.ev.lured", name=name, pay=pay_text(tr, d["paid"])),
    "mammoth_home": lambda d, name, names, tr: tr("honga.ev.mammoth_home", name=name),
    "climbed": lambda d, name, names, tr: tr("honga.ev.climbed", name=name, step=d["step"]),
    "traded": lambda d, name, names, tr: tr(
        "honga.ev.traded", name=name, slot=d["slot"] + 1, vp=_points(tr, d["vp"]), pay=pay_text(tr, d["paid"])
    ),
    "disk_kept": lambda d, name, names, tr: tr("honga.ev.disk_kept", name=name),
    "declined": lambda d, name, names, tr: tr("honga.ev.declined", name=name, field=_field(tr, d["field"])),
    "final_round": lambda d, name, names, tr: tr(
        "honga.ev.final_round", name=name, score=_points(tr, d["score"])
    ),
    "cards_taken": lambda d, name, names, tr: (
        tr("honga.ev.cards_taken", name=name, n=d["count"]) if "count" in d else None
    ),
}


def _compact(line: str, prefix: str, ai_names: list[str]) -> str:
    """One computer turn as one sentence: story_lines joins whole event lines with '; ', which for
    Honga's many small steps repeats the name and the emoji in every part ('Computer 1 gathered 1
    fish.; Computer 1 gathered 1 fish.'). The name stays on the first part only."""
    parts = [p.strip().rstrip(".") for p in line[len(prefix) :].split("; ")]
    name = next((n for n in ai_names if parts[0].lstrip("🐯🦣🤝⛰🔥 ").startswith(n + " ")), None)
    out = [parts[0]]
    for p in parts[1:]:
        bare = p.lstrip("🐯🦣🤝⛰🔥 ")
        out.append(bare[len(name) + 1 :] if name and bare.startswith(name + " ") else p)
    return prefix + ", ".join(out) + "."


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
        state = ctx.state
        legal = [c for c in ctx.legal(state.current) if not c.startswith(("card.", "keep."))]
        if state.phase == "place":
            placeholder = ctx.tr("honga.ctl.place")
            return [ctx.select("place", _place_options(ctx.tr, None), placeholder=placeholder, row=0)]
        if state.phase == "act":
            return _act_items(ctx, legal, cards=False)
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
            items = _act_items(ctx, legal, cards=True)
        elif view["phase"] == "keep":
            drawn = view["drawn"] or []
            codes = keep_codes(drawn)
            for code in codes:
                i = int(code[5:])
                disk = _disk_text(ctx.tr, drawn[i])
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
        options = _place_options(tr, view["disk"])
        place = ctx.select("place", options, placeholder=tr("honga.ctl.place"), row=0)
        previews = [_option(o.label, "prev." + o.value[6:], o.description) for o in options]
        chosen = ctx.display[5:] if ctx.display.startswith("prev.") else ""
        for o in previews:
            o.default = o.value == ctx.display
        preview = ctx.display_select(previews, placeholder=tr("honga.ctl.preview"), row=1)
        surface = Surface(text, [place, preview])
        space, _, rot = chosen.partition(".")
        if space in SPACES and rot in ("0", "1", "2", "3"):
            caption = next(o.label for o in options if o.value == f"place.{chosen}")
            pv = _with_disk(view, space, int(rot))
            surface.draw = functools.partial(self.render, pv, ctx.names, caption, tr)
            surface.filename, surface.alt = "honga-preview.png", caption
        return surface

    def hand_text(self, view: dict[str, Any], ctx: Ctx) -> str:
        tr, seat = ctx.tr, view["me"]
        me = view["players"][seat]
        counts = zip(("f", "b", "m", "w"), me["res"], strict=True)
        res = [tr(f"honga.pay.{k}", n=n) for k, n in counts] + [tr("honga.cost.mammoths", n=me["board"])]
        lines = [tr("honga.hand.res", res=", ".join(res), score=_points(tr, me["score"]))]
        disk = view["disk"]
        if disk is not None:
            lines.append(
                tr(
                    "honga.hand.disk",
                    colour=tr("honga.colour." + disk["colour"]),
                    hands=_disk_text(tr, disk).split(": ", 1)[1],
                )
            )
        else:
            lines.append(tr("honga.hand.no_disk"))
        cards = ", ".join(tr(f"honga.card.{c}") for c in view["cards"] or []) or tr("honga.hand.none")
        lines.append(tr("honga.hand.cards", cards=cards))
        if me["pending"]:
            lines.append(tr("honga.hand.pending", n=me["pending"]))
        if view["drawn"]:
            a, b2 = (_disk_text(tr, d) for d in view["drawn"])
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
        words = _LINES.get(e.kind)
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
        return [_compact(x, prefix, ai_names) if x.startswith(prefix) else x for x in lines]

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
            left = _hands(tr, view["turn_state"]["left"])
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
        parts = [tr("honga.alt.head", turn=view["turn"], target=view["target"],
                    final=tr("honga.alt.final") if view["final_round"] else "")]  # fmt: skip
        # whose turn comes first: the most wanted fact when only a screen reader's first words are heard
        if view["over"] and view.get("winners") is not None:
            parts.append(tr("honga.alt.over", winners=" & ".join(names[w] for w in view["winners"])))
        elif not view.get("ended") and f"step_{view['phase']}" in EN_LABELS:
            parts.append(tr(f"render.honga.step_{view['phase']}", name=names[view["current"]]) + ".")
            if left := _hands(tr, view["turn_state"]["left"]):
                parts.append(tr("honga.alt.left", hands=left))
        for space, info in view["spaces"].items():
            top = info["top"]
            if top is None:
                parts.append(tr("honga.alt.space_empty", space=_space(tr, space)) + ".")
            else:
                parts.append(
                    tr("honga.alt.space", space=_space(tr, space), disk=_hands(tr, top["fields"])) + "."
                )
        h = view["honga"]
        parts.append(tr("honga.alt.honga_field") if h is None else tr("honga.alt.honga_at", name=names[h]))
        owners = ", ".join(names[o] for o in view["herd"]) or tr("honga.alt.empty")
        tusk = names[view["tusk"]] if view["tusk"] is not None else tr("honga.alt.nobody")
        parts.append(
            tr("honga.alt.herd", n=len(view["herd"]), cap=view["herd_cap"], owners=owners, tusk=tusk)
        )
        cards = [
            tr("honga.alt.trade_card", slot=i + 1, cost=_cost(tr, c["food"], c["mammoths"]), vp=c["vp"])
            if c
            else f"{i + 1}) {tr('honga.alt.empty')}"
            for i, c in enumerate(view["trade"])
        ]
        parts.append(tr("honga.alt.trade", cards="; ".join(cards)))
        steps = ", ".join(f"{names[i]} {p['step']}" for i, p in enumerate(view["players"]))
        parts.append(tr("honga.alt.mountain", steps=steps))
        for i, p in enumerate(view["players"]):
            f, b, m, w = p["res"]
            pending = tr("honga.alt.pending", n=p["pending"]) if p["pending"] else ""
            parts.append(tr("honga.alt.player", name=names[i], score=p["score"], f=f, b=b, m=m, w=w,
                            x=p["board"], cards=p["cards"]) + pending + ".")  # fmt: skip
        return " ".join(parts)
