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


NOT_FOR_A_LISTING = [
    "pydantic",
    "pydantic_core",
    "annotated_types",
    "typing_extensions",
    "tui.models",
    "tui.api.envelope",
    "tui.simulator",
    "textual",
    "rich",
    "click",
]
"""What ``import tui.api.client`` leaves out: a listing of rows needs none of it before its
first request (pydantic and the models cost ~60 ms of a command's start; pydantic-core's
parser is loaded by the first page)."""


def _loaded_after(code: str) -> list[str]:
    probe = (
        f"{code}\n"
        "import sys\n"
        f"heavy = {NOT_FOR_A_LISTING!r}\n"
        "print(','.join(sorted(h for h in heavy if sys.modules.get(h) is not None)))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    )
    return [name for name in result.stdout.strip().split(",") if name]


def test_the_api_client_imports_nothing_a_listing_does_not_need() -> None:
    assert _loaded_after("import tui.api.client") == []


def test_a_listing_of_rows_builds_no_model() -> None:
    """Listing every page as rows (the app's lists) never loads pydantic: only its parser."""
    listing = (
        "from tui.api.client import ApiClient\n"
        "import asyncio, json, httpx\n"
        "def answer(request):\n"
        "    page = int(request.url.params['page'])\n"
        "    rows = [{'id': page * 1000 + n} for n in range(3)]\n"
        "    body = {'data': rows, 'page': page, 'pages': 2, 'results': 6}\n"
        "    return httpx.Response(200, content=json.dumps(body).encode())\n"
        "async def main():\n"
        "    client = ApiClient('http://127.0.0.1/v4', 'token', page_size=3,\n"
        "                       transport=httpx.MockTransport(answer), allow_insecure=True)\n"
        "    rows = await client.fetch_all('compute.instances.list', model=dict, page_size=3)\n"
        "    assert [row['id'] for row in rows] == [1000, 1001, 1002, 2000, 2001, 2002], rows\n"
        "asyncio.run(main())\n"
    )
    assert _loaded_after(listing) == ["pydantic_core", "typing_extensions"]
