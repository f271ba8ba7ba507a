"""English strings of the table's extras: the animated recap posted when a game finishes, ``/replay``
(step through a finished game), the picture of ``/game rules`` and the rematch-once rule. Keys are
stable; merged into bot/locales/en.py."""

MESSAGES: dict[str, str | tuple[str, str]] = {
    # the recap posted under the final board
    "recap.text": "🎞 **{game}** #{id}: the moments that mattered. Step through every move with `/replay match:{id}`.",
    "recap.alt": "An animated recap of {game} game #{id}, from the first board to the last",
    # /replay
    "cmd.replay.name": "replay",
    "cmd.replay": "Step through a finished game move by move (only you see it)",
    "opt.replay_match": "The game's number (its recap and /game fair show it)",
    "opt.replay_step": "The step to open at, as 🎓 names it (the start if left out)",
    "replay.text": "🎞 **Replay of {game}** #{id} · step {step} of {total}",
    "replay.start": "The board as the game began.",
    "replay.end": "The final board.",
    "replay.acted": "{name} made a move.",
    "replay.clock": "The clock made a move.",
    "replay.alt": "{game} game #{id} at step {step} of {total}",
    "replay.choice": "#{id} · {game} · {players}",
    "replay.live": "That game is still being played: its replay opens once it is over.",
    "replay.not_found": "There is no finished game with that number on this server.",
    "replay.not_started": "That game was closed before it began, so there is nothing to replay.",
    "replay.bad_step": "That replay button isn't recognised. Nothing was changed: use `/replay` again.",
    # the recap that teaches: a person's costliest decisions, privately (engine.lessons)
    "lessons.head": "🎓 **{game}** #{id}: your costliest decisions, as the strongest computer judges them "
    "from what you knew at the time",
    "lessons.line": (
        "Step {step}: **{played}** cost you about {n} point; **{better}** was better.",
        "Step {step}: **{played}** cost you about {n} points; **{better}** was better.",
    ),
    "lessons.decisive": "Step {step}: **{played}** decided the game; **{better}** was better.",
    "lessons.none": "No decision of yours cost even half a point by its count. Well played!",
    "lessons.no_decisions": "You made no decision yourself in this game: the computer played your turns.",
    "lessons.no_turn": "You had no decision to make in this game: it ended before your turn.",
    "lessons.replay": "See the first on the board with `/replay match:{id} step:{step}` (the others at "
    "their steps, marked 🎓): the position before your choice, the better one drawn ✓ in green, yours ✗ "
    "in red.",
    "lessons.caption": "✓ {better} · ✗ {played}",
    "lessons.legend": "On the board: ✓ the better choice (solid green), ✗ the one made (dashed red).",
    "lessons.timeouts": (
        "⏱ The computer played {n} move for you when your time ran out (step {steps}): not counted "
        "as your decision.",
        "⏱ The computer played {n} moves for you when your time ran out (steps {steps}): not counted "
        "as your decisions.",
    ),
    "lessons.left": "🏳 The computer played your seat after you left the game (from step {step}): "
    "not counted as your decisions.",
    "lessons.mark": "🎓 {name}: {line}",
    # /game rules: a picture that teaches
    "rules.picture_caption": "How the board looks at the start of a game",
    "rules.picture_alt": "The {game} board at the start of a game",
    "rules.seat": "Player {n}",
    # a finished game can be offered a rematch once
    "rematch.once": "This game already had its rematch offer. Start a new game with `/{game} start`.",
    "rematch.tournament": "A tournament's game has no rematch: the tournament pairs the next round.",
    "rematch.forgotten": "A player of this game asked to be forgotten, and a rematch needs {min} players: "
    "start a new game with `/{game} start` and invite someone.",
}
