"""The name of each kind of surface: the key of its reconcilers and of its rows in the ``surfaces``
table. Stored, so a name is never changed; this module imports nothing, so any other may read it."""

from __future__ import annotations

BOARD = "board"  # the public message in the match's channel (bot.surfaces.board)
DM = "dm"  # a seat's DM (bot.surfaces.dm)
PANEL = "panel"  # a seat's ephemeral panel (bot.surfaces.panel)
PING = "ping"  # the turn ping (bot.surfaces.ping)
RECAP = "recap"  # the animated recap of a finished game (bot.surfaces.recap)
LINE = (
    "line"  # the match's line in the channel it was opened in, when played in a thread (bot.surfaces.thread)
)
HELD = "held"  # the notice of a clock held up by a failing database (bot.surfaces.held)
NOTICE = "notice"  # a seat's DM telling them their turn began, for players who asked (bot.surfaces.notice)
