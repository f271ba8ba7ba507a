"""``/game mine``: a player's live games (lobbies they sit in and games under way) in every server and
channel, one line each: the game, the others at the table, whose turn it is, the time left (a live
Discord timestamp) and a jump link to the board. Within Discord's 2,000 characters: past that, the
rest is counted, not listed. Games whose turn is the caller's come first, then the soonest due."""

from __future__ import annotations

from typing import Any

from bot.i18n import Translator, seat_name
from engine.registry import rules_for
from engine.store import MatchRow
from engine.timers import person_due

LIMIT = 2000  # characters in one Discord message
LINK = "https://discord.com/channels/{guild}/{channel}/{message}"


def jump_link(guild_id: int | None, channel_id: int, message_id: int | None) -> str:
    """The address of a message (or, with none known yet, of its channel) Discord opens on a click."""
    link = LINK.format(guild=guild_id or "@me", channel=channel_id, message=message_id or "")
    return link.rstrip("/")


def due(m: MatchRow) -> int | None:
    """When the time a person has runs out (a turn's or a lobby's limit; never a computer's think)."""
    when = person_due(m.timers)
    return int(when) if when is not None else None


def movers(m: MatchRow, state: Any) -> list[int]:
    if m.status != "active" or state is None:
        return []
    return sorted(rules_for(m.game).to_move(state))


def line(m: MatchRow, state: Any, seat: int, link: str, tr: Translator) -> str:
    """One game as the player at ``seat`` sees it in the list."""
    names = [seat_name(s.name, s.ai, tr) for i, s in enumerate(m.seats) if i != seat]
    others = ", ".join(names) if names else tr("mine.alone")
    if m.status == "lobby":
        turn = tr("mine.lobby")
    elif seat in (now := movers(m, state)):
        turn = tr("mine.your_turn")
    else:
        who = " & ".join(seat_name(m.seats[s].name, m.seats[s].ai, tr) for s in now if s < len(m.seats))
        turn = tr("mine.their_turn", names=who or "?")
    when = due(m)
    left = tr("mine.left", when=f"<t:{when}:R>") if when is not None else ""
    text = tr("mine.line", game=tr(f"game.{m.game}"), others=others, turn=turn, link=link)
    return f"{text} {left}".rstrip()


def order(m: MatchRow, state: Any, seat: int) -> tuple[int, float, int]:
    """Your turn first, then the soonest time to run out, then the oldest game."""
    when = due(m)
    return (0 if seat in movers(m, state) else 1, float("inf") if when is None else when, m.id)


def listing(lines: list[str], tr: Translator, limit: int = LIMIT) -> str:
    """The whole answer: a title and as many lines as fit, the rest counted politely."""
    if not lines:
        return tr("mine.none")
    text = tr("mine.title", n=len(lines))
    for i, one in enumerate(lines):
        rest = len(lines) - i - 1  # room kept for saying how many more there are, if any
        reserve = len("\n" + tr("mine.more", n=rest)) if rest else 0
        if len(text) + 1 + len(one) + reserve > limit:
            return text + "\n" + tr("mine.more", n=len(lines) - i)
        text += "\n" + one
    return text
