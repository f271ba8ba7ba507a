"""Ugah Ugah! on Discord: buttons per die symbol, a multi-select to name several at once,
move-order and keep/give buttons, texts built only from public views and public events."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import discord

from bot.components import ActionButton, ActionSelect
from bot.i18n import Translator, translator
from engine.core import Event
from engine.games.ugah import RULES
from engine.store import MatchRow
from render.ugah import EN_LABELS, render_ugah

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


def _image_labels(tr: Translator) -> dict[str, str]:
    """Every word on the board image, from the catalogue (``ugah.img.<label>``; fields stay unfilled)."""
    return {key: tr(f"ugah.img.{key}") for key in EN_LABELS}


class UgahUI:
    game = "ugah"
    image_name = "ugah.png"

    def option_text(self, options: dict[str, Any], tr: Translator) -> str:
        variant = tr(f"ugah.variant.{options.get('variant', 'basic')}")
        rolling = tr(f"ugah.rolling.{options.get('rolling', 'multi')}")
        return f"{variant} · {rolling}"

    def controls(self, m: MatchRow, state: Any, tr: Translator) -> list[discord.ui.Item[Any]]:
        seat = state.current
        legal = RULES.legal_actions(state, seat)
        items: list[discord.ui.Item[Any]] = []

        def button(
            action: str, label: str, style: Any = discord.ButtonStyle.primary, **kw: Any
        ) -> ActionButton:
            return ActionButton("g", m.id, m.version, action, label=label, style=style, **kw)

        if state.phase == "pick":
            counts = Counter(state.rolled)
            present = [s for s in ORDER if counts[s]]
            for sym in present:
                if f"pick.{sym}" in legal:
                    items.append(
                        button(f"pick.{sym}", f"{tr('ugah.sym.' + sym)} ×{counts[sym]}", emoji=EMOJI[sym])
                    )
            if len(present) > 1 and not state.single:
                options = [
                    discord.SelectOption(label=f"{tr('ugah.sym.' + s)} ×{counts[s]}", value=s, emoji=EMOJI[s])
                    for s in present
                ]
                items.append(
                    ActionSelect(
                        m.id,
                        m.version,
                        "pick",
                        options=options,
                        min_values=1,
                        max_values=len(present),
                        placeholder=tr("ugah.pick.several"),
                        row=1,
                    )
                )
        elif state.phase == "order":
            for hunter in ("mm", "bb"):
                items.append(button(f"first.{hunter}", tr(f"ugah.first.{hunter}"), emoji=EMOJI[hunter]))
        elif state.phase == "keep":
            public = RULES.view(state, None)["pending"]
            names = [s.name for s in m.seats]
            for i, action in enumerate(a for a in legal if a.startswith("keep.")):
                _, kept, to = action.split(".")
                given = "bb" if kept == "mm" else "mm"
                label = tr(
                    "ugah.keep",
                    keep=tr(f"ugah.short.{kept}"),
                    keep_chip=_chip(tr, public[f"{kept}_v"]),
                    give=tr(f"ugah.short.{given}"),
                    give_chip=_chip(tr, public[f"{given}_v"]),
                    name=names[int(to)],
                )
                items.append(button(action, label[:80], style=discord.ButtonStyle.success, row=i // 2))
        return items

    def select_action(self, arg: str, values: Sequence[str]) -> str:
        if arg != "pick" or not values:
            return f"{arg}.invalid"
        return "pick." + ".".join(sorted(set(values), key=lambda v: ORDER.index(v) if v in ORDER else 99))

    def event_lines(self, events: list[Event], names: list[str], tr: Translator) -> list[str]:
        lines = []
        for e in events:
            if not e.visible_to(None):
                continue
            d = e.data
            name = names[d["seat"]] if "seat" in d else ""
            if e.kind == "rolled":
                faces = " ".join(EMOJI[f] for f in [*d["faces"]])
                lines.append(tr("ugah.ev.rolled", name=name, faces=faces))
            elif e.kind == "set_aside":
                syms = ", ".join(tr("ugah.sym." + s) for s in d["symbols"])
                lines.append(tr("ugah.ev.set_aside", name=name, symbols=syms, count=d["count"]))
            elif e.kind == "spoils":
                key = "ugah.ev.spoils_from" if d.get("from") is not None else "ugah.ev.spoils"
                victim = names[d["from"]] if d.get("from") is not None else ""
                lines.append(tr(key, name=name, animal=tr("ugah.sym." + d["animal"]), victim=victim))
            elif e.kind == "moved":
                key = "ugah.ev.moved_forfeit" if d.get("forfeited") else "ugah.ev.moved"
                lines.append(
                    tr(
                        key,
                        hunter=tr("ugah.sym." + d["hunter"]),
                        steps=d["steps"],
                        forfeited=d.get("forfeited", 0),
                    )
                )
            elif e.kind == "chip_taken":
                lines.append(tr("ugah.ev.taken", name=name, chip=_chip(tr, d.get("value"))))
            elif e.kind == "chip_given":
                lines.append(
                    tr(
                        "ugah.ev.given",
                        giver=names[d["from"]],
                        receiver=names[d["to"]],
                        chip=_chip(tr, d.get("value")),
                    )
                )
            elif e.kind in ("timeout", "resigned", "started"):
                lines.append(tr(f"ev.{e.kind}", name=name))
        return lines

    def caption(self, events: list[Event], names: list[str], tr: Translator) -> str | None:
        # the throw itself is drawn on the board; emoji lines would not render in the image font
        lines = self.event_lines([e for e in events if e.kind != "rolled"], names, tr)
        return lines[-1] if lines else None

    def status_line(self, m: MatchRow, state: Any, names: list[str], tr: Translator) -> str:
        outcome = RULES.outcome(state)
        if outcome is not None:
            scores = ", ".join(f"{names[i]} {s}" for i, s in enumerate(outcome.scores))
            winners = " & ".join(names[w] for w in outcome.winners)
            return tr("ugah.status.over", winners=winners, scores=scores)
        pending = RULES.view(state, None)["pending"]
        if pending and None in (
            pending["mm_v"],
            pending["bb_v"],
        ):  # face-down chips: only My chips shows them
            return tr("ugah.status.keep_hidden", name=names[state.current])
        return tr(f"ugah.status.{state.phase}", name=names[state.current])

    def alt_text(self, view: dict[str, Any], names: list[str], tr: Translator) -> str:
        path = view["path"]
        between = [c for j, c in enumerate(path) if view["mm"] < j < view["bb"] and not c["taken"]]
        shown = [str(c["v"]) for c in between if c["v"] is not None]
        hidden = sum(1 for c in between if c["v"] is None)
        spoils = ", ".join(
            f"{tr('ugah.sym.' + a)}: {names[h] if h is not None else tr('ugah.alt.middle')}"
            for a, h in view["spoils"].items()
        )
        stashes = ", ".join(f"{names[i]} {n}" for i, n in enumerate(view["stash_sizes"]))
        parts = [
            tr(
                "ugah.alt.head",
                mm=view["mm"],
                bb=view["bb"],
                left=len(between),
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
            parts.append(
                tr(
                    "ugah.alt.scores",
                    scores=", ".join(f"{names[i]} {s}" for i, s in enumerate(view["scores"])),
                )
            )
        else:
            parts.append(tr("ugah.alt.turn", name=names[view["current"]]))
        return " ".join(parts)[:1024]

    def render(
        self, view: dict[str, Any], names: list[str], caption: str | None, tr: Translator | None = None
    ) -> bytes:
        """PNG bytes in the language of ``tr`` (English without one); runs in a worker thread."""
        labels = _image_labels(tr or translator(None))
        return render_ugah(view, names, caption=caption, labels=labels)

    def hand(self, state: Any, seat: int, names: list[str], tr: Translator) -> str:
        view = RULES.view(state, seat)
        chips = view["stash"] or []
        lines = [
            tr(
                "ugah.hand.chips",
                chips=", ".join(_chip(tr, v) for v in sorted(chips, reverse=True)) or tr("ugah.hand.none"),
                total=sum(chips),
                count=len(chips),
            ),
        ]
        held = [a for a, h in view["spoils"].items() if h == seat]
        if held:
            lines.append(
                tr(
                    "ugah.hand.spoils",
                    cards=", ".join(tr("ugah.sym." + a) for a in held),
                    points=3 * len(held),
                )
            )
        pending = view["pending"]
        if pending and view["current"] == seat:
            lines.append(
                tr("ugah.hand.pending", mm=_chip(tr, pending["mm_v"]), bb=_chip(tr, pending["bb_v"]))
            )
        return "\n".join(lines)
