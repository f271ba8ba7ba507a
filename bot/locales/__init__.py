"""Message catalogues: English in ``en*.py`` (the source), German and Spanish in
``<lang>/LC_MESSAGES/messages.po`` (see bot.i18n and tools/i18n.py)."""
