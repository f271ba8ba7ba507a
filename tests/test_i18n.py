"""The catalogues: every English message exists in German and Spanish, translated, not fuzzy, with the
same {fields}; the .pot matches the English source; plural forms; locale choice; image labels."""

from __future__ import annotations

import functools
import re

import discord
import pytest
from babel.messages.pofile import read_po

from bot import i18n
from bot.games import SPECS
from bot.games.common import image_labels
from bot.i18n import TRANSLATED, language, po_path, seat_name, translator
from bot.locales import en
from render.ugah import EN_LABELS as UGAH_LABELS
from tools import i18n as tool

PLURALS = [k for k, v in en.MESSAGES.items() if isinstance(v, tuple)]


def _entries(lang: str) -> dict[str, object]:
    with po_path(lang).open("rb") as f:
        return {m.context: m for m in read_po(f, locale=lang) if m.id and m.context}


def test_the_template_is_up_to_date():
    assert tool.pot_is_current(), "run: python -m tools.i18n update"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_message_is_translated_and_not_fuzzy(lang):
    report = tool.check_lang(lang)
    assert report.missing == [], f"{lang}: untranslated {report.missing[:20]}"
    assert report.fuzzy == [], f"{lang}: fuzzy {report.fuzzy[:20]}"
    assert report.obsolete == [], f"{lang}: keys the English no longer has {report.obsolete[:20]}"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_translation_keeps_the_english_fields(lang):
    entries = _entries(lang)
    for key, english in en.MESSAGES.items():
        msg = entries[key]
        forms = list(msg.string) if isinstance(msg.string, (tuple, list)) else [msg.string]
        sources = list(english) if isinstance(english, tuple) else [english]
        assert len(forms) == len(sources), key
        for form, source in zip(forms, sources, strict=True):
            assert tool.fields(form) == tool.fields(source), f"{lang} {key}: {form!r} vs {source!r}"
            # it formats with the English fields (no stray braces)
            form.format(**dict.fromkeys(tool.fields(source), "x"))


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_catalogue_headers_declare_two_plural_forms(lang):
    with po_path(lang).open("rb") as f:
        cat = read_po(f, locale=lang)
    assert cat.num_plurals == 2
    assert cat.plural_expr.replace(" ", "") == "(n!=1)"


def test_the_check_finds_what_is_wrong(tmp_path, monkeypatch):
    """The check itself can fail: a missing, a fuzzy and a broken entry are each reported."""
    lang = "de"
    text = po_path(lang).read_text(encoding="utf-8")
    text = text.replace(
        'msgctxt "lobby.full"\nmsgid "This game is full ({max} players)."\nmsgstr "Dieses Spiel ist voll ({max} Spieler)."',
        'msgctxt "lobby.full"\nmsgid "This game is full ({max} players)."\nmsgstr "Dieses Spiel ist voll ({maximum} Spieler)."',
    )
    text = text.replace(
        'msgctxt "lobby.join"\nmsgid "Join"\nmsgstr "Mitspielen"',
        'msgctxt "lobby.join"\nmsgid "Join"\nmsgstr ""',
    )
    text = text.replace('msgctxt "lobby.leave"\n', '#, fuzzy\nmsgctxt "lobby.leave"\n')
    fake = tmp_path / lang / "LC_MESSAGES" / "messages.po"
    fake.parent.mkdir(parents=True)
    fake.write_text(text, encoding="utf-8")
    monkeypatch.setattr(tool, "po_path", lambda _lang: fake)
    report = tool.check_lang(lang)
    assert report.mismatched == ["lobby.full"]
    assert report.missing == ["lobby.join"]
    assert report.fuzzy == ["lobby.leave"]


def test_update_keeps_marks_fuzzy_adds_and_drops(monkeypatch):
    """A changed English text keeps its translation as fuzzy, a new key comes untranslated, a key
    the English lost is dropped."""
    old = tool.read(po_path("de"), "de")
    source = dict(en.MESSAGES)
    source["lobby.join"] = "Join the game"
    source["brand.new"] = "Brand new"
    del source["lobby.leave"]
    monkeypatch.setattr(tool, "english", lambda: source)
    merged = {m.context: m for m in tool.merge("de", old) if m.id}
    assert merged["lobby.join"].fuzzy and merged["lobby.join"].string == "Mitspielen"
    assert merged["lobby.join"].previous_id == ["Join"] or merged["lobby.join"].previous_id == "Join"
    assert merged["brand.new"].string == ""
    assert "lobby.leave" not in merged
    assert not merged["lobby.cancel"].fuzzy and merged["lobby.cancel"].string == "Abbrechen"
    # the next update keeps it fuzzy until a translator has looked at it
    again = tool.Catalog(locale="de")
    for m in merged.values():
        again.add(m.id, string=m.string, context=m.context, flags=m.flags, previous_id=m.previous_id)
    assert {m.context: m for m in tool.merge("de", again) if m.id}["lobby.join"].fuzzy


@pytest.mark.parametrize(
    ("lang", "one", "two"),
    [
        ("en", "1 step", "2 steps"),
        ("de", "1 Schritt", "2 Schritte"),
        ("es", None, None),
    ],
)
def test_plural_forms_pick_by_count(lang, one, two):
    tr = translator(lang)
    said_one, said_two = tr("ugah.steps", n=1), tr("ugah.steps", n=2)
    assert said_one != said_two
    assert said_one.startswith("1 ") and said_two.startswith("2 ")
    if one is not None:
        assert (said_one, said_two) == (one, two)
    else:  # Spanish: the catalogue's two forms, in order
        forms = _entries("es")["ugah.steps"].string
        assert (said_one, said_two) == (forms[0].format(n=1), forms[1].format(n=2))
    assert tr("ugah.steps", n=0) == tr("ugah.steps", n=2).replace("2", "0"), "zero takes the plural"


def test_no_message_says_s_in_brackets():
    """Plurals are real forms now: no 'step(s)' or 'card(s)' left in English."""
    for key, text in en.MESSAGES.items():
        for form in text if isinstance(text, tuple) else (text,):
            assert not re.search(r"\w\(s\)", form), key
    for key in PLURALS:
        assert "{n}" in en.MESSAGES[key][0] + en.MESSAGES[key][1], key


# A number written before a noun that has a plural ("{b} berries") must come from a message with number
# forms, counted by {n}: otherwise a reader sees "1 berries". The nouns are the ones the catalogue
# itself inflects (the word after {n} whose forms differ: "berry"/"berries"), plus abbreviations.
_COUNTED = re.compile(r"\{(\w+)\}\s+(?:[\w-]+\s+)?([A-Za-z]+)")
_ABBREVIATIONS = {"pts"}


def _inflected_nouns() -> set[str]:
    """The first word after {n} that differs between a plural's forms ("{n} berry"/"{n} berries",
    "{n} other chip"/"{n} other chips"), plus abbreviations."""
    out = set(_ABBREVIATIONS)
    pattern = r"\{n\}\s+([\w-]+)(?:\s+([A-Za-z]+))?"
    for key in PLURALS:
        one, other = (re.findall(pattern, en.MESSAGES[key][i]) for i in (0, -1))
        for a, b in zip(one, other, strict=False):
            out |= {b[0]} if a[0] != b[0] else {b[1]} if a[1] != b[1] else set()
    return out


def _bare_counts(templates: dict[str, object], nouns: set[str]) -> list[str]:
    """Keys of single-form templates that write a number before one of ``nouns``."""
    found = []
    for key, text in templates.items():
        if isinstance(text, str):
            found += [f"{key}: {m[0]}" for m in _COUNTED.finditer(text) if nouns & {m[2], *m[0].split()[1:2]}]
    return found


def test_no_count_is_written_without_its_plural_forms():
    nouns = _inflected_nouns()
    assert {"berries", "points", "chips", "cards"} <= nouns
    labels = {f"render.{g}.{k}": v for g, spec in SPECS.items() for k, v in spec.renderer.labels.items()}
    assert _bare_counts({**en.MESSAGES, **labels}, nouns) == []
    # the check itself finds what the outside review found
    bad = {"alt": "{name} {score} pts: {b} berries", "head": "target {target} points", "ok": "{square} holds"}
    assert _bare_counts(bad, nouns) == ["alt: {score} pts", "alt: {b} berries", "head: {target} points"]


def test_every_plural_in_every_language():
    for key in PLURALS:
        for lang in ("en", *TRANSLATED):
            tr = translator(lang)
            fields = dict.fromkeys(tool.fields(en.MESSAGES[key][1]), "x")
            one, many = tr(key, **{**fields, "n": 1}), tr(key, **{**fields, "n": 5})
            assert one != many, (lang, key)


@pytest.mark.parametrize(
    ("locale", "lang"),
    [
        (discord.Locale.german, "de"),
        (discord.Locale.spain_spanish, "es"),
        (discord.Locale.latin_american_spanish, "es"),
        (discord.Locale.american_english, "en"),
        (discord.Locale.french, "en"),
        ("es-419", "es"),
        ("de", "de"),
        (None, "en"),
        ("", "en"),
    ],
)
def test_discord_locales_map_to_a_language(locale, lang):
    assert language(locale) == lang


def test_a_missing_or_broken_translation_falls_back_to_english(monkeypatch):
    table = dict(i18n.catalogue("de"))
    table["lobby.full"] = "Voll ({nope})"
    del table["lobby.join"]
    monkeypatch.setattr(i18n, "catalogue", lambda lang: table if lang == "de" else en.MESSAGES)
    # translators are made once per language: this one, from the broken table, must not outlive the test
    monkeypatch.setattr(i18n, "_translator", functools.cache(i18n._translator.__wrapped__))
    tr = translator("de")
    assert tr("lobby.full", max=4) == "This game is full (4 players)."
    assert tr("lobby.join") == "Join"
    assert tr("lobby.leave") == "Verlassen"
    with pytest.raises(KeyError):
        tr("no.such.key")


def test_image_labels_come_in_the_viewers_language():
    de = image_labels("ugah", UGAH_LABELS, translator("de"))
    es = image_labels("ugah", UGAH_LABELS, translator("es"))
    assert set(de) == set(es) == set(UGAH_LABELS)
    assert de["spoils"] == "BEUTE"
    assert es["spoils"] != UGAH_LABELS["spoils"]
    assert image_labels("ugah", UGAH_LABELS, None) == UGAH_LABELS


def test_command_names_follow_discord_rules():
    name = re.compile(r"^[-_\w]{1,32}$")
    for lang in TRANSLATED:
        tr = translator(lang)
        for key in en.MESSAGES:
            if key.endswith(".name") and key.startswith(("cmd.", "opt.")):
                text = tr(key)
                assert name.match(text) and text == text.lower(), (lang, key, text)
            elif key.startswith(("cmd.", "opt.")):
                assert 1 <= len(tr(key)) <= 100, (lang, key, tr(key))


def test_computer_seats_are_named_in_the_viewers_language():
    es = translator("es")
    assert seat_name("Computer 2", True, es) == es("seat.computer", n=2) != "Computer 2"
    assert seat_name("Computer 2", False, es) == "Computer 2", "a person called so keeps the name"
    assert seat_name("Grog", True, es) == "Grog"
    assert seat_name("Computer 1", True, translator(None)) == "Computer 1"
