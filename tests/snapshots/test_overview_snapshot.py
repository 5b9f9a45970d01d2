"""The overview, the landing area, at 80x24 and 200x60."""

from __future__ import annotations

import pytest
from syrupy.assertion import SnapshotAssertion

from tests.snapshots.test_screens import picture
from tests.ui.helpers import demo_session, make_app, settle, wait_until


@pytest.mark.parametrize("size", [(80, 24), (200, 60)], ids=["80x24", "200x60"])
async def test_overview(svg_snapshot: SnapshotAssertion, size: tuple[int, int]) -> None:
    app = make_app(demo_session(start_area="overview"))
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        screen = app.screen
        await wait_until(pilot, lambda: screen.loaded)
        await settle(pilot)
        assert await picture(pilot) == svg_snapshot
