"""Honga's controls: the selects and buttons of a turn (equal outcomes offered once, long lists
paged) and the board as it would be with the disk placed."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

import discord

from bot.games.base import Ctx
from bot.games.common import MAX_OPTION, MAX_PLACEHOLDER
from bot.games.honga_words import field_name, hands_text, pay_text, points_text, space_name
from bot.i18n import Translator
from engine.games.honga import FIELD_CODES, GATHER_CODES
from engine.games.honga_data import HONGA, NEIGHBOURS, SPACES
from engine.games.honga_pay import parse_pay
from engine.games.honga_turn import hands_by_field
from render.graphemes import ELLIPSIS, cut

MAX_OPTIONS = 25  # Discord: options per select
BUTTON_CODES = ("fish", "water", "berry", "mushroom", "draw", "climb")
FOOD_KEY = {"f": "honga.res.f", "b": "honga.res.b", "m": "honga.res.m"}


# ---- controls ------------------------------------------------------------------------------------


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


def option(label: str, value: str, description: str | None = None) -> discord.SelectOption:
    return discord.SelectOption(
        label=cut(label, MAX_OPTION, ELLIPSIS),
        value=value,
        description=cut(description, MAX_OPTION, ELLIPSIS) if description else None,
    )


def paged(options: list[discord.SelectOption], page: int) -> list[discord.SelectOption]:
    """One page of at most 25 options; ``page`` wraps around."""
    pages = max(1, -(-len(options) // MAX_OPTIONS))
    start = (page % pages) * MAX_OPTIONS
    return options[start : start + MAX_OPTIONS]


def page_of(display: str) -> int:
    """The display state of the 'More choices' button: 'page.<n>'."""
    kind, _, n = display.partition(".")
    return int(n) if kind == "page" and n.isdigit() else 0


def place_options(tr: Translator, disk: dict[str, Any] | None) -> list[discord.SelectOption]:
    """The 16 placements. Without the disk (public) they say only which way the disk is turned;
    with it (the mover's panel) what each placement yields and whether HONGA is fed."""
    out = []
    for space in SPACES:
        nb = NEIGHBOURS[space]
        for rot in range(4):
            sp, facing = space_name(tr, space), field_name(tr, nb[rot])
            order = ", ".join(field_name(tr, nb[(i + rot) % 4]) for i in range(4))
            desc = tr("honga.ctl.place_desc", fields=order)
            if disk is None:
                label = tr("honga.ctl.place_option", space=sp, field=facing)
            else:
                hands = hands_by_field(space, rot, disk["hands"])
                fed = tr("honga.ctl.fed") if hands.get(HONGA) else tr("honga.ctl.not_fed")
                yields = hands_text(tr, {f: k for f, k in hands.items() if f != HONGA}) or "-"
                label = tr("honga.ctl.place_yield", space=sp, field=facing, yields=f"{yields} · {fed}")
            out.append(option(label, f"place.{space}.{rot}", desc))
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
    return tr("honga.ctl.card_field", card=card, field=field_name(tr, arg))


def _trade_label(tr: Translator, code: str, view: dict[str, Any]) -> str:
    _, slot, pay = code.split(".")
    card = view["trade"][int(slot) - 1]
    vp = points_text(tr, card["vp"]) if card else "?"
    return tr("honga.ctl.trade_option", slot=slot, vp=vp, pay=pay_text(tr, pay))


class _Builder:
    """Lays the step-3 controls out in rows: buttons on row 0, then one select per row."""

    def __init__(self, ctx: Ctx, first_row: int = 1) -> None:
        self.ctx, self.tr = ctx, ctx.tr
        self.page = page_of(ctx.display)
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
        shown = paged(options, self.page)
        self.selects.append(
            self.ctx.select(arg, shown, placeholder=cut(placeholder, MAX_PLACEHOLDER, ELLIPSIS), row=self.row)
        )
        self.row += 1

    def items(self) -> list[discord.ui.Item[Any]]:
        if self.overflow:
            more = self.ctx.display_button(f"page.{self.page + 1}", self.tr("honga.ctl.more"), row=0)
            self.buttons.append(more)
        return self.buttons + self.selects


def act_items(ctx: Ctx, legal: list[str], *, cards: bool) -> list[discord.ui.Item[Any]]:
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
        option(tr("honga.ctl.lure_option", pay=pay_text(tr, c[5:])), c) for c in legal if c[:5] == "lure."
    ]
    b.add_select("lure", tr("honga.ctl.lure"), lure)
    trade = [option(_trade_label(tr, c, view), c) for c in legal if c.startswith("trade.")]
    b.add_select("trade", tr("honga.ctl.trade"), trade)
    other = [
        option(tr("honga.ctl.skip", field=field_name(tr, c[5:]), n=left.get(c[5:], 1)), c)
        for c in legal
        if c.startswith("skip.")
    ]
    other += [
        option(tr("honga.ctl.convert", food=tr(FOOD_KEY[c[-1]])), c)
        for c in legal
        if c.startswith("convert.")
    ]
    b.add_select("other", tr("honga.ctl.other"), other)
    if cards:
        played = len(view["turn_state"]["played"])
        options = [option(_card_label(tr, c), c) for c in legal if c.startswith("card.")]
        b.add_select("cards", tr("honga.ctl.cards", n=2 - played), options)
    return b.items()


def with_disk(view: dict[str, Any], space: str, rot: int) -> dict[str, Any]:
    """The seat's view with its disk in hand drawn on ``space`` turned ``rot`` (a preview)."""
    disk = view["disk"]
    top = {**disk, "rot": rot, "fields": hands_by_field(space, rot, disk["hands"])}
    depth = view["spaces"][space]["depth"] + 1
    # drawn as the disk being used (ringed, its hands live) so it stands out from the others
    left = {f: k for f, k in top["fields"].items() if k and f != HONGA}
    turn = {**view["turn_state"], "placed": {"space": space, "rot": rot, "disk": top}, "left": left}
    spaces = {**view["spaces"], space: {"top": top, "depth": depth}}
    return {**view, "spaces": spaces, "phase": "act", "turn_state": turn}
