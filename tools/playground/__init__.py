"""A local playground: the real bot against a simulated Discord, played in a browser, no token.

``python -m tools.playground [--db FILE] [--port N] [--locale LANG] [--locale MEMBER=LANG]`` (or
``./run playground``) starts the bot on SimCord with a server, a ``#games`` channel and three members
(alice, bob, carol), and serves SimCord's Discord-like preview pages on 127.0.0.1 only: ``#games``
(switch "viewing as" between the three members), each member's DMs with the bot, and each thread a
game opens, one port each. A clock advances SimCord's virtual time with wall time so turn limits and
countdowns run; SimCord is made live (``live``): a click waits for the bot's answer, not for all of
its work. Needs ``simcord[preview]``.
"""

from __future__ import annotations

from tools.playground.cli import banner, main
from tools.playground.session import Playground, open_playground

__all__ = ("Playground", "banner", "main", "open_playground")
