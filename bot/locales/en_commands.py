"""English names of slash commands and their options, as Discord shows them (``cmd.<name>.name``,
``opt.<name>.name``, keyed by the name in the code). bot.command_i18n hands their translations to
Discord; a name without a key (the games' own group names) stays as it is in every language."""

COMMANDS = (
    "game",
    "start",
    "rules",
    "solo",
    "hand",
    "resign",
    "end",
    "board",
    "fair",
    "stats",
    "leaderboard",
    "mine",
    "notify",
)
OPTIONS = (
    "variant",
    "rolling",
    "turn_seconds",
    "target",
    "track_cap",
    "side",
    "mastodons_need_10",
    "mastodons_pick_ties",
    "repetitions",
    "move_limit",
    "b_seats",
    "no_yellow",
    "countdown",
    "round_limit",
    "gems",
    "solo",
    "solo_size",
    "mode",
    "match",
    "game",
    "member",
    "state",
    "pace",
    "turn_hours",
    "timeout",
)

MESSAGES: dict[str, str | tuple[str, str]] = {f"cmd.{name}.name": name for name in COMMANDS}
MESSAGES.update({f"opt.{name}.name": name for name in OPTIONS})
