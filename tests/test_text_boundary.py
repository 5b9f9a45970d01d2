"""The text boundary holds in the code: every value that reaches the terminal passed it.

:mod:`tests.text_sinks` follows each string handed to a notification, a title, a ``Static``,
``Label`` or ``Button``, a Rich ``Text``, a table cell, a palette entry, a confirmation (any
parameter annotated ``Shown``) back to where it was made, and fails on any that did not come
from :func:`tui.untrusted.shown`, from a literal, or from a function annotated to return
display text. The tests below also show the check catching each way raw text could slip in,
so a check that stopped looking would fail here too.
"""

from __future__ import annotations

import ast
import copy
import functools
import textwrap
from pathlib import Path

import pytest

from tests.text_sinks import ROOT, Checker, Project, _is_display, check, python_files, survey

SNIPPET = ROOT / "screens" / "snippet_under_test.py"
"""Where a snippet pretends to live (a UI module): nothing is written there."""


@functools.cache
def _project() -> Project:
    return survey(list(python_files(("tui", "screens", "widgets"))))


def findings_in(code: str) -> list[str]:
    """What the check finds in ``code``, read as a UI module of the project (the snippet's
    own functions are known to the check only inside it)."""
    source = textwrap.dedent(code)
    project = copy.copy(_project())
    project.returns = dict(project.returns)
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef):
            project.returns[node.name] = {_is_display(node.returns)}
    return [f.source for f in Checker(project, SNIPPET, source=source).run()]


def test_no_raw_text_reaches_the_terminal() -> None:
    found = check()
    assert not found, "values drawn without passing tui.untrusted.shown():\n" + "\n".join(
        str(f) for f in found
    )


@pytest.mark.parametrize(
    ("code", "raw"),
    [
        # A value of the API straight into a notification, a title, a widget or a Text.
        ("def f(app, item):\n    app.notify(item['label'])", "item['label']"),
        ("def f(app, item):\n    app.notify('ok', title=item['label'])", "item['label']"),
        ("def f(screen, item):\n    screen.title = item['label']", "item['label']"),
        ("def f(item):\n    return Static(item['label'])", "item['label']"),
        (
            "def f(item):\n    return Label(f\"Name: {item['label']}\")",
            "f\"Name: {item['label']}\"",
        ),
        ("def f(item):\n    return Text(str(item))", "str(item)"),
        ("def f(item):\n    t = Text('a')\n    t.append(item.name)\n    return t", "item.name"),
        ("def f(table, item):\n    table.add_row(item['label'], 'x')", "item['label']"),
        # Laundering through a variable, a loop, a join or a string method does not help.
        ("def f(app, item):\n    label = item['label']\n    app.notify(label)", "label"),
        (
            "def f(app, items):\n    for i in items:\n        app.notify(i.upper())",
            "i.upper()",
        ),
        ("def f(app, xs):\n    app.notify(', '.join(xs))", "', '.join(xs)"),
        # A confirmation: its parameters are annotated Shown, so each caller is checked.
        (
            "def f(item):\n    return ConfirmModal(item['label'], 'sure?', 'GET /')",
            "item['label']",
        ),
        # Claiming display text does not make it so.
        ("def f(item) -> Shown:\n    return item['label']", "item['label']"),
        ("def f(item):\n    x: Shown = item['label']\n    return x", "item['label']"),
        # A viewer's text is drawn; an editor's is the raw value it edits.
        (
            "def f(blob):\n    return TextArea(blob, read_only=True)",
            "blob",
        ),
    ],
)
def test_the_check_finds_raw_text(code: str, raw: str) -> None:
    assert raw in findings_in(code)


@pytest.mark.parametrize(
    "code",
    [
        "def f(app, item):\n    app.notify(shown(item['label']))",
        "def f(app, item):\n    app.notify(f\"Deleted {shown(item['label'])}\", title='Delete')",
        "def f(app, n: int):\n    app.notify(f'{n} items')",
        "def f(app, items):\n    app.notify(f'{len(items):,} items')",
        "def f(app, label: Shown):\n    app.notify(label)",
        "def f(item):\n    label = shown(item)\n    t = Text(label)\n    t.append(label.upper())",
        "def f(app, xs):\n    app.notify(', '.join(shown(x) for x in xs))",
        "def f(blob):\n    return TextArea(blob)",  # an editor holds the raw value
        "def f(app, error):\n    app.notify(describe_error(error), title=error_title(error))",
    ],
)
def test_the_check_lets_display_text_through(code: str) -> None:
    assert findings_in(code) == []


def test_every_module_is_read() -> None:
    """The check walks every module of the UI and the core (a new package is included)."""
    read = {p.relative_to(ROOT).parts[0] for p in python_files(("tui", "screens", "widgets"))}
    assert read == {"tui", "screens", "widgets"}
    assert any(p.name == "app.py" for p in python_files(("tui",)))
    assert Path(__file__).parent.joinpath("text_sinks.py").exists()


def test_nothing_casts_text_into_display_text() -> None:
    """``Shown`` is a name for checked text, not a conversion: ``Shown(x)`` would launder any
    value past the check, so only :func:`tui.untrusted.shown` makes display text."""
    casts = [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for path in python_files(("tui", "screens", "widgets"))
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "Shown"
    ]
    assert casts == []
