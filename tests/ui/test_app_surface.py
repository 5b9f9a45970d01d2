"""Screens run on any app that implements the app surface (``screens.app_surface``): a test
builds one of its own, with its own state, signals and key gate, and a list screen works on it
as it does in cloudtui's app: it loads, hears of changes and of the account on the signals, and
asks for things with messages."""

from __future__ import annotations

from typing import Any

from textual.app import App
from textual.message import Message
from textual.screen import Screen
from textual.signal import Signal

from screens.app_surface import AppSurface, Change, Runner
from screens.lists.list_pane import ResourceListPane
from screens.lists.resource_list import ResourceListScreen
from screens.navigation import OpenItem, TaskFailed
from tests.ui.helpers import demo_session, wait_until
from tui.accounts.read_only import ReadOnlyRules
from tui.accounts.state import AppState, StateChange
from tui.resources.areas import SPECS
from widgets.status_bar import StatusBar


class Gate:
    """A key gate that records the actions it gated."""

    def __init__(self) -> None:
        self.open: list[object] = []

    def begin(self, base: Screen[Any]) -> object:
        token = object()
        self.open.append(token)
        return token

    def end(self, token: object) -> None:
        self.open.remove(token)


class SurfaceApp(App[None]):
    """The smallest app screens run on: the surface, and a record of the messages up."""

    def __init__(self) -> None:
        super().__init__()
        session = demo_session()
        self.change_signal: Signal[Change] = Signal(self, "change")
        self.account_signal: Signal[StateChange] = Signal(self, "account")
        rules = ReadOnlyRules(session.settings)
        self.state = AppState(session.settings, rules, _no_opener, self.account_signal.publish)
        self.state.adopt(session)
        self.key_gate = Gate()
        self.handoff_runner: Runner | None = None
        self.asked: list[Message] = []

    def on_mount(self) -> None:
        self.push_screen(ResourceListScreen(SPECS["compute.instances"]))

    def on_open_item(self, message: OpenItem) -> None:
        self.asked.append(message)

    def on_task_failed(self, message: TaskFailed) -> None:
        self.asked.append(message)


def _no_opener(*_args: Any) -> Any:
    raise AssertionError("no other account in this test")


def _implements(app: SurfaceApp) -> AppSurface:
    return app  # the type checker's view: the test's app is an app surface


async def test_a_list_screen_runs_on_an_app_of_the_tests_own() -> None:
    app = SurfaceApp()
    async with app.run_test(size=(120, 30)) as pilot:
        pane = app.screen.query_one(ResourceListPane)
        await wait_until(pilot, lambda: pane.loaded and pane.items)
        assert _implements(app).state.session is not None
        bar = app.screen.query_one(StatusBar)
        assert "DEMO" in str(bar.content)
        pane.table.focus()
        await pilot.press("enter")
        await wait_until(pilot, lambda: bool(app.asked))
        assert isinstance(app.asked[0], OpenItem) and app.asked[0].spec.id == "compute.instances"


async def test_changes_and_the_account_are_heard_on_the_apps_signals() -> None:
    app = SurfaceApp()
    async with app.run_test(size=(120, 30)) as pilot:
        pane = app.screen.query_one(ResourceListPane)
        await wait_until(pilot, lambda: pane.loaded)
        assert not pane._changed_elsewhere()
        app.change_signal.publish(Change())
        assert pane._changed_elsewhere()  # shown again later, the list refreshes
        bar = app.screen.query_one(StatusBar)
        assert "READ-ONLY" not in str(bar.content)
        app.state.set_read_only(True)  # the account says so on the account signal
        await pilot.pause()
        assert "READ-ONLY" in str(bar.content)


async def test_a_failed_worker_goes_up_to_the_app_as_a_message() -> None:
    app = SurfaceApp()
    async with app.run_test(size=(120, 30)) as pilot:
        pane = app.screen.query_one(ResourceListPane)

        async def fail() -> None:
            raise RuntimeError("boom")

        pane.run_worker(fail(), exit_on_error=False, name="failing")
        await wait_until(pilot, lambda: any(isinstance(m, TaskFailed) for m in app.asked))
        failed = next(m for m in app.asked if isinstance(m, TaskFailed))
        assert str(failed.error) == "boom" and failed.where == "failing"
