"""English strings of Uonga (keys name the game)."""

MESSAGES: dict[str, str] = {}
