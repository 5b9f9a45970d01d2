"""Keys typed at full speed after an action key never reach the screen beneath its dialog."""

from __future__ import annotations

from typing import Any

from textual import events

from screens.confirm import ConfirmModal
from screens.form import FormModal
from screens.list_pane import ResourceListPane
from screens.resource_detail import ResourceDetailScreen
from tests.ui.helpers import make_app, settle, wait_for_screen
from tui.api.endpoints import REGISTRY


def type_fast(pilot: Any, keys: str | list[str]) -> None:
    """Queue key events as a terminal delivers a burst: no waiting between them."""
    for key in keys:
        character = key if len(key) == 1 else None
        pilot.app.post_message(events.Key(key, character))


def mutations(app: Any) -> list[str]:
    log = app.session.simulator.request_log
    return [name for name in log if REGISTRY[name].method != "GET"]


def dialogs(app: Any) -> list[Any]:
    return [s for s in app.screen_stack if isinstance(s, FormModal | ConfirmModal)]


async def open_instance_configs(pilot: Any) -> ResourceListPane:
    app = pilot.app
    app.go_to_area("instances")
    await settle(pilot)
    pane = app.screen.query_one("#pane-0", ResourceListPane)
    key = next(k for k, item in pane.items.items() if item["label"] == "db-primary")
    pane.table.move_cursor(key)
    pane.table.focus()
    await pilot.press("enter")
    await settle(pilot)
    screen = app.screen
    assert isinstance(screen, ResourceDetailScreen)
    screen.query_one("#detail-tabs").active = "tab-child-0"
    await settle(pilot)
    configs = screen.query_one("#child-0", ResourceListPane)
    configs.table.focus()
    await settle(pilot)
    return configs


async def test_typing_ndy_in_configs_opens_only_the_form_and_types_into_it() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await open_instance_configs(pilot)
        before = len(app.session.simulator.request_log)
        type_fast(pilot, "ndy")
        form = await wait_for_screen(pilot, FormModal)
        for _ in range(10):
            await pilot.pause()
        assert [type(d) for d in dialogs(app)] == [FormModal]
        assert "dy" in str(form.focused.value)  # the start of a label, typed into the form
        assert app.screen is dialogs(app)[0]
        await pilot.press("escape")
        await settle(pilot)
        assert not dialogs(app)
        assert not mutations(app), app.session.simulator.request_log[before:]


async def test_typing_cdaily_in_volumes_opens_one_dialog_and_sends_nothing() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        app.go_to_area("volumes")
        await settle(pilot)
        pane = app.screen.query_one("#pane-0", ResourceListPane)
        pane.table.focus()
        await settle(pilot)
        type_fast(pilot, "cdaily")
        await wait_for_screen(pilot, FormModal | ConfirmModal)
        for _ in range(10):
            await pilot.pause()
        assert len(dialogs(app)) == 1 and app.screen is dialogs(app)[0]
        type_fast(pilot, ["escape"])
        await settle(pilot)
        assert not dialogs(app)
        assert not mutations(app)


async def test_escaping_nested_detail_screens_leaves_the_keys_with_the_list() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        app.go_to_area("loadbalancers")
        await settle(pilot)
        balancers = app.screen.query_one("#pane-0", ResourceListPane)
        balancers.table.focus()
        await pilot.press("enter", "right_square_bracket")  # a balancer, its Configs tab
        await settle(pilot)
        await pilot.press("enter", "right_square_bracket")  # a config, its Nodes tab
        await settle(pilot)
        assert len(app.screen_stack) == 3
        for _ in range(3):
            await pilot.press("escape")
            await settle(pilot)
        assert len(app.screen_stack) == 1
        assert app.focused is balancers.table
        await pilot.press("n")
        form = await wait_for_screen(pilot, FormModal)
        assert "balancer" in form.title_text.lower()


async def test_stats_and_transfer_tabs_take_the_keys_they_show() -> None:
    from screens.stats import StatsPane, TransferPane

    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        app.go_to_area("instances")
        await settle(pilot)
        app.screen.query_one("#pane-0", ResourceListPane).table.focus()
        await pilot.press("enter")
        await settle(pilot)
        screen = app.screen
        while not isinstance(app.focused, StatsPane):
            await pilot.press("right_square_bracket")
            await settle(pilot)
        stats = app.focused
        await pilot.press("c")
        assert stats.chart_index == 1
        await pilot.press("m")
        await settle(pilot)
        assert stats.month is not None
        await pilot.press("right_square_bracket")  # Transfer: this month, then the one before
        await settle(pilot)
        transfer = app.focused
        assert isinstance(transfer, TransferPane)
        await pilot.press("less_than_sign")
        await settle(pilot)
        assert transfer.month is not None
        assert "compute.transfer.month" in app.session.simulator.request_log
        assert screen is app.screen
