"""English strings of Honga (keys name the game)."""

MESSAGES: dict[str, str] = {}
