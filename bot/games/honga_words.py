"""Honga's words: action codes, payments and disks in the reader's language, and the story of a turn
(one small function per event kind)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.i18n import Translator
from engine.games.honga_data import DISKS, FIELDS, TRADE_CARDS
from engine.games.honga_pay import Pay, parse_pay
from engine.games.honga_turn import hands_by_field

# ---- words for codes ----------------------------------------------------------------------------


def field_name(tr: Translator, fld: str) -> str:
    return tr(f"honga.field.{fld}")


def space_name(tr: Translator, space: str) -> str:
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


def cost_text(tr: Translator, food: str, mammoths: int) -> str:
    """A trade card's cost: '2 fish, 1 berry + 1 mammoth'."""
    words = ", ".join(tr(f"honga.pay.{c}", n=food.count(c)) for c in "fbm" if c in food)
    more = tr("honga.cost.mammoths", n=mammoths) if mammoths else ""
    return tr("honga.cost", food=words, plus=" + " if words and more else "", mammoths=more)


def hands_text(tr: Translator, fields: dict[str, int]) -> str:
    """'2 trades, 1 climb' in the board's field order (empty quarters left out)."""
    return ", ".join(tr(f"honga.hands.{f}", n=fields[f]) for f in FIELDS if fields.get(f))


def points_text(tr: Translator, n: int) -> str:
    return tr("honga.points", n=n)


def disk_text(tr: Translator, disk: dict[str, Any]) -> str:
    quarters = ", ".join(tr("honga.hand.quarter", q=i + 1, n=n) for i, n in enumerate(disk["hands"]))
    return f"{tr('honga.colour.' + disk['colour'])}: {quarters}"


# ---- story lines, one small function per event kind -------------------------------------------------

Line = Callable[[dict[str, Any], str, list[str], Translator], str | None]


def _placed(d: dict[str, Any], name: str, names: list[str], tr: Translator) -> str:
    colour, pattern = DISKS[d["disk"]]
    hands = hands_text(tr, hands_by_field(d["space"], d["rot"], pattern))
    colour_word = tr(f"honga.colour.{colour}")
    return tr("honga.ev.placed", name=name, colour=colour_word, space=space_name(tr, d["space"]), hands=hands)


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
    what = field_name(tr, choice) if choice in FIELDS else choice
    return tr("honga.ev.card_choice", name=name, card=card, choice=what)


def _trade_revealed(d: dict[str, Any], name: str, names: list[str], tr: Translator) -> str:
    food, mammoths, vp = TRADE_CARDS[d["card"]]
    cost = cost_text(tr, food, mammoths)
    return tr("honga.ev.trade_revealed", slot=d["slot"] + 1, cost=cost, vp=points_text(tr, vp))


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


LINES: dict[str, Line] = {
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
        "honga.ev.traded",
        name=name,
        slot=d["slot"] + 1,
        vp=points_text(tr, d["vp"]),
        pay=pay_text(tr, d["paid"]),
    ),
    "disk_kept": lambda d, name, names, tr: tr("honga.ev.disk_kept", name=name),
    "declined": lambda d, name, names, tr: tr(
        "honga.ev.declined", name=name, field=field_name(tr, d["field"])
    ),
    "final_round": lambda d, name, names, tr: tr(
        "honga.ev.final_round", name=name, score=points_text(tr, d["score"])
    ),
    "cards_taken": lambda d, name, names, tr: (
        tr("honga.ev.cards_taken", name=name, n=d["count"]) if "count" in d else None
    ),
}


def compact(line: str, prefix: str, ai_names: list[str]) -> str:
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
