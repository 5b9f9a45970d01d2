"""The shape of the code, checked over every module of ``tui``, ``screens`` and ``widgets``.

- No import circle anywhere, type-only imports included: what a lower module needs of a higher
  one is a ``Protocol`` declared in the lower module. Between the packages of ``screens`` the
  arrows point one way too (:func:`test_the_packages_of_screens_form_layers`).
- ``tui/`` is headless: no module there imports Textual, Rich, ``screens`` or ``widgets``,
  with one exception, :data:`UI_IN_TUI` (``tui/app.py``, the Textual ``App``, with its
  ``app.tcss``). Only ``tui/__main__.py`` imports it, and only inside the function that starts
  the UI, so ``cloudtui login`` or ``sim`` never load Textual (``doctor`` loads the screens
  only to check a ``[keymap]``, inside its command).
- Widgets never call the API (they post messages; screens own the requests).
- ``tui/`` and ``screens/`` are grouped into packages by job (at most :data:`MAX_LOOSE_IN_TUI`
  and :data:`MAX_LOOSE_IN_SCREENS` modules loose), and ``tests/ui/`` follows ``screens/``.
- Screens and widgets see the app through ``screens.app_surface.AppSurface``: never by name
  (``getattr(app, ...)``, ``hasattr(app, ...)``), never past the type checker (no
  ``attr-defined`` ignore).
- Textual's private API is used in one module, :data:`TEXTUAL_PRIVATE`.
- No function of the UI too complex (ruff's ``C901`` and ``PLR0915``, limits in
  ``pyproject.toml``); no module at all over :data:`MAX_ANY_MODULE_LINES` lines but the
  :data:`DATA_TABLES`.

Imports inside functions count (a lazy import is still a dependency), and so do imports under
``if TYPE_CHECKING:`` (a type names a module as surely as a call does).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("tui", "screens", "widgets")
UI_PACKAGES = ("screens", "widgets")
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
    """Every module that module ``name`` (file ``path``) imports -> True when imported at
    module level (under ``if TYPE_CHECKING:`` too), False when only inside a function or class
    body.

    ``from m import a`` names ``m.a`` when that is one of the ``known`` modules, else ``m``;
    relative imports are resolved from the module's package.
    """
    tree = ast.parse(path.read_text())
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    top_level = {id(node) for node in tree.body} | {
        id(statement)
        for node in tree.body
        if isinstance(node, ast.If) and _is_type_checking(node)
        for statement in node.body
    }
    found: dict[str, bool] = {}
    for node in ast.walk(tree):
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
    # Type-only imports are edges too.
    assert "tui.resources.forms.spec" in graph["tui.resources.form_rules"]


def test_relative_imports_resolve_from_their_package(tmp_path: Path) -> None:
    module = tmp_path / "mod.py"
    module.write_text(
        "from . import sibling\nfrom ..other import thing\nfrom .sibling import name\n"
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..hidden import T\n"
    )
    known = {"pkg.sub.sibling", "pkg.other", "pkg.hidden"}
    assert _imports("pkg.sub.mod", module, known) == {"pkg.sub.sibling", "pkg.other", "pkg.hidden"}
    assert _imported("pkg.sub.mod", module, known)["pkg.hidden"]  # at module level


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


# -- the UI: screens by job, one typed surface of the app, Textual's private API in one place ---

MAX_LOOSE_IN_SCREENS = 12
"""Modules directly in ``screens/``: what every job stands on (the frame, the app's surface,
the messages up, the key gate, the refresh timer); the rest is grouped by job."""

UI_TESTS = ROOT / "tests" / "ui"
UI_TEST_FOLDERS_NOT_SCREENS = ("widgets",)
"""Folders of ``tests/ui`` that hold the tests of something else than a package of screens."""


def _packages_of_screens() -> list[str]:
    return sorted(p.parent.name for p in (ROOT / "screens").glob("*/__init__.py"))


def test_screens_are_grouped_into_packages_by_job() -> None:
    loose = sorted(path.name for path in (ROOT / "screens").glob("*.py"))
    assert len(loose) <= MAX_LOOSE_IN_SCREENS, f"group these into packages: {loose}"
    assert len(_packages_of_screens()) >= 5  # the rule is about packages that exist


def test_ui_tests_follow_the_packages_of_screens() -> None:
    folders = sorted(p.parent.name for p in UI_TESTS.glob("*/__init__.py"))
    strays = [f for f in folders if f not in _packages_of_screens()]
    assert strays == list(UI_TEST_FOLDERS_NOT_SCREENS), f"not a package of screens: {strays}"
    untested = [p for p in _packages_of_screens() if not list((UI_TESTS / p).glob("test_*.py"))]
    assert not untested, f"packages of screens without a folder of tests in tests/ui: {untested}"


def _layer(module: str) -> str:
    """The package of ``screens`` a module belongs to (a loose module is its own)."""
    parts = module.split(".")
    return ".".join(parts[:2])


def test_the_packages_of_screens_form_layers() -> None:
    # Module by module there is no circle (above); package by package neither: a job's
    # package never needs one that needs it back (the frame is below every job, the shell
    # above them all).
    graph = _graph()
    layers: dict[str, set[str]] = {}
    for module, imported in graph.items():
        if module.startswith("screens."):
            deps = {_layer(d) for d in imported if d.startswith("screens.")}
            layers.setdefault(_layer(module), set()).update(deps - {_layer(module)})
    assert not _circles(layers), _circles(layers)


def _ui_sources() -> dict[str, ast.Module]:
    return {name: ast.parse(path.read_text()) for name, path in _modules(UI_PACKAGES).items()}


def _is_the_app(node: ast.expr) -> bool:
    """``app``, ``self.app``, ``ctx.app``, ``node.app.x``'s ``node.app`` ..."""
    return (isinstance(node, ast.Name) and node.id == "app") or (
        isinstance(node, ast.Attribute) and node.attr == "app"
    )


def _by_name_on_the_app(tree: ast.Module) -> list[int]:
    """Lines that reach the app by name: ``getattr``/``hasattr``/``setattr`` on it."""
    return [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in ("getattr", "hasattr", "setattr")
        and node.args
        and (_is_the_app(node.args[0]) or any(_is_the_app(n) for n in ast.walk(node.args[0])))
    ]


def test_screens_and_widgets_never_reach_the_app_by_name() -> None:
    found = {
        name: lines for name, tree in _ui_sources().items() if (lines := _by_name_on_the_app(tree))
    }
    assert not found, f"use screens.app_surface (typed) instead of getattr/hasattr: {found}"


def test_the_app_by_name_is_found() -> None:
    tree = ast.parse(
        "def f(self, ctx):\n    getattr(self.app, 'x', None)\n    hasattr(ctx.app, 'y')\n"
        "    getattr(getattr(self.app, 'session', None), 'z', None)\n    getattr(self, 'w')\n"
    )
    assert _by_name_on_the_app(tree) == [2, 3, 4, 4]


def test_no_attribute_check_is_turned_off_in_the_ui() -> None:
    found = {
        name: n
        for name, path in _modules(UI_PACKAGES).items()
        if (n := path.read_text().count("type: ignore[attr-defined]"))
    }
    assert not found, f"attr-defined ignores (type what is reached instead): {found}"


TEXTUAL_PRIVATE = "widgets.textual_private"
"""The one module that uses Textual's private API (see it for what and why)."""


def _textual_private_names() -> set[str]:
    """Names Textual keeps to itself: methods and attributes with one leading underscore."""
    import textual

    names: set[str] = set()
    for path in Path(textual.__file__).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                names.add(node.name)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                names.add(node.attr)
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                names.add(node.target.id)
    return {n for n in names if n.startswith("_") and not n.startswith("__")}


def _our_private_names(trees: dict[str, ast.Module]) -> set[str]:
    """Private names our own classes define (a method, or an attribute they set)."""
    names: set[str] = set()
    for tree in trees.values():
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                for item in node.body:
                    if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
                        names.add(item.name)
                    elif isinstance(item, ast.AnnAssign | ast.Assign):
                        targets = [item.target] if isinstance(item, ast.AnnAssign) else item.targets
                        names.update(t.id for t in targets if isinstance(t, ast.Name))
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                names.add(node.attr)
    return names


def _private_uses(tree: ast.Module, private: set[str]) -> list[str]:
    """Where ``tree`` imports a private module of Textual or reads one of its ``private`` names."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("textual"):
            if any(part.startswith("_") for part in (node.module or "").split(".")):
                found.append(f"{node.lineno}: from {node.module} import")
        elif isinstance(node, ast.Attribute) and node.attr in private:
            found.append(f"{node.lineno}: .{node.attr}")
    return found


def test_textual_private_api_is_used_in_one_module() -> None:
    # The UI: the headless modules import no Textual at all (see above).
    ui = {**_modules(UI_PACKAGES), UI_IN_TUI: _modules(("tui",))[UI_IN_TUI]}
    trees = {name: ast.parse(path.read_text()) for name, path in ui.items()}
    ours = _our_private_names({n: t for n, t in trees.items() if n != TEXTUAL_PRIVATE})
    private = _textual_private_names() - ours
    found = {
        name: uses
        for name, tree in trees.items()
        if name != TEXTUAL_PRIVATE and (uses := _private_uses(tree, private))
    }
    assert not found, f"Textual's private API outside {TEXTUAL_PRIVATE}: {found}"
    # The check sees what it is for: the module itself uses private names and modules.
    assert _private_uses(trees[TEXTUAL_PRIVATE], private)


def test_no_class_overrides_textual_private_methods_but_in_one_module() -> None:
    import importlib
    import pkgutil

    from textual.message_pump import MessagePump
    from textual.widget import Widget

    for package in UI_PACKAGES:
        module = importlib.import_module(package)
        for info in pkgutil.walk_packages(module.__path__, f"{package}."):
            importlib.import_module(info.name)
    importlib.import_module(UI_IN_TUI)

    class Plain(Widget):
        pass

    automatic = set(vars(Plain))  # what Textual gives every class it makes

    def ours(cls: type) -> list[type]:
        found = []
        for sub in cls.__subclasses__():
            if sub.__module__.split(".")[0] in PACKAGES:
                found.append(sub)
            found += ours(sub)
        return found

    found = sorted(
        f"{cls.__module__}.{cls.__qualname__}.{name}"
        for cls in set(ours(MessagePump))
        if cls.__module__ != TEXTUAL_PRIVATE
        for name in vars(cls)
        if name.startswith("_")
        and not name.startswith("__")
        and name not in automatic
        and any(
            base.__module__.startswith("textual") and name in vars(base) for base in cls.__mro__[1:]
        )
    )
    assert not found, f"overrides of Textual's private methods outside {TEXTUAL_PRIVATE}: {found}"


WIDGET_HOOKS = ("on_", "_on_", "action_", "compose", "check_action")
"""What only a Textual node has use for: message handlers, actions, composition."""


def _widget_mixins() -> list[str]:
    """Classes of the UI that are no Textual node yet carry what only a node uses: mixins
    that split a widget across classes and share its state by convention."""
    import importlib
    import inspect
    import pkgutil

    from textual.message_pump import MessagePump

    found = []
    for package in UI_PACKAGES:
        for info in pkgutil.walk_packages(importlib.import_module(package).__path__, f"{package}."):
            module = importlib.import_module(info.name)
            for cls in vars(module).values():
                if not inspect.isclass(cls) or cls.__module__ != module.__name__:
                    continue
                if issubclass(cls, MessagePump) or getattr(cls, "_is_protocol", False):
                    continue  # a node, or a Protocol (what a node offers, not a part of it)
                hooks = [name for name in vars(cls) if name.startswith(WIDGET_HOOKS)]
                if hooks:
                    found.append(f"{cls.__module__}.{cls.__qualname__}: {', '.join(hooks)}")
    return found


def test_no_widget_is_split_into_mixins() -> None:
    # A widget is one class, or a widget made of widgets and plain objects with state of their
    # own; never a plain class whose handlers work on a widget's state by convention.
    found = _widget_mixins()
    assert not found, f"make these widgets, or objects the widget holds: {found}"


COMPLEXITY_RULES = "C901,PLR0915"
"""ruff's limits on one function: its branches (mccabe) and its statements; the limits are
``[tool.ruff.lint.mccabe]`` and ``[tool.ruff.lint.pylint]`` of ``pyproject.toml``."""


def test_no_function_of_the_ui_is_too_complex() -> None:
    # A cohesive class stays whole however long; a long function is split by job.
    import subprocess
    import sys

    paths = [*UI_PACKAGES, str(Path(*UI_IN_TUI.split(".")).with_suffix(".py"))]
    result = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--select", COMPLEXITY_RULES,
         "--output-format", "concise", "--quiet", *paths],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert result.returncode == 0, f"split these functions by job:\n{result.stdout}{result.stderr}"
