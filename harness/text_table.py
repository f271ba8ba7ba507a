"""A plain-text table of a bench's result rows, for printing (bench steps run alone print one)."""

from __future__ import annotations

from collections.abc import Sequence


def text_table(rows: Sequence[Sequence[str]], header: Sequence[str] = ("metric", "result", "aim")) -> str:
    """Columns padded to their widest cell, a ``-+-`` rule under the header."""
    cells = [tuple(header), *(tuple(r) for r in rows)]
    widths = [max(len(c[i]) for c in cells) for i in range(len(header))]
    lines = [" | ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip() for row in cells]
    lines.insert(1, "-+-".join("-" * w for w in widths))
    return "\n".join(lines)
