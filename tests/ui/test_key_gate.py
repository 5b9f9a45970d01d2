"""Characters typed while an action's form opens are typed into the form, not lost and not
delivered to the list beneath (the keyboard fuzz module checks the rest of the key gate)."""

from __future__ import annotations

from typing import Any

from screens.actions.form import FormModal
from screens.details.resource_detail import ResourceDetailScreen
from screens.dialogs.confirm import ConfirmModal
from screens.lists.list_pane import ResourceListPane
from tests.ui.helpers import make_app, open_area, settle, wait_for_screen, wait_until
from tests.ui.keyboard import key_of
from tests.ui.keyboard import type_fast as post_keys
from tui.api.endpoints import REGISTRY


def type_fast(pilot: Any, keys: str | list[str]) -> None:
    """Queue key events as a terminal delivers a burst: no waiting between them."""
    post_keys(pilot.app, [key_of(k) if len(k) == 1 else k for k in keys])


def mutations(app: Any) -> list[str]:
    log = app.state.session.simulator.request_log
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
        before = len(app.state.session.simulator.request_log)
        type_fast(pilot, "ndy")
        form = await wait_for_screen(pilot, FormModal)
        # The start of a label, typed into the form once its first field has the focus. The
        # New configuration form takes about a second of CPU to open (~400 widgets): with four
        # test workers on two cores, 400 looks once ran out before it had (1 run in 5).
        await wait_until(pilot, lambda: "dy" in str(getattr(form.focused, "value", "")), 2000)
        assert [type(d) for d in dialogs(app)] == [FormModal]
        assert app.screen is dialogs(app)[0]
        await pilot.press("escape")
        await settle(pilot)
        assert not dialogs(app)
        assert not mutations(app), app.state.session.simulator.request_log[before:]


async def test_a_command_typed_in_one_go_lands_in_the_command_line_and_runs() -> None:
    from screens.shell.command_line import CommandLineScreen

    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        type_fast(pilot, ":vol")
        line = await wait_for_screen(pilot, CommandLineScreen)
        await wait_until(pilot, lambda: line.query_one("Input").value == "vol", 400)
        await pilot.press("escape")
        type_fast(pilot, [":", "v", "o", "l", "enter"])  # and enter: the command runs
        await wait_until(pilot, lambda: app.current_mode == "volumes", 400)


async def test_characters_typed_before_a_confirmation_shows_never_fill_its_label() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        pane = await open_area(pilot, "volumes")
        label = pane.current_item["label"]
        type_fast(pilot, ["d", *label, "enter"])  # delete, the label, enter: all before it shows
        confirm = await wait_for_screen(pilot, ConfirmModal)
        await wait_until(pilot, lambda: app.key_gate.idle, 400)  # every typed key dealt with
        assert app.screen is confirm
        assert confirm.query_one("Input").value == ""
        assert not mutations(app)
        await pilot.press("escape")
        await settle(pilot)


async def test_keys_typed_after_a_key_wait_for_its_binding() -> None:
    # On the instances list `b` (Boot, disabled for a running instance) is eaten by the list
    # with a notice: typed right after `:`, it must reach the command line instead.
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        type_fast(pilot, [":", "l", "b", "enter"])
        await wait_until(pilot, lambda: app.current_mode == "loadbalancers", 400)
        assert not any("Boot" in title for title, _ in app.notification_log)
