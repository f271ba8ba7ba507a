"""Every user-facing string, in English, German or Spanish.

English is the source: the ``MESSAGES`` dicts of ``bot/locales/en*.py`` (key -> ``str.format``
template) and each renderer's ``EN_LABELS`` (joined as ``render.<game>.<label>``). A template that
depends on a number is a tuple ``(one, other)`` and its count is always the field ``n``.

Translations are gettext catalogues, ``bot/locales/<lang>/LC_MESSAGES/messages.po`` (``msgctxt`` =
key, ``msgid`` = the English template, ``msgstr`` = the translation; plural entries carry
``msgid_plural`` and ``msgstr[i]``), read with Babel; ``python -m tools.i18n update|check`` keeps
them in step with the English. A key missing, fuzzy or broken in a translation falls back to English,
so a partial catalogue is safe.

Locales: a Discord locale (``de``, ``es-ES``, ``es-419``...) picks its language; anything else is
English. Private replies use the clicking user's ``interaction.locale``; the public board uses the
language stored in the match (``meta.locale``, the server's preferred locale at the start).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from babel import Locale
from babel.messages.pofile import read_po

from bot.locales import en

LANGUAGES = ("en", "de", "es")  # English first: the source
TRANSLATED = LANGUAGES[1:]
PLURAL_FIELD = "n"  # the count that picks a plural form
LOCALE_DIR = Path(__file__).parent / "locales"
Template = str | tuple[str, ...]
Translator = Callable[..., str]


def po_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / "messages.po"


def language(locale: object | None) -> str:
    """'de', 'es' or 'en' for a discord.Locale, a code like 'es-419', or None (English)."""
    code = str(getattr(locale, "value", locale) or "en").replace("_", "-").split("-")[0].lower()
    return code if code in LANGUAGES else "en"


@functools.cache
def _plural_rule(lang: str) -> Locale:
    return Locale.parse(lang)


def plural_index(lang: str, n: Any, forms: int) -> int:  # (n: whatever a template was given)
    """Which of ``forms`` plural forms fits the count ``n`` (Babel's CLDR rule: 'one' is the first
    form, every other category the last, as the catalogues' ``plural=(n != 1)`` says)."""
    try:
        category = _plural_category(lang, abs(int(n)))
    except (TypeError, ValueError):
        category = "other"
    return 0 if category == "one" or forms == 1 else forms - 1


@functools.lru_cache(maxsize=4096)  # counts on a board are small: Babel evaluates its rule in Python
def _plural_category(lang: str, n: int) -> str:
    return _plural_rule(lang).plural_form(n)


@functools.cache
def catalogue(lang: str) -> dict[str, Template]:
    """The usable translations of ``lang`` by key (translated, not fuzzy); English: the source."""
    if lang == "en":
        return dict(en.MESSAGES)
    path = po_path(lang)
    if not path.exists():
        return {}
    with path.open("rb") as f:
        cat = read_po(f, locale=lang)
    out: dict[str, Template] = {}
    for msg in cat:
        if not msg.id or not msg.context or msg.fuzzy:
            continue
        if isinstance(msg.string, (tuple, list)):
            forms = tuple(msg.string)
            if forms and all(forms):
                out[msg.context] = forms
        elif msg.string:
            out[msg.context] = msg.string
    return out


def english(key: str) -> str:
    """The English text of a message without number forms (command names, descriptions, choices)."""
    text = en.MESSAGES[key]
    if not isinstance(text, str):
        raise TypeError(f"{key} has number forms: it needs a count")
    return text


def reload() -> None:
    """Forget the loaded catalogues (after editing a .po file)."""
    catalogue.cache_clear()


def _fill(lang: str, template: Template, params: Mapping[str, object]) -> str:
    if isinstance(template, tuple):
        template = template[plural_index(lang, params.get(PLURAL_FIELD, 2), len(template))]
    return template.format(**params) if params else template


def seat_name(name: str, ai: bool, tr: Translator) -> str:
    """A seat's name as shown: a computer seat's stored "Computer 2" in the language of ``tr``, and a
    player whose data was deleted (no name kept) as a former player."""
    if not ai and not name:
        return tr("seat.forgotten")
    match = _COMPUTER.fullmatch(name) if ai else None
    return tr("seat.computer", n=int(match[1])) if match else name


_COMPUTER = re.compile(r"Computer (\d+)")


def translator(locale: object | None) -> Translator:
    """``tr(key, **params)`` in the language of ``locale`` (a discord.Locale, a code like 'de' or
    'es-ES', or None for English)."""
    return _translator(language(locale))


class _Tr:
    """``tr(key, **params)`` in one language. It pickles as its language, so a drawing can be sent to
    a render process and find the same catalogue there."""

    __slots__ = ("lang", "table")

    def __init__(self, lang: str) -> None:
        self.lang, self.table = lang, catalogue(lang)

    def __call__(self, key: str, **params: object) -> str:
        template = self.table.get(key)
        if template is not None and self.lang != "en":
            try:
                return _fill(self.lang, template, params)
            except (KeyError, IndexError, ValueError, AttributeError):
                pass  # a broken translation: say it in English
        source = en.MESSAGES.get(key)
        if source is None:
            raise KeyError(f"missing message key {key!r}")
        return _fill("en", source, params)

    def __reduce__(self) -> tuple[Callable[[str], Translator], tuple[str]]:
        return _translator, (self.lang,)

    def __repr__(self) -> str:
        return f"tr[{self.lang}]"


@functools.cache
def _translator(lang: str) -> Translator:
    """One translator per language: the same object every time, so what a surface was drawn with
    compares equal (bot.surfaces skips redrawing an unchanged image)."""
    return _Tr(lang)
