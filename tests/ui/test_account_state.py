"""Each account keeps its own state: read-only mode, colour and API health follow a switch.

The profiles alpha, beta and prod are served by in-process simulators (not demo mode: the
status bar names the profile); down is a port of 127.0.0.1 where nothing listens, opened the
real way (its token from the environment).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from screens.confirm import ConfirmModal
from screens.fanout import FanoutPane, FanoutScreen
from screens.overview import OverviewScreen
from tests.integration.sim_servers import free_port
from tests.ui.helpers import demo_session, make_app, open_area, settle, wait_for_screen, wait_until
from tests.ui.test_account_mark_ui import profile_session
from tests.ui.test_compute_ui import select
from tui.accounts.switch import open_account
from tui.api.retry import RetryPolicy
from tui.resources.availability import READ_ONLY_REASON
from tui.session.config import Profile, Settings
from tui.session.runtime import Session
from widgets.status_bar import status_parts

TOKEN = "tok-account-state-9f3a"
"""The down profile's token (from the environment): never a word a message would contain."""

IN_PROCESS = ("alpha", "beta", "prod")


def accounts_settings() -> Settings:
    """alpha, beta (magenta), prod (red and read-only), and down, where nothing listens."""
    return demo_session().settings.model_copy(
        update={
            "profiles": {
                "alpha": Profile(base_url="https://alpha.example/v4"),
                "beta": Profile(base_url="https://beta.example/v4", color="magenta"),
                "prod": Profile(base_url="https://prod.example/v4", color="red", read_only=True),
                "down": Profile(base_url=f"http://127.0.0.1:{free_port()}/v4"),
            }
        }
    )


def app_on(
    name: str,
    *,
    read_only: bool = False,
    retry_sleep: Callable[[float], Awaitable[None]] | None = None,
) -> Any:
    """The app on profile ``name``; ``:account`` and ``:fanout`` open the others.

    Args:
        name: The profile it starts on.
        read_only: ``--read-only`` on the command line.
        retry_sleep: How the down account waits between tries (real back-off by default).
    """
    settings = accounts_settings()
    app = make_app(profile_session(name, settings), read_only=read_only)

    def opener(settings: Settings, profile: str) -> Session:
        if profile in IN_PROCESS:
            return profile_session(profile, settings)
        session = open_account(settings, profile)
        if retry_sleep is not None:
            session.client.retry = RetryPolicy(sleep=retry_sleep)
        return session

    app.account_opener = opener
    return app


@pytest.fixture(autouse=True)
def token(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLOUDTUI_TOKEN", TOKEN)


def bar(app: Any) -> dict[str, str]:
    """The status bar's segments: text -> component class."""
    return dict(status_parts(app))


async def switch(pilot: Any, app: Any, name: str) -> None:
    app.run_command(f"account {name}")
    await settle(pilot)
    assert app.session.profile_name == name


async def delete_allowed(pilot: Any, app: Any) -> tuple[bool, str]:
    """Whether ``d`` on the volume pg-data opens its confirmation (else the reason said)."""
    pane = await open_area(pilot, "volumes")
    await select(pilot, pane, "pg-data")
    said = len(app.notification_log)
    await pilot.press("d")
    await pilot.pause()
    if isinstance(app.screen, ConfirmModal):
        assert app.screen.shown_title == f'Delete volume "pg-data" in {app.session.profile_name}?'
        await pilot.press("escape")
        await settle(pilot)
        return True, ""
    assert app.notification_log[said:][-1][0] == "Delete: not available"
    return False, app.notification_log[-1][1]


async def test_a_read_only_profile_then_a_writable_one_allows_changes() -> None:
    app = app_on("prod")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert app.read_only and app.session.client.read_only
        assert bar(app)["profile prod"] == "status-bar--account-red" and "READ-ONLY" in bar(app)
        assert await delete_allowed(pilot, app) == (False, READ_ONLY_REASON)

        await switch(pilot, app, "alpha")
        assert not app.read_only and not app.session.client.read_only
        assert bar(app)["profile alpha"] == "status-bar--profile"  # prod's red went with it
        assert "READ-ONLY" not in bar(app)
        assert await delete_allowed(pilot, app) == (True, "")


async def test_a_writable_profile_then_a_read_only_one_refuses_changes_for_good() -> None:
    app = app_on("alpha")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert await delete_allowed(pilot, app) == (True, "")

        await switch(pilot, app, "prod")
        assert app.read_only and app.session.client.read_only and "READ-ONLY" in bar(app)
        assert bar(app)["profile prod"] == "status-bar--account-red"
        assert await delete_allowed(pilot, app) == (False, READ_ONLY_REASON)
        # The config file made it read-only: :read-only cannot leave it, and says why.
        app.run_command("read-only")
        await pilot.pause()
        assert not isinstance(app.screen, ConfirmModal) and app.read_only
        assert "read_only = true in the config file" in app.notification_log[-1][1]


async def test_a_run_time_read_only_stays_with_its_account_across_a_switch_and_back() -> None:
    app = app_on("alpha")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        app.run_command("read-only")
        await pilot.pause()
        assert app.read_only

        await switch(pilot, app, "beta")
        assert not app.read_only and not app.session.client.read_only
        assert bar(app)["profile beta"] == "status-bar--account-magenta"
        assert await delete_allowed(pilot, app) == (True, "")

        await switch(pilot, app, "alpha")
        assert app.read_only and app.session.client.read_only and "READ-ONLY" in bar(app)
        assert await delete_allowed(pilot, app) == (False, READ_ONLY_REASON)
        # Turned on at run time, it can be left (after a confirmation).
        app.run_command("read-only")
        await wait_for_screen(pilot, ConfirmModal)
        await pilot.press("y")
        await settle(pilot)
        assert not app.read_only and await delete_allowed(pilot, app) == (True, "")


async def test_read_only_from_the_command_line_holds_on_every_account_of_the_run() -> None:
    app = app_on("alpha", read_only=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert app.read_only
        app.run_command("read-only")
        await pilot.pause()
        assert not isinstance(app.screen, ConfirmModal) and app.read_only
        assert "--read-only" in app.notification_log[-1][1]

        await switch(pilot, app, "beta")
        assert app.read_only and app.session.client.read_only
        assert await delete_allowed(pilot, app) == (False, READ_ONLY_REASON)


async def fanout_row(pilot: Any, pane: FanoutPane, account: str, label: str) -> None:
    key = next(k for k, item in pane.items.items() if k[0] == account and item["label"] == label)
    pane.table.focus()
    assert pane.table.move_cursor(key)
    await pilot.pause()


async def fanout_delete(pilot: Any, app: Any, pane: FanoutPane, account: str) -> bool:
    """Whether ``d`` on ``account``'s pg-data row opens its confirmation (naming ``account``)."""
    await fanout_row(pilot, pane, account, "pg-data")
    await pilot.press("d")
    await pilot.pause()
    if isinstance(app.screen, ConfirmModal):
        assert app.screen.shown_title.endswith(f" in {account}?")
        await pilot.press("escape")
        await settle(pilot)
        return True
    assert app.notification_log[-1] == ("Delete: not available", READ_ONLY_REASON)
    return False


async def test_an_open_fanout_follows_read_only_turned_off_and_on() -> None:
    app = app_on("alpha")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        app.run_command("read-only")
        await pilot.pause()
        app.run_command("fanout volumes alpha beta")
        await settle(pilot)
        fanout = app.screen
        assert isinstance(fanout, FanoutScreen)
        pane = fanout.query_one(FanoutPane)
        # The screen says READ-ONLY: no row of either account may be changed from it.
        assert not await fanout_delete(pilot, app, pane, "beta")
        assert not await fanout_delete(pilot, app, pane, "alpha")
        assert pane.sessions.session("beta").client.read_only

        app.run_command("read-only")  # off, with the fanout still open beneath the dialog
        await wait_for_screen(pilot, ConfirmModal)
        await pilot.press("y")
        await settle(pilot)
        assert app.screen is fanout
        assert await fanout_delete(pilot, app, pane, "beta")
        assert await fanout_delete(pilot, app, pane, "alpha")
        assert not pane.sessions.session("beta").client.read_only

        app.run_command("read-only")  # on again
        await pilot.pause()
        assert not await fanout_delete(pilot, app, pane, "beta")
        assert pane.sessions.session("beta").client.read_only


async def test_a_fanout_row_of_a_read_only_profile_refuses_while_the_others_act() -> None:
    app = app_on("alpha")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        app.run_command("fanout volumes alpha prod")
        await settle(pilot)
        pane = app.screen.query_one(FanoutPane)
        assert not await fanout_delete(pilot, app, pane, "prod")
        assert await fanout_delete(pilot, app, pane, "alpha")


async def test_switching_to_an_account_whose_api_is_down_says_so_at_once() -> None:
    released = asyncio.Event()

    async def held(_seconds: float) -> None:
        await released.wait()  # the retries of the down account wait until the test says

    app = app_on("alpha", retry_sleep=held)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.go_to_area("overview")
        await settle(pilot)
        assert app.api_health == "online"

        app.run_command("account down")
        # The first try of the first request failed; every retry is still waiting.
        await wait_until(pilot, lambda: app.session.profile_name == "down")
        await wait_until(pilot, lambda: app.api_health == "unreachable")
        assert "✖ API UNREACHABLE" in bar(app) and "● online" not in bar(app)
        assert any("cannot connect: retrying GET" in text for text in bar(app))
        overview = app.screen
        assert isinstance(overview, OverviewScreen)
        note = str(overview.query_one("#ov-attention-note").render())
        assert "Nothing needs attention" not in note

        released.set()
        await settle(pilot)
        assert app.api_health == "unreachable" and app.last_refresh is None
        note = str(overview.query_one("#ov-attention-note").render())
        assert "Nothing needs attention" not in note
        assert "✖ Not loaded: Instances, Volumes, Load balancers, Domains" in note
        assert "Instance types" in note and "The API is unreachable" in note
        assert "r loads everything again." in note
        counts = str(overview.query_one("#ov-counts").render())
        assert counts.count("✖ not loaded") == 8  # every area counted, none loaded
        asked = app.session.client.request_count
        await pilot.press("r")
        await settle(pilot)
        assert app.session.client.request_count > asked
        assert app.api_health == "unreachable"

        await switch(pilot, app, "alpha")  # and back: its own health, nothing of down's
        await wait_until(pilot, lambda: app.api_health == "online")
        note = str(app.screen.query_one("#ov-attention-note").render())
        assert "Not loaded" not in note
