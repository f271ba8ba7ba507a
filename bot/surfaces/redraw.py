"""The one step of the kinds whose surface is a message edited in place (the board, a DM, a panel):
let the clicks on their way land, draft the content from the latest commit, leave the message alone
if it shows that already, draw the image only if it changed, apply the edit, and say what became of
a refused one. Each such kind gives its draft, how it applies it and what a refusal means to it."""

from __future__ import annotations

import logging
from abc import abstractmethod
from dataclasses import dataclass
from typing import Any, ClassVar

import discord

from bot.messages import Board
from bot.render_pool import rendered
from bot.surfaces.content import Shown, fingerprint, picture_id
from bot.surfaces.kind import SurfaceKind
from bot.surfaces.reconciler import Reconciler, Retry
from bot.surfaces.send import RETRY, Verdict, hurried, verdict
from engine.store import MatchRow, SurfaceRow

log = logging.getLogger(__name__)

TOKEN_SECONDS = 15 * 60 - 20  # Discord's 15 minutes for an interaction, less a margin for the call


@dataclass(frozen=True)
class Drafted:
    """A surface's content built from the committed match ``m``, and where it lives (None: nowhere
    yet, so applying it posts it, image and all)."""

    m: MatchRow
    board: Board
    row: SurfaceRow | None


class Redrawn(SurfaceKind):
    # the latest click's interaction on the surface reaches the same message by another route
    by_token: ClassVar[bool] = True
    # ... and goes first, outside the bot token's budget (issue 35); off, only once the usual route
    # is refused (a rate limit, Discord's own failure): what the tests of that fallback turn off
    click_first: ClassVar[bool] = True

    @abstractmethod
    async def draft(self, rec: Reconciler, m: MatchRow, state: Any) -> Drafted | None:
        """What the surface should show now, or None when it is not to be shown (not posted yet,
        nobody's to show)."""

    @abstractmethod
    async def apply(self, rec: Reconciler, page: Drafted, image: bool) -> None:
        """Put ``page`` on the surface (``image``: its image too, drawn already; else the message
        keeps the one it has)."""

    @abstractmethod
    async def refused(self, rec: Reconciler, page: Drafted, err: Exception, said: Verdict) -> bool:
        """Discord refused ``apply`` for good (not a retry): True if the surface shows ``page`` after
        all (posted anew)."""

    async def step(self, rec: Reconciler) -> None:
        await self.ctx.quiet(rec.match_id)
        answers = rec.answers
        m, state = await self.ctx.matches.get(rec.match_id)
        page = await self.draft(rec, m, state)
        if page is None:
            return
        if page.row is not None:
            rec.recall(page.row.shown)  # a restarted bot knows what the message shows
        d = rec.draft(m.version, page.board)
        if d is None:
            return
        image = d.new_image or page.row is None
        picture = rec.shown.picture if rec.shown is not None else ""  # (the one the message keeps)
        if image:
            picture = picture_id(await rendered(page.board))
            if page.row is not None and rec.shows_picture(picture):
                # drawn from other inputs, the same attachment as the message has: never sent again
                image = False
                if rec.shows(fingerprint(page.board, image=rec.shown.image if rec.shown else None)):
                    rec.showed(Shown(m.version, d.fingerprint, d.image, picture))  # nothing else changed
                    return
        if rec.answers != answers:
            # a click's answer drew the surface while this draft was drawn (its display choice, say):
            # sent now, the older draft would land over it; drafted again instead
            rec.poke()
            return
        first = self.by_token and self.click_first
        try:
            if not (first and await self._by_token(rec, page, image)):
                await self._apply(rec, page, image)
        except Exception as err:
            said = verdict(err)
            if said.what == RETRY:
                if first or not (self.by_token and await self._by_token(rec, page, image)):
                    raise Retry(said.after) from None
            elif not await self.refused(rec, page, err, said):
                return
        rec.showed(Shown(m.version, d.fingerprint, d.image, picture))

    async def _apply(self, rec: Reconciler, page: Drafted, image: bool) -> None:
        """``apply``, unless its route is known to be rate limited: not asked again before the
        retry_after it named (discord.RateLimited, as if it had been)."""
        held = rec.held_until - rec.now()
        if held > 0:
            raise discord.RateLimited(held)
        try:
            with hurried():  # a 429 is heard at once: the token's route now, or our own wait
                await self.apply(rec, page, image)
        except discord.RateLimited as err:
            rec.held_until = rec.now() + err.retry_after
            raise

    async def _by_token(self, rec: Reconciler, page: Drafted, image: bool) -> bool:
        """The edit through the latest click's interaction on this very message, while Discord
        allows it (15 minutes): True if that worked. Outside the bot token's request budget (issue 35),
        so it goes first: a computer's move or another seat's click is shown by the token of the
        person who clicked there last. A failed one (expired, the message gone) is not asked again."""
        token = rec.fresh_token(TOKEN_SECONDS)
        row = page.row
        if token is None or row is None or token[1] != row.message_id:
            return False  # no click within 15 minutes: only the usual route reaches it
        try:
            await self.ctx.send.edit_by_token(*token, page.board, image=image)
        except discord.HTTPException as err:
            log.info("surface %s: the interaction route failed: %s", rec.key, err)
            rec.drop_token()
            return False
        return True
