"""What the first frame of ``cloudtui --demo`` needs, and nothing more.

The first screen must not pay for other areas' models, the simulator's handlers, or httpx's
command line; the demo's simulator is built only after the first frame. These guards keep
later work from silently undoing that (the time itself is measured in benchmarks/).
"""

from __future__ import annotations

import asyncio
import subprocess
import sys

from pydantic import SecretStr

from tui.session.config import Settings
from tui.session.runtime import Session
from tui.simulator import VirtualClock

FIRST_SCREEN = (
    "import sys, tui.__main__, tui.app, tui.session.runtime, tui.session.config\n"
    "from tui.session.config import Settings\n"
    "from tui.session.runtime import Session\n"
    "session = Session.for_demo(Settings(), lazy=True)\n"
    "print(' '.join(sorted(sys.modules)))\n"
)
"""What ``cloudtui --demo`` imports and builds before its first frame."""


def _modules_before_first_frame() -> set[str]:
    result = subprocess.run(
        [sys.executable, "-c", FIRST_SCREEN], capture_output=True, text=True, check=True
    )
    return set(result.stdout.split())


def test_first_screen_imports_no_response_models_simulator_or_httpx_cli() -> None:
    loaded = _modules_before_first_frame()
    assert "tui.app" in loaded and "screens.resource_list" in loaded  # the probe worked
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
    assert "textual.widgets._text_area" not in loaded  # the first screen has no TextArea


async def test_held_demo_simulator_is_not_built_until_released() -> None:
    session = Session.for_demo(Settings(), clock=VirtualClock(), lazy=True)
    backend = session.backend
    session.hold_backend()
    request = asyncio.ensure_future(session.client.call("profile.view"))
    try:
        for _ in range(1000):  # until the request waits at the transport (no clock involved)
            if backend._waiting:  # type: ignore[union-attr]
                break
            await asyncio.sleep(0)
        assert backend._waiting, "the request never reached the held transport"  # type: ignore[union-attr]
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
