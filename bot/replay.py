"""Pictures of a match from its seed and action log (never stored as images): the steps of ``/replay``,
the animated recap posted when a game finishes, and the pictures that ``/game rules`` shows.

Everything here is drawn from the PUBLIC view (``rules.view(state, None)``), the same one the channel
message shows, so a replay reveals nothing the live board did not: hidden cards and puzzles stay
hidden, and the last step is drawn exactly as the final board. Pure builders: nothing talks to
Discord; the drawing functions are called in the render pool (bot.delivery).
"""

from __future__ import annotations

import dataclasses
import functools
import io
from collections.abc import Callable, Sequence
from typing import Any

from PIL import Image, ImageDraw

from bot import messages
from bot.components import ActionButton, ActionSelect, Controls
from bot.games import UIS
from bot.games.base import Ctx
from bot.i18n import Translator
from bot.messages import Board
from engine import lessons
from engine import options as typed_options
from engine.core import SYSTEM, Event
from engine.errors import EngineError
from engine.lessons import Lesson
from engine.registry import rules_for
from engine.replay import Step
from engine.store import LIVE, MatchRow, SeatInfo
from render.graphemes import cut
from render.lesson import Lesson as Overlay

MAX_FRAMES = 24  # frames of a recap: the first and the last board always, the moments between sampled
FRAME_MS = 1000
LAST_FRAME_MS = 4000  # the final board stays a while before the recap loops
RECAP_NAME = "recap.gif"
RULES_SEED = 20240611  # the start board /game rules shows is always the same one
BAR = (233, 178, 52)  # the recap's progress bar
BAR_BACK = (40, 33, 26)


class ReplayRefused(EngineError):
    """A replay that cannot be shown: ``key`` says why (unknown match, still live, never started)."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def replayable(m: MatchRow, state: Any, guild_id: int | None) -> None:
    """Raise ReplayRefused unless ``m`` is a match of this server that started and is over."""
    if m.guild_id is None or m.guild_id != guild_id:
        raise ReplayRefused("replay.not_found")  # another server's games are none of this one's business
    if m.status in LIVE:
        raise ReplayRefused("replay.live" if state is not None else "replay.not_started")
    if state is None:
        raise ReplayRefused("replay.not_started")


# ---- one step --------------------------------------------------------------------------------------


def _running(m: MatchRow) -> MatchRow:
    """The row as it was while the game ran: the texts and captions of a step in the middle must not
    speak of the result (they read ``status`` and the stored result)."""
    meta = dataclasses.replace(m.meta, result=None, events=[], new_turn=[])
    return dataclasses.replace(m, status="active", meta=meta, timers={})


def _public(events: Sequence[Event]) -> list[Event]:
    return [e for e in events if e.visible_to(None)]


def step_draw(
    m: MatchRow, steps: Sequence[Step], k: int, tr: Translator, lesson: Lesson | None = None
) -> Callable[[], bytes]:
    """How to draw step ``k`` (0 = the start): the public view then, with the caption of the move that
    led to it. The last step of a match that is over is the final board itself, drawn as the channel
    message draws it (same view, same caption). ``lesson``: a costly decision made at this step (the
    position before it, ``shown_at``), drawn over the board, its caption naming both choices."""
    ui, rules = UIS[m.game], rules_for(m.game)
    if k == len(steps) - 1 and m.status not in LIVE:
        board = messages.game(m, steps[k].state)
        assert board.draw is not None
        return board.draw
    ctx = Ctx(_running(m), steps[k].state, tr)
    caption = ui.caption(_public(steps[k].events), ctx)
    view = rules.view(steps[k].state, None)
    if lesson is not None and shown_at(lesson) == k:
        played, better = (
            action_text(m, steps[k].state, lesson.seat, code, tr) for code in (lesson.played, lesson.better)
        )
        caption = tr("lessons.caption", better=_plain(better), played=_plain(played))
        overlay = Overlay(better=lesson.better, played=lesson.played)
        return functools.partial(ui.render, view, ctx.names, caption, tr, lesson=overlay)
    return functools.partial(ui.render, view, ctx.names, caption, tr)


def _plain(text: str) -> str:
    """Message text (markdown escaped) as a picture draws it."""
    return text.replace("\\", "")


def step_lines(m: MatchRow, steps: Sequence[Step], k: int, tr: Translator) -> list[str]:
    """What the step's move did, as the channel message told it (public events only; a move whose
    effect is hidden only says who moved)."""
    if k == 0:
        return [tr("replay.start")]
    step = steps[k]
    ctx = Ctx(_running(m), step.state, tr)
    lines = UIS[m.game].event_lines(_public(step.events), ctx)
    if not lines and step.action is not None:
        seat = step.action.seat
        if seat == SYSTEM or not 0 <= seat < len(m.seats):
            lines = [tr("replay.clock")]
        else:
            lines = [tr("replay.acted", name=ctx.shown_names[seat])]
    if k == len(steps) - 1 and m.status not in LIVE:  # how it ended, as the board says it
        lines += [tr("replay.end"), messages.outcome_line(m, step.state, tr)]
    return lines


def step_board(
    m: MatchRow,
    steps: Sequence[Step],
    k: int,
    tr: Translator,
    image_tr: Translator,
    marks: Sequence[Lesson] = (),
) -> Board:
    """The ephemeral /replay message at step ``k`` of ``len(steps) - 1``: the text in ``tr``'s
    language, the image in ``image_tr``'s (a private reply: both the viewer's, see Delivery), and
    ⏮ ◀ ▶ ⏭. Each button carries the step it goes to (kind ``r``), so it works after a restart.
    ``marks``: the match's lessons (engine.lessons); one made in this step's position is told under
    it and drawn on the board (the better choice and the one made)."""
    last = len(steps) - 1
    game = tr(f"game.{m.game}")
    head = tr("replay.text", game=game, id=m.id, step=k, total=last)
    lines = step_lines(m, steps, k, tr)
    names = Ctx(m, steps[k].state, tr).shown_names
    here = [x for x in marks if shown_at(x) == k]  # the decision made in this position (one at most)
    lines += [tr("lessons.mark", name=names[x.seat], line=lesson_line(m, steps, x, tr)) for x in here]
    lines += [tr("lessons.legend")] if here else []
    content = "\n".join([head, *lines])
    while len(content) > messages.MAX_CONTENT and len(lines) > 1:
        lines = lines[1:]
        content = "\n".join([head, "…", *lines])
    items = [
        ActionButton("r", m.id, target, op, emoji=emoji, disabled=off, row=0)
        for op, emoji, target, off in (
            ("first", "⏮", 0, k == 0),
            ("prev", "◀", max(0, k - 1), k == 0),
            ("next", "▶", min(last, k + 1), k == last),
            ("last", "⏭", last, k == last),
        )
    ]
    view = Controls(items)
    alt = tr("replay.alt", game=game, id=m.id, step=k, total=last)
    draw = step_draw(m, steps, k, image_tr, here[0] if here else None)
    return Board(cut(content, messages.MAX_CONTENT), view, draw, f"replay-{m.id}-{k}.png", alt)


# ---- the recap that teaches: a person's costliest decisions (engine.lessons) -------------------------


def action_text(m: MatchRow, state: Any, seat: int, code: str, tr: Translator) -> str:
    """A decision in the words its player saw: the game's own (an optional UI hook
    ``action_text(code, ctx)``), else the label of the control that made it, else its code."""
    ui = UIS[m.game]
    ctx = Ctx(_running(m), state, tr, seat=seat)
    if text := ui.action_text(code, ctx):
        return str(text)
    items = list(ui.controls(Ctx(_running(m), state, tr)))
    if ui.private is not None:
        items += ui.private_surface(ctx).items
    for item in items:
        if isinstance(item, ActionButton) and item.arg == code:
            return " ".join(str(x) for x in (item.item.emoji, item.item.label) if x)
        if isinstance(item, ActionSelect):
            for option in item.item.options:
                if ui.select_action(item.arg, [option.value]) == code:
                    return option.label
    return code


def shown_at(lesson: Lesson) -> int:
    """The /replay step that shows a decision: the position it was made in, one before the step the
    decision led to (``Lesson.step``)."""
    return lesson.step - 1


def lesson_line(m: MatchRow, steps: Sequence[Step], lesson: Lesson, tr: Translator) -> str:
    """ "Step 11: Keep the 2 cost you about 3 points; Keep the 5 was better." (the step showing the
    position the choice was made in)"""
    at = shown_at(lesson)
    before = steps[at].state
    played = action_text(m, before, lesson.seat, lesson.played, tr)
    better = action_text(m, before, lesson.seat, lesson.better, tr)
    key = "lessons.decisive" if lesson.decisive else "lessons.line"
    return tr(key, step=at, played=played, better=better, n=max(1, round(lesson.cost)))


def _ranges(ks: Sequence[int]) -> str:
    """Steps as runs: 12-15, 40, 52-53 (a run: the steps of one player's moves without another's)."""
    runs: list[list[int]] = []
    for k in ks:
        if runs and k == runs[-1][-1] + 1:
            runs[-1].append(k)
        else:
            runs.append([k])
    return ", ".join(str(r[0]) if len(r) == 1 else f"{r[0]}-{r[-1]}" for r in runs)


def played_for(steps: Sequence[Step], seat: int, tr: Translator) -> list[str]:
    """The lines that say where the computer played ``seat``'s moves for its person, at the steps that
    show those positions: on time-outs, and after they left the game. Never judged as theirs
    (engine.lessons judges only moves logged from a person), so never among their lessons."""
    timeouts: list[int] = []
    after_leaving: int | None = None
    for k in range(1, len(steps)):
        a = steps[k].action
        if a is None or a.seat != seat:
            continue
        if a.source == "timeout":
            timeouts.append(k - 1)
        elif a.source == "computer" and after_leaving is None:
            after_leaving = k - 1  # a person's seat plays itself only once they left (resigned)
    lines = []
    if timeouts:
        lines.append(tr("lessons.timeouts", n=len(timeouts), steps=_ranges(timeouts)))
    if after_leaving is not None:
        lines.append(tr("lessons.left", step=after_leaving))
    return lines


def lessons_text(
    m: MatchRow, steps: Sequence[Step], seat: int, found: Sequence[Lesson], tr: Translator
) -> str:
    """The private answer of the final board's 🎓 button: ``seat``'s costliest decisions, then where
    the computer played for them (not theirs, so not judged)."""
    head = tr("lessons.head", game=tr(f"game.{m.game}"), id=m.id)
    others = played_for(steps, seat, tr)
    if next(lessons.decisions(steps, [seat]), None) is None:
        # the computer played all of theirs, or the game ended before their first turn
        return "\n".join([head, tr("lessons.no_decisions" if others else "lessons.no_turn"), *others])
    if not found:
        return "\n".join([head, tr("lessons.none"), *others])
    lines = [f"{i}. {lesson_line(m, steps, x, tr)}" for i, x in enumerate(found, 1)]
    footer = tr("lessons.replay", id=m.id, step=shown_at(found[0]))
    return "\n".join([head, *lines, *others, footer])


# ---- the recap: the moments that mattered ------------------------------------------------------------


def _even(indices: list[int], cap: int) -> list[int]:
    """At most ``cap`` of ``indices``, evenly spread; the first and the last are always kept."""
    if len(indices) <= cap:
        return indices
    picked = [indices[round(i * (len(indices) - 1) / (cap - 1))] for i in range(cap)]
    return list(dict.fromkeys(picked))


def moments(m: MatchRow, steps: Sequence[Step], cap: int = MAX_FRAMES) -> list[int]:
    """The steps a recap shows: the first board, every step that ends a turn (who is to move changes,
    or the rules' clock acted) and changed what the board shows, and the final board; at most ``cap``, evenly sampled. A game's
    UI may refine the candidates with an optional ``recap_moments(candidates, views)`` hook (every
    step's public view, by index); the shared rule then keeps the first and the last and caps them."""
    rules = rules_for(m.game)
    views = [rules.view(s.state, None) for s in steps]
    last = len(steps) - 1
    keep = [0]
    for i in range(1, len(steps)):
        action = steps[i].action
        turn_over = (
            rules.to_move(steps[i].state) != rules.to_move(steps[i - 1].state)
            or (action is not None and action.seat == SYSTEM)  # the clock closed a round
        )
        if (turn_over or i == last) and views[i] != views[keep[-1]]:
            keep.append(i)
    keep = sorted({i for i in UIS[m.game].recap_moments(list(keep), views) if 0 <= i <= last})
    keep = sorted({0, last, *keep})
    return _even(keep, cap)


def _with_bar(png: bytes, done: float, size: tuple[int, int] | None) -> Image.Image:
    """A recap frame: the board, with a thin bar along its bottom showing how far into the game it is."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    if size is not None and image.size != size:
        image = image.resize(size, Image.Resampling.LANCZOS)
    width, height = image.size
    draw = ImageDraw.Draw(image)
    bar = max(4, height // 120)
    draw.rectangle((0, height - bar, width, height), fill=BAR_BACK)
    draw.rectangle((0, height - bar, round(width * done), height), fill=BAR)
    return image


def recap_frames(m: MatchRow, steps: Sequence[Step], tr: Translator) -> list[Image.Image]:
    """The recap's frames; none for a game drawn without an image."""
    last = max(1, len(steps) - 1)
    frames: list[Image.Image] = []
    for k in moments(m, steps):
        png = step_draw(m, steps, k, tr)()
        if not png:
            return []
        frames.append(_with_bar(png, k / last, frames[0].size if frames else None))
    return frames


def recap(m: MatchRow, steps: Sequence[Step], tr: Translator) -> bytes:
    """The animated recap (GIF: every Discord client plays it inline): the moments that mattered, a
    second each, the final board held longer, looping; empty when there is nothing to animate (a game
    without images, or a board that never changed). Call it in the render pool."""
    frames = recap_frames(m, steps, tr)
    if len(frames) < 2:
        return b""  # nothing moves: no recap
    # one palette for every frame (boards share their colours): smaller, and no flicker between frames
    palette = frames[-1].quantize(colors=255, method=Image.Quantize.MEDIANCUT)
    quantized = [f.quantize(palette=palette, dither=Image.Dither.NONE) for f in frames]
    durations = [FRAME_MS] * (len(frames) - 1) + [LAST_FRAME_MS]
    out = io.BytesIO()
    quantized[0].save(
        out,
        format="GIF",
        save_all=True,
        append_images=quantized[1:],
        duration=durations,
        loop=0,
        optimize=False,
        disposal=1,
    )
    return out.getvalue()


# ---- /game rules: a picture that teaches ----------------------------------------------------------


_PNGS: dict[tuple[str, ...], bytes] = {}  # the rules pictures drawn so far (they never change)


def _once(key: tuple[str, ...], draw: Callable[[], bytes]) -> bytes:
    if key not in _PNGS:
        _PNGS[key] = draw()
    return _PNGS[key]


def rules_pictures(game: str, tr: Translator) -> list[tuple[Callable[[], bytes], str, str]]:
    """Pictures that teach a game, for /game rules: its board at the start of a game (the public view,
    drawn live by the game's renderer) and, for a game whose players also have a picture of their own
    (a puzzle in their DMs), the first player's at the same moment. Each as (how to draw it, file
    name, alt text); draw them in the render pool (the same seed every time: drawn once per language)."""
    rules, ui = rules_for(game), UIS[game]
    n = min(max(2, rules.min_players), rules.max_players)
    names = [tr("rules.seat", n=i + 1) for i in range(n)]
    opts = typed_options.resolve(rules.options, {})
    state = rules.setup(n, RULES_SEED, opts)
    caption = tr("rules.picture_caption")
    board = functools.partial(ui.render, rules.view(state, None), names, caption, tr)
    key = (game, caption, *names)  # the caption and names are in the reader's language
    alt = tr("rules.picture_alt", game=tr(f"game.{game}"))
    out = [(functools.partial(_once, (*key, "board"), board), f"{game}_rules.png", alt)]
    if ui.private is not None:
        row = MatchRow(
            id=0, game=game, guild_id=None, channel_id=0, host_id=0, status="active",
            version=1, seed=RULES_SEED, seats=[SeatInfo(None, name) for name in names], options=opts,
            state=None,
        )  # fmt: skip
        own = ui.private_surface(Ctx(row, state, tr, seat=0))
        if own.draw is not None:
            out.append((functools.partial(_once, (*key, "own"), own.draw), f"{game}_rules_own.png", own.alt))
    return out
