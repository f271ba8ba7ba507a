"""The rules live in the repository (docs/rules/): every clause, variant, example and decision a test
names for a game is written down in that game's rules file."""

from __future__ import annotations

import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
GAMES = ["ugah", "uonga", "ubongo", "honga"]
CITED = re.compile(r"def test_([RVEA]\d+)")  # test_R7_..., test_E2_...: the clause a test is named for


@pytest.mark.parametrize("game", GAMES)
def test_every_clause_a_test_is_named_for_is_in_the_games_rules(game: str) -> None:
    cited = set(CITED.findall((ROOT / f"tests/engine/test_{game}_rules.py").read_text()))
    written = set(re.findall(r"\*\*([RVEA]\d+)\b", (ROOT / f"docs/rules/{game}.md").read_text()))
    assert cited, f"the {game} rules tests name their clauses"
    assert cited <= written, sorted(cited - written)


def test_no_code_points_outside_the_repository_for_its_rules() -> None:
    outside = [
        str(path.relative_to(ROOT))
        for folder in ("bot", "engine", "render", "tests", "bench", "tools", "harness", "toy")
        for path in (ROOT / folder).rglob("*.py")
        if any(f"shared/{folder}" in path.read_text() for folder in ("rules", "seeds"))
    ]
    assert outside == []
