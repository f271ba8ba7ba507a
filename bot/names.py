"""Display names as plain text: cleaned once, where they enter (a lobby opened or joined), so every
surface that shows them (message text, images, DMs) gets the same harmless string.

A name can carry right-to-left overrides and isolates (they reverse whatever text follows them on the
board) and mention syntax (``<@123>``, ``<#1>``, ``@everyone``: allowed_mentions keeps them from
pinging, but Discord still renders them as mentions). Overrides are removed; mentions are broken by a
zero-width space, which shows nothing (in Discord and in the board images) yet stops the syntax.
"""

from __future__ import annotations

import re
import unicodedata

from render.graphemes import cut

# U+061C ARABIC LETTER MARK, U+200E/U+200F marks, U+202A-U+202E embeddings/overrides, U+2066-U+2069 isolates
BIDI_CONTROLS = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
_DROP = dict.fromkeys(map(ord, BIDI_CONTROLS))
ZWSP = "\u200b"
# <@user> <@!user> <@&role> <#channel> </command:id> <:emoji:id> <a:emoji:id> <t:timestamp> <id:guide>
_ANGLE_MENTION = re.compile(r"<(?=[@#/:]|[a-z]+:)", re.IGNORECASE)
_AT_MENTION = re.compile(r"@(?=everyone|here)", re.IGNORECASE)
MAX_LENGTH = 64  # Discord allows 32; a forged or future longer name must not flood a board
FALLBACK = "player"


def clean_name(text: str) -> str:
    """``text`` without bidi controls and control characters, with mention syntax neutralised and
    whitespace collapsed; never empty."""
    text = str(text).translate(_DROP)
    text = "".join(" " if unicodedata.category(c) == "Cc" else c for c in text)
    text = _ANGLE_MENTION.sub("<" + ZWSP, text)
    text = _AT_MENTION.sub("@" + ZWSP, text)
    text = cut(" ".join(text.split()), MAX_LENGTH).strip()
    return text if text.replace(ZWSP, "") else FALLBACK
