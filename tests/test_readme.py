"""The README is the front door: every registered game is on it with a real picture, and every file
and document it points to exists."""

from __future__ import annotations

import pathlib
import re

from bot.games import SPECS

ROOT = pathlib.Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()
LINKS = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", README)


def test_every_registered_game_is_shown_with_its_own_picture() -> None:
    shown = {link for link in LINKS if link.startswith("docs/images/")}
    for name in SPECS:
        assert any(pathlib.Path(link).name.startswith(f"{name}_") for link in shown), name


def test_every_local_link_of_the_readme_exists() -> None:
    local = [link for link in LINKS if not link.startswith(("http://", "https://", "mailto:"))]
    assert local, "the README links its documents and pictures"
    missing = [link for link in local if not (ROOT / link).exists()]
    assert missing == []


def test_the_readme_stays_short() -> None:
    assert len(README.splitlines()) <= 350
