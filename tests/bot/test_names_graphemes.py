"""Play-test point 10: long names cut badly. Every cut of user-visible text falls between grapheme
clusters (never half a ZWJ family, a lone flag indicator, a thumb without its skin tone, a keycap
without its cap), and texts listing every player shorten the names rather than lose the last facts."""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest

from bot.games.base import Ctx
from bot.games.honga import HongaUI
from bot.games.ugah import UgahUI
from bot.i18n import translator
from bot.names import MAX_LENGTH, clean_name
from engine.games.honga import RULES as HONGA
from engine.games.ugah import RULES as UGAH
from render.graphemes import ELLIPSIS, boundaries, clusters, cut, fit_names, shorten

TR = translator(None)
FAMILY = "👨\u200d👩\u200d👧\u200d👦"  # seven code points, one character as seen
FLAG_FR, FLAG_DE = "🇫🇷", "🇩🇪"  # two regional indicators each
THUMB = "👍🏽"  # with a skin-tone modifier
KEYCAP = "1\ufe0f\u20e3"  # 1️⃣
ACCENT = "ø\u0301"  # a letter and a combining accent
HEARTS = "❤\ufe0f\u200d🔥"  # heart on fire


def emoji_name(k: int) -> str:
    """A 32-character display name full of emoji, each seat's a little different (as typed: the
    bot stores it through clean_name, which keeps at most MAX_LENGTH code points)."""
    pieces = [FAMILY, FLAG_FR, THUMB, KEYCAP, ACCENT, FLAG_DE, HEARTS, "x"]
    return "".join(pieces[(i + k) % len(pieces)] for i in range(32))


def whole(text: str, source: str) -> None:
    """``text`` (made from ``source`` by cuts and ellipses) holds no cluster ``source`` does not:
    a cut inside a cluster leaves a fragment (a partial family, a lone indicator, a bare thumb)."""
    allowed = set(clusters(source)) | {ELLIPSIS}
    broken = [c for c in clusters(text) if c not in allowed]
    assert not broken, (broken, text)


# ---- the helper ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (FAMILY + FAMILY, [FAMILY, FAMILY]),
        (FLAG_FR + FLAG_DE, [FLAG_FR, FLAG_DE]),
        (THUMB + "a", [THUMB, "a"]),
        (KEYCAP + KEYCAP, [KEYCAP, KEYCAP]),
        ("e\u0301te\u0301", ["e\u0301", "t", "e\u0301"]),
        (HEARTS, [HEARTS]),
    ],
)
def test_clusters_are_characters_as_seen(text, expected):
    assert clusters(text) == expected
    assert boundaries(text) == [sum(map(len, expected[: i + 1])) for i in range(len(expected))]


def test_cut_never_splits_a_cluster():
    assert cut("ab" + FAMILY, 5) == "ab"  # 9 code points: the family does not fit whole
    assert cut("ab" + FAMILY, 9) == "ab" + FAMILY
    assert cut(FLAG_FR + FLAG_DE, 3) == FLAG_FR  # never a lone regional indicator
    assert cut("a" + THUMB, 2) == "a"  # never a thumb without its skin tone
    assert cut("a" + KEYCAP, 3) == "a"  # never a 1 with a variation selector but no keycap
    assert cut("cafe\u0301s", 4) == "caf"  # never an accent's letter without the accent
    assert cut("cafe\u0301s", 5) == "cafe\u0301"
    assert cut("hello world", 7, ELLIPSIS) == "hello…"  # spaces before the ellipsis dropped
    assert cut("hello", 5, ELLIPSIS) == "hello"  # fits: unchanged
    assert cut(FAMILY + "abc", 5, ELLIPSIS) == ELLIPSIS  # the first cluster alone is too long
    for text in (FAMILY * 5, (FLAG_FR + THUMB) * 9, KEYCAP * 11, emoji_name(3)):
        for limit in range(len(text) + 1):
            for ellipsis in ("", ELLIPSIS):
                out = cut(text, limit, ellipsis)
                assert len(out) <= limit
                body = out.removesuffix(ellipsis) if ellipsis else out
                assert text.startswith(body) and (len(body) in boundaries(text) or body == "")


def test_shorten_keeps_whole_clusters_and_marks_the_cut():
    assert shorten(FAMILY * 3, 2) == FAMILY * 2 + ELLIPSIS
    assert shorten(FLAG_FR + FLAG_DE, 2) == FLAG_FR + FLAG_DE
    assert shorten(FLAG_FR + FLAG_DE + "x", 1) == FLAG_FR + ELLIPSIS


def test_fit_names_shortens_the_names_not_the_facts():
    names = [FAMILY * 10 + "a", THUMB * 20, "bob"]

    def build(ns: list[str]) -> str:
        return "; ".join(f"{n} has {i + 10} points" for i, n in enumerate(ns))

    assert fit_names(build, ["a", "b"], 100) == build(["a", "b"])  # fits: unchanged
    out = fit_names(build, names, 120)
    assert len(out) <= 120
    for i in range(3):
        assert f"has {i + 10} points" in out
    assert "bob has 12 points" in out  # a short name is left whole
    whole(out, build(names))


def test_clean_name_cuts_on_a_cluster_boundary():
    raw = "a" + FAMILY * 20
    name = clean_name(raw)
    assert len(name) <= MAX_LENGTH and raw.startswith(name) and len(name) in boundaries(raw)
    for k in range(8):
        name = clean_name(emoji_name(k))
        whole(name, emoji_name(k))


def test_image_text_fitting_cuts_on_a_cluster_boundary():
    from render.common import fit_text

    text = "Zoë" + "e\u0301" * 30
    out = fit_text(text, 20, True, 60)
    assert out.endswith(ELLIPSIS)
    assert not out.removesuffix(ELLIPSIS).endswith("e")  # never an e without its accent
    assert fit_text("Alice the mammoth hunter of the north", 20, True, 90).endswith(ELLIPSIS)


# ---- labels and alt texts with 32-character emoji names -----------------------------------------------


def _ctx(game: str, state, seat=None) -> Ctx:
    seats = [SimpleNamespace(name=clean_name(emoji_name(i)), ai=False, version=1) for i in range(state.n)]
    m = SimpleNamespace(id=1, game=game, public_version=1, seats=seats)
    return Ctx(m, state, TR, seat=seat)  # type: ignore[arg-type]


def _playout(rules, n: int, seed: int, steps: int):
    """States of a random game of ``n`` players (from a fixed seed), the final one included."""
    rng = random.Random(seed)
    state = rules.setup(n, seed, {})
    for _ in range(steps):
        yield state
        if rules.outcome(state) is not None:
            return
        seat = state.current
        state, _ = rules.apply(state, seat, rng.choice(rules.legal_actions(state, seat)))
    yield state


@pytest.mark.parametrize("n", [3, UGAH.max_players])
def test_ugah_keep_and_give_labels_fit_and_end_on_whole_characters(n):
    ui = UgahUI()
    labels = 0
    for seed in range(3):
        for state in _playout(UGAH, n, seed, 400):
            if state.phase != "keep":
                continue
            ctx = _ctx("ugah", state, seat=state.current)
            for button in ui._keep_buttons(ctx, ctx.legal()):
                label = str(button.item.label)
                to = int(button.custom_id.split(":")[3].split(".")[2])
                assert 0 < len(label) <= 80, label
                whole(label, "Keep, give to " + "".join(ctx.names) + "0123456789 🦣🦴" + label)
                assert label.endswith(ELLIPSIS) or ctx.names[to] in label
                assert ",  give" not in label and " give " in label  # the chips kept and given stay
                labels += 1
    assert labels > 20


@pytest.mark.parametrize("n", [4, 5])
def test_honga_alt_texts_fit_and_keep_every_players_score(n):
    ui = HongaUI()
    alts = 0
    for seed in range(2):
        states = list(_playout(HONGA, n, seed, 600))
        for state in states[::7] + states[-1:]:  # a sample of every phase, and the final scores
            ctx = _ctx("honga", state)
            view = ctx.view()
            alt = ui.alt_text(view, ctx)
            full = ui._alt_text(view, ctx, ctx.names)  # with no name shortened
            assert 0 < len(alt) <= 1024
            whole(alt, full)
            for i, p in enumerate(view["players"]):  # every player's facts, after the name
                f, b, m, w = (TR(f"honga.pay.{k}", n=n) for k, n in zip("fbmw", p["res"], strict=True))
                facts = TR("honga.alt.player", name="\0", score=TR("honga.points", n=p["score"]), f=f, b=b,
                           m=m, w=w, x=TR("honga.cost.mammoths", n=p["board"]),
                           cards=TR("honga.alt.cards", n=p["cards"])).split("\0", 1)[1]  # fmt: skip
                assert facts in alt, (i, facts, alt)
            alts += 1
    assert alts > 20
