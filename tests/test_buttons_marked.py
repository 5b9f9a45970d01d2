"""Every button of the app shows the focus marker: none is a plain Textual ``Button``.

``widgets.marked_button.MarkedButton`` draws ``❯`` while it has the focus (a marker left on
the last input made a user type digits at a Send button). A plain ``Button(...)`` composed
anywhere in the UI would bring that back for its dialog.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
UI = [*sorted((ROOT / "screens").rglob("*.py")), *sorted((ROOT / "widgets").rglob("*.py"))]
UI.append(ROOT / "tui" / "app.py")


def plain_buttons(path: Path) -> list[int]:
    """Lines of ``path`` that make a plain ``Button``."""
    lines = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
            if name == "Button":
                lines.append(node.lineno)
    return lines


def test_every_button_is_a_marked_button() -> None:
    found = {str(p.relative_to(ROOT)): plain_buttons(p) for p in UI}
    assert {p: lines for p, lines in found.items() if lines} == {}


def test_the_check_finds_a_plain_button(tmp_path: Path) -> None:
    module = tmp_path / "dialog.py"
    module.write_text("from textual.widgets import Button\nyield_ = Button('Send')\n")
    assert plain_buttons(module) == [2]
