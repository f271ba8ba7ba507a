"""What a tournament shows, derived from its record alone: the one message in its channel (sign-up,
then each round's tables), the standings posted after each round (text and picture) and the podium."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import discord

from bot.components import ActionButton, Controls
from bot.i18n import Translator, translator
from bot.messages import MAX_CONTENT, Board
from engine.registry import rules_for
from engine.tournament import flow, pairing, standings
from engine.tournament.model import CANCELLED, FINISHED, PAUSED, RUNNING, SIGNUP, Game, Tournament
from render import tournament as picture
from render.graphemes import cut

KIND = "t"  # bot.components: a tournament message's control (``t:<tournament>:<version>:<op>``)


_GLYPHS = {
    Fraction(1, 2): "½", Fraction(1, 4): "¼", Fraction(3, 4): "¾", Fraction(1, 3): "⅓", Fraction(2, 3): "⅔",
}  # fmt: skip


def points(value: Fraction) -> str:
    """3, 2½, 1¾, ⅔ as on a chess site's table; other shares (means over tables of 3 to 5) to two
    places."""
    whole, rest = divmod(value, 1)
    if rest == 0:
        return str(int(whole))
    if rest in _GLYPHS:
        return f"{int(whole) or ''}{_GLYPHS[rest]}"
    return f"{float(value):.2f}"


def names(t: Tournament, ids: Sequence[int], sep: str = ", ", tr: Translator | None = None) -> str:
    """Players' names as shown; one who asked to be forgotten is "a former player"."""
    by_id = {p.id: p.name for p in t.players}
    gone = (tr or translator(t.locale))("seat.forgotten")
    return sep.join(discord.utils.escape_markdown(by_id.get(i) or gone) for i in ids)


def _listing(items: list[str], budget: int, tr: Translator) -> str:
    """As many items as fit in ``budget`` characters, then how many more."""
    out: list[str] = []
    for i, item in enumerate(items):
        more = tr("tournament.more", n=len(items) - i)
        if sum(len(x) + 2 for x in out) + len(item) + len(more) + 4 > budget:
            return ", ".join(out) + " " + more
        out.append(item)
    return ", ".join(out)


def _header(t: Tournament, tr: Translator) -> str:
    rounds = tr("tournament.rounds", n=t.rounds) if t.rounds else tr("tournament.rounds_auto")
    return tr(
        "tournament.header",
        title=discord.utils.escape_markdown(t.title),
        game=tr(f"game.{t.game}"),
        format=tr(f"tournament.format.{t.fmt}"),
        rounds=rounds,
        tables=tr("tournament.tables", n=t.table_size),
    )


def _table_line(t: Tournament, g: Game, tr: Translator) -> str:
    sep = tr("tournament.vs") if len(g.players) == 2 else ", "
    thread = f"<#{g.thread_id}>" if g.thread_id else ""
    if g.match_id is None:
        where = tr("tournament.table_opening")
    elif g.places is None:
        where = tr("tournament.table_playing", thread=thread)
    else:
        where = tr("tournament.table_done", result=result_text(t, g, tr), thread=thread)
    return tr("tournament.table", table=g.table, names=names(t, g.players, sep), where=where)


def result_text(t: Tournament, g: Game, tr: Translator) -> str:
    assert g.places is not None
    first = [p for p, place in zip(g.players, g.places, strict=True) if place == 0]
    if len(first) == len(g.players):
        return tr("tournament.draw")
    return tr("tournament.won", name=names(t, first))


def message(t: Tournament, tr: Translator, now: float) -> Board:
    """The tournament's one message: its sign-up, then the round being played, then how it ended."""
    lines = [_header(t, tr)]
    if t.status == SIGNUP or (t.status == CANCELLED and t.round == 0):
        when = f"<t:{int(t.signup_deadline)}:R>"
        time = tr("tournament.round_time", n=t.round_seconds // 60)
        if t.status == SIGNUP:
            lines.append(tr("tournament.signup", when=when, time=time))
        else:
            need = flow.minimum(t, rules_for(t.game).min_players)
            key = "tournament.expired" if t.ended_by is None else "tournament.cancelled"
            lines.append(tr(key, n=len(t.players), min=need))
        entries = [f"{names(t, [p.id])}" for p in t.players]
        players = tr("tournament.players", n=len(entries), names=_listing(entries, 1200, tr))
        lines.append(players if entries else tr("tournament.nobody"))
    else:
        lines.append(_status_line(t, tr))
        games = t.of_round(t.round)
        tables = [_table_line(t, g, tr) for g in games if not g.bye]
        lines.extend(tables)
        byes = [g.players[0] for g in games if g.bye]
        if byes:
            lines.append(tr("tournament.bye", names=names(t, byes)))
    content = cut("\n".join(lines), MAX_CONTENT, "…")
    return Board(content, _controls(t, tr))


def _status_line(t: Tournament, tr: Translator) -> str:
    if t.status == FINISHED:
        table = standings.standings(t.fmt, flow.entrants(t), flow.results(t))
        top = [s.id for s in table if s.rank == 1]
        if t.ended_by is not None:
            by = names(t, [t.ended_by]) if t.player(t.ended_by) else tr("tournament.col.player")
            return tr("tournament.ended", name=by, round=t.round, names=names(t, top))
        return tr("tournament.finished", names=names(t, top))
    if t.status == PAUSED:
        return tr("tournament.round_paused", round=t.round, rounds=t.rounds)
    if t.round_deadline is None:
        return tr("tournament.round_overtime", round=t.round, rounds=t.rounds)
    return tr("tournament.round", round=t.round, rounds=t.rounds, when=f"<t:{int(t.round_deadline)}:R>")


def _controls(t: Tournament, tr: Translator) -> discord.ui.View | None:
    ops: list[tuple[str, discord.ButtonStyle]] = []
    if t.status == SIGNUP:
        ops = [
            ("join", discord.ButtonStyle.success),
            ("leave", discord.ButtonStyle.secondary),
            ("start", discord.ButtonStyle.primary),
            ("cancel", discord.ButtonStyle.danger),
        ]
    elif t.status in (RUNNING, PAUSED):
        ops = [("show", discord.ButtonStyle.secondary), ("leave", discord.ButtonStyle.secondary)]
    elif t.status == FINISHED:
        ops = [("show", discord.ButtonStyle.secondary)]
    if not ops:
        return None
    view = Controls()
    for op, style in ops:
        # (version 0: a tournament's controls mean the same whatever changed, so none goes stale when
        # others join at the same moment)
        view.add_item(ActionButton(KIND, t.id, 0, op, label=tr(f"tournament.{op}"), style=style))
    return view


# ---- standings ---------------------------------------------------------------------------------


def table_of(t: Tournament) -> list[standings.Standing]:
    return standings.standings(t.fmt, flow.entrants(t), flow.results(t))


def _rank_texts(table: list[standings.Standing]) -> list[str]:
    counts: dict[int, int] = {}
    for s in table:
        counts[s.rank] = counts.get(s.rank, 0) + 1
    return [f"={s.rank}" if counts[s.rank] > 1 else str(s.rank) for s in table]


def _tiebreaks(t: Tournament, s: standings.Standing, tr: Translator) -> tuple[str, ...]:
    out = []
    for name in standings.TIEBREAKS[t.fmt]:
        value: Any = getattr(s, name)
        if name == "out_in":
            out.append("–" if value is None else tr("tournament.round_short", n=value))
        else:
            out.append(points(value) if isinstance(value, Fraction) else str(value))
    return tuple(out)


def _record(s: standings.Standing) -> str:
    return f"{s.wins}-{s.draws}-{s.losses}"


def standings_board(t: Tournament, tr: Translator, *, final: bool) -> Board:
    """The standings after the round just played (``final``: of the whole tournament, with its podium
    picture), as text and picture."""
    table = table_of(t)
    ranks = _rank_texts(table)
    lines = []
    for rank, s in zip(ranks, table, strict=True):
        breaks = " · ".join(_tiebreaks(t, s, tr))
        dropped = f" ({tr('tournament.dropped')})" if s.dropped else ""
        lines.append(
            tr(
                "tournament.line",
                rank=rank,
                name=names(t, [s.id]) + dropped,
                points=points(s.points),
                tiebreaks=breaks,
                record=_record(s),
            )
        )
    title = discord.utils.escape_markdown(t.title)
    if final:
        text = tr("tournament.final_text", title=title, lines="\n".join(lines))
    else:
        text = tr("tournament.standings_text", round=t.round, rounds=t.rounds, lines="\n".join(lines))
    headers = (
        tr("tournament.col.rank"),
        tr("tournament.col.player"),
        tr("tournament.col.points"),
        *(tr(f"tournament.col.{n}") for n in standings.TIEBREAKS[t.fmt]),
        tr("tournament.col.record"),
    )
    pic_lines = tuple(
        picture.Line(rank, names(t, [s.id]), points(s.points), _tiebreaks(t, s, tr), _record(s), s.dropped)
        for rank, s in zip(ranks, table, strict=True)
    )
    if final:
        podium = tuple((names(t, [s.id]), points(s.points)) for s in table[:3])
        drawn = picture.PodiumPicture(
            tr("tournament.final_title", title=t.title), podium, pic_lines[3:], headers
        )
        draw = functools.partial(picture.podium_png, drawn)
        alt = tr("tournament.final_title", title=t.title)
    else:
        title_text = tr("tournament.standings_title", title=t.title, round=t.round, rounds=t.rounds)
        subtitle = tr("tournament.subtitle", game=tr(f"game.{t.game}"), format=tr(f"tournament.format.{t.fmt}"),
                      n=len(t.players))  # fmt: skip
        shown = picture.StandingsPicture(title_text, subtitle, headers, pic_lines)
        draw = functools.partial(picture.standings_png, shown)
        alt = picture.standings_alt(shown)
    return Board(cut(text, MAX_CONTENT, "…"), None, draw, "standings.png", cut(alt, 1000, "…"))


__all__ = ["KIND", "message", "pairing", "points", "standings_board"]
