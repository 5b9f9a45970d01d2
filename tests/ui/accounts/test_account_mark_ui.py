"""Never the wrong account: the status bar names it on every screen, confirmations name it."""

from __future__ import annotations

from typing import Any

from pydantic import SecretStr

from screens.dialogs.confirm import ConfirmModal
from tests.ui.actions.test_compute_ui import select
from tests.ui.helpers import demo_session, make_app, no_sleep, open_area, settle, wait_for_screen
from tui.api.client import ApiClient
from tui.api.retry import RetryPolicy
from tui.session.config import Profile, Settings
from tui.session.runtime import Session
from tui.simulator import Simulator, VirtualClock
from tui.simulator.auth import DEMO_TOKENS
from tui.simulator.lazy import IN_PROCESS_BASE
from widgets.status_bar import StatusBar, status_parts


def profile_session(name: str, settings: Settings) -> Session:
    """A session of profile ``name`` served by an in-process simulator (not demo mode)."""
    simulator = Simulator(clock=VirtualClock())
    client = ApiClient(
        IN_PROCESS_BASE,
        SecretStr(DEMO_TOKENS["unrestricted"]),
        transport=simulator.transport(),
        allow_insecure=True,
        retry=RetryPolicy(sleep=no_sleep),
    )
    return Session(client, settings, name)


def prod_app(**profile: Any) -> Any:
    """An app on the profile ``prod``, which the config marks red."""
    settings = demo_session().settings.model_copy(
        update={
            "profiles": {
                "prod": Profile(base_url="https://api.example.com/v4", color="red", **profile)
            }
        }
    )
    return make_app(profile_session("prod", settings))


async def test_the_status_bar_names_the_account_in_its_colour_on_every_screen() -> None:
    app = prod_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        for area in ("overview", "instances", "log", "watch"):
            app.go_to_area(area)
            await settle(pilot)
            bar = app.screen.query_one(StatusBar)
            assert bar.display
            assert "profile prod" in str(bar.render()), area
        parts = dict(status_parts(app.state))
        assert parts["profile prod"] == "status-bar--account-red"


async def test_a_delete_confirmation_names_the_account() -> None:
    app = prod_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        pane = await open_area(pilot, "volumes")
        await select(pilot, pane, "pg-data")
        await pilot.press("d")
        confirm = await wait_for_screen(pilot, ConfirmModal)
        assert confirm.shown_title == 'Delete volume "pg-data" in prod?'
        title = confirm.query_one("#confirm-title").render()
        assert 'Delete volume "pg-data" in prod?' in str(title)
        await pilot.press("escape")
        await settle(pilot)
