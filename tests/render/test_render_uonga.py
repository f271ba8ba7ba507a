"""Uonga board renderer: valid small deterministic PNGs for real rule states, labels, hostile views."""

from __future__ import annotations

import io
import random
import time
from typing import Any

import pytest
from PIL import Image

from engine.games.uonga import RULES
from render.uonga import EN_LABELS, H, W, render_uonga
from render.uonga import board as board_module
from render.uonga.samples import SAMPLES
from render.uonga.sprites import kept
from tests.render import kept as kept_cases

MAX_BYTES = 25 * 1024
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _open(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    img.load()
    return img


@pytest.fixture(scope="module")
def samples() -> dict[str, Any]:
    return {name: make() for name, make in SAMPLES.items()}


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_samples_render_valid_small_deterministic_pngs(samples, name):
    view, names, caption, highlight = samples[name]
    data = render_uonga(view, names, caption=caption, highlight=highlight)
    assert data.startswith(PNG_SIGNATURE) and len(data) <= MAX_BYTES
    assert _open(data).size == (W, H)
    assert render_uonga(view, names, caption=caption, highlight=highlight) == data


def test_the_sample_states_are_what_their_names_say(samples):
    assert samples["uonga_placement"][0]["phase"] == "place"
    assert samples["uonga_tie"][0]["phase"] == "take" and samples["uonga_tie"][0]["pending"]
    assert samples["uonga_final"][0]["over"] and samples["uonga_final"][0]["winners"]
    assert samples["uonga_threat"][0]["herds"] and samples["uonga_threat"][3]["targets"]


def test_random_game_states_all_render_within_the_size_limit():
    rng = random.Random(4)
    for seed in range(6):
        s = RULES.setup(2, seed, {"v1": seed % 2 == 0, "v2": seed % 3 == 0})
        while True:
            data = render_uonga(RULES.view(s, None), ["A", "B"])
            assert len(data) <= MAX_BYTES
            if s.phase == "over":
                break
            (seat,) = RULES.to_move(s)
            s, _ = RULES.apply(s, seat, rng.choice(RULES.legal_actions(s, seat)))


def test_highlight_labels_and_caption_change_the_picture(samples):
    view, names, _, highlight = samples["uonga_threat"]
    plain = render_uonga(view, names)
    assert render_uonga(view, names, highlight=highlight) != plain
    assert render_uonga(view, names, highlight=(highlight["square"], highlight["targets"])) == render_uonga(
        view, names, highlight=highlight
    )
    french = {**EN_LABELS, "title": "UONGA !", "to_move": "À {name} de jouer"}
    assert render_uonga(view, names, labels=french) != plain
    assert render_uonga(view, names, caption="") != plain


def test_broken_labels_fall_back_to_english(samples):
    view, names, _, _ = samples["uonga_final"]
    broken = {"to_move": "{nobody}", "points": "{points:q}", "title": 7}
    assert render_uonga(view, names, labels=broken) == render_uonga(view, names, labels={})


@pytest.mark.parametrize(
    "view",
    [
        {},
        {"board": "nonsense", "surround": 3, "last": "x", "pending": {"a": 1}},
        {"board": {"z9": "M", "a1": "Q", "c3": "M"}, "surround": {"c3": {"cav": 99, "need": -4}}},
        {"phase": "take", "pending": [["c3", 5, None]], "winners": [7, "x"], "over": True},
        {"points": {"cavemen": -5, "mastodons": 10**9}, "targets": {"cavemen": 0}, "lost": {"M": 99}},
    ],
)
def test_hostile_views_still_render(view):
    data = render_uonga(view, ["🦴🦴", ""], highlight={"square": "q7", "targets": ["a1", 3]})
    assert data.startswith(PNG_SIGNATURE) and len(data) <= MAX_BYTES


def test_render_is_fast_enough(samples):
    view, names, caption, highlight = samples["uonga_threat"]
    render_uonga(view, names)  # builds the cached sprites
    times = []
    for _ in range(10):
        t0 = time.perf_counter()
        render_uonga(view, names, caption=caption, highlight=highlight)
        times.append(time.perf_counter() - t0)
    assert sorted(times)[5] < 0.1  # the aim is 15 ms; this only catches gross regressions on busy CI


def test_kept_panel_parts_draw_the_same_bytes_as_drawn_afresh(monkeypatch) -> None:
    """The players' rows and the legend are kept by what they show (render.common.Kept): boards of
    seeded games with both variants, in every language and with names that reach the edges, come out
    byte for byte as when every part is drawn, and many parts were not drawn again."""
    painted = kept_cases.counted(monkeypatch, board_module, "_paint_player", "_paint_info")
    cases = kept_cases.views("uonga", [{}, {"v1": True}, {"v1": True, "v2": True}], [2, 2, 2], 60)
    kept_cases.compare("uonga", EN_LABELS, render_uonga, lambda labels: [kept.get(labels["title"])], cases)
    assert painted["kept"] < painted["afresh"] * 0.7, painted
