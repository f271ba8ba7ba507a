"""Slash command names, descriptions and choices in German and Spanish: discord.py asks the tree's
translator for every string while syncing and sends Discord the ``*_localizations`` it returns.

Descriptions carry their catalogue key (``locale_str(EN[key], key=key)``); names are looked up as
``cmd.<name>.name`` (commands and groups) and ``opt.<name>.name`` (options); any other string (a
choice's name) by its English text. ``None`` (Discord shows the English) for English, for a string
without a translation, and for one that Discord would refuse (a name must be lowercase, 1-32 letters,
digits, ``-`` or ``_``; a description or choice at most 100 characters).
"""

from __future__ import annotations

import re

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from bot.i18n import catalogue, language, translator
from bot.locales import en

NAME_RE = re.compile(r"^[-_\w]{1,32}$")
NAMES = (Where.command_name, Where.group_name, Where.parameter_name)


def _english_keys() -> dict[str, str]:
    """English text -> its first key (for strings that reach the translator without a key)."""
    out: dict[str, str] = {}
    for key, text in en.MESSAGES.items():
        if isinstance(text, str):
            out.setdefault(text, key)
    return out


def valid(text: str, *, name: bool) -> bool:
    if name:
        return bool(NAME_RE.match(text)) and text == text.lower()
    return 1 <= len(text) <= 100


class CommandTranslator(app_commands.Translator):
    def __init__(self) -> None:
        super().__init__()
        self._by_text = _english_keys()

    def key_for(self, string: app_commands.locale_str, where: Where) -> str | None:
        if where in (Where.command_name, Where.group_name):
            return f"cmd.{string.message}.name"
        if where is Where.parameter_name:
            return f"opt.{string.message}.name"
        return string.extras.get("key") or self._by_text.get(string.message)

    def lookup(self, string: app_commands.locale_str, locale: object, where: Where) -> str | None:
        """The translation (synchronous: the tests call it directly)."""
        lang = language(locale)
        key = self.key_for(string, where)
        if lang == "en" or key is None or key not in catalogue(lang):
            return None
        text = translator(lang)(key)
        return text if valid(text, name=where in NAMES) else None

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        return self.lookup(string, locale, context.location)
