"""The shape of the code, checked over every module of ``tui``, ``screens`` and ``widgets``.

- No import circle anywhere.
- ``tui/`` is headless: no module there imports Textual, Rich, ``screens`` or ``widgets``,
  with one exception, :data:`UI_IN_TUI` (``tui/app.py``, the Textual ``App``, with its
  ``app.tcss``). Only ``tui/__main__.py`` imports it, and only inside the function that starts
  the UI, so ``cloudtui login`` or ``sim`` never load Textual (``doctor`` loads the screens
  only to check a ``[keymap]``, inside its command).
- Widgets never call the API (they post messages; screens own the requests).
- No UI module over :data:`MAX_LINES` lines, no module at all over
  :data:`MAX_ANY_MODULE_LINES` but the :data:`DATA_TABLES`; at most :data:`MAX_LOOSE_IN_TUI`
  modules loose in ``tui/``.

Imports inside functions count (a lazy import is still a dependency); imports under
``if TYPE_CHECKING:`` do not (they never run).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("tui", "screens", "widgets")
UI_PACKAGES = ("screens", "widgets")
MAX_LINES = 500
UI_LIBRARIES = ("textual", "rich")
UI_IN_TUI = "tui.app"
"""The one module of ``tui`` that is UI (the Textual App)."""
STARTS_THE_UI = "tui.__main__"
"""The one module that imports :data:`UI_IN_TUI`, inside a function."""


def _modules(packages: tuple[str, ...] = PACKAGES) -> dict[str, Path]:
    """Dotted module name -> file, for every module of ``packages`` (a package is its
    ``__init__``)."""
    found: dict[str, Path] = {}
    for package in packages:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imported(name: str, path: Path, known: set[str]) -> dict[str, bool]:
    """Every module that module ``name`` (file ``path``) imports when it runs -> True when
    imported at module level, False when only inside a function or class body.

    ``from m import a`` names ``m.a`` when that is one of the ``known`` modules, else ``m``;
    relative imports are resolved from the module's package.
    """
    tree = ast.parse(path.read_text())
    type_only = {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and _is_type_checking(node)
        for statement in node.body
        for inner in ast.walk(statement)
    }
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    top_level = {id(node) for node in tree.body}
    found: dict[str, bool] = {}
    for node in ast.walk(tree):
        if id(node) in type_only:
            continue
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join([*base, *([node.module] if node.module else [])])
            else:
                module = node.module or ""
            submodules = [f"{module}.{alias.name}" for alias in node.names]
            names = [m if m in known else module for m in submodules]
        else:
            continue
        for imported in names:
            found[imported] = found.get(imported, False) or id(node) in top_level
    found.pop(name, None)
    return found


def _imports(name: str, path: Path, known: set[str]) -> set[str]:
    """Modules of ``known`` that module ``name`` (file ``path``) imports when it runs."""
    return {imported for imported in _imported(name, path, known) if imported in known}


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import circles of ``graph``: its strongly connected components of two or more
    modules (Tarjan's algorithm), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for target in sorted(graph[module]):
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in on_stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            component: list[str] = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == module:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return sorted(circles)


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: _imports(name, path, set(modules)) for name, path in modules.items()}


def test_no_import_circle_anywhere() -> None:
    graph = _graph()
    circles = _circles(graph)
    explained = [
        "; ".join(f"{m} -> {', '.join(sorted(graph[m] & set(c)))}" for m in c) for c in circles
    ]
    assert not circles, "import circles (a module two others need goes below both):\n" + "\n".join(
        explained
    )


def test_the_graph_sees_every_kind_of_import() -> None:
    graph = _graph()
    # `import x`, `from package import module`, and lazy imports (inside a function) are edges.
    assert "tui.resources.choosers" in graph["tui.resources.forms.choices"]
    assert "tui.resources.forms.spec" in graph["tui.resources.forms"]
    assert "tui.api.endpoints" in graph["tui.api"]
    assert "tui.simulator.seeds" in graph["tui.simulator.seed"]
    # Type-only imports are not edges.
    assert "tui.resources.forms" not in graph["tui.resources.form_rules"]


def test_relative_imports_resolve_from_their_package(tmp_path: Path) -> None:
    module = tmp_path / "mod.py"
    module.write_text(
        "from . import sibling\nfrom ..other import thing\nfrom .sibling import name\n"
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..hidden import T\n"
    )
    known = {"pkg.sub.sibling", "pkg.other", "pkg.hidden"}
    assert _imports("pkg.sub.mod", module, known) == {"pkg.sub.sibling", "pkg.other"}


def test_the_circle_finder_finds_circles() -> None:
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _circles({"a": {"b"}, "b": {"a"}, "c": {"d"}, "d": {"c"}}) == [["a", "b"], ["c", "d"]]
    assert _circles({"a": {"b"}, "b": set()}) == []


def _first_part(dotted: str) -> str:
    return dotted.split(".")[0]


def _in_package(dotted: str, package: str) -> bool:
    return dotted == package or dotted.startswith(f"{package}.")


def test_tui_is_headless_but_for_the_app() -> None:
    known = set(_modules())
    offenders = {
        name: sorted(
            dotted
            for dotted, top_level in _imported(name, path, known).items()
            if _first_part(dotted) in (*UI_LIBRARIES, *UI_PACKAGES)
            # The entry point may load UI code inside the commands that need it.
            and (top_level or name != STARTS_THE_UI)
        )
        for name, path in _modules(("tui",)).items()
        if name != UI_IN_TUI
    }
    offenders = {name: found for name, found in offenders.items() if found}
    assert not offenders, f"headless modules importing UI code: {offenders}"
    # The exception is real: the App is Textual (else the rule should lose its exception).
    app = _modules(("tui",))[UI_IN_TUI]
    assert "textual" in {_first_part(d) for d in _imported(UI_IN_TUI, app, known)}


def test_only_the_entry_point_starts_the_ui_and_only_lazily() -> None:
    modules = _modules()
    importers = {
        name: imported[UI_IN_TUI]
        for name, path in modules.items()
        if UI_IN_TUI in (imported := _imported(name, path, set(modules)))
    }
    assert importers == {STARTS_THE_UI: False}, importers


def test_widgets_never_call_the_api() -> None:
    known = set(_modules())
    offenders = {
        name: sorted(d for d in _imported(name, path, known) if _in_package(d, "tui.api"))
        for name, path in _modules(("widgets",)).items()
    }
    assert not {name: found for name, found in offenders.items() if found}


def test_no_ui_module_over_the_size_limit() -> None:
    sizes = {
        name: len(path.read_text().splitlines()) for name, path in _modules(UI_PACKAGES).items()
    }
    too_long = {name: lines for name, lines in sizes.items() if lines > MAX_LINES}
    assert not too_long, f"split these modules (over {MAX_LINES} lines): {too_long}"


MAX_LOOSE_IN_TUI = 10
"""Modules directly in ``tui/`` (the rest is grouped in packages named by their job)."""

MAX_ANY_MODULE_LINES = 600
DATA_TABLES = (
    "tui.api.endpoints",
    "tui.models.",
    "tui.simulator.handlers.",
    "tui.simulator.seeds.",
)
"""Modules that are tables of data (the endpoint registry, the models, the simulator's handlers
and seeds, one per area of the API): long because the API is, exempt from the size limit."""


def test_tui_is_grouped_into_packages_by_job() -> None:
    loose = sorted(path.name for path in (ROOT / "tui").glob("*.py"))
    assert len(loose) <= MAX_LOOSE_IN_TUI, f"group these into packages: {loose}"


def test_no_module_over_the_size_limit_but_data_tables() -> None:
    too_long = {
        name: lines
        for name, path in _modules().items()
        if (lines := len(path.read_text().splitlines())) > MAX_ANY_MODULE_LINES
        and not name.startswith(DATA_TABLES)
    }
    assert not too_long, f"split these modules (over {MAX_ANY_MODULE_LINES} lines): {too_long}"
