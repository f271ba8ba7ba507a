"""The seam between the coordinator and the kinds of surface: every kind is registered once, under a
name of its own from bot.surfaces.names, and no part of bot.surfaces reaches back to the coordinator
(the kinds are given a small context instead)."""

from __future__ import annotations

import ast
import pathlib

import bot.surfaces
from bot.surfaces import names
from bot.surfaces.coordinator import KINDS
from bot.surfaces.kind import SurfaceKind


def test_every_kind_is_registered_once_under_a_name_of_its_own() -> None:
    declared = [value for key, value in vars(names).items() if key.isupper()]
    registered = [k.kind for k in KINDS]
    assert sorted(registered) == sorted(declared) and len(set(registered)) == len(registered)
    assert all(issubclass(k, SurfaceKind) for k in KINDS)


def _imports(path: pathlib.Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found |= {node.module} | {f"{node.module}.{a.name}" for a in node.names}
    return found


def test_no_part_of_the_surfaces_imports_the_coordinator() -> None:
    folder = pathlib.Path(bot.surfaces.__file__).parent
    parts = [p for p in folder.glob("*.py") if p.name not in ("__init__.py", "coordinator.py")]
    assert len(parts) > 10
    for path in parts:  # (TYPE_CHECKING imports included: ast.walk sees them)
        reached = _imports(path) & {"bot.surfaces.coordinator", "bot.surfaces.Surfaces"}
        assert not reached, f"{path.name} imports {reached}"
