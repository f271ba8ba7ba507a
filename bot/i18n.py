"""One message catalogue for every user-facing string, keyed by locale.

Add a language by adding ``bot/locales/<code>.py`` with a ``MESSAGES`` dict and listing it below;
missing keys fall back to English, so a partial translation is safe.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.locales import en

CATALOGUES: dict[str, dict[str, str]] = {"en": en.MESSAGES}
Translator = Callable[..., str]


def translator(locale: object | None) -> Translator:
    """``locale`` is a discord.Locale, a code like 'en-US', or None (English)."""
    code = str(getattr(locale, "value", locale) or "en")
    table = CATALOGUES.get(code) or CATALOGUES.get(code.split("-")[0]) or CATALOGUES["en"]

    def tr(key: str, **params: object) -> str:
        template = table.get(key) or CATALOGUES["en"].get(key)
        if template is None:
            raise KeyError(f"missing message key {key!r}")
        return template.format(**params) if params else template

    return tr
