"""The /replay viewer: an ephemeral message stepping through a finished match, rebuilt from its seed
and action log; its buttons edit it in place. Nothing is written. Each person's costliest decisions
(engine.lessons) are marked 🎓 at their steps; the first /replay of a match waits for that review."""

from __future__ import annotations

import discord

from bot import replay
from bot.i18n import translator
from bot.render_pool import rendered
from engine import lessons
from engine.errors import MatchNotFound
from engine.lessons import Lesson
from engine.match import Matches


async def show(
    matches: Matches, interaction: discord.Interaction, match_id: int, step: int, *, edit: bool
) -> None:
    """Step ``step`` of a finished match of this server: a new ephemeral message (/replay), or the same
    one in place (``edit``: one of its buttons)."""
    try:
        m, state = await matches.get(match_id)
    except MatchNotFound:
        raise replay.ReplayRefused("replay.not_found") from None
    replay.replayable(m, state, interaction.guild_id)
    steps = await matches.history(match_id)
    if not edit:  # a typed step (/replay step:) past the end opens the last; a button's is exact
        step = min(step, len(steps) - 1)
    if not 0 <= step < len(steps):
        raise replay.ReplayRefused("replay.bad_step")
    marks: list[Lesson] = []
    if m.status == "finished" and lessons.teaches(m.game):
        if not matches.knows_lessons(match_id):  # the computer reviews the game first: seconds
            await (interaction.response.defer() if edit else interaction.response.defer(ephemeral=True))
        marks = [x for found in (await matches.lessons(match_id)).values() for x in found]
    tr = translator(interaction.locale)
    board = await rendered(replay.step_board(m, steps, step, tr, tr, marks))  # private: the viewer's language
    if interaction.response.is_done():
        if edit:
            await interaction.edit_original_response(**board.kwargs())
        else:
            await interaction.followup.send(**board.kwargs(new=True), ephemeral=True)
    elif edit:
        await interaction.response.edit_message(**board.kwargs())
    else:
        await interaction.response.send_message(**board.kwargs(new=True), ephemeral=True)
