"""The Honga board image: valid PNGs from real states, labels, secrecy and robustness."""

from __future__ import annotations

import io
import random
import time

import pytest
from PIL import Image

from engine.games import honga_data as D
from engine.games.honga import RULES, HongaState
from engine.games.honga_turn import clone
from render.honga import EN_LABELS, render_honga
from render.honga import board as board_module
from render.honga.board import _texts
from render.honga.sprites import lettered
from render.honga.style import H, W
from tests.render import kept as kept_cases

NAMES = ["Ada", "Borg the Bold", "Chen", "Dana", "Ewa"]


def played(n: int, seed: int, steps: int) -> HongaState:
    rng = random.Random(seed)
    s = RULES.setup(n, seed, {})
    for _ in range(steps):
        if not RULES.to_move(s):
            break
        s, _ = RULES.apply(s, s.current, rng.choice(RULES.legal_actions(s, s.current)))
    return s


def image(png: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(png))
    img.load()
    return img


@pytest.mark.parametrize(("n", "steps"), [(2, 0), (3, 150), (5, 400), (4, 5000)])
def test_renders_a_small_png_of_the_expected_size(n, steps):
    png = render_honga(RULES.view(played(n, n, steps), None), NAMES[:n])
    assert png.startswith(b"\x89PNG") and len(png) <= 25 * 1024
    assert image(png).size == (W, H)


def test_a_player_view_draws_the_same_picture_as_the_public_view():
    """R45: the image never shows the disk in hand or the bonus cards, whoever asks for it."""
    s = played(3, 8, 200)
    s.cards[s.current] = [D.VP2, D.CHASE]
    public = render_honga(RULES.view(s, None), NAMES[:3])
    for seat in range(3):
        assert render_honga(RULES.view(s, seat), NAMES[:3]) == public


def test_hidden_information_does_not_change_the_image():
    s = played(4, 9, 300)
    t = clone(s)
    t.cards = [[D.BUY_VP] * len(h) for h in t.cards]
    t.pending = [[D.EXTRA] * len(p) for p in t.pending]
    t.bonus_pile.reverse()
    t.trade_pile.reverse()
    names = NAMES[:4]
    assert render_honga(RULES.view(t, None), names) == render_honga(RULES.view(s, None), names)


def test_public_changes_do_change_the_image():
    s = played(3, 10, 100)
    t = clone(s)
    t.res[0][0] = (t.res[0][0] + 1) % 9
    assert render_honga(RULES.view(t, None), NAMES[:3]) != render_honga(RULES.view(s, None), NAMES[:3])


def test_labels_replace_words_and_missing_or_broken_ones_fall_back_to_english():
    view = RULES.view(played(3, 1, 20), None)
    english = render_honga(view, NAMES[:3])
    other = dict(EN_LABELS, field_lake="LAGO", title="HONGA!", turn="Ronda {n}")
    assert render_honga(view, NAMES[:3], labels=other) != english
    broken = {"turn": "Turn {oops}", "title": 5}
    assert render_honga(view, NAMES[:3], labels=broken) == english  # type: ignore[dict-item]


def test_caption_argument_replaces_the_status_line():
    view = RULES.view(played(2, 2, 10), None)
    assert render_honga(view, NAMES[:2], caption="Ada lured a mammoth") != render_honga(view, NAMES[:2])
    assert render_honga(view, NAMES[:2], caption="") != render_honga(view, NAMES[:2])


def test_final_board_names_the_winner():
    s = played(2, 3, 6000)
    assert s.phase == "over"
    png = render_honga(RULES.view(s, None), ["x" * 80, "🦖" * 5])  # long and undrawable names
    assert image(png).size == (W, H)


@pytest.mark.parametrize(
    "junk",
    [
        {},
        {"n": 9, "players": [None, 3], "herd": [7, "a"], "trade": [1, {"food": "zz", "vp": "x"}]},
        {"n": 2, "spaces": {"nw": {"top": {"fields": {"lake": 99}}}}, "turn_state": {"left": 3}},
        {"n": "two", "honga": 8, "tusk": -1, "over": True, "winners": [5]},
        {"n": 3, "turn_state": 4, "winners": 3, "herd": 2, "trade": "x", "spaces": {"ne": 1}, "over": 1},
        {
            "n": 2,
            "phase": "act",
            "turn_state": {"placed": {"space": "nw"}, "left": {"trade": "x"}},
            "spaces": {"nw": {"top": {"colour": "red", "fields": []}}},
        },
    ],
)
def test_odd_views_still_render(junk):
    assert image(render_honga(junk, NAMES)).size == (W, H)


def test_render_is_fast_enough():
    views = [RULES.view(played(n, n + 20, 300), None) for n in (2, 3, 4, 5)]
    render_honga(views[0], NAMES)
    t0 = time.perf_counter()
    for view in views * 3:
        render_honga(view, NAMES)
    assert (time.perf_counter() - t0) / 12 < 0.1  # generous: shared CI machines; the bench aims at 15 ms


def test_an_ended_game_shows_no_one_to_move():
    """A game ended by a resignation: no row is marked as the player to move, and the disk of the
    interrupted turn is not ringed, so whose turn it was makes no difference to the picture."""
    s = played(3, 1, 40)
    assert s.phase == "act"
    caption = "Game over by resignation: Ada wins"
    live = {**RULES.view(s, None)}
    ended = [render_honga({**live, "current": seat, "ended": True}, NAMES[:3], caption) for seat in range(3)]
    assert ended[0] == ended[1] == ended[2]
    assert render_honga(live, NAMES[:3], caption) != ended[0]


def test_kept_rows_and_trade_cards_draw_the_same_bytes_as_drawn_afresh(monkeypatch) -> None:
    """The players' rows and the trade cards are kept by what they show (render.common.Kept): boards
    of seeded games of 2 to 5 players, in every language and with names that reach the edges, come
    out byte for byte as when every part is drawn, and most parts were not drawn again."""
    painted = kept_cases.counted(monkeypatch, board_module, "_paint_row", "_paint_trade")
    cases = kept_cases.views("honga", [{}, {}, {}], [2, 3, 5], 40)
    kept_cases.compare(
        "honga", EN_LABELS, render_honga, lambda labels: [lettered(_texts(labels)).kept], cases
    )
    assert painted["kept"] < painted["afresh"] / 2, painted
