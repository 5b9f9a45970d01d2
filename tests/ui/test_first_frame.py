"""``cloudtui --demo``'s start: what waits for the first frame does start after it."""

from __future__ import annotations

import gc

from screens.lists.list_pane import ResourceListPane
from tests.ui.helpers import make_app, no_sleep, wait_until
from tui.api.retry import RetryPolicy
from tui.session.config import RefreshSettings, Settings
from tui.session.runtime import Session
from tui.simulator import VirtualClock


async def test_after_the_first_frame_the_collector_resumes_and_the_demo_loads() -> None:
    settings = Settings(
        start_area="instances", refresh=RefreshSettings(fast=60, slow=3600, max_backoff=3600)
    )
    session = Session.for_demo(
        settings, clock=VirtualClock(), lazy=True, retry=RetryPolicy(sleep=no_sleep)
    )
    app = make_app(session)
    app.resume_collector_after_first_frame = True  # as run_app does after `cloudtui --demo`
    gc.disable()
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: app.state.user_context is not None)
            assert gc.isenabled()
            assert session.simulator is not None  # held until the first frame, then built
            assert app.state.user_context.username == "demo"
            pane = app.screen.query_one(ResourceListPane)
            await wait_until(pilot, lambda: pane.loaded)
            assert pane.table.row_count > 0
    finally:
        gc.enable()
