"""Write sample Honga boards to docs/images/ from real rule states (seeded computer play).

Run with ``python -m render.honga.samples [out_dir]``: the start of a 4-player game, a mid-game
moment (full herd, trades taken, a disk being used) and the final board of a 3-player game.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from engine.games.honga import RULES, HongaState
from engine.games.honga_ai import COMPUTER
from render.honga import render_honga

NAMES = ["Ada", "Borg the Bold", "Chen", "Dana", "Ewa"]


def _step(s: HongaState) -> HongaState:
    seat = s.current
    return RULES.apply(s, seat, COMPUTER.choose(s, seat, "medium"))[0]


def start_state() -> HongaState:
    return RULES.setup(4, 2024, {})


def mid_state() -> HongaState:
    """The first moment of a seeded 4-player game with a full herd, a few trades and hands to use
    (the first seed from 7 on that has one, so a change in the computer's play cannot break it)."""
    for seed in range(7, 40):
        s = RULES.setup(4, seed, {})
        while s.phase != "over":
            full = len(s.herd) == s.herd_cap
            traded = len(s.trade_discard) >= 2
            if full and traded and s.phase == "act" and len(s.left) >= 2:
                return s
            s = _step(s)
    raise RuntimeError("no mid-game moment found")


def final_state() -> HongaState:
    s = RULES.setup(3, 11, {})
    while s.phase != "over":
        s = _step(s)
    return s


def samples() -> list[tuple[str, dict[str, Any], list[str]]]:
    out = []
    for name, s in (("start", start_state()), ("mid", mid_state()), ("final", final_state())):
        out.append((name, RULES.view(s, None), NAMES[: s.n]))
    return out


def main(out_dir: str = "docs/images") -> None:
    path = Path(out_dir)
    path.mkdir(parents=True, exist_ok=True)
    for name, view, names in samples():
        png = render_honga(view, names)
        (path / f"honga_{name}.png").write_bytes(png)
        print(f"honga_{name}.png {len(png) / 1024:.1f} KiB")


if __name__ == "__main__":
    main(*sys.argv[1:2])
