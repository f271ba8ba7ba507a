"""Pure builders: a committed match in, the content of a message out (text, controls, how to draw its
image). Nothing here talks to Discord; bot.delivery puts the results on screen."""

from __future__ import annotations

import functools
import io
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from typing import Any

import discord

from bot.components import ACT, CHOOSE, KINDS, ActionButton, ActionSelect, Controls, ControlsLayout
from bot.games import UIS
from bot.games.base import Ctx
from bot.games.common import MAX_ALT
from bot.i18n import Translator, seat_name, translator
from engine import lessons, pace, result, timers
from engine.fair import seed_hash
from engine.registry import computer_for, rules_for
from engine.store import MatchRow
from render.graphemes import ELLIPSIS, cut

MAX_CONTENT = 2000
# Every game's computer levels on one scale, shown with one set of words (level.<id>): easy, medium,
# hard. Ugah's stronger level is stored as "normal" (ratings keep its id) and shown as medium.
LEVEL_SCALE = {"easy": 0, "normal": 1, "medium": 1, "hard": 2}


@dataclass
class Board:
    """One message's worth, sendable several times (a discord.File is single-use). The image is drawn
    lazily, in a worker thread, so the text and controls can go out before it is ready."""

    content: str
    view: discord.ui.View | discord.ui.LayoutView | None
    draw: Callable[[], bytes] | None = None
    filename: str = "board.png"
    alt: str = ""
    png: bytes | None = None
    _key: str | None = field(default=None, repr=False, compare=False)

    @property
    def image_key(self) -> str:
        """The inputs of its drawing (computed once): equal keys draw equal images."""
        if self._key is None:
            self._key = image_key(self.draw)
        return self._key

    def files(self) -> list[discord.File]:
        if not self.png:  # none drawn, or a game without an image
            return []
        return [discord.File(io.BytesIO(self.png), filename=self.filename, description=self.alt)]

    def kwargs(self, *, new: bool = False, image: bool = True) -> dict[str, Any]:
        """``image=False`` leaves the message's current image in place (text and controls only). A
        Components V2 message carries its text inside the layout: the old content is cleared (the
        lobby before it was a classic message)."""
        v2 = isinstance(self.view, discord.ui.LayoutView)
        out: dict[str, Any] = {"content": None if v2 else self.content, "view": self.view}
        if v2 and new:
            out.pop("content")
        if new:
            out["files"] = self.files()
            if self.view is None:
                out.pop("view")
        elif image:
            out["attachments"] = self.files()
        return out


def image_key(draw: Callable[[], bytes] | None) -> str:
    """The inputs of a lazy drawing: the function and the values it closes over (views are plain
    data; translators are one object per language), so equal keys draw equal images."""
    if draw is None:
        return "-"
    if isinstance(draw, functools.partial):
        return repr((image_key(draw.func), draw.args, sorted(draw.keywords.items())))
    cells = [c.cell_contents for c in getattr(draw, "__closure__", None) or ()]
    return repr((getattr(draw, "__qualname__", draw), getattr(draw, "__self__", None), cells))


def tr_for(m: MatchRow) -> Translator:
    return translator(m.meta.locale or m.options.get("locale"))


def _view_of(items: list[discord.ui.Item[Any]]) -> discord.ui.View | None:
    if not items:
        return None
    return Controls(items)


def _layout_of(
    content: str, items: list[discord.ui.Item[Any]], image: str | None, alt: str
) -> discord.ui.LayoutView:
    """A Components V2 message: the text, the board image, then the controls in rows (40 components
    in all: room for a 5x5 grid and a row of other controls). Items keep their ``row`` numbers."""
    layout = ControlsLayout()
    layout.add_item(discord.ui.TextDisplay(content))
    if image is not None:
        media = discord.MediaGalleryItem(
            f"attachment://{image}", description=cut(alt, MAX_ALT, ELLIPSIS) or None
        )
        layout.add_item(discord.ui.MediaGallery(media))
    rows: dict[int, list[discord.ui.Item[Any]]] = {}
    for index, item in enumerate(items):
        rows.setdefault(item.row if item.row is not None else 100 + index // 5, []).append(item)
    for _, row in sorted(rows.items()):
        chunk: list[discord.ui.Item[Any]] = []
        for item in row:  # a select fills a row on its own (width 5)
            if chunk and sum(i.width for i in chunk) + item.width > 5:
                layout.add_item(discord.ui.ActionRow(*chunk))
                chunk = []
            item.row = None  # rows belong to the classic layout; here the ActionRow places them
            chunk.append(item)
        if chunk:
            layout.add_item(discord.ui.ActionRow(*chunk))
    return layout


def rematch_lobby(m: MatchRow, tr: Translator) -> Board:
    """A rematch offer: the finished game's seats, who has accepted, and Accept / Decline."""
    pending = set(m.meta.pending or [])
    seats = "\n".join(
        f"{i + 1}. {discord.utils.escape_markdown(seat_name(s.name, s.ai, tr))} "
        + ("⏳" if s.user_id in pending and not s.ai else "✅")
        for i, s in enumerate(m.seats)
    )
    expires = m.timers.get(timers.LOBBY_KEY)
    content = tr(
        "rematch.text",
        title=tr(f"game.{m.game}"),
        options=options_text(m, tr),
        seats=seats,
        when=f"<t:{int(expires)}:R>" if expires else "",
    )
    items: list[discord.ui.Item[Any]] = [
        ActionButton("l", m.id, m.version, op, label=tr(f"rematch.{op}"), style=style, row=0)
        for op, style in (("accept", discord.ButtonStyle.success), ("decline", discord.ButtonStyle.danger))
    ]
    return Board(content, _view_of(items))


def options_text(m: MatchRow, tr: Translator, players: int = 0) -> str:
    """The game's options as its header shows them, and a daily game's pace (engine.pace): in the
    lobby (``players`` 0) with its rules in full, on the board in short. A live game's lobby says a
    forfeit rule (players must know a no-show loses). A tournament's match says that instead: its
    seats were set by the pairing (the game's own words would speak of a host, who is not seated)."""
    if m.meta.tournament is not None:
        return tr("tournament.match_options")
    text = UIS[m.game].option_text(m.options, tr, players)
    if not pace.daily(m.options):
        if pace.forfeits(m.options) and not players:
            return f"{text}\n{tr('pace.live', timeout=tr('pace.timeout_forfeit'))}"
        return text
    hours = int(m.options.get("turn_hours") or 24)
    if players:
        return f"{text} · {tr('pace.short', n=hours)}"
    timeout = tr("pace.timeout_forfeit" if pace.forfeits(m.options) else "pace.timeout_computer")
    return f"{text}\n{tr('pace.daily', n=hours, timeout=timeout)}"


def lobby(m: MatchRow, tr: Translator) -> Board:
    if m.meta.pending is not None:
        return rematch_lobby(m, tr)
    rules = rules_for(m.game)
    seats = "\n".join(
        f"{i + 1}. {discord.utils.escape_markdown(seat_name(s.name, s.ai, tr))}"
        + (f" ({tr('lobby.computer')}: {tr(f'level.{s.level}')})" if s.ai else "")
        + (f" · {tr('lobby.host')}" if s.user_id == m.host_id else "")
        for i, s in enumerate(m.seats)
    )
    full = len(m.seats) >= rules.max_players  # no seat left to join or to give a computer
    content = tr(
        "lobby.text",
        title=tr(f"game.{m.game}"),
        options=options_text(m, tr),
        seats=seats,
        n=len(m.seats),
        min=rules.min_players,
        max=rules.max_players,
        hint=tr("lobby.hint_full" if full else "lobby.hint_open"),
    )
    items: list[discord.ui.Item[Any]] = []
    for op, style in (
        ("join", discord.ButtonStyle.success),
        ("leave", discord.ButtonStyle.secondary),
        ("start", discord.ButtonStyle.primary),
        ("cancel", discord.ButtonStyle.danger),
    ):
        label, off = tr(f"lobby.{op}"), full and op == "join"
        items.append(ActionButton("l", m.id, m.version, op, label=label, style=style, row=0, disabled=off))
    levels = sorted(computer_for(m.game).levels, key=lambda level: LEVEL_SCALE.get(level, 1))
    for level in levels:  # Add AI offers the game's levels (one button when there is one level)
        label = tr("lobby.ai") if len(levels) == 1 else tr("lobby.ai_level", level=tr(f"level.{level}"))
        items.append(ActionButton("l", m.id, m.version, f"ai.{level}", label=label, row=1, disabled=full))
    if not full:  # what each level means, where one is picked
        about = [
            tr("lobby.level_about", level=tr(f"level.{x}"), about=tr(f"level.about.{m.game}.{x}"))
            for x in levels
        ]
        content += "\n" + tr("lobby.levels", levels="; ".join(about))
    return Board(content, _view_of(items))


def closed_lobby(m: MatchRow, tr: Translator) -> Board:
    events = m.meta.events
    kind = events[0].kind if events else ""
    key = "lobby.expired" if kind == "lobby_expired" else "lobby.cancelled"
    if m.meta.pending is not None:  # a rematch offer that was declined or ran out
        key = "rematch.declined" if kind == "rematch_declined" else "rematch.expired"
    return Board(tr(key, title=tr(f"game.{m.game}"), name=_ender(m, tr)), None)


def _ender(m: MatchRow, tr: Translator) -> str:
    """Who ended the match: the name noted with it (a moderator may not be seated), else their seat's;
    a former player once the one who ended it asked to be forgotten."""
    if m.meta.ended_by_name:
        return discord.utils.escape_markdown(m.meta.ended_by_name)
    for s in m.seats:
        if m.meta.ended_by is not None and s.user_id == m.meta.ended_by:
            return discord.utils.escape_markdown(s.name)
    return tr("seat.forgotten")


CLOSED = ("channel_gone", "lobby_failed")  # a game nobody ended: the bot closed it (engine.match)


def _ended(m: MatchRow, tr: Translator) -> str:
    """How a game ended before its finish: who ended it, or why the bot closed it."""
    kind = m.meta.events[0].kind if m.meta.events else ""
    if kind in CLOSED and m.meta.ended_by is None and not m.meta.ended_by_name:
        return tr(f"match.closed_{kind}")
    if kind == "resigned":  # the last person at the table left: nobody was left to play for
        return tr("match.last_resigned", name=_ender(m, tr))
    return tr("match.ended", name=_ender(m, tr))


def _status(ctx: Ctx) -> str:
    m, tr = ctx.m, ctx.tr
    if m.status == "broken":
        return tr("match.broken")
    status = _ended(m, tr) if m.status == "cancelled" else UIS[m.game].status_line(ctx)
    outside = m.meta.result  # a result outside the rules: a resignation with two seats
    if outside is not None and outside.reason == "resignation":
        status = tr("match.resigned_win", name=" & ".join(ctx.shown_names[w] for w in outside.winners))
    if note := computer_note(ctx):
        status += f" · {note}"
    due = timers.person_due(m.timers)
    if m.status == "active" and due is not None:
        status += " " + tr("match.due", when=f"<t:{int(due)}:R>")
    return status


def computer_note(ctx: Ctx) -> str:
    """Whom the computer played for in a game that is over (finished, or ended before its finish):
    members who resigned a game of three or more seats (it played their seat on) and members whose
    time ran out (it played those turns). Empty when nobody; engine.result decides it with the
    winners (a resignation with two seats is the result itself, "Game over by resignation")."""
    final, m, tr = ctx.final(), ctx.m, ctx.tr
    if final is not None:
        resigned, timed = list(final.computer), list(final.timed_out)
    elif m.status == "cancelled":
        gone = result.resigned_seats(m) if len(m.seats) > 2 else []
        resigned = [i for i in gone if m.seats[i].user_id != m.meta.ended_by]  # (not the last to leave)
        timed = [i for i in m.meta.timed_out if 0 <= i < len(m.seats) and i not in gone]
    else:
        return ""
    names = ctx.shown_names
    notes = [
        tr(key, names=" & ".join(names[i] for i in seats))
        for key, seats in (("match.resigned_played", resigned), ("match.timed_out_played", timed))
        if seats
    ]
    return " ".join(notes)


def fair_line(m: MatchRow, tr: Translator) -> str:
    """Provably fair dice: the seed's hash while the game runs, the seed itself once it is over (so
    it never reveals hidden cards or future dice early). See tools/verify_seed.py."""
    digest = seed_hash(m.seed)
    if m.status == "active":
        return tr("fair.hash", short=digest[:16])
    return tr("fair.reveal", seed=m.seed, short=digest[:16])


def _fitting(
    items: list[discord.ui.Item[Any]], extra: list[discord.ui.Item[Any]], layout: str
) -> list[discord.ui.Item[Any]]:
    """The shared buttons (hand, Watch, ?) that fit on the last row, in that order of importance: a
    classic message has 25 components in 5 rows of 5 (Uonga's full 5x5 grid leaves no room), a
    Components V2 one 40 in all (its text, image and rows count too)."""
    limit = 25 if layout == "classic" else 30
    row4 = sum(i.width for i in items if i.row == 4)
    kept: list[discord.ui.Item[Any]] = []
    for item in extra:
        if len(items) + len(kept) < limit and (layout != "classic" or row4 + 1 <= 5):
            kept.append(item)
            row4 += 1
    return kept


def outcome_line(m: MatchRow, state: Any, tr: Translator) -> str:
    """How a match that is over ended: its result, who ended it, or the resignation."""
    return _status(Ctx(m, state, tr))


def game(
    m: MatchRow, state: Any, display: str = "", tr: Translator | None = None, closed: Iterable[int] = ()
) -> Board:
    """The public message of a started match: title, the story since the last human move, status,
    controls, and the board image drawn from the public view (an ended game is drawn as ended); in
    the match's language unless ``tr`` says otherwise (a spectator's private copy). ``closed``: the
    seats whose DMs turned out closed (they play through the panel)."""
    tr = tr or tr_for(m)
    ui = UIS[m.game]
    ctx = Ctx(m, state, tr, display=display)
    view, picture = _picture(m, state, ctx)  # (first: a picture built before brings its view)
    events = list(m.meta.events)
    lines = ui.event_lines(events, ctx)
    status = _status(ctx)
    head = f"**{tr(f'game.{m.game}')}** · {options_text(m, tr, len(m.seats))} · {fair_line(m, tr)}"
    shut = set(closed)
    closed_lines = [tr("match.dm_closed", name=ctx.shown_names[i]) for i in range(len(m.seats)) if i in shut]
    content = "\n".join([head, *lines, *closed_lines, f"**{status}**"])
    while len(content) > MAX_CONTENT and len(lines) > 1:  # keep the latest lines
        lines = lines[1:]
        content = "\n".join([head, "…", *lines, *closed_lines, f"**{status}**"])
    items: list[discord.ui.Item[Any]] = []
    if m.status == "active":
        items = list(ui.controls(ctx))
        extra = []
        if ui.private is not None:
            hand = tr(f"button.hand.{m.game}")
            extra.append(ActionButton("h", m.id, 0, "hand", label=hand, emoji=ui.hand_emoji, row=4))
        extra.append(ActionButton("h", m.id, 0, "watch", label=tr("button.watch"), emoji="👁", row=4))
        extra.append(ActionButton("h", m.id, 0, "help", label="?", row=4))
        items.extend(_fitting(items, extra, ui.layout))
    elif m.status == "finished":
        items = []  # (a tournament's game has none: the tournament pairs the next round)
        if m.meta.tournament is None:
            items.append(ActionButton("l", m.id, 0, "rematch", label=tr("button.rematch"), emoji="🔁", row=0))
        if lessons.teaches(m.game) and any(seat.user_id is not None for seat in m.seats):
            items.append(ActionButton("h", m.id, 0, "lessons", label=tr("button.lessons"), emoji="🎓", row=0))
    alt = ui.alt_text(view, ctx)
    if ui.layout == "v2":
        layout = _layout_of(cut(content, MAX_CONTENT), items, ui.image_name, alt)
        return Board(
            cut(content, MAX_CONTENT), layout, picture.draw, ui.image_name, alt, _key=picture.image_key
        )
    return Board(
        cut(content, MAX_CONTENT), _view_of(items), picture.draw, ui.image_name, alt, _key=picture.image_key
    )


# The public pictures built last, by the very row and state (and language and display) they came
# from: asked for at a move's commit, by a panel's answer and by the board's reconciler, a picture's
# view and image key are worked out once (issue 35). Committed rows and states are never changed.
@dataclass(frozen=True)
class _Built:
    m: MatchRow
    state: Any
    public: dict[str, Any]  # the public view, which the text and controls read too
    view: dict[str, Any]  # the picture's (an ended game's drawn as ended)
    picture: Board


_PICTURES: OrderedDict[tuple[int, int, int, int, str], _Built] = OrderedDict()
PICTURES_KEPT = 32


def _picture(m: MatchRow, state: Any, ctx: Ctx) -> tuple[dict[str, Any], Board]:
    """The public view of a started match (an ended game's drawn as ended), and its picture alone."""
    key = (id(m), m.version, id(state), id(ctx.tr), ctx.display)
    built = _PICTURES.get(key)
    if built is not None and built.m is m and built.state is state:
        _PICTURES.move_to_end(key)
        ctx._view = built.public  # (the same view for the text and controls)
        return built.view, built.picture
    view, draw = _drawing(m, state, ctx, list(m.meta.events))
    built = _PICTURES[key] = _Built(m, state, ctx.view(), view, Board("", None, draw))
    while len(_PICTURES) > PICTURES_KEPT:
        _PICTURES.popitem(last=False)
    return view, built.picture


def _drawing(
    m: MatchRow, state: Any, ctx: Ctx, events: list[Any]
) -> tuple[dict[str, Any], Callable[[], bytes]]:
    """The public view of a started match (an ended game's drawn as ended) and how to draw its image
    from it, the names and the caption."""
    ui = UIS[m.game]
    view = ctx.view()
    if m.status != "active":
        view = {**view, "ended": True}  # no prompt, no turn marker on a game that is over or ended
        if m.meta.result is not None:  # ended outside the rules (resignation): the image can name the winner
            view["ended_result"] = asdict(m.meta.result)
    caption = ctx.tr("match.ended_caption") if m.status == "cancelled" else ui.caption(events, ctx)
    if m.meta.result is not None and m.meta.result.reason == "resignation":  # the rules' own end names
        # no winner: the picture says who won (names as typed: the image is not markdown)
        caption = ctx.tr("match.resigned_win", name=" & ".join(ctx.names[w] for w in m.meta.result.winners))
    return view, functools.partial(ui.render, view, ctx.names, caption, ctx.tr, ctx.display)


def game_picture(m: MatchRow, state: Any) -> Board:
    """Only the picture of ``game(m, state)`` (the same image key): drawn ahead of the board."""
    return _picture(m, state, Ctx(m, state, tr_for(m)))[1]


def private(m: MatchRow, state: Any, seat: int, tr: Translator, display: str = "") -> Board:
    """A seat's private surface (DM or ephemeral panel), from that seat's view only."""
    ctx = Ctx(m, state, tr, seat=seat, display=display)
    if m.status == "active" and m.seats[seat].ai:  # a member who resigned: nothing to do here any more
        return Board(tr("private.resigned", game=tr(f"game.{m.game}")), None)
    surface = UIS[m.game].private_surface(ctx)
    if m.status == "active":
        return Board(
            cut(surface.content, MAX_CONTENT),
            _view_of(surface.items),
            surface.draw,
            surface.filename,
            surface.alt,
        )
    # over: the final picture, no controls, and how it ended instead of any instruction or turn line
    # (kept only where the game's own final text says the result already)
    status, note = _status(ctx), computer_note(ctx)
    end = tr("private.over", game=tr(f"game.{m.game}"), status=status)
    over_by_rules = m.status == "finished" and rules_for(m.game).outcome(state) is not None
    content = end
    if over_by_rules and status.removesuffix(f" · {note}") in surface.content:
        content = f"{surface.content}\n{note}" if note else surface.content
    elif over_by_rules:
        content = f"{end}\n{surface.content}"
    return Board(cut(content, MAX_CONTENT), None, surface.draw, surface.filename, surface.alt)


def mention_line(m: MatchRow, state: Any, tr: Translator) -> tuple[str, list[int]] | None:
    """The ping for humans whose turn just began (once per turn, never per click), with their time;
    what the turn is when the game says (its ``turn_text(ctx)`` hook: "round 3: solve your puzzle")."""
    seats = [
        s for s in m.meta.new_turn if 0 <= s < len(m.seats) and not m.seats[s].ai and not m.seats[s].away
    ]
    if m.status != "active" or not seats:
        return None
    users = [m.seats[s].user_id for s in seats if m.seats[s].user_id is not None]
    due = timers.person_due(m.timers)
    mentions, game = " ".join(f"<@{u}>" for u in users), tr(f"game.{m.game}")
    what = (UIS[m.game].turn_text(Ctx(m, state, tr)) if state is not None else None) or tr("match.turn")
    if due is not None:
        text = tr("match.your_turn", mentions=mentions, what=what, game=game, when=f"<t:{int(due)}:R>")
    else:
        text = tr("match.your_turn_untimed", mentions=mentions, what=what, game=game)
    return text, [u for u in users if u is not None]


def _labels(items: list[discord.ui.Item[Any]], legal: set[str]) -> list[str]:
    """The labels of the controls that carry a legal action (buttons), or of a select's options."""
    out: list[str] = []
    for item in items:
        if isinstance(item, ActionButton) and KINDS[item.kind][1] == ACT and item.arg in legal:
            out.append(str(item.item.label or item.arg))
        elif isinstance(item, ActionSelect) and KINDS[item.kind][1] == CHOOSE:
            out.extend(str(o.label) for o in item.item.options)
    return list(dict.fromkeys(out))


def help_text(m: MatchRow, state: Any, seat: int | None, tr: Translator) -> str:
    """What the ? button says, privately: to the player to move, what they can do right now (the
    game's ``help_text(ctx)`` hook, else the labels of their legal actions); to anyone else, whose
    move it is (nothing about hidden information: a mover's choices may reveal their hand)."""
    rules, ui = rules_for(m.game), UIS[m.game]
    movers = sorted(rules.to_move(state))
    if seat is None or seat not in movers:
        ctx = Ctx(m, state, tr)
        names = " & ".join(ctx.shown_names[s] for s in movers) or "?"
        return tr("help.waiting", names=names, status=_status(ctx))
    ctx = Ctx(m, state, tr, seat=seat)
    body = ui.help_text(ctx)
    if not body:
        legal = set(ctx.legal())
        items = list(ui.controls(Ctx(m, state, tr)))
        if ui.private is not None:
            items += ui.private_surface(ctx).items
        labels = _labels(items, legal)
        if labels:
            more = [tr("help.more", n=len(labels) - 20)] if len(labels) > 20 else []
            # (the choices offered: equal outcomes are one control, however many action codes)
            body = tr("help.choices", n=len(labels), choices="\n".join(f"• {x}" for x in labels[:20] + more))
        else:  # controls built step by step (choose a piece, then a place): say what is asked
            body = tr("help.count", n=len(legal), status=_status(Ctx(m, state, tr)))
    return tr("help.you", body=body)


def watched(m: MatchRow, state: Any, tr: Translator | None = None) -> Board:
    """A spectator's private copy of the public board (in the spectator's language): its text and
    image, no controls."""
    board = game(m, state, tr=tr)
    return Board(board.content, None, board.draw, board.filename, board.alt)
