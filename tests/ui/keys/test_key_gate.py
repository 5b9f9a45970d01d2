"""Characters typed while an action's form opens are typed into the form, not lost and not
delivered to the list beneath (the keyboard fuzz module checks the rest of the key gate)."""

from __future__ import annotations

from typing import Any

from textual.widgets import Select

from screens.actions.form import FormModal
from screens.details.resource_detail import ResourceDetailScreen
from screens.dialogs.confirm import ConfirmModal
from screens.keys.not_typed import TITLE as NOT_TYPED
from screens.lists.list_pane import ResourceListPane
from tests.ui.actions.test_form_rules_ui import records_list
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


async def type_while_a_form_opens(pilot: Any) -> None:
    """``n`` (New configuration, a form of ~400 widgets) and ``dy`` in one burst: ``dy``, the
    start of a label, lands in the form's first field, in order, and nothing is sent."""
    app = pilot.app
    await settle(pilot)
    await open_instance_configs(pilot)
    before = len(app.state.session.simulator.request_log)
    type_fast(pilot, "ndy")
    form = await wait_for_screen(pilot, FormModal)
    first = form.model_form.widget_for(form.form.fields[0].name)
    await wait_until(pilot, lambda: app.key_gate.idle and getattr(first, "value", ""))
    assert first.value == "dy"
    assert form.focused is first
    assert not [n for n in app.notification_log if n[0] == "Not typed"]
    assert [type(d) for d in dialogs(app)] == [FormModal]
    assert app.screen is dialogs(app)[0]
    await pilot.press("escape")
    await settle(pilot)
    assert not dialogs(app)
    assert not mutations(app), app.state.session.simulator.request_log[before:]


async def test_characters_typed_while_a_form_opens_go_into_its_first_field() -> None:
    async with make_app().run_test(size=(120, 40)) as pilot:
        await type_while_a_form_opens(pilot)


async def test_characters_typed_while_a_form_opens_keep_their_order_on_a_loaded_machine(
    cpu_neighbour: int,
) -> None:
    # A key that took half a second to come back once let the next overtake it: "yd", or "d"
    # alone. However slow the machine, a key waits for the one before it.
    async with make_app().run_test(size=(120, 40)) as pilot:
        await type_while_a_form_opens(pilot)


async def test_characters_a_form_cannot_take_as_it_opens_are_named_not_lost() -> None:
    # The New record form starts on its Type choice: "ab" typed with its key has no text
    # field to go into. Once dropped without a word, now named in a notification.
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await records_list(pilot)
        type_fast(pilot, "nab")
        form = await wait_for_screen(pilot, FormModal)
        await wait_until(pilot, lambda: app.key_gate.idle and form.focused is not None)
        named = [m for t, m in app.notification_log if t == NOT_TYPED]
        assert "".join(m.split("”")[0].removeprefix("“") for m in named) == "ab", named
        assert all("its focus is not on a text field" in m for m in named)
        assert isinstance(form.focused, Select)
        await pilot.press("escape")
        await settle(pilot)
        assert not mutations(app)


async def test_a_command_typed_in_one_go_lands_in_the_command_line_and_runs() -> None:
    from screens.shell.command_line import CommandLineScreen

    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        type_fast(pilot, ":vol")
        line = await wait_for_screen(pilot, CommandLineScreen)
        await wait_until(pilot, lambda: line.query_one("Input").value == "vol")
        await pilot.press("escape")
        type_fast(pilot, [":", "v", "o", "l", "enter"])  # and enter: the command runs
        await wait_until(pilot, lambda: app.current_mode == "volumes")


async def test_characters_typed_before_a_confirmation_shows_never_fill_its_label() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        pane = await open_area(pilot, "volumes")
        label = pane.current_item["label"]
        type_fast(pilot, ["d", *label, "enter"])  # delete, the label, enter: all before it shows
        confirm = await wait_for_screen(pilot, ConfirmModal)
        await wait_until(pilot, lambda: app.key_gate.idle)  # every typed key dealt with
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
        await wait_until(pilot, lambda: app.current_mode == "loadbalancers")
        assert not any("Boot" in title for title, _ in app.notification_log)
