"""Export SVG screenshots of the main screens for the README (``docs/screenshots/*.svg``).

Run: ``.venv/bin/python docs/screenshots.py``. The app runs headless against the demo simulator
on a virtual clock, so the pictures are the same on every machine.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from textual.pilot import Pilot  # noqa: E402

from tui.session.config import RefreshSettings, Settings  # noqa: E402
from tui.session.runtime import Session  # noqa: E402
from tui.simulator import VirtualClock  # noqa: E402

OUT = Path(__file__).resolve().parent / "screenshots"

Steps = Callable[[Pilot[Any]], Awaitable[None]]


async def settle(pilot: Pilot[Any]) -> None:
    for _ in range(3):
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()


async def wait_for(pilot: Pilot[Any], name: str) -> None:
    for _ in range(100):
        if type(pilot.app.screen).__name__ == name:
            await pilot.pause()
            return
        await pilot.pause()
    raise RuntimeError(f"{name} did not open")


async def instances(pilot: Pilot[Any]) -> None:
    await settle(pilot)


async def instance_detail(pilot: Pilot[Any]) -> None:
    await settle(pilot)
    await pilot.press("enter")
    await settle(pilot)


async def statistics(pilot: Pilot[Any]) -> None:
    await settle(pilot)
    await pilot.press("s")
    await settle(pilot)


async def new_instance(pilot: Pilot[Any]) -> None:
    await settle(pilot)
    await pilot.press("n")
    await wait_for(pilot, "FormModal")
    for _ in range(20):
        await pilot.pause()


async def delete_confirmation(pilot: Pilot[Any]) -> None:
    await settle(pilot)
    await pilot.press("d")
    await wait_for(pilot, "ConfirmModal")


async def domain_records(pilot: Pilot[Any]) -> None:
    from tui.app import CloudApp

    await settle(pilot)
    assert isinstance(pilot.app, CloudApp)
    pilot.app.go_to_area("domains")
    await settle(pilot)
    await pilot.press("enter")
    await settle(pilot)
    await pilot.press("right_square_bracket")
    await settle(pilot)


SHOTS: list[tuple[str, tuple[int, int], str, Steps]] = [
    # (file name, terminal size, the area the app opens on, what to do before the picture)
    ("overview", (140, 36), "overview", instances),
    ("instances", (140, 36), "instances", instances),
    ("instance-detail", (140, 40), "instances", instance_detail),
    ("statistics", (140, 40), "instances", statistics),
    ("new-instance", (120, 40), "instances", new_instance),
    ("delete-confirmation", (120, 30), "instances", delete_confirmation),
    ("domain-records", (140, 36), "instances", domain_records),
    ("instances-80x24", (80, 24), "instances", instances),
]


async def shoot(name: str, size: tuple[int, int], start_area: str, steps: Steps) -> None:
    from tui.app import CloudApp

    settings = Settings(
        start_area=start_area, refresh=RefreshSettings(fast=60, slow=3600, max_backoff=3600)
    )
    session = Session.for_demo(settings, clock=VirtualClock())
    app = CloudApp(settings, session)
    async with app.run_test(size=size) as pilot:
        await steps(pilot)
        svg = app.export_screenshot(title=f"cloudtui: {name}")
    (OUT / f"{name}.svg").write_text(svg, encoding="utf-8")
    print(f"wrote {OUT / f'{name}.svg'}")


async def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, size, start_area, steps in SHOTS:
        await shoot(name, size, start_area, steps)


if __name__ == "__main__":
    asyncio.run(main())
