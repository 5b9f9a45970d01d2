"""Textual's private API, used in ``widgets/textual_private.py`` only, still does what the app
relies on: each use is exercised here against the installed Textual, and the installed version
must be one the module was written for (a new Textual means reading the module again)."""

from __future__ import annotations

from contextlib import suppress
from importlib.metadata import version
from typing import Any

from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.widgets import Select, Static, TextArea
from textual.worker import WorkerFailed

from widgets import textual_private as private

BOUND = Binding("x", "bell", "Ring", id="test.ring")
FIRST = Binding("f", "bell", "First", id="test.first")
LAST = Binding("l", "bell", "Last", id="test.last")


class Host(App[None]):
    """A static with keys of its own, a text area and a select."""

    def compose(self) -> ComposeResult:
        yield Static("keys", id="keys")
        yield TextArea("text", id="area")
        yield Select([("one", 1), ("two", 2)], value=1, id="select")


class Chooser(private.SelectWithoutDropDown):
    def __init__(self) -> None:
        super().__init__([("one", 1)], value=1)
        self.asked = 0

    def drop_down_asked(self) -> None:
        self.asked += 1


class Failing(private.ResilientApp[None]):
    def __init__(self) -> None:
        super().__init__()
        self.failures: list[BaseException] = []

    def worker_failed(self, error: BaseException) -> None:
        self.failures.append(error)


def _order(node: Any) -> list[str]:
    return [b.id or b.key for bindings in node._bindings.key_to_bindings.values() for b in bindings]


def test_the_installed_textual_is_one_the_module_was_written_for() -> None:
    installed = tuple(int(part) for part in version("textual").split(".")[:2])
    low, high = private.SUPPORTED_TEXTUAL
    assert low <= installed < high, f"Textual {installed}: read widgets/textual_private.py again"


async def test_a_nodes_key_table_is_ordered_extended_and_relabelled() -> None:
    app = Host()
    async with app.run_test() as pilot:
        node = app.query_one("#keys", Static)
        private.bind_last(node, [BOUND])
        private.bind_first(node, [FIRST])
        private.bind_last(node, [LAST])
        assert _order(node)[0] == "test.first" and _order(node)[-1] == "test.last"
        private.rebind(node, "x", [Binding("x", "bell", "Rang", id="test.ring")])
        assert [b.description for b in node._bindings.key_to_bindings["x"]] == ["Rang"]
        assert _order(node).index("test.ring") == 1  # relabelled in place
        app.set_keymap({"test.ring": "y"})
        assert private.keymap(app) == {"test.ring": "y"}
        assert "y" in private.bindings_after_keymap(node).key_to_bindings
        assert "x" in node._bindings.key_to_bindings  # the node's own table is untouched
        await pilot.pause()


async def test_a_stopped_key_and_a_loaded_text_area_are_told() -> None:
    app = Host()
    async with app.run_test():
        key = events.Key("a", "a")
        assert not private.propagation_stopped(key)
        key.stop()
        assert private.propagation_stopped(key)
        area = app.query_one(TextArea)
        assert private.loaded_text_area(area) is area
        assert private.loaded_text_area(app.query_one("#keys")) is None


async def test_a_footer_key_is_greyed_in_place_and_a_selects_options_are_read() -> None:
    app = Host()
    async with app.run_test(notifications=True) as pilot:
        key = private.FooterKey("x", "x", "Ring", "bell")
        await app.mount(key)
        assert not private.footer_key_disabled(key)
        private.set_footer_key_disabled(key, True)
        assert private.footer_key_disabled(key)
        select = app.query_one(Select)
        assert [value for _prompt, value in private.select_options(select)][-2:] == [1, 2]
        app.notify("hello")
        await pilot.pause()
        rack = app.screen.get_child_by_type(private.ToastRack)
        assert list(rack.query(private.Toast))


async def test_a_select_without_drop_down_asks_instead_of_expanding() -> None:
    chooser = Chooser()

    class One(App[None]):
        def compose(self) -> ComposeResult:
            yield chooser

    async with One().run_test() as pilot:
        chooser.expanded = True
        await pilot.pause()
        assert chooser.asked == 1 and not chooser.expanded


async def test_a_failed_worker_is_shown_and_the_app_keeps_running() -> None:
    app = Failing()

    async def fail() -> None:
        raise ValueError("boom")

    async with app.run_test() as pilot:
        worker = app.run_worker(fail())  # exit_on_error=True: Textual would end the app
        with suppress(WorkerFailed):
            await worker.wait()
        await pilot.pause()
        assert [str(e) for e in app.failures] == ["boom"] and app.is_running
