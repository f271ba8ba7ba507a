"""What a kind of surface provides, and the small context it is given instead of the coordinator.

A kind (one module each) declares its name (``bot.surfaces.names``), its address (``seats``: which
of its surfaces a match has, from the committed row and the stored addresses) and ``step``: bring one
surface in line with the committed state, drafting its content and applying it. Kinds edited in
place share one step (``bot.surfaces.redraw``). A new kind is its module (its name joins
``names``) plus its class in ``bot.surfaces.coordinator.KINDS``; one that can be clicked also gets
its custom_id kind (``bot.components``) and its place in ``bot.surfaces.answer.where``."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable
from typing import ClassVar

from bot.surfaces.addresses import Addresses
from bot.surfaces.languages import Languages
from bot.surfaces.reconciler import Reconciler
from bot.surfaces.send import Send
from engine.match import Matches
from engine.store import MatchRow, SurfaceRow

Rows = dict[tuple[str, int], SurfaceRow]  # a match's stored addresses, by (kind, seat)


class Context:
    """What a kind uses: the committed matches, the addresses, Discord, the clock, the players'
    languages, the wait for clicks on their way to a commit, and a way to poke or wait for another
    surface of the match (the board after a DM closed, the final board before its thread archives)."""

    def __init__(
        self,
        matches: Matches,
        addresses: Addresses,
        send: Send,
        now: Callable[[], float],
        languages: Languages,
        quiet: Callable[[int], Awaitable[None]],
        reconciler: Callable[[int, str, int], Reconciler],
    ) -> None:
        self.matches = matches
        self.addresses = addresses
        self.send = send
        self.now = now
        self.languages = languages
        self.quiet = quiet  # let clicks on their way to the match's commit land first
        self._reconciler = reconciler
        self.closing = False  # the bot is shutting down: nothing new is started

    def poke(self, match_id: int, kind: str, seat: int = -1) -> None:
        """Bring that surface in line again (something besides a commit changed it)."""
        self._reconciler(match_id, kind, seat).poke()

    def recent_click(self, match_id: int, kind: str, seat: int = -1) -> tuple[str, int, float] | None:
        """The latest click's interaction on that surface, as this process knows it: (its token, the
        message it was on, when), or None."""
        return self._reconciler(match_id, kind, seat).token

    async def wait(self, match_id: int, kind: str, seat: int = -1) -> None:
        """Until that surface's reconciler is idle."""
        await self._reconciler(match_id, kind, seat).wait()


class SurfaceKind(ABC):
    kind: ClassVar[str]  # its name (bot.surfaces.names)

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    @property
    def delay(self) -> float:
        """Seconds after a commit before its surfaces are brought in line (0: at once)."""
        return 0.0

    @abstractmethod
    def seats(self, m: MatchRow, rows: Rows) -> list[int]:
        """Its address: the seats (-1: the match's one) whose surface of this kind the committed
        match ``m`` has, to bring in line after a commit."""

    @abstractmethod
    async def step(self, rec: Reconciler) -> None:
        """Bring the surface ``rec`` in line with the match's latest committed state (run by its
        reconciler, one at a time; raise ``Retry`` when Discord asks to try again later)."""
