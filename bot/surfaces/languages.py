"""The language of each seat's private surfaces (DMs, panels): its player's last click or command in
this process, else the language they had when they took the seat, else the match's. Bounded."""

from __future__ import annotations

import collections

import discord

from bot import messages
from bot.i18n import Translator, translator
from engine.store import MatchRow

LOCALES = 10_000  # users whose last click's language this process remembers


class Languages:
    def __init__(self) -> None:
        self._locales: collections.OrderedDict[int, str] = collections.OrderedDict()

    def note(self, interaction: discord.Interaction) -> None:
        """Any click or command: that person's DMs and panels follow its language from now on."""
        self._locales[interaction.user.id] = str(interaction.locale)
        self._locales.move_to_end(interaction.user.id)
        while len(self._locales) > LOCALES:
            self._locales.popitem(last=False)

    def private_tr(self, m: MatchRow, user_id: int | None) -> Translator:
        """The language of a seat's private surfaces."""
        known = self._locales.get(user_id) if user_id is not None else None
        seated = next((s.locale for s in m.seats if s.user_id == user_id and s.locale), None)
        return translator(known or seated) if known or seated else messages.tr_for(m)
