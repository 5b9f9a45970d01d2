"""Headless modules load without Textual: the UI stays a thin layer on top.

Every module of ``tui`` but one is headless; the exception is ``tui.app`` (the Textual App),
which ``tui.__main__`` imports only when it starts the UI (tests/test_structure.py checks the
imports statically, Rich included).

(Rich is not checked: httpx itself imports it for its optional command line when click is
installed, which uvicorn brings along.)
"""

from __future__ import annotations

import subprocess
import sys

import pytest

HEADLESS = [
    "tui.api",
    "tui.transfers.images",
    "tui.session.auth",
    "tui.session.config",
    "tui.session.runtime",
    "tui.session.login",
    "tui.models.base",
    "tui.resources.spec",
    "tui.simulator",
]


@pytest.mark.parametrize("module", HEADLESS)
def test_module_loads_without_textual(module: str) -> None:
    code = (
        f"import sys, {module}\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] == 'textual')\n"
        "print(','.join(bad))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "", f"{module} pulled in {result.stdout.strip()}"


UI_IN_TUI = "tui.app"
"""The one module of ``tui`` that is UI."""


def test_every_module_of_tui_but_the_app_is_free_of_textual() -> None:
    code = (
        "import importlib, pkgutil, sys\n"
        "import tui\n"
        "for info in pkgutil.walk_packages(tui.__path__, 'tui.'):\n"
        f"    if info.name == {UI_IN_TUI!r}:\n"
        "        continue\n"
        "    importlib.import_module(info.name)\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] == 'textual')\n"
        "print(','.join(bad))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == ""
