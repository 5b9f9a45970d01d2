"""Characters typed while an action's form opens are typed into the form, not lost and not
delivered to the list beneath (the keyboard fuzz module checks the rest of the key gate)."""

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


async def test_characters_typed_while_a_form_opens_go_into_its_first_field() -> None:
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
