"""English strings of Ubongo Fun-Size (keys name the game)."""

MESSAGES: dict[str, str] = {}
