"""Every surface a match shows, kept in line with the committed state.

A surface is where a match is shown (the channel board, a seat's DM, a seat's open panel, the turn
ping, the recap, the match's line in its channel when it is played in a thread, the notice of a clock
held up by a failing database), who sees it and what it shows, built from ``rules.view(state, seat)``.
One module per kind (``board``, ``dm``, ``panel``, ``ping``, ``recap``, ``thread``, ``held``), each a
``SurfaceKind`` (``kind``) given a small ``Context``, never the coordinator; their names are in
``names``, and the kinds edited in place share one step (``redraw``). One reconciler per surface
serialises its updates (``reconciler``); the coordinator pokes them after every commit and owns
their lifecycle (``coordinator``); a click is answered on the surface it came from (``answer``).
Addresses live in their own table (``addresses``); Discord is reached through a small protocol
(``send``)."""

from bot.surfaces.coordinator import Surfaces
from bot.surfaces.send import DiscordSend, Send

__all__ = ["DiscordSend", "Send", "Surfaces"]
