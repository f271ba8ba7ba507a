"""What each surface of a finished game says, read as a person sees it (content, embeds, the alt text
of its pictures, its controls' labels), checked against the stored result (agreement_model): each
check is named for its surface, and a disagreement reads "honga × resign-3 × board after restart:
says winner bob, stored: carol"."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from bot.surfaces import names as kinds
from bot.surfaces.panel import live as panel_live
from engine import lessons, ratings
from engine.lessons import Lesson
from engine.registry import rules_for
from harness.sim import components, custom_ids, pings, recaps
from tests.bot.agreement_drive import DELETED, Table
from tests.bot.agreement_model import FORMER, TR, Claims, Expected, claims


def text_of(msg: Any) -> str:
    """Everything a message says: its content, embeds, pictures' alt text and controls' labels."""
    parts = [msg.content or ""]
    for e in msg.embeds:
        parts += [e.title or "", e.description or "", e.footer.text or ""]
        parts += [f"{f.name}\n{f.value}" for f in e.fields]
    parts += [a.description or "" for a in msg.attachments]
    for c in components(msg):
        parts += [str(getattr(c, a, None) or "") for a in ("label", "placeholder", "content")]
        parts += [o.label for o in getattr(c, "options", None) or []]
    return "\n".join(p for p in parts if p)


@dataclass(frozen=True)
class Disagreement:
    cell: str
    surface: str  # board, line, dm(alice), panel(bob), ping, recap, lessons(bob), stats(carol), ...
    phase: str  # before restart, after restart, after forget-me
    says: str
    stored: str

    def __str__(self) -> str:
        return f"{self.cell} × {self.surface} {self.phase}: says {self.says}, stored: {self.stored}"


@dataclass
class Verdict:
    """The disagreements found in one cell."""

    cell: str
    phase: str = "before restart"
    found: list[Disagreement] = field(default_factory=list)

    def fail(self, surface: str, says: str, stored: str) -> None:
        self.found.append(Disagreement(self.cell, surface, self.phase, says, stored))


def _names(ns: Iterable[str]) -> str:
    return ", ".join(sorted(ns)) or "nobody"


def agree(v: Verdict, surface: str, c: Claims, x: Expected, *, must_tell: bool) -> None:
    """A surface's claims against the model; ``must_tell``: it has to say how the game ended."""
    winners = x.who(x.winners)
    if c.winners is not None and (x.status != "finished" or c.winners != winners):
        v.fail(surface, f"winner {_names(c.winners)}", f"winner {_names(winners)} ({x.status}, {x.why})")
    if not c.resigned <= x.who(x.resigned):
        v.fail(surface, f"{_names(c.resigned)} resigned", f"resigned {_names(x.who(x.resigned))}")
    if not c.computer_for <= x.who(x.computer_for):
        v.fail(surface, f"the computer played for {_names(c.computer_for)}",
               f"computer played for {_names(x.who(x.computer_for))}")  # fmt: skip
    if c.ended_by and (x.ended_by is None or c.ended_by != {x.ended_by}):
        v.fail(surface, f"ended by {_names(c.ended_by)}", f"ended by {x.ended_by or 'nobody'} ({x.why})")
    if not must_tell:
        return
    if x.status == "finished" and c.winners is None:
        v.fail(surface, "no winner", f"winner {_names(winners)}")
    if x.why == "ended" and not c.ended_by:
        v.fail(surface, "not who ended it", f"ended by {x.ended_by}")
    if not c.over:
        v.fail(surface, "nothing about the game being over", x.status)


LIVE_WORDS = ("Still solving", "still solving", "time runs out", "Round limit", "round ends", "your turn")


def still_live(v: Verdict, surface: str, text: str, x: Expected) -> None:
    """A game that is over is not shown as going on (a countdown, players still solving, a turn)."""
    live = [w for w in LIVE_WORDS if w in text]
    if live:
        v.fail(surface, f"it is still going on ({live[0]!r})", f"{x.status} ({x.why})")


def told(v: Verdict, surface: str, msg: Any, x: Expected, *, must_tell: bool) -> None:
    text = text_of(msg)
    agree(v, surface, claims(text, x.everyone), x, must_tell=must_tell)
    still_live(v, surface, text, x)


async def flat_judge(fn: Any, game: str, before: Any, seat: int, played: str, step: int) -> Lesson:
    """🎓's valuation for the matrix: every decision costs a point, the choice made was as good as any.
    What is checked is whom 🎓 addresses and whose decisions it lists, not how good they were
    (tests/bot/test_lessons.py); the strongest computer's review takes seconds per decision."""
    return Lesson(step, seat, played, played, 1.0)


def seen(channel: Any, viewer: Any, message_id: int) -> Any | None:
    return next((m for m in channel.history(viewer=viewer) if m.id == message_id), None)


async def check_channel(v: Verdict, env: Any, t: Table, x: Expected, ending: str) -> None:
    """The board, the thread's line in the channel, the pings and the recap (of a deleted channel or
    thread, only the line in the channel it was opened in is left)."""
    if t.thread is not None:
        row = await env.bot.surfaces.addresses.get(t.mid, kinds.LINE)
        line = seen(t.channel, None, row.message_id) if row is not None and row.message_id else None
        if line is None:
            v.fail("line", "nothing (no line in the channel)", x.status)
        else:
            told(v, "line", line, x, must_tell=ending != DELETED)
    if ending == DELETED:
        return
    msg = seen(t.where, None, t.board_id)
    if msg is None:
        v.fail("board", "nothing (no board)", x.status)
    else:
        told(v, "board", msg, x, must_tell=True)
        said = claims(text_of(msg), x.everyone).resigned
        if not x.who(x.resigned) <= said:  # the final board says who resigned (and the computer took over)
            v.fail("board", f"resigned: {_names(said)}", f"resigned {_names(x.who(x.resigned))}")
    left = pings(t.where)
    if left:
        v.fail("ping", f"{len(left)} ping(s) left: {left[-1].content!r}", f"{x.status}: nobody is to move")
    shown = recaps(t.where)
    if x.status == "finished" and not shown:
        v.fail("recap", "nothing (no recap)", "finished")
    for msg in shown:
        told(v, "recap", msg, x, must_tell=False)


_MENTION = re.compile(r"<@(\d+)>")
_DUE = re.compile(r"<t:(\d+):R>")


SIMULTANEOUS = {"ubongo"}  # everyone plays each round at once: its ping names them all until the next


def pings_watch(v: Verdict) -> Any:
    """A look after each step of play: every turn ping left in the game's channel addresses people
    the stored state has to move now (not away, not played by the computer), with a time still to
    come."""

    async def watch(env: Any, t: Table) -> None:
        await env.bot.surfaces.settle(t.mid)
        m, state = await env.bot.matches.get(t.mid)
        movers = rules_for(m.game).to_move(state) if m.status == "active" else set()
        due = {m.seats[s].user_id for s in movers if not m.seats[s].ai and not m.seats[s].away}
        if m.game in SIMULTANEOUS and m.status == "active":  # one ping a round, for all who play it
            due = {s.user_id for s in m.seats if not s.ai}
        names = {s.user_id: s.name for s in m.seats}
        for ping in pings(t.where):
            pinged = {int(u) for u in _MENTION.findall(ping.content)}
            if not pinged <= due:
                v.fail("ping", f"{_names(names.get(u, '?') for u in pinged - due)}, your turn",
                       f"to move: {_names(names[u] for u in due if u in names)}")  # fmt: skip
            when = [int(w) for w in _DUE.findall(ping.content)]
            if pinged & due and when and min(when) < env.now().timestamp() - 1:
                v.fail(
                    "ping",
                    f"time runs out {int(env.now().timestamp()) - min(when)} s ago",
                    "a turn under way",
                )

    return watch


async def check_private(v: Verdict, env: Any, t: Table, x: Expected, ending: str) -> None:
    """Every person's DMs (their latest one) and the ephemeral panel the bot keeps for them (none in a
    deleted channel). A panel whose click is older than Discord's 15 minutes cannot be edited any more
    (its next click brings it up to date): it may still show the game going on, never another result."""
    for seat, p in enumerate(t.players):
        if seat in x.forgotten:
            continue  # what was shown to them alone is theirs; the bot keeps nothing to redraw it from
        dm = p.user.dm_channel
        for msg in list(dm.history())[-1:] if dm is not None else []:
            told(v, f"dm({p.user.name})", msg, x, must_tell=x.game == "ubongo")
        row = await env.bot.surfaces.addresses.get(t.mid, kinds.PANEL, seat)
        if ending == DELETED or row is None or row.message_id is None:
            continue
        panel = seen(t.where, p, row.message_id)
        if panel is None:
            continue
        if panel_live(row, env.now().timestamp()):
            told(v, f"panel({p.user.name})", panel, x, must_tell=False)
        else:
            agree(v, f"panel({p.user.name})", claims(text_of(panel), x.everyone), x, must_tell=False)


async def check_asked(v: Verdict, env: Any, t: Table, x: Expected, ending: str) -> None:
    """What each person is told when they ask: 🎓, /stats, /replay; and the stored ratings."""
    here = t.talk  # commands are run in another channel of the server (the game's may be gone)
    for seat, p in enumerate(t.players):
        await check_stats(v, env, t, x, seat, p)  # (a forgotten player has none left)
        if seat in x.forgotten:
            continue
        if ending != DELETED and x.status == "finished" and lessons.teaches(x.game):
            await check_lessons(v, t, x, seat, p)
    await check_replay(v, here, t, x)


async def check_stats(v: Verdict, env: Any, t: Table, x: Expected, seat: int, p: Any) -> None:
    want = x.stats_of(seat)
    stored = (await env.bot.store.standings(t.guild.id, ratings.user_key(p.id))).get(x.game)
    got = (stored.played, stored.wins) if stored is not None else None
    if got != want:
        v.fail(f"records({p.user.name})", f"games/wins {got}", f"{want} ({x.status}, {x.why})")
    r = await p.slash(t.talk, "stats")
    text = r.response.content if r.response else ""
    title = TR(f"game.{x.game}")
    line = next((ln for ln in text.splitlines() if f"**{title}**" in ln), None)
    said = None
    if line is not None and "games: " in line:
        games, wins = line.split("games: ")[1].split(" · wins: ")
        said = (int(games), int(wins))
    if said != want:
        v.fail(f"stats({p.user.name})", f"games/wins {said}", f"{want} ({x.status}, {x.why})")


async def check_lessons(v: Verdict, t: Table, x: Expected, seat: int, p: Any) -> None:
    final = seen(t.where, None, t.board_id)
    cid = f"h:{t.mid}:0:lessons"
    if final is None or cid not in custom_ids(final):
        v.fail(f"lessons({p.user.name})", "no 🎓 button on the final board", "finished")
        return
    r = await p.click(final, custom_id=cid)
    msg = r.followups[-1] if r.followups else r.response
    text = msg.content if msg is not None else ""
    if "aren't playing" in text:
        v.fail(f"lessons({p.user.name})", repr(text[:60]), f"{x.shown(seat)} sat at seat {seat + 1}")
    elif seat not in x.computer_for and "computer played your turns" in text:
        v.fail(f"lessons({p.user.name})", repr(text[:70]), f"{x.shown(seat)} played their own turns")
    elif seat in x.resigned and len(x.names) > 2 and "after you left the game" not in text:
        v.fail(f"lessons({p.user.name})", repr(text[-90:]), f"{x.shown(seat)} left; the computer played on")
    elif seat in x.computer_for - x.resigned and "when your time ran out" not in text:
        v.fail(f"lessons({p.user.name})", repr(text[-90:]), f"the computer played for {x.shown(seat)}")


async def check_replay(v: Verdict, here: Any, t: Table, x: Expected) -> None:
    """/replay to its last step: the final board it shows tells the same result."""
    asker = next(p for s, p in enumerate(t.players) if s not in x.forgotten)
    r = await asker.slash(here, "replay", match=t.mid)
    msg = r.response.message if r.response else None
    if msg is None:
        v.fail("replay", "no answer", x.status)
        return
    last = [c for c in custom_ids(msg, "r:") if c.endswith(":last")]
    if last:
        msg = (await asker.click(msg, custom_id=last[0])).response.message
    text = text_of(msg)
    told(v, "replay", msg, x, must_tell=False)
    for s in x.forgotten:
        if x.names[s] in text:
            v.fail("replay", f"the forgotten name {x.names[s]!r}", FORMER)


async def check_rematch(v: Verdict, env: Any, t: Table, x: Expected) -> None:
    """The rematch offer from the final board waits only on people who can accept it, and never seats
    someone nobody is (a forgotten player's seat)."""
    final = seen(t.where, None, t.board_id)
    cid = f"l:{t.mid}:0:rematch"
    if final is None or cid not in custom_ids(final):
        return
    asker = next(p for s, p in enumerate(t.players) if s not in x.forgotten and s not in x.resigned)
    r = await asker.click(final, custom_id=cid)
    least = rules_for(x.game).min_players
    taken_over = x.resigned if len(x.names) > 2 else frozenset()  # the computer keeps such a seat
    left = len(x.names) - len(x.forgotten - taken_over)
    if r.ephemeral:
        said = r.response.content
        if left < least and said == TR("rematch.forgotten", game=x.game, min=least):
            return  # too few left to play again: said at once, nothing waits
        v.fail("rematch", f"refused: {said!r}", f"{x.shown(t.players.index(asker))} played")
        return
    old, _ = await env.bot.matches.get(t.mid)
    offer, _ = await env.bot.matches.get(old.meta.rematch)
    text = text_of(r.response.message) if r.response is not None and r.response.message else ""
    if f"{FORMER} ⏳" in text:
        v.fail("rematch", "it waits on a former player", f"forgotten: {_names(x.who(x.forgotten))}")
    nobody = [i for i, s in enumerate(offer.seats) if s.user_id is None and not s.ai]
    if nobody:
        v.fail("rematch", f"{offer.status}, with seat(s) {[i + 1 for i in nobody]} nobody's",
               f"forgotten: {_names(x.who(x.forgotten))}")  # fmt: skip


class Uploads:
    """Counts pictures uploaded again, byte for byte, to a message that already shows them (SimCord's
    message edits, each attachment's bytes from its CDN): surface -> repeats."""

    def __init__(self, env: Any) -> None:
        self.backend = env.backend
        self.repeats: list[tuple[int, str]] = []  # (message id, the request that sent it)
        self.reported = 0
        self._edit = env.backend.edit_message
        env.backend.edit_message = self.edit  # the instance's own: SimCord calls it for every edit

    def _digest(self, att: dict[str, Any]) -> str:
        return hashlib.sha256(self.backend.cdn.get(att["url"]) or b"").hexdigest()

    def edit(self, channel_id: int, message_id: int, fields: dict[str, Any]) -> Any:
        before = self.backend.get_message(channel_id, message_id).attachments
        old_ids = {str(a["id"]) for a in before}
        shown = {self._digest(a) for a in before}
        msg = self._edit(channel_id, message_id, fields)
        for att in msg.attachments:
            if str(att["id"]) not in old_ids and self._digest(att) in shown:
                last = self.backend.http_requests[-1]
                self.repeats.append((message_id, f"{last.method} {last.path.split('/')[1]}"))
        return msg

    def check(self, v: Verdict) -> None:
        """The repeats since the last check (each phase's own)."""
        new, self.reported = self.repeats[self.reported :], len(self.repeats)
        if new:
            v.fail("uploads", f"{len(new)} picture(s) sent again unchanged ({sorted(set(new))})",
                   "each picture sent once per message")  # fmt: skip
