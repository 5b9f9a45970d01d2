"""The demo keeps to itself: its bookmarks and activity log live in a folder of its own per run,
never in the real data folder, so the next demo and the other demo users start clean."""

from __future__ import annotations

import stat

from tests.ui.actions.test_compute_ui import instances
from tests.ui.helpers import demo_session, make_app, settle
from tui.resources.areas import SPECS
from tui.session.datadir import data_dir


async def test_a_demo_run_leaves_nothing_for_the_next_demo_user() -> None:
    app = make_app(demo_session("unrestricted"))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        pane = await instances(pilot)
        item = pane.current_item
        app.state.watchlist.toggle(SPECS["compute.instances"], item, {}, app.state.now())
        first = app.state.watchlist.path.parent
        assert app.state.watchlist.bookmarks and app.state.watchlist.path.exists()
        assert stat.S_IMODE(first.stat().st_mode) == 0o700
        assert data_dir() not in first.parents
    for user in ("restricted", "readonly", "unrestricted"):
        app = make_app(demo_session(user))
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot)
            assert app.state.watchlist.path.parent != first
            assert app.state.watchlist.bookmarks == {} and app.state.activity.previous == []
    # Nothing of any demo went to the real profiles' data folder.
    assert not data_dir().exists() or not any(p.is_file() for p in data_dir().rglob("*"))
