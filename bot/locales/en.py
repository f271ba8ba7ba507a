"""English messages (complete). Keys are stable; templates use str.format fields. Shared strings
here, each game's in ``en_<game>.py``."""

from bot.locales import en_commands, en_honga, en_table, en_tournament, en_ubongo, en_ugah, en_uonga
from render.honga import EN_LABELS as HONGA_LABELS
from render.ubongo import EN_LABELS as UBONGO_LABELS
from render.ugah import EN_LABELS as UGAH_LABELS
from render.uonga import EN_LABELS as UONGA_LABELS

MESSAGES: dict[str, str | tuple[str, str]] = {
    # errors (engine error keys and bot-side problems)
    "error.generic": "Something went wrong with that action; nothing was changed.",
    "error.bad_action": "That control isn't recognised (it may come from an old or altered message). Nothing was changed.",
    "error.illegal": "That move isn't allowed right now. Nothing was changed.",
    "error.not_your_turn": "It isn't your turn yet. Nothing was changed.",
    "error.not_in_match": "You aren't playing in this game.",
    "error.left_game": "You left this game: the computer plays your seat now, so there is no hand to show.",
    "error.stale": "This board has moved on since you looked at it: use the current buttons.",
    "error.no_match": "There is no game running here.",
    "error.no_match_threads": "No game runs in this channel itself; the games started here run in their threads: {threads}. Use the command there.",
    "error.match_over": "This game is already over.",
    "error.lessons_live": "What you could have done better is told once the game is over (and not for "
    "races of speed such as Ubongo).",
    "error.channel_busy": "A game is already running in this channel. Finish it, or start yours in a thread.",
    "error.not_shown": "Your move is saved, but Discord would not let me update the board just now. It catches up by itself; `/game board` shows it again at once.",
    "error.board_not_reposted": "Discord would not let me post the board again just now. Nothing changed: the board above still works; try `/game board` again in a moment.",
    "error.missing_permissions": "I can't post the board here: please give me the View Channel, Send Messages, "
    "Attach Files and Read Message History permissions in this channel (and Send Messages in Threads for threads).",
    "error.channel_gone": "This channel no longer exists, so its game has been closed.",
    "ev.channel_gone": "The game's channel was deleted; the game was closed.",
    "error.discord": "Discord had a hiccup and I couldn't answer properly. Nothing is lost: try again.",
    "error.hand_lobby": "The game hasn't started yet, so there is nothing in your hand.",
    "error.wrong_place": "That control belongs to a game in another channel. Nothing was changed.",
    "error.db_busy": "The game database did not answer in time (another program is using it, or its server is not answering). Nothing was changed: try again in a few seconds.",
    "error.db_unsure": "The game database stopped answering while saving your move, so it may still be kept: the board will show what was kept as soon as the database answers again.",
    "lobby.bad_number": "Option {name} must be a whole number from {low} to {high}.",
    "lobby.bad_flag": "Option {name} must be true or false.",
    "lobby.unknown_option": "There is no option called {name}.",
    "error.slow_down": "Easy, hunter! You're going a bit fast: wait a few seconds and try again.",
    "error.guild_only": "Games are played in server channels, not in direct messages.",
    "lobby.closed": "This lobby is closed.",
    "lobby.already_seated": "You already have a seat in this game.",
    "lobby.full": "This game is full ({max} players).",
    "lobby.host_cannot_leave": "You are the host: use Cancel to close the lobby instead.",
    "lobby.host_only": "Only the host can do that.",
    "lobby.too_few": "At least {min} players are needed to start. Invite friends or add a computer player.",
    "lobby.bad_option": "Option {name} must be one of: {choices}.",
    "lobby.unknown": "That lobby button isn't recognised.",
    "lobby.not_started": "The game hasn't started yet.",
    "lobby.use_leave": "The game hasn't started: use the Leave button on the lobby.",
    "lobby.use_cancel": "The game hasn't started: as its host, use the Cancel button to close the lobby.",
    "end.not_allowed": "Only the host or a moderator (Manage Messages) can end this game.",
    # lobby
    "lobby.text": "**{title}** · {options}\nPlayers ({n}/{max}, at least {min}):\n{seats}\n{hint}",
    "lobby.hint_open": "Click **Join** to take a seat. The host starts the game.",
    "lobby.hint_full": "Every seat is taken. The host starts the game.",
    "lobby.computer": "computer",
    "seat.computer": "Computer {n}",  # a computer seat's name (stored as "Computer <n>", shown translated)
    "lobby.host": "host",
    "lobby.join": "Join",
    "lobby.leave": "Leave",
    "lobby.ai": "Add AI",
    "lobby.ai_level": "Add AI ({level})",
    "level.normal": "medium",  # Ugah's stronger level, on the scale every game shares (easy, medium, hard)
    "level.easy": "easy",
    "level.medium": "medium",
    "level.hard": "hard",
    # what each level means, one line under the lobby's Add AI buttons (docs/computers.md measures them)
    "lobby.levels": "🤖 Computer levels: {levels}",
    "lobby.level_about": "**{level}** {about}",
    "level.about.ugah.easy": "plays the strong plan on one decision in three, at random otherwise",
    "level.about.ugah.normal": "weighs the odds of the rest of each turn on every decision",
    "level.about.uonga.easy": "looks one move ahead and often slips",
    "level.about.uonga.medium": "looks one move ahead and follows captures through",
    "level.about.uonga.hard": "searches five or six moves ahead, follows every capture, and holds a draw when behind",
    "level.about.honga.easy": "places its disk where it looks best at a glance",
    "level.about.honga.medium": "minds the others and tries every turn of its disk",
    "level.about.honga.hard": "plays every placement out to the end of its turn",
    "level.about.ubongo.easy": "takes 1-2 minutes a puzzle",
    "level.about.ubongo.medium": "takes 45-75 seconds a puzzle",
    "level.about.ubongo.hard": "takes 15-20 seconds a puzzle, a practised player's pace",
    "lobby.start": "Start",
    "lobby.cancel": "Cancel",
    "lobby.expired": "**{title}**: this lobby expired because nobody started the game.",
    "lobby.cancelled": "**{title}**: the lobby was cancelled.",
    "match.ended": "This game was ended by {name}.",
    "match.last_resigned": "This game ended when {name}, the last player at the table, resigned.",
    "match.closed_channel_gone": "This game was closed because its channel was deleted.",
    "match.closed_lobby_failed": "This game was closed because its message could not be posted.",
    "match.ended_caption": "This game was ended before its finish",
    "match.broken": "This game's saved data could not be read, so it was closed.",
    "match.set_aside": "A game saved in this channel could not be read after a restart, so it was closed. Sorry! Start a new one any time.",
    "match.clock_held": "⏳ This game's clock is held up: the database cannot be written right now. The bot keeps trying and the game goes on as soon as it can.",
    "match.resigned_win": "🏳 Game over by resignation. Winner: {name}.",
    "match.resigned_played": "{names} resigned; the computer played on for them.",
    "match.timed_out_played": "The computer played for {names} when their time ran out.",
    "match.due": "(time runs out {when})",
    "match.dm_closed": "✉️ {name}: I can't send you direct messages, so use the button below to see your cards.",
    "match.your_turn": "{mentions}: {what} in {game} (time runs out {when}).",
    "match.your_turn_untimed": "{mentions}: {what} in {game}.",
    "match.turn": "your turn",  # what a turn ping says it is, unless the game says better
    "done.resigned": "You left the game; the computer plays your seat from now on.",
    "done.resigned_lost": "You resigned: your opponent wins.",
    "done.ended": "The game has been ended.",
    "done.reposted": "The board has been posted again.",
    "done.threads_on": "From now on every new game here is played in its own thread (`/<game> start thread:False` still plays one in the channel).",
    "done.threads_off": "From now on new games are played in the channel (`/<game> start thread:True` still gives one its own thread).",
    "cmd.game.mine": "List your live games in every server, with whose turn it is and a link to each",
    "mine.none": "You are not in any live game.",
    "mine.title": ("Your live game:", "Your {n} live games:"),
    "mine.line": "• **{game}** with {others} · {turn} · [board]({link})",
    "mine.alone": "nobody else yet",
    "mine.lobby": "waiting to start",
    "mine.your_turn": "**your turn**",
    "mine.their_turn": "{names} to play",
    "mine.left": "· time runs out {when}",
    "mine.more": ("…and 1 more game.", "…and {n} more games."),
    "cmd.game.notify": "Get a direct message when your turn comes, in every server (on), or not (off)",
    "opt.notify_state": "on: a direct message at each of your turns, with a link to the game; off: none",
    "done.notify_on": "From now on I send you a direct message when your turn comes, with a link to the game. `/game notify off` stops them.",
    "done.notify_off": "No more direct messages about your turns.",
    "notice.turn": "🔔 Your turn in **{game}** (time runs out {when}): {link}",
    "notice.turn_untimed": "🔔 Your turn in **{game}**: {link}",
    "opt.pace": "live: turns in seconds; daily: a game that runs for days, turns in hours (not Ubongo)",
    "opt.pace.live": "live",
    "opt.pace.daily": "daily",
    "opt.turn_hours": "A daily game's hours per turn, 1 to 168 (default 24)",
    "opt.timeout": "When a turn runs out: the computer plays it, or a player's second forfeits their seat",
    "opt.timeout.computer": "the computer plays the turn",
    "opt.timeout.forfeit": "a second time-out forfeits",
    "pace.daily": (
        "📅 Daily game: 1 hour per turn, with a reminder when a quarter of it is left (by DM with `/game notify on`, else here). A turn that runs out: {timeout}. This lobby stays open 7 days.",
        "📅 Daily game: {n} hours per turn, with a reminder when a quarter of it is left (by DM with `/game notify on`, else here). A turn that runs out: {timeout}. This lobby stays open 7 days.",
    ),
    "pace.live": "⏱️ A turn that runs out: {timeout}.",
    "pace.timeout_computer": "the computer plays it",
    "pace.timeout_forfeit": "the computer plays it, and a player's second forfeits their seat",
    "pace.short": ("📅 1 h per turn", "📅 {n} h per turn"),
    "notice.remind": "⏰ Your turn in **{game}** runs out {when}: {link}",
    "remind.line": "⏰ {mention}: your turn in {game} runs out {when}.",
    "cmd.game.threads": "Play every new game of this server in its own thread (server managers)",
    "opt.threads_on": "True: each game gets a thread; False: games are played in the channel",
    "opt.thread": "Play this game in its own thread (default: the server's setting)",
    "thread.name": "{game} #{id}",
    "thread.line.playing": "▶️ **{game}** #{id} · {names} · playing in {thread}",
    "thread.line.over": "🏁 **{game}** #{id} · {names} · {result} ({thread})",
    "thread.cannot": "I can't create threads in this channel, so this game is played right here.",
    "panel.replaced": "This panel was replaced by a newer one.",
    "panel.revived": "This panel had stopped following the game (Discord lets a bot update it for 15 minutes after its last click). It is up to date again.",
    "private.over": "**{game}** is over. {status}",
    "private.resigned": "You left **{game}**: the computer plays your seat to the end.",
    # commands
    "cmd.game": "Commands shared by every game",
    "cmd.game.hand": "Show your private holdings in this channel's game (only you see it)",
    "cmd.game.resign": "Resign: in a two-player game your opponent wins; otherwise the computer takes your seat",
    "opt.confirm_resign": "True: resign now; otherwise only say what happens",
    "resign.ask_lost": "Resign? In this two-player game {name} wins at once. Run `/game resign confirm: True` to resign.",
    "resign.ask_leave": "Leave the game? The computer plays your seat from then on and the others play on. Run `/game resign confirm: True` to leave.",
    "cmd.game.end": "End this channel's game (host or moderator)",
    "cmd.game.board": "Post this channel's game board again",
    "cmd.game.rules": "Show a short summary of the rules",
    "opt.game": "Which game (default: the one in this channel)",
    "rules.index": "Games you can start here:\n{games}\nUse `/game rules` in a channel with a running game to read its rules.",
    "opt.turn_seconds": "Seconds per decision before the computer plays for you (default 120)",
    "ev.started": "The game begins!",
    "ev.timeout": "⏱ {name} ran out of time: the computer played for them (no more pings until they click).",
    "ev.away": "💤 {name} seems away (no move before the clock ran out): no more pings for them until they play again.",
    "ev.forced": "{name} had only one possible move, so it was made for them.",
    "ev.computer_turn": "🤖 {text}",
    "ev.computer_played": "played their turn",
    "ev.resigned": "{name} left the game: the computer plays their seat.",
    "ev.resigned_lost": "🏳 {name} resigned.",
    # around the table: rematch, spectators, help, fair dice
    "button.rematch": "Rematch",
    "button.lessons": "What could I have done better?",
    "button.watch": "Watch",
    "rematch.text": "**{title}** · {options}\n🔁 Rematch! Same seats and options, new dice. "
    "Each player clicks **Accept** (offer ends {when}):\n{seats}",
    "rematch.accept": "Accept",
    "rematch.decline": "Decline",
    "rematch.declined": "**{title}**: {name} declined the rematch.",
    "rematch.expired": "**{title}**: the rematch offer expired because not everyone accepted.",
    "rematch.not_finished": "A rematch can be offered once the game is finished.",
    "rematch.seats_fixed": "A rematch keeps the same seats: use Accept or Decline.",
    "rematch.already_accepted": "You already accepted; waiting for the others.",
    "rematch.waiting": "Waiting for every player to accept the rematch.",
    "help.you": "**Your move.** {body}",
    "help.choices": "You can choose ({n} possible):\n{choices}",
    "help.more": "… and {n} more",
    "help.count": (
        "{status} You have {n} possible move: the buttons on the board (or in your panel) walk you through it.",
        "{status} You have {n} possible moves: the buttons on the board (or in your panel) "
        "walk you through them.",
    ),
    "help.waiting": "Waiting for {names} to move. {status}",
    "fair.hash": "🔒 dice seed hash `{short}`",
    "fair.reveal": "🔓 seed `{seed}` (hash `{short}`)",
    "fair.active": "This game's dice and shuffles all come from one secret seed. Its SHA-256 hash "
    "(of the seed's decimal digits) is:\n`{digest}`\nThe seed is revealed when the game is over.",
    "fair.finished": "Seed: `{seed}`\nSHA-256: `{digest}`\nThe attached log replays every die and "
    "shuffle: `python tools/verify_seed.py {file}` (see the README).",
    "cmd.game.fair": "Show the hash of this channel's game seed (or the seed and action log once it is over)",
    "opt.match": "A finished game's number (default: this channel's game)",
    "error.no_hand": "This game has no private holdings: everything is on the board.",
}

# Each game's strings live in its own module, merged here (keys never collide: they name the game).
MESSAGES.update(en_ugah.MESSAGES)
MESSAGES.update(en_uonga.MESSAGES)
MESSAGES.update(en_ubongo.MESSAGES)
MESSAGES.update(en_honga.MESSAGES)
MESSAGES.update(en_commands.MESSAGES)
MESSAGES.update(en_table.MESSAGES)  # recap, /replay, the rules picture, rematch once
MESSAGES.update(en_tournament.MESSAGES)

# every word drawn on the images: the renderers' labels, as render.<game>.<label> (fields unfilled)
RENDER_LABELS: dict[str, dict[str, str]] = {
    "ugah": UGAH_LABELS,
    "uonga": UONGA_LABELS,
    "ubongo": UBONGO_LABELS,
    "honga": HONGA_LABELS,
}
for _game, _labels in RENDER_LABELS.items():
    MESSAGES.update({f"render.{_game}.{key}": text for key, text in _labels.items()})

# stats and ratings (/stats, /leaderboard)
MESSAGES.update(
    {
        "cmd.stats": "Your (or a member's) games, wins and skill rating per game on this server (only you see it)",
        "opt.member": "Whose stats (default: yours)",
        "cmd.leaderboard": "The 10 best rated players of a game on this server (only you see it)",
        "opt.leaderboard_game": "Which game",
        "stats.text": "📊 **{name}** on this server:\n{games}",
        "stats.none": "{name} has no finished games on this server yet.",
        "stats.line": "rating **{rating}** (μ {mu} ± {sigma}) · games: {played} · wins: {wins}",
        "stats.computer": "🤖 computer ({level})",
        "leaderboard.text": "🏆 **{game}** leaderboard on this server:\n{rows}",
        "leaderboard.none": "Nobody has finished a game of {game} on this server yet.",
    }
)

# forgetting a user's data (/privacy)
MESSAGES.update(
    {
        "cmd.privacy": "Your data kept by this bot",
        "cmd.privacy.forget_me": "Delete your stats, ratings and records, and your name from finished games",
        "cmd.privacy.forget_user": "Delete any user's stats, ratings, records and name in finished games (bot owner)",
        "opt.confirm": "True: do it now (it cannot be undone); otherwise only say what it does",
        "opt.user_id": "The user's id (a number)",
        "privacy.preview_me": "This deletes your stats and ratings on every server, your personal records and settings, and your name in every finished game: their moves stay, shown as played by a former player. It cannot be undone. Run `/privacy forget-me confirm: True` to do it.",
        "privacy.preview_user": "This deletes the stats and ratings of user {user} on every server, their personal records and settings, and their name in every finished game: the moves stay, shown as played by a former player. It cannot be undone. Run `/privacy forget-user user_id: {user} confirm: True` to do it.",
        "privacy.done_me": "Done. Stats and ratings deleted: {ratings}. Personal records deleted: {records}. Finished games that no longer name you: {matches}.",
        "privacy.done_user": "Done for user {user}. Stats and ratings deleted: {ratings}. Personal records deleted: {records}. Finished games that no longer name them: {matches}.",
        "privacy.owner_only": "Only the bot's owner can delete another user's data. To delete your own, use `/privacy forget-me`.",
        "privacy.bad_id": "That is not a Discord user id: give the number (a user's id, from Developer Mode's Copy User ID).",
        "error.forget_live": (
            "Still seated in {n} game that has not ended: nothing was deleted. Finish or leave it (`/game resign`, or Leave in a lobby), then try again.",
            "Still seated in {n} games that have not ended: nothing was deleted. Finish or leave them (`/game resign`, or Leave in a lobby), then try again.",
        ),
        "error.forget_resigned": (
            "You left {n} game that has not ended yet: the computer plays your seat until it ends, so nothing was deleted. Try again once it has ended.",
            "You left {n} games that have not ended yet: the computer plays your seats until they end, so nothing was deleted. Try again once they have ended.",
        ),
        "seat.forgotten": "a former player",  # a seat whose player had their data deleted
    }
)
