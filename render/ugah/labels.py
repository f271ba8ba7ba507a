"""Every word on Ugah Ugah!'s board, in English: the source of its translations (the catalogue's
``render.ugah.<label>``) and what stands in for a missing or broken one."""

from __future__ import annotations

EN_LABELS: dict[str, str] = {
    # painted into cached sprites (once per language)
    "title": "UGAH UGAH!",
    "start": "START",  # in the ring's large gap
    "spoils": "SPOILS",
    "players": "PLAYERS",
    "mm": "MM",  # the hunters' letters on dice, tokens and figures
    "bb": "BB",
    "card_dinosaur": "DINOSAUR",
    "card_mammoth": "MAMMOTH",
    "card_bird": "BIRD",
    # header
    "variant_basic": "Basic game",
    "variant_uncertain": "Uncertain hunting",
    "single": "1 symbol per roll",
    "turn": "Turn {n}",
    # inside the ring
    "game_over": "GAME OVER",
    "game_ended": "GAME ENDED",
    "prompt_pick": "Pick symbols to set aside",
    "prompt_order": "Which hunter moves first?",
    "prompt_keep": "Keep one chip, give the other",
    "tray_aside": "ASIDE",
    "tray_bones": "BONES",
    "tray_throw": "THROW",
    "tray_result": "RESULT",
    "tray_dice": "DICE",
    # panel
    "middle": "middle",  # a spoils card nobody holds
    "pts": "pts",
    "no_chips": "no chips",
    "player": "Player {n}",  # a seat without a usable name
    # the banner when no caption is given
    "caption_turn": "{name}'s turn",
    "caption_pick": "{name} is rolling the dice",
    "caption_order": "{name} chooses which hunter moves first",
    "caption_keep": "{name} keeps one chip and gives the other away",
    "caption_over": "Game over",
    "caption_ended": "This game was ended before its finish",
    "caption_winner": "Game over: {names} wins",
    "caption_winners": "Game over: {names} win",
}
