"""Honga's random player, as the test kit and the benchmark play it: which of a message's controls
to use (and which option of a select)."""

from __future__ import annotations

import random

DULL = ("end", "skip.")  # chosen less often, so random players still score and the game ends


def pick(controls: list[tuple[str, tuple[str, ...]]], rng: random.Random) -> tuple[str, tuple[str, ...]]:
    """One control (and one option of a select), preferring moves that gain something."""
    choices = [(cid, (v,)) for cid, values in controls for v in values]
    choices += [(cid, ()) for cid, values in controls if not values]
    lively = [c for c in choices if not (c[1] or (c[0].split(":", 3)[3],))[0].startswith(DULL)]
    return rng.choice(lively if lively and rng.random() < 0.85 else choices)
