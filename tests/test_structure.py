"""The shape of the house (issue 32): no import cycle of any kind among the project's packages, and
modules, classes and functions of the product small enough to read. Imports are read from the source
(module-level, inside functions, and under TYPE_CHECKING alike), so a cycle hidden from the interpreter
still fails here."""

from __future__ import annotations

import ast
import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent
PACKAGES = ["bot", "engine", "render", "bench", "tools", "toy", "harness"]
SIZED = ["bot", "engine", "render"]
MAX_MODULE, MAX_CLASS, MAX_FUNCTION = 500, 400, 60


def _modules() -> dict[str, pathlib.Path]:
    mods = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            mods[".".join(parts)] = path
    return mods


def _imports(name: str, path: pathlib.Path, mods: dict[str, pathlib.Path]) -> set[str]:
    """The project modules ``name`` imports, wherever the import stands (``from a import b`` names
    the module a.b when there is one, else a)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        targets = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*up, base] if base else up)
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in mods else base for a in node.names]
        for target in targets:
            while target and target not in mods:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out = []
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            v, children = work[-1]
            for w in children:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                    break
                if w in on_stack:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on_stack.discard(w)
                        comp.append(w)
                        if w == v:
                            break
                    if len(comp) > 1:
                        out.append(sorted(comp))
    return out


def test_no_import_cycle_of_any_kind() -> None:
    mods = _modules()
    graph = {name: _imports(name, path, mods) for name, path in mods.items()}
    assert _cycles(graph) == []


def test_the_checker_finds_a_cycle_made_of_function_level_imports() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_package_imports_another_that_imports_it_back() -> None:
    """bench and tools both use the simulated-Discord harness; neither uses the other."""
    mods = _modules()
    top = {p: set() for p in PACKAGES}
    for name, path in mods.items():
        for target in _imports(name, path, mods):
            if target.split(".")[0] != name.split(".")[0]:
                top[name.split(".")[0]].add(target.split(".")[0])
    assert _cycles(top) == []


def test_modules_classes_and_functions_of_the_product_are_small() -> None:
    too_big = []
    for package in SIZED:
        for path in sorted((ROOT / package).rglob("*.py")):
            source = path.read_text()
            where = path.relative_to(ROOT)
            if (n := len(source.splitlines())) > MAX_MODULE:
                too_big.append(f"{where}: {n} lines")
            for node in ast.walk(ast.parse(source)):
                if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                    n = (node.end_lineno or node.lineno) - node.lineno + 1
                    limit = MAX_CLASS if isinstance(node, ast.ClassDef) else MAX_FUNCTION
                    if n > limit:
                        too_big.append(f"{where}:{node.lineno} {node.name}: {n} lines")
    assert too_big == []
