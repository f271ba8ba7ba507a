"""English strings of Ugah Ugah! (keys name the game)."""

MESSAGES: dict[str, str | tuple[str, str]] = {
    "button.hand.ugah": "My chips",
    "cmd.ugah": "Ugah Ugah!: push-your-luck dice for 2-4 hunters",
    "cmd.ugah.start": "Open an Ugah Ugah! lobby in this channel",
    "opt.ugah.variant": "Basic (chips face up) or Uncertain hunting (only four chips face up)",
    "opt.ugah.rolling": "Name several symbols per throw (seed rules) or exactly one",
    "game.ugah": "Ugah Ugah!",
    "ugah.variant.basic": "Basic game",
    "ugah.variant.uncertain": "Uncertain hunting",
    "ugah.rolling.multi": "several symbols per throw",
    "ugah.rolling.single": "one symbol per throw",
    "ugah.sym.bone": "Bone",
    "ugah.sym.dinosaur": "Dinosaur",
    "ugah.sym.mammoth": "Mammoth",
    "ugah.sym.bird": "Bird",
    "ugah.sym.mm": "Mammoth Masher",
    "ugah.sym.bb": "Bone Breaker",
    "ugah.short.mm": "MM",
    "ugah.short.bb": "BB",
    "ugah.chip.hidden": "face-down chip",
    "ugah.chip.hidden_at": "face-down chip {n} of 31",
    "ugah.chip.caterpillar": "caterpillar (1)",
    "ugah.chip.value": "{value}",
    "ugah.pick.several": "Set aside several symbols at once…",
    "ugah.first.mm": "Mammoth Masher first",
    "ugah.first.bb": "Bone Breaker first",
    "ugah.first.label": "{first}: {result}",
    "ugah.first.result": "MM stops on {mm}, BB on {bb}",
    "ugah.first.take": "you take the {chip}",
    "ugah.first.take_lost": "{chip}, the {lost} is lost",
    "ugah.first.take_lost2": "{chip}, the {lost} and the {lost2} are lost",
    "ugah.first.take_lost_n": ("{chip}, {n} other chip is lost", "{chip}, {n} other chips are lost"),
    "ugah.steps": ("{n} step", "{n} steps"),
    "ugah.keep": "Keep {keep} {keep_chip}, give {give} {give_chip} to {name}",
    "ugah.ev.rolled": "{name} rolled {faces}",
    "ugah.ev.set_aside": "{name} set aside {symbols} ×{count}",
    "ugah.ev.spoils": "{name} takes the {animal} spoils card",
    "ugah.ev.spoils_from": "{name} takes the {animal} spoils card from {victim}",
    "ugah.ev.moved": "{hunter} walks {steps}",
    "ugah.ev.moved_forfeit": "{hunter} walks {steps}, {forfeited} lost",
    "ugah.ev.taken": "{name} takes chip: {chip}",
    "ugah.ev.given": "{giver} gives {receiver} a chip: {chip}",
    "ugah.help.pick": "The dice show {dice}. Name one or more of these symbols: every die showing them is "
    "set aside, and you roll the rest again. Use the symbol buttons, or the menu to name several at once.",
    "ugah.help.pick_single": "The dice show {dice}. Name one of these symbols with its button: every die "
    "showing it is set aside, and you roll the rest again.",
    "ugah.help.order": "Both hunters move: choose which one goes first.\n{choices}",
    "ugah.help.keep": "Both hunters stopped on a chip: keep one and give the other to another player.\n{choices}",
    "ugah.status.pick": "🎲 {name}: name one or more symbols to set aside.",
    "ugah.status.pick_single": "🎲 {name}: name one symbol to set aside.",
    "ugah.status.order": "{name}: choose which hunter moves first.",
    "ugah.status.keep": "{name}: keep one chip and give the other away.",
    "ugah.status.keep_hidden": "{name}: keep one chip and give the other away. 🎒 My chips shows you both chips and lets you choose there.",
    "ugah.status.over": "🏆 Game over. Winner: {winners}. Scores: {scores}",
    "ugah.alt.head": (
        "Ugah Ugah! board: Mammoth Masher {mm}, Bone Breaker {bb}; "
        "{n} chip lies between them, face-up values {values}, {hidden} face down.",
        "Ugah Ugah! board: Mammoth Masher {mm}, Bone Breaker {bb}; "
        "{n} chips lie between them, face-up values {values}, {hidden} face down.",
    ),
    "ugah.alt.dice": "Dice set aside: {aside}. Current throw: {rolled}.",
    "ugah.alt.spoils": "Spoils cards: {spoils}.",
    "ugah.alt.middle": "in the middle",
    "ugah.alt.stashes": "Chips collected: {stashes}.",
    "ugah.alt.scores": "Final scores: {scores}.",
    "ugah.alt.turn": "Turn: {name}.",
    "ugah.alt.ended": "The game was ended before its finish.",
    "ugah.alt.at_start": "at its start",
    "ugah.alt.at_chip": "on chip {n} of 31",
    "ugah.hand.chips": (
        "Your chips ({count}, {n} point): {chips}",
        "Your chips ({count}, {n} points): {chips}",
    ),
    "ugah.hand.none": "none yet",
    "ugah.hand.spoils": "Your spoils cards: {cards} (+{points} at the end)",
    "ugah.hand.pending": "The two chips in play: Mammoth Masher's {mm}, Bone Breaker's {bb}.",
    "rules.ugah": (
        "**Ugah Ugah!** (2-4 players)\n"
        "• On your turn the five dice are rolled. Bones are set aside at once. Name one or more symbols "
        "showing: every die with a named symbol is set aside; the rest are rolled again, until all five are aside.\n"
        "• Three or more dinosaurs, mammoths or birds win that spoils card (+3 at the end), even from another player.\n"
        "• Each Mammoth Masher die moves the small hunter one chip clockwise, each Bone Breaker die the big "
        "hunter one chip counter-clockwise; gaps are skipped.\n"
        "• One hunter moved: take the chip it stands on. Both moved: keep one chip, give the other to another "
        "player. You choose which hunter moves first when it matters.\n"
        "• When no chip is left between the hunters the game ends; the most munch points wins.\n"
        "Uncertain hunting: only four chips start face up."
    ),
}
