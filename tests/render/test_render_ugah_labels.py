"""Every word on the Ugah Ugah! board comes from the labels: custom labels show, missing or broken
ones fall back to English, long ones still fit, and the bot passes the message catalogue's texts."""

from __future__ import annotations

import copy
import io
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from PIL import Image

from bot.games.ugah import UgahUI
from bot.i18n import translator
from bot.locales.en import MESSAGES
from render import common
from render.ugah import EN_LABELS, H, W, render_ugah
from render.ugah.samples import SAMPLES, final_view, mid_view, start_view, uncertain_view

MAX_BYTES = 25 * 1024

DE_LABELS = {  # longer than the English texts, as German tends to be
    "title": "UGAH UGAH! Die große Jagd",
    "start": "STARTPUNKT",
    "spoils": "BEUTEKARTEN",
    "players": "MITSPIELERINNEN UND MITSPIELER",
    "mm": "MM",
    "bb": "KB",
    "card_dinosaur": "DINOSAURIER",
    "card_mammoth": "MAMMUT",
    "card_bird": "VOGEL",
    "variant_basic": "Grundspiel",
    "variant_uncertain": "Unsichere Jagd",
    "single": "1 Symbol pro Wurf",
    "turn": "Zug {n}",
    "game_over": "SPIEL VORBEI",
    "prompt_pick": "Wähle Symbole, die du beiseitelegen möchtest",
    "prompt_order": "Welcher Jäger zieht als Erster?",
    "prompt_keep": "Behalte ein Plättchen, gib das andere weiter",
    "tray_aside": "BEISEITE",
    "tray_bones": "KNOCHEN",
    "tray_throw": "WURF",
    "tray_result": "ERGEBNIS",
    "tray_dice": "WÜRFEL",
    "middle": "in der Mitte",
    "pts": "Punkte",
    "no_chips": "keine Plättchen",
    "player": "Spieler·in {n}",
    "caption_turn": "{name} ist am Zug",
    "caption_pick": "{name} würfelt",
    "caption_order": "{name} wählt, welcher Jäger zuerst zieht",
    "caption_keep": "{name} behält ein Plättchen und gibt das andere ab",
    "caption_over": "Spiel vorbei",
    "caption_winner": "Spiel vorbei: {names} gewinnt",
    "caption_winners": "Spiel vorbei: {names} gewinnen",
}


def _open(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    img.load()
    return img


def _views() -> list[tuple[dict[str, Any], list[str]]]:
    """Boards that together show every label at least once (no caption given: the default one shows)."""
    start, names3, _ = start_view()
    mid, names4, _ = mid_view()
    keep, names_keep, _ = uncertain_view()
    final, names2, _ = final_view()
    empty = copy.deepcopy(start)
    empty.update(aside=[], rolled=[], turn=None)
    result = copy.deepcopy(mid)
    result.update(phase="pick", aside=["mm", "bone", "bb", "bird", "bone"], rolled=[], variant="other")
    tied = copy.deepcopy(final)
    tied["winners"] = [0, 1]
    nobody = copy.deepcopy(final)
    nobody.update(winners=[], stashes=[[], []], spoils={})
    waiting = copy.deepcopy(start)  # a phase the renderer has no words for, dice set aside
    waiting.update(phase="waiting", aside=["mm", "bone"], rolled=[])
    ended = copy.deepcopy(mid)  # /game end: drawn as ended, without prompt or turn marker
    ended["ended"] = True
    return [
        (ended, names4),
        (start, ["", *names3[1:]]),  # seat 0 without a name: "Player 1"
        (mid, names4),
        (keep, names_keep),
        (final, names2),
        (empty, names3),
        (result, names4),
        (tied, names2),
        (nobody, names2),
        (waiting, names3),
    ]


def test_catalogue_holds_every_label_in_english() -> None:
    assert {f"render.ugah.{k}": v for k, v in EN_LABELS.items()}.items() <= MESSAGES.items()


def test_bot_renders_with_catalogue_labels() -> None:
    view, names, caption = mid_view()
    ui = UgahUI()
    english = render_ugah(view, names, caption=caption)
    assert ui.render(view, names, caption, translator("en")) == english
    assert ui.render(view, names, caption) == english


def test_default_labels_are_english() -> None:
    for make in SAMPLES.values():
        view, names, caption = make()
        base = render_ugah(view, names, caption=caption)
        assert render_ugah(view, names, caption=caption, labels=dict(EN_LABELS)) == base
        assert render_ugah(view, names, caption=caption, labels={}) == base  # missing keys: English


@pytest.mark.parametrize("key", list(EN_LABELS))
def test_each_label_shows(key: str) -> None:
    changed = {**EN_LABELS, key: EN_LABELS[key].replace("{", "X{") + "Q"}
    assert any(
        render_ugah(view, names, labels=changed) != render_ugah(view, names) for view, names in _views()
    ), f"label {key!r} is drawn nowhere"


def test_an_ended_game_asks_for_no_move() -> None:
    """Issue 8.2: after /game end the image shows no prompt and no player to move."""
    view, names, _ = mid_view()
    ended = {**view, "ended": True}
    for key in ("prompt_pick", "caption_pick", "caption_turn"):
        changed = {**EN_LABELS, key: "Q" + EN_LABELS[key]}
        assert render_ugah(ended, names, labels=changed) == render_ugah(ended, names)
    other = {**ended, "current": (view["current"] + 1) % len(names)}  # no turn marker to move
    assert render_ugah(other, names) == render_ugah(ended, names)


def test_custom_labels_show() -> None:
    for view, names in _views():
        german = render_ugah(view, names, labels=DE_LABELS)
        assert german != render_ugah(view, names)
        assert german == render_ugah(view, names, labels=dict(DE_LABELS))


def test_long_labels_fit() -> None:
    huge = {k: ("Wortungetüm " * 20).strip() + " {n}{name}{names}" for k in EN_LABELS}
    for labels in (DE_LABELS, huge):
        for view, names in _views():
            data = render_ugah(view, names, labels=labels)
            img = _open(data)
            assert img.size == (W, H)
            assert len(img.getcolors(256) or []) <= 64
            assert len(data) <= MAX_BYTES, f"{len(data)} bytes"


def test_broken_templates_fall_back_to_english() -> None:
    view, names, _ = start_view()
    broken = {"turn": "Zug {zahl}", "caption_pick": "{0} würfelt", "player": "{"}
    assert render_ugah(view, ["", *names[1:]], labels=broken) == render_ugah(view, ["", *names[1:]])


def test_two_languages_rendered_concurrently_match_sequential() -> None:
    jobs = [(view, names, labels) for view, names in _views() for labels in (EN_LABELS, DE_LABELS)]

    def run(job: tuple[dict[str, Any], list[str], dict[str, str]]) -> bytes:
        view, names, labels = job
        return render_ugah(view, names, labels=labels)

    expected = [run(job) for job in jobs]
    with ThreadPoolExecutor(max_workers=4) as pool:
        assert list(pool.map(run, jobs * 3)) == expected * 3


def test_memo_builds_once_and_stays_bounded() -> None:
    calls: list[int] = []
    memo = common.Memo(lambda k: calls.append(k) or k * 2, limit=2)
    assert [memo.get(1), memo.get(1), memo.get(2)] == [2, 2, 4]
    assert calls == [1, 2]
    memo.get(3)  # drops the oldest (1)
    memo.get(1)
    assert calls == [1, 2, 3, 1]
