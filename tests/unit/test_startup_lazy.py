"""What the first frame of ``cloudtui --demo`` needs, and nothing more.

The first screen must not pay for other areas' models, the simulator's handlers, or httpx's
command line; the demo's simulator is built only after the first frame. These guards keep
later work from silently undoing that (the time itself is measured in benchmarks/).
"""

from __future__ import annotations

import asyncio
import subprocess
import sys

import pytest
from pydantic import SecretStr

from tests.waits import eventually
from tui.session.config import Settings
from tui.session.runtime import Session
from tui.simulator import VirtualClock

FIRST_SCREEN = """
import asyncio, sys, time
from tui.app import CloudApp
from tui.session.config import Settings
from tui.session.runtime import Session

seen = []

async def main():
    settings = Settings(start_area=sys.argv[1]) if sys.argv[1:] else Settings()
    app = CloudApp(settings, Session.for_demo(settings, lazy=True))
    after_first_frame = app._after_first_frame

    def noting():
        seen.extend(sorted(sys.modules) if not seen else ())
        after_first_frame()

    app._after_first_frame = noting
    async with app.run_test(size=(120, 40)) as pilot:
        deadline = time.monotonic() + 60  # seconds: only a hang gets there
        while not seen and time.monotonic() < deadline:
            await pilot.pause()
    print(" ".join(seen))

asyncio.run(main())
"""
"""``cloudtui --demo`` run headless in a fresh interpreter: the modules loaded when its first
frame is on screen (on mount included: the undo journal's table once pulled in the DNS zone
planner, the record models and the form machinery, ~20 ms of a 450 ms start)."""


def _modules_before_first_frame(start_area: str | None = None) -> set[str]:
    result = subprocess.run(
        [sys.executable, "-c", FIRST_SCREEN, *([start_area] if start_area else [])],
        capture_output=True,
        text=True,
        check=True,
    )
    modules = set(result.stdout.split())
    assert modules, f"the first frame never came: {result.stderr[-2000:]}"
    return modules


@pytest.mark.parametrize("start_area", [None, "instances"])
def test_first_screen_imports_no_response_models_simulator_or_httpx_cli(
    start_area: str | None,
) -> None:
    loaded = _modules_before_first_frame(start_area)
    assert "tui.app" in loaded and "screens.lists.resource_list" in loaded  # the probe worked
    shared = {"tui.models.base", "tui.models.rules"}  # base classes and their form rules
    models = sorted(m for m in loaded if m.startswith("tui.models.") and m not in shared)
    assert models == [], f"models imported before the first frame: {models}"
    simulator = sorted(
        m
        for m in loaded
        if m.startswith("tui.simulator.")
        and m not in ("tui.simulator.auth", "tui.simulator.errors", "tui.simulator.lazy")
    )
    assert simulator == [], f"simulator modules imported before the first frame: {simulator}"
    assert "click" not in loaded and "pygments" not in loaded  # httpx's command line
    assert not [m for m in loaded if m.startswith(("tui.dns", "tui.resources.forms"))]
    assert "textual.widgets._text_area" not in loaded  # the first screen has no TextArea


async def test_held_demo_simulator_is_not_built_until_released() -> None:
    session = Session.for_demo(Settings(), clock=VirtualClock(), lazy=True)
    backend = session.backend
    session.hold_backend()
    request = asyncio.ensure_future(session.client.call("profile.view"))
    try:
        # Until the request waits at the transport (no clock involved).
        await eventually(lambda: backend._waiting, "the request reaching the held transport")  # type: ignore[union-attr]
        assert backend._building is None and session.simulator is None  # type: ignore[union-attr]
        assert not request.done()
        session.release_backend()
        profile = await request
        assert profile.username == "demo" and session.simulator is not None
    finally:
        request.cancel()
        await session.aclose()


def test_release_without_hold_and_outside_demo_is_harmless() -> None:
    session = Session.for_profile(Settings(), "p", "https://api.example.com/v4", SecretStr("t"))
    session.hold_backend()
    session.release_backend()
    assert session.backend is None
