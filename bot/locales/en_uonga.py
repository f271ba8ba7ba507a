"""English strings of Uonga (keys name the game)."""

MESSAGES: dict[str, str | tuple[str, str]] = {
    # commands, lobby, options
    "game.uonga": "Uonga",
    "cmd.uonga": "Uonga: Cavemen hunt Mastodons on a 5x5 board (2 players)",
    "cmd.uonga.start": "Open an Uonga lobby in this channel",
    "opt.uonga.side": "Which side you (the host) play",
    "opt.uonga.v1": "V1: the Mastodons need 10 points instead of 9",
    "opt.uonga.v2": "V2: the Mastodon player chooses which Mastodon of a tied herd falls",
    "opt.uonga.repetitions": "Draw when a position comes up this many times (0 = never; default 3)",
    "opt.uonga.move_limit": "Draw after this many movement turns without a capture (0 = never; default 40)",
    "opt.uonga.variant": "The rulebook's game (default), or a variant that is not in the rulebook, measured as fair",
    "uonga.variant.rulebook": "Rulebook (default)",
    "uonga.variant.mastodons_move_first_both_need_12": "Not in the rulebook: Mastodons move first, both need 12",
    "uonga.variant.cavemen_need_12_mastodons_need_8": "Not in the rulebook: Cavemen need 12, Mastodons 8",
    "uonga.side.cavemen": "I play the Cavemen",
    "uonga.side.mastodons": "I play the Mastodons",
    "uonga.side.random": "Random sides",
    "uonga.opt.side.cavemen": "host plays the Cavemen",
    "uonga.opt.side.mastodons": "host plays the Mastodons",
    "uonga.opt.side.random": "sides at random",
    "uonga.opt.v1": "V1: Mastodons need 10",
    "uonga.opt.v2": "V2: Mastodon player picks in ties",
    "uonga.opt.variant.mastodons_move_first_both_need_12": "variant not in the rulebook: the Mastodons move first "
    "after placing, and each side needs 12 points",
    "uonga.opt.variant.cavemen_need_12_mastodons_need_8": "variant not in the rulebook: the Cavemen need 12 points "
    "(four Mastodons), the Mastodons 8",
    "uonga.opt.limits": "draw rules: position seen {repetitions}×, {move_limit} turns without a capture",
    "rules.uonga": "**Uonga** (5x5 board). The Cavemen (5 Hunters worth 2, 5 Younglings worth 1) hunt the "
    "Mastodons (5, worth 3). First 9 points wins.\n"
    "• Placement: 5 turns each. The Cavemen place a Hunter and a Youngling per turn, the Mastodons one Mastodon.\n"
    "• Moves: a Youngling steps 1 square in any direction; a Hunter 1 or 2 in a straight line (the square "
    "between must be empty); Cavemen never land on a piece. A Mastodon moves like a rook and captures a Caveman "
    "by landing on it.\n"
    "• After a Caveman moves, a lone Mastodon next to it falls with 3+ Cavemen around it. Mastodons joined "
    "side by side form a herd: one member falls when one next to the mover has 4+ Cavemen around it (the one "
    "with the most; a tie is chosen by the Cavemen player).\n"
    "• Draw: both sides unable to move, a position seen 3 times, or 40 movement turns without a capture.\n"
    "Play by clicking the grid: your piece, then a green square. `/game resign` gives up.",
    # the grid (one emoji or letter per square)
    "uonga.grid.empty": "🟫",
    "uonga.grid.target": "🟢",
    "uonga.grid.H": "H",
    "uonga.grid.Y": "Y",
    "uonga.grid.Y_left": "←Y {square}",
    "uonga.grid.Y_right": "Y {square}→",
    "uonga.grid.M": "M",
    # decisions in words (the recap that teaches)
    "uonga.do.move": "{piece} {frm}→{to}",
    "uonga.do.place": "{piece} on {square}",
    "uonga.do.take": "the Mastodon on {square} falls",
    # names
    "uonga.team.cavemen": "Cavemen",
    "uonga.team.mastodons": "Mastodons",
    "uonga.piece.H": "Hunter",
    "uonga.piece.Y": "Youngling",
    "uonga.piece.M": "Mastodon",
    "uonga.or": " or ",
    # why a square cannot be played (private answers; nothing is changed)
    "uonga.why.unknown": "That square isn't a choice right now. Nothing was changed.",
    "uonga.why.own": "{square} holds one of your own pieces: nothing can land there. Pick a green square.",
    "uonga.why.on_mastodon": "A Caveman never lands on a Mastodon ({square}). Pick a green square.",
    "uonga.why.occupied": "Cavemen only move to empty squares, and {square} is taken. Pick a green square.",
    "uonga.why.blocked": "The path to {square} is blocked: every square in between must be empty.",
    "uonga.why.mastodon_line": "A Mastodon moves in a straight line along a rank or a file; {square} is not on one.",
    "uonga.why.reach_Y": "A Youngling moves one square in any direction; {square} is too far.",
    "uonga.why.reach_H": "A Hunter moves one or two squares in a straight line; {square} is not reachable.",
    "uonga.why.take": "Choose one of the green Mastodons: one of them falls.",
    "uonga.why.taken_square": "{square} is taken: place on an empty square (🟫).",
    "uonga.why.empty": "{square} is empty: click one of your own pieces first, then where it goes.",
    "uonga.why.not_yours": "The piece on {square} isn't yours: click one of your own pieces.",
    "uonga.why.stuck": "The piece on {square} has nowhere to go right now: choose another one.",
    # event lines
    "uonga.ev.placed": "{name} placed a {piece} on {square}",
    "uonga.ev.moved": "{name} moved a {piece} {frm}→{to}",
    "uonga.ev.captured_cavemen": "🎯 {name} captured the Mastodon on {square} (Cavemen {points}/{target})",
    "uonga.ev.captured_mastodons": "🦣 {name} trampled the {piece} on {square} (Mastodons {points}/{target})",
    "uonga.ev.tie": "⚖️ Herd tie: {name} chooses which Mastodon falls ({herds})",
    "uonga.ev.taken": "{name} chose the Mastodon on {square}",
    "uonga.ev.passed": "{name} has no legal move and passes",
    "uonga.ev.movement": "All pieces are placed: the hunt begins!",
    "uonga.ev.draw_passes": "🤝 Draw: neither side can move.",
    "uonga.ev.draw_repetition": "🤝 Draw: the same position came up again.",
    "uonga.ev.draw_move_limit": "🤝 Draw: too long without a capture.",
    "uonga.ev.won": ("🏆 {name} ({side}) wins with {n} point!", "🏆 {name} ({side}) wins with {n} points!"),
    "uonga.caption.draw": "Game over: draw",
    "uonga.caption.resigned": "Game over by resignation: {name} wins",
    # status line
    "uonga.status.who": "{name} ({side}):",
    "uonga.status.place_both": "click an empty square for your Hunter or Youngling.",
    "uonga.status.place_one": "click an empty square for your {piece}.",
    "uonga.status.place_kind": "placing on {square}: click the green H for a Hunter or the green Y "
    "next to it for a Youngling (both place on {square}).",
    "uonga.status.thinking": "thinking…",
    "uonga.status.move": "click one of your pieces, then a green square.",
    "uonga.status.selected": "{piece} on {square} selected: click a green square to move it, or another piece.",
    "uonga.status.selected_stuck": "the {piece} on {square} cannot move: choose another piece.",
    "uonga.status.take": "the herd is tied: click the green Mastodon that falls ({squares}).",
    "uonga.status.placement": "placement turn {k} of {of}",
    "uonga.status.moves_left": ("{n} move left before a draw", "{n} moves left before a draw"),
    "uonga.status.points": "Points: Cavemen {cav}/{cav_target}, Mastodons {mast}/{mast_target}.",
    "uonga.status.won": "🏆 Game over: {name} ({side}) wins, {why}.",
    "uonga.status.draw": "🤝 Game over: it's a draw, {why}.",
    "uonga.why_end.target": "reaching the target",
    "uonga.why_end.passes": "as neither side can move",
    "uonga.why_end.repetition": "as the same position came up again",
    "uonga.why_end.move_limit": "after too long without a capture",
    "uonga.why_end.resignation": "as the other player resigned",
    # alt text
    "uonga.alt.head": "Uonga board, 5 by 5, files a to e, ranks 1 to 5. {cav} plays the Cavemen, {mast} the Mastodons.",
    "uonga.alt.pieces": "Hunters: {hunters}. Younglings: {younglings}. Mastodons: {mastodons}.",
    "uonga.alt.none": "none",
    "uonga.alt.herds": "Herds: {herds}.",
    "uonga.alt.points": "Points: Cavemen {cav} of {cav_target}, Mastodons {mast} of {mast_target}.",
    "uonga.alt.last_place": "Last: a {piece} placed on {square}.",
    "uonga.alt.last_move": "Last: a {piece} moved from {frm} to {to}.",
    "uonga.alt.turn": "Turn: {name} ({side}).",
    "uonga.alt.ended": "The game was ended before its finish.",
}
