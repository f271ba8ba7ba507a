"""Cutting user-visible text without splitting a character as people see it.

A grapheme cluster is what a reader takes for one character: a ZWJ family emoji (👨‍👩‍👧‍👦, seven
code points), a flag (two regional indicators), a thumb with a skin tone, a keycap (1️⃣), a letter
with combining accents. Cutting by code points (``text[:80]``) can split one and leave half an emoji
or a stray indicator at the end of a label. Every cut of user-visible text (labels, descriptions,
message content, alt texts, names, the text drawn on the boards) goes through :func:`cut` (or
:func:`fit_names` for texts that list every player), which cuts only between clusters (Unicode
extended grapheme clusters, UAX #29, through the ``regex`` module's ``\\X``).

Lengths stay counted in code points (``len``), as Discord's limits are. Lives in ``render`` because
``render`` imports nothing from ``bot``, while ``bot`` imports ``render``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import regex

ELLIPSIS = "…"
_CLUSTER = regex.compile(r"\X", regex.DOTALL)


def clusters(text: str) -> list[str]:
    """``text`` split into its grapheme clusters (joined again they give ``text`` back)."""
    return _CLUSTER.findall(text)


def boundaries(text: str) -> list[int]:
    """The offsets after each grapheme cluster of ``text``: the places it may be cut (0 excluded)."""
    return [m.end() for m in _CLUSTER.finditer(text)]


def cut(text: str, limit: int, ellipsis: str = "") -> str:
    """``text`` if it is at most ``limit`` code points long; otherwise its longest prefix that ends
    between two grapheme clusters and, with ``ellipsis`` added (after trailing spaces are dropped),
    is at most ``limit`` long. A first cluster too long on its own leaves only the ellipsis (or "")."""
    if len(text) <= limit:
        return text
    if len(ellipsis) > limit:
        ellipsis = ""
    room, end = limit - len(ellipsis), 0
    for m in _CLUSTER.finditer(text):
        if m.end() > room:
            break
        end = m.end()
    return text[:end].rstrip() + ellipsis if ellipsis else text[:end]


def shorten(name: str, keep: int, ellipsis: str = ELLIPSIS) -> str:
    """``name`` cut to its first ``keep`` grapheme clusters, with ``ellipsis`` when anything went."""
    parts = clusters(name)
    if len(parts) <= keep:
        return name
    return "".join(parts[:keep]).rstrip() + ellipsis


def fit_names(build: Callable[[list[str]], str], names: Sequence[str], limit: int) -> str:
    """``build(names)`` if at most ``limit`` long; otherwise ``build`` over the names each cut to the
    largest budget of grapheme clusters (with "…") that makes it fit, so a text listing every player
    shortens the names rather than losing the facts at its end. Only if even one cluster per name is
    too long is the text itself cut (on a cluster boundary)."""
    names = list(names)
    text = build(names)
    if len(text) <= limit:
        return text
    longest = max((len(clusters(n)) for n in names), default=0)
    lo, hi, best = 1, longest - 1, None
    while lo <= hi:  # the longer the budget, the longer the text: the largest budget that fits
        mid = (lo + hi) // 2
        attempt = build([shorten(n, mid) for n in names])
        if len(attempt) <= limit:
            best, lo = attempt, mid + 1
        else:
            hi = mid - 1
    if best is None:
        best = cut(build([shorten(n, 1) for n in names]), limit, ELLIPSIS)
    return best
