"""What a tournament shows stays inside Discord's limits however many players and however long their
names: message content ≤ 2000 characters, thread names ≤ 100, a row of at most 5 buttons."""

from __future__ import annotations

from fractions import Fraction

from bot.i18n import translator
from bot.messages import MAX_CONTENT
from bot.tournament import texts
from engine.tournament import flow
from engine.tournament.model import Tournament

LONG = "Ugh-the-mammoth-slayer-of-the-far"  # 32 characters, Discord's longest display name


def big(n: int, fmt: str = "swiss", size: int = 2) -> Tournament:
    t = Tournament(id=7, guild_id=1, channel_id=2, creator_id=1, creator_name="boss", title="T" * 60,
                   game="uonga" if size == 2 else "honga", fmt=fmt, table_size=size, round_seconds=3600,
                   signup_deadline=0.0, rounds=5)  # fmt: skip
    for i in range(n):
        flow.join(t, 1000 + i, f"{LONG[:29]}{i:03d}", float(i % 7), None)
    return t


def test_a_full_signup_and_a_full_round_fit_in_one_message():
    for tr in (translator("en"), translator("de"), translator("es")):
        t = big(64)
        board = texts.message(t, tr, 0.0)
        assert len(board.content) <= MAX_CONTENT and board.content.rstrip().endswith(
            tr("tournament.more", n=30)
        )
        assert board.view is not None and len(board.view.children) <= 5
        flow.start(t, 0.0, 2, True)
        for g in t.of_round(1):
            g.thread_id, g.match_id = 10**18 + g.table, g.table
        board = texts.message(t, tr, 0.0)
        assert len(board.content) <= MAX_CONTENT, len(board.content)
        for g in t.of_round(1):
            g.places = [0, 1]
        posted = texts.standings_board(t, tr, final=False)
        assert len(posted.content) <= MAX_CONTENT and len(posted.alt) <= 1024
        assert posted.draw is not None and posted.draw()[:8] == b"\x89PNG\r\n\x1a\n"


def test_points_read_like_a_chess_table():
    shown = [texts.points(Fraction(x)) for x in ("3", "5/2", "7/4", "2/3", "1/6", "0")]
    assert shown == ["3", "2½", "1¾", "⅔", "0.17", "0"]


def test_thread_names_fit():
    tr = translator("de")
    name = tr("tournament.thread", round=20, table=32, title="T" * 60)
    assert len(name) <= 100
