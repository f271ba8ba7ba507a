"""The 🎓 answer's words (bot.replay.lessons_text): each decision names the /replay step that shows
the position it was made in, and the moves the computer made for the person (on time-outs, after
they left) are said to be the computer's and are never judged as theirs."""

from __future__ import annotations

import dataclasses

from bot.i18n import translator
from bot.replay import lessons_text, shown_at, step_board
from engine import lessons
from engine.registry import rules_for
from engine.replay import rebuild
from tools.lesson_sample import finished_match

TR = translator("en")


def _match(game: str, timeouts: int, leave_at: int | None):
    """A finished game whose seat 0 ran out of time on its moves number 3 to 3 + ``timeouts`` and left
    the game before its move number ``leave_at`` (the computer played the rest)."""
    m, log = finished_match(game)
    mine = [i for i, a in enumerate(log) if a.seat == 0]
    source = {i: "timeout" for i in mine[3 : 3 + timeouts]}
    if leave_at is not None:
        source |= dict.fromkeys(mine[leave_at:], "computer")
    log = [dataclasses.replace(a, source=source.get(i, a.source)) for i, a in enumerate(log)]
    steps = rebuild(rules_for(game), len(m.seats), m.seed, m.options, log)
    found = lessons.review(game, len(m.seats), m.seed, m.options, log, [0])[0]
    return m, log, steps, found, mine


def test_each_lesson_names_the_step_before_it_and_the_computers_moves_are_told_apart():
    m, log, steps, found, mine = _match("ugah", timeouts=2, leave_at=-3)
    text = lessons_text(m, steps, 0, found, TR)
    first = found[0]
    assert f"1. Step {shown_at(first)}:" in text and f"step:{shown_at(first)}`" in text, text
    timed_out = [mine[3] + 1, mine[4] + 1]  # the steps those moves led to; shown one before
    assert "The computer played 2 moves for you when your time ran out" in text, text
    assert all(str(k - 1) in text.split("time ran out")[1] for k in timed_out), text
    assert f"after you left the game (from step {mine[-3]})" in text, text
    judged = {x.step for x in lessons.review("ugah", 3, m.seed, m.options, log, [0], top=1000)[0]}
    computers = {i + 1 for i, a in enumerate(log) if a.seat == 0 and a.source != "player"}
    assert judged and not judged & computers, "a move the computer made for them is never their lesson"


def test_a_game_the_computer_played_for_them_says_so():
    m, _, steps, found, mine = _match("ugah", timeouts=0, leave_at=0)
    text = lessons_text(m, steps, 0, found, TR)
    assert found == [] and "You made no decision yourself" in text
    assert f"after you left the game (from step {mine[0]})" in text, text


def test_the_replay_step_before_a_decision_tells_it_and_the_one_after_does_not():
    m, _, steps, found, _ = _match("uonga", timeouts=0, leave_at=None)
    at = shown_at(found[0])
    marked = step_board(m, steps, at, TR, TR, found)
    assert "🎓 Grok:" in marked.content and "On the board: ✓" in marked.content, marked.content
    after = step_board(m, steps, at + 1, TR, TR, [found[0]])
    assert "🎓" not in after.content, after.content
