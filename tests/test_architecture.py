"""The house keeps its shape: the import-linter contracts hold and the import graph has no circle.

``lint-imports`` checks the contracts of ``pyproject.toml`` (layers, independent game packages,
games without the database or the UI, only the faces importing Streamlit and Typer). The cycle
test reads every module of ``cardbase`` with :mod:`ast` and counts every import that runs: those at
module level **and** those inside functions and methods (lazy imports are still dependencies);
only imports under ``if TYPE_CHECKING:`` are left out, as they never run. A relative import counts
as the module it names; ``from package import name`` counts as the submodule when ``name`` is one,
else as the package.
"""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "cardbase"


def _modules(package: Path) -> dict[str, tuple[Path, bool]]:
    out = {}
    for path in package.rglob("*.py"):
        parts = list(path.relative_to(package.parent).with_suffix("").parts)
        is_pkg = parts[-1] == "__init__"
        if is_pkg:
            parts = parts[:-1]
        out[".".join(parts)] = (path, is_pkg)
    return out


def _type_checking_nodes(tree: ast.AST) -> set[int]:
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.body:
                skip.update(id(n) for n in ast.walk(child))
    return skip


def import_graph(package: Path) -> dict[str, set[str]]:
    """Module → the modules of the package it imports (module level and inside functions)."""
    mods = _modules(package)
    root = package.name

    def known(name: str) -> str | None:
        while name and name not in mods:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {m: set() for m in mods}
    for mod, (path, is_pkg) in mods.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        skip = _type_checking_nodes(tree)
        here = mod if is_pkg else mod.rpartition(".")[0]
        for node in ast.walk(tree):
            if id(node) in skip:
                continue
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = here
                    for _ in range(node.level - 1):
                        base = base.rpartition(".")[0]
                    source = f"{base}.{node.module}" if node.module else base
                else:
                    source = node.module or ""
                targets = [f"{source}.{a.name}" if f"{source}.{a.name}" in mods else source
                           for a in node.names]
            for target in targets:
                if target == root or target.startswith(root + "."):
                    found = known(target)
                    if found and found != mod:
                        graph[mod].add(found)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    component.append(top)
                    if top == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_the_import_graph_of_cardbase_has_no_circle() -> None:
    graph = import_graph(PACKAGE)
    assert len(graph) > 150  # every module was read
    assert "cardbase.storage.db" in graph["cardbase.catalog.seed"]  # lazy imports count too
    assert cycles(graph) == []


def test_the_cycle_finder_sees_a_circle_through_a_function_level_import(tmp_path: Path) -> None:
    pkg = tmp_path / "house"
    (pkg / "low").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "low" / "__init__.py").write_text("")
    (pkg / "low" / "a.py").write_text("from house.high import b\n")
    (pkg / "high.py").write_text(textwrap.dedent("""
        from typing import TYPE_CHECKING
        if TYPE_CHECKING:
            from house.other import c
        def f():
            from .low import a
            return a
    """))
    (pkg / "other.py").write_text("import house.high\n")
    (pkg / "b.py").write_text("")
    graph = import_graph(pkg)
    assert graph["house.high"] == {"house.low.a"}  # the type-checking import is left out
    assert cycles(graph) == [["house.high", "house.low.a"]]


def _lint_imports(config: Path | None = None) -> subprocess.CompletedProcess[str]:
    exe = shutil.which("lint-imports")
    if exe is None:
        if os.environ.get("CI"):
            pytest.fail("lint-imports is missing: install the test extra (import-linter)")
        pytest.skip("import-linter is not installed")
    args = [exe] + (["--config", str(config)] if config else [])
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
                          check=False)


def test_the_import_contracts_hold() -> None:
    done = _lint_imports()
    assert done.returncode == 0, done.stdout + done.stderr
    assert "4 kept, 0 broken" in done.stdout


def test_a_broken_contract_fails_lint_imports(tmp_path: Path) -> None:
    """The same check fails when a lower layer is made to import a higher one: the contract
    really reads the code (here: storage may not import the catalog)."""
    config = tmp_path / "contracts.toml"
    config.write_text(textwrap.dedent("""
        [tool.importlinter]
        root_package = "cardbase"

        [[tool.importlinter.contracts]]
        name = "the catalog may not import storage (false on purpose)"
        type = "forbidden"
        source_modules = ["cardbase.catalog"]
        forbidden_modules = ["cardbase.storage"]
    """))
    done = _lint_imports(config)
    assert done.returncode != 0
    assert "BROKEN" in done.stdout and "cardbase.catalog" in done.stdout


def test_every_package_says_what_it_is_for_and_what_it_may_import() -> None:
    for init in sorted(PACKAGE.glob("*/__init__.py")):
        doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8")))
        assert doc and len(doc) > 80, f"{init.parent.name}/__init__.py has no docstring"
        assert "import" in doc, f"{init.parent.name}/__init__.py does not say what it may import"


def test_the_folder_list_reads_like_the_architecture() -> None:
    top = {p.stem for p in PACKAGE.iterdir()
           if (p.is_dir() and (p / "__init__.py").exists()) or p.suffix == ".py"}
    assert {"storage", "catalog", "decks", "games", "playtest", "outputs", "cli", "ui"} <= top
    # beside the folders, only the shared kernel (and ``__main__``: ``python -m cardbase`` runs the CLI)
    assert top - {"storage", "catalog", "decks", "games", "playtest", "outputs", "cli", "ui",
                  "i18n", "__main__"} == {"__init__", "access", "bounded_io", "config", "domain", "errors", "text"}


def test_storage_does_not_load_a_service_when_imported() -> None:
    code = ("import sys, cardbase.storage.db, cardbase.storage.models\n"
            "print(sorted(m for m in sys.modules if m.startswith('cardbase.')"
            " and not m.startswith(('cardbase.storage', 'cardbase.i18n'))))")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                          timeout=120, check=True)
    loaded = set(eval(done.stdout))  # a printed list of names
    assert loaded <= {"cardbase.config", "cardbase.errors"}, loaded
