"""Ugah Ugah! board renderer: valid small PNGs, deterministic, secrets never drawn, thread safe."""

from __future__ import annotations

import copy
import io
import random
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from PIL import Image

from engine.games.ugah import VARIANTS
from render import common
from render.ugah import EN_LABELS, H, W, render_ugah
from render.ugah import board as board_module
from render.ugah.assets import lettered
from render.ugah.board import _texts
from render.ugah.samples import SAMPLES, final_view, mid_view, shuffled_values, start_view, uncertain_view
from tests.render import kept as kept_cases

MAX_BYTES = 25 * 1024
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _render(make: Any) -> bytes:
    view, names, caption = make()
    return render_ugah(view, names, caption=caption)


def _open(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    img.load()
    return img


def _heavy_pick_view() -> tuple[dict[str, Any], list[str], str]:
    """A busy mid-game board: 4 long names, every spoils card held, three dice groups."""
    view, _, _ = mid_view()
    view.update(
        phase="pick",
        aside=["bb", "bone", "bone"],
        rolled=["mm", "bird", "dinosaur"],
        last_bones=2,
        spoils={"dinosaur": 1, "mammoth": 3, "bird": 1},
    )
    names = [
        "Großmutter Hildegard",
        "Александра Владимировна",
        "Tūmanako Ngata-Whaanga",
        "Æthelflǣd of Mercia",
    ]
    caption = "Александра rolled again: two bones set aside, she must now name at least one symbol"
    return view, names, caption


def _heavy_final_view() -> tuple[dict[str, Any], list[str], str]:
    """Four players at game end with every one of the 31 chips revealed in some stash."""
    values = shuffled_values(7)
    view, _, _ = final_view()
    stashes = [[v for i, v in enumerate(values) if i % 4 == seat] for seat in range(4)]
    spoils = {"dinosaur": 0, "mammoth": 2, "bird": 3}
    scores = [sum(s) + 3 * list(spoils.values()).count(seat) for seat, s in enumerate(stashes)]
    view.update(
        n=4,
        stashes=stashes,
        stash_sizes=[len(s) for s in stashes],
        spoils=spoils,
        scores=scores,
        winners=[scores.index(max(scores))],
    )
    return view, ["Ada Lovelace-Byron", "Bo", "Chen Long Name Here", "Dmitri"], "The hunters met: game over!"


ALL = [*SAMPLES.values(), _heavy_pick_view, _heavy_final_view]
FACES = ["bone", "dinosaur", "mammoth", "bird", "mm", "bb"]
LONG_NAMES = [
    "Großmutter Hildegard von Bingen",
    "Александра Владимировна",
    "Tūmanako Ngata-Whaanga",
    "W" * 40,
]


def _random_view(rng: random.Random) -> dict[str, Any]:
    """A plausible busy view in any phase (not rule-exact: only the renderer's inputs matter)."""
    n = rng.randint(2, 4)
    values = shuffled_values(rng.randrange(1000))
    variant = rng.choice(["basic", "uncertain"])
    up = set(rng.sample(range(31), 4)) if variant == "uncertain" else set(range(31))
    mm, bb = rng.randint(-1, 14), rng.randint(16, 31)
    taken = {i for i in range(31) if i <= mm or i >= bb or rng.random() < 0.3}
    path = [
        {"v": None, "up": False, "taken": True}
        if i in taken
        else {"v": values[i] if i in up else None, "up": i in up, "taken": False}
        for i in range(31)
    ]
    phase = rng.choice(["pick", "order", "keep", "over"])
    dice = [rng.choice(FACES) for _ in range(5)]
    k = rng.randint(1, 4)
    stashes: list[list[int]] = [[] for _ in range(n)]
    for i in sorted(taken):
        stashes[rng.randrange(n)].append(values[i])
    scores = [sum(s) for s in stashes]
    pending = None
    if phase == "keep" and 0 <= mm < bb < 31:
        path[mm] = {"v": None, "up": False, "taken": False}
        pending = {"mm": mm, "bb": bb, "mm_v": rng.choice([None, values[mm]]), "bb_v": None}
    return {
        "game": "ugah",
        "variant": variant,
        "single": rng.random() < 0.5,
        "n": n,
        "current": rng.randrange(n),
        "phase": phase,
        "turn": rng.randint(1, 40),
        "path": path,
        "mm": mm,
        "bb": bb,
        "aside": dice[:k] if phase == "pick" else dice,
        "rolled": [f if f != "bone" else "bird" for f in dice[k:]] if phase == "pick" else [],
        "last_bones": rng.randint(0, k),
        "spoils": {a: rng.choice([None, *range(n)]) for a in ("dinosaur", "mammoth", "bird")},
        "stash_sizes": [len(s) for s in stashes],
        "stash": None,
        "pending": pending,
        "over": phase == "over",
        "scores": scores if phase == "over" else None,
        "winners": [scores.index(max(scores))] if phase == "over" else None,
        "stashes": stashes if phase == "over" else None,
    }


@pytest.mark.parametrize("make", ALL)
def test_valid_small_png(make: Any) -> None:
    data = _render(make)
    assert data.startswith(PNG_SIGNATURE)
    img = _open(data)
    assert img.format == "PNG"
    assert img.size == (W, H)
    assert img.mode == "P"
    assert len(img.getcolors(256) or []) <= 64
    assert len(data) <= MAX_BYTES, f"{len(data)} bytes"


@pytest.mark.parametrize("make", ALL)
def test_deterministic(make: Any) -> None:
    assert _render(make) == _render(make)


def test_concurrent_renders_match_sequential() -> None:
    expected = [_render(make) for make in ALL]
    with ThreadPoolExecutor(max_workers=4) as pool:
        got = list(pool.map(_render, ALL * 4))
    assert got == expected * 4


def test_views_differ() -> None:
    images = [_render(make) for make in ALL]
    assert len(set(images)) == len(images)


@pytest.mark.parametrize(
    "change",
    [
        {"mm": 10},
        {"bb": 26},
        {"current": 1},
        {"turn": 15},
        {"stash_sizes": [4, 2, 3, 1]},
        {"spoils": {"dinosaur": 2, "mammoth": 0, "bird": 3}},
        {"aside": ["mm", "bone", "mm", "bb", "bird"]},
    ],
)
def test_each_public_field_shows(change: dict[str, Any]) -> None:
    view, names, caption = mid_view()
    changed = {**copy.deepcopy(view), **change}
    assert render_ugah(view, names, caption=caption) != render_ugah(changed, names, caption=caption)


def test_caption_and_names_show() -> None:
    view, names, caption = start_view()
    base = render_ugah(view, names, caption=caption)
    assert base != render_ugah(view, names, caption="Something else happened")
    assert base != render_ugah(view, names, caption=None)
    assert render_ugah(view, names, caption="") != render_ugah(view, names, caption=None)
    assert base != render_ugah(view, ["Ada", "Borg the Bolder", "Chen"], caption=caption)


def test_face_up_chip_value_shows() -> None:
    view, names, caption = start_view()
    other = copy.deepcopy(view)
    other["path"][5] = {"v": 6 if view["path"][5]["v"] != 6 else 2, "up": True, "taken": False}
    assert render_ugah(view, names, caption=caption) != render_ugah(other, names, caption=caption)


def test_face_down_chip_value_never_drawn() -> None:
    """The engine's view has v=None for hidden chips; even a leaked value must not reach the image."""
    view, names, caption = uncertain_view()
    hidden = next(i for i, ch in enumerate(view["path"]) if not ch["up"] and not ch["taken"])
    images = set()
    for v in (None, 2, 6):
        leaky = copy.deepcopy(view)
        leaky["path"][hidden] = {"v": v, "up": False, "taken": False}
        images.add(render_ugah(leaky, names, caption=caption))
    assert len(images) == 1


def test_pending_hidden_chips_identical_whatever_their_value() -> None:
    """Keep phase, spectator view: both hunters on face-down chips with unknown values."""
    view, names, caption = uncertain_view()
    view["pending"] = {"mm": 12, "bb": 20, "mm_v": None, "bb_v": None}
    view["mm"], view["bb"] = 12, 20
    images = set()
    for v_mm, v_bb in ((6, 2), (2, 6), (None, None)):
        leaky = copy.deepcopy(view)
        leaky["path"][12] = {"v": v_mm, "up": False, "taken": False}
        leaky["path"][20] = {"v": v_bb, "up": False, "taken": False}
        images.add(render_ugah(leaky, names, caption=caption))
    assert len(images) == 1
    # the active player's private view reveals them, and then the picture changes
    private = copy.deepcopy(view)
    private["pending"].update(mm_v=6, bb_v=2)
    assert render_ugah(private, names, caption=caption) not in images


def test_final_reveals_stashes_and_scores() -> None:
    view, names, caption = final_view()
    base = render_ugah(view, names, caption=caption)
    swapped = copy.deepcopy(view)
    swapped["stashes"] = [view["stashes"][1], view["stashes"][0]]
    assert render_ugah(swapped, names, caption=caption) != base
    rescored = copy.deepcopy(view)
    rescored["scores"] = [view["scores"][0] + 1, view["scores"][1]]
    assert render_ugah(rescored, names, caption=caption) != base
    # stashes are private until the game is over
    running = copy.deepcopy(view)
    running.update(over=False, phase="pick")
    other = copy.deepcopy(running)
    other["stashes"] = [[6, 6, 6], [1]]
    assert render_ugah(running, names, caption=caption) == render_ugah(other, names, caption=caption)


def test_odd_names_and_minimal_view() -> None:
    view, _, _ = mid_view()
    names = ["", "x" * 300, "🦴🦴🦴", "名前"]
    data = render_ugah(view, names)
    assert _open(data).size == (W, H)
    assert render_ugah(view, []) == render_ugah(view, ["", "", "", ""])
    minimal = {"game": "ugah", "n": 2, "current": 0, "phase": "pick", "path": [], "mm": -1, "bb": 31}
    assert _open(render_ugah(minimal, ["A", "B"])).size == (W, H)


def test_random_busy_views_stay_small() -> None:
    rng = random.Random(2024)
    caption = "Александра rolled again: two bones set aside, she must now name at least one symbol"
    for _ in range(40):
        view = _random_view(rng)
        data = render_ugah(view, LONG_NAMES[: view["n"]], caption=caption)
        assert _open(data).size == (W, H)
        assert len(data) <= MAX_BYTES


def test_common_helpers() -> None:
    assert common.fit_text("short", 16, True, 500) == "short"
    cut = common.fit_text("a very long player name indeed " * 5, 16, True, 120)
    assert cut.endswith("…")
    assert common.text_width(cut, 16, True) <= 120
    assert common.displayable("Zoë 🦴") == "Zoë"
    assert common.clean_text("a\nb\tc\u200b") == "a b c"
    assert common.flow_positions([10, 10, 10], 25, 2) == [(0, 0), (12, 0), (0, 1)]
    pal = common.build_palette([common.INK, common.PAPER], [(common.INK, common.PAPER)])
    assert len(pal.getpalette() or []) == 9


def test_kept_parts_draw_the_same_bytes_as_drawn_afresh(monkeypatch) -> None:
    """The circle of chips, the spoils cards and the players' rows are kept by what they show
    (render.common.Kept): boards of seeded games, both variants, in every language and with names
    that reach the edges, come out byte for byte as when every part is drawn, and most parts were
    not drawn again."""
    painted = kept_cases.counted(monkeypatch, board_module, "_draw_chips", "_paint_spoils", "_paint_row")
    options = [{"variant": v} for v in (*VARIANTS, VARIANTS[0])]
    cases = kept_cases.views("ugah", options, [2, 3, 4], 50)

    def keepers(labels):
        lt = lettered(_texts(labels))
        return [lt.rings, lt.kept]

    kept_cases.compare("ugah", EN_LABELS, render_ugah, keepers, cases)
    assert painted["kept"] < painted["afresh"] / 2, painted
