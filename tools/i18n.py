"""Keep the German and Spanish catalogues in step with the English source.

    python -m tools.i18n update    # write bot/locales/messages.pot, merge it into every .po
    python -m tools.i18n check     # per language: missing, fuzzy, broken {fields}; exit 1 if any
    python -m tools.i18n compile   # the .mo files (the bot reads the .po files; .mo for other tools)
    python -m tools.i18n samples   # each game's board drawn in German and Spanish, into docs/images/

The English text is the ``MESSAGES`` of ``bot/locales/en*.py`` plus the renderers' ``EN_LABELS``
(``render.<game>.<label>``). Each catalogue entry has the key as ``msgctxt`` and the English template
as ``msgid`` (``msgid_plural`` for the ``(one, other)`` tuples, counted by ``{n}``). ``update`` adds
new keys untranslated, marks an entry whose English changed fuzzy (keeping the old translation and
its old English as ``#| msgid``), and drops keys the English no longer has.
"""

from __future__ import annotations

import argparse
import datetime as dt
import io
import string
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from bot.i18n import LOCALE_DIR, TRANSLATED, Template, po_path
from bot.locales import en

POT = LOCALE_DIR / "messages.pot"
DOCS_IMAGES = Path(__file__).resolve().parents[1] / "docs" / "images"
PLURAL_FORMS = "nplurals=2; plural=(n != 1);"  # German and Spanish alike
PROJECT = "stoneage-bot"
FIXED_DATE = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)  # keeps the .pot stable between runs


def english() -> dict[str, Template]:
    return dict(en.MESSAGES)


def msgid(template: Template) -> str | tuple[str, str]:
    if isinstance(template, tuple):
        one, other = template
        return (one, other)
    return template


def fields(text: str) -> set[str]:
    """The ``{field}`` names of a str.format template ('' for positional ones)."""
    out: set[str] = set()
    try:
        for _, name, _, _ in string.Formatter().parse(text):
            if name is not None:
                out.add(name.split(".")[0].split("[")[0])
    except ValueError:
        out.add("<malformed>")
    return out


def _new_catalog(lang: str | None) -> Catalog:
    cat = Catalog(
        locale=lang,
        project=PROJECT,
        version="1",
        creation_date=FIXED_DATE,
        revision_date=FIXED_DATE,
        fuzzy=False,
        language_team=f"{lang} <none>" if lang else "LANGUAGE <none>",
        last_translator=f"{PROJECT} <none>",
    )
    if lang:  # Babel's table gives Spanish three forms (CLDR 'many'); the catalogues use two
        cat.mime_headers = [*cat.mime_headers, ("Plural-Forms", PLURAL_FORMS)]
    return cat


def template_catalog() -> Catalog:
    cat = _new_catalog(None)
    for key, text in english().items():
        cat.add(msgid(text), context=key)
    return cat


def _po_bytes(cat: Catalog) -> bytes:
    buf = io.BytesIO()
    write_po(buf, cat, width=100, omit_header=False, sort_output=False, include_previous=True)
    return buf.getvalue()


def read(path: Path, lang: str | None) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale=lang)


def _shape(text: str | tuple[str, ...] | list[str], plural: bool) -> str | tuple[str, ...]:
    """An old translation fitted to the new entry's shape (singular or two plural forms)."""
    if plural:
        if isinstance(text, (tuple, list)):
            forms = tuple(text) + ("",) * (2 - len(text))
            return forms[:2]
        return (text, text)
    if isinstance(text, (tuple, list)):
        return text[-1] if text else ""
    return text


def _translated(text: object) -> bool:
    if isinstance(text, (tuple, list)):
        return bool(text) and all(text)
    return bool(text)


def _started(text: object) -> bool:
    """Some translation exists (a plural entry may lack a form: kept, and reported missing)."""
    if isinstance(text, (tuple, list)):
        return any(text)
    return bool(text)


def merge(lang: str, old: Catalog | None) -> Catalog:
    """The catalogue of ``lang`` for today's English: translations kept where the English is the
    same, kept but fuzzy where it changed, new keys untranslated, vanished keys dropped."""
    cat = _new_catalog(lang)
    previous = {m.context: m for m in old or () if m.id and m.context}
    for key, text in english().items():
        mid = msgid(text)
        plural = isinstance(mid, tuple)
        empty: str | tuple[str, ...] = ("", "") if plural else ""
        prev = previous.get(key)
        if prev is None or not _started(prev.string):
            cat.add(mid, string=empty, context=key)
            continue
        same = prev.id == mid or (isinstance(prev.id, (tuple, list)) and tuple(prev.id) == mid)
        flags = set(prev.flags) if same else set(prev.flags) | {"fuzzy"}  # fuzzy stays until reviewed
        cat.add(
            mid,
            string=_shape(prev.string, plural),
            context=key,
            flags=flags,
            user_comments=list(prev.user_comments),
            previous_id=(prev.previous_id if same else prev.id) or (),
        )
    return cat


def pot_is_current() -> bool:
    if not POT.exists():
        return False
    have = [(m.context, m.id) for m in read(POT, None) if m.id]
    want = [(m.context, m.id) for m in template_catalog() if m.id]
    return have == want


def update(langs: Iterable[str] = TRANSLATED) -> None:
    POT.parent.mkdir(parents=True, exist_ok=True)
    POT.write_bytes(_po_bytes(template_catalog()))
    print(f"wrote {POT} ({len(english())} messages)")
    for lang in langs:
        path = po_path(lang)
        old = read(path, lang) if path.exists() else None
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(_po_bytes(merge(lang, old)))
        report = check_lang(lang)
        print(f"{lang}: {report.summary()}")


@dataclass
class Report:
    lang: str
    missing: list[str] = field(default_factory=list)
    fuzzy: list[str] = field(default_factory=list)
    mismatched: list[str] = field(default_factory=list)
    obsolete: list[str] = field(default_factory=list)

    def ok(self) -> bool:
        return not (self.missing or self.fuzzy or self.mismatched or self.obsolete)

    def summary(self) -> str:
        total = len(english())
        done = total - len(self.missing)
        return (
            f"{done}/{total} translated, {len(self.missing)} missing, {len(self.fuzzy)} fuzzy, "
            f"{len(self.mismatched)} with other {{fields}} than the English, {len(self.obsolete)} obsolete"
        )


def check_lang(lang: str) -> Report:
    report = Report(lang)
    path = po_path(lang)
    source = english()
    if not path.exists():
        report.missing = list(source)
        return report
    have = {m.context: m for m in read(path, lang) if m.id and m.context}
    report.obsolete = sorted(set(have) - set(source))
    for key, text in source.items():
        msg = have.get(key)
        if msg is None or not _translated(msg.string):
            report.missing.append(key)
            continue
        if msg.fuzzy or msgid(text) != (tuple(msg.id) if isinstance(msg.id, (list, tuple)) else msg.id):
            report.fuzzy.append(key)
        english_forms = list(text) if isinstance(text, tuple) else [text]
        forms = list(msg.string) if isinstance(msg.string, (tuple, list)) else [msg.string]
        if len(forms) != len(english_forms) or any(
            fields(t) != fields(e) for t, e in zip(forms, english_forms, strict=False)
        ):
            report.mismatched.append(key)
    return report


def check(langs: Iterable[str] = TRANSLATED) -> bool:
    good = True
    if not pot_is_current():
        print(f"{POT} is out of date: run python -m tools.i18n update")
        good = False
    for lang in langs:
        report = check_lang(lang)
        print(f"{lang}: {report.summary()}")
        for label, keys in (
            ("missing", report.missing),
            ("fuzzy", report.fuzzy),
            ("fields", report.mismatched),
            ("obsolete", report.obsolete),
        ):
            for key in keys[:50]:
                print(f"  {label}: {key}")
            if len(keys) > 50:
                print(f"  ... and {len(keys) - 50} more {label}")
        good = good and report.ok()
    return good


def compile_mo(langs: Iterable[str] = TRANSLATED) -> None:
    for lang in langs:
        cat = read(po_path(lang), lang)
        out = po_path(lang).with_suffix(".mo")
        with out.open("wb") as f:
            write_mo(f, cat, use_fuzzy=False)
        print(f"wrote {out}")


def localized_samples(lang: str) -> dict[str, bytes]:
    """Sample boards of every game drawn with ``lang``'s labels (and the banner they build), as the
    bot draws them for a server in that language: to look at, and to check long words fit."""
    from bot.games import SPECS
    from bot.games.labels import image_labels
    from bot.i18n import translator

    tr = translator(lang)
    out: dict[str, bytes] = {}
    for spec in SPECS.values():
        labels = image_labels(spec.name, spec.renderer.labels, tr)
        out.update({f"{stem}_{lang}": png for stem, png in spec.renderer.localized(labels).items()})
    return out


def samples(langs: Iterable[str], out_dir: Path) -> None:
    out_dir.mkdir(parents=True, exist_ok=True)
    for lang in langs:
        for name, png in localized_samples(lang).items():
            (out_dir / f"{name}.png").write_bytes(png)
            print(f"{name}.png  {len(png)} bytes")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.i18n", description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=("update", "check", "compile", "samples"))
    parser.add_argument("--lang", action="append", choices=TRANSLATED, help="only these (default: all)")
    parser.add_argument("--out", type=Path, default=DOCS_IMAGES, help="samples: the folder to write")
    args = parser.parse_args(argv)
    langs = args.lang or list(TRANSLATED)
    if args.command == "update":
        update(langs)
        return 0
    if args.command == "samples":
        samples(langs, args.out)
        return 0
    if args.command == "compile":
        compile_mo(langs)
        return 0
    return 0 if check(langs) else 1


if __name__ == "__main__":
    sys.exit(main())
