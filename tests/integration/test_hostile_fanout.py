"""The cross-account list, overview and check on two served hostile simulators (``--data hostile``).

The lists of several accounts draw labels, tags and error texts of every account at once: the
invariants of :mod:`tests.ui.terminal_output` hold there too.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from screens.accounts.fanout import FanoutPane, FanoutScreen
from screens.accounts.fanout_check import FanoutCheckScreen
from screens.accounts.fanout_overview import FanoutOverviewScreen
from tests.conftest import MemoryKeyring
from tests.integration.sim_servers import TOKEN, SimServer, start_sim
from tests.ui.helpers import settle, wait_until
from tests.ui.terminal_output import assert_clean, terminal
from tui.accounts.switch import open_account
from tui.app import CloudApp
from tui.session.auth import KEYRING_SERVICE
from tui.session.config import Profile, RefreshSettings, Settings

__all__ = ["terminal"]

pytestmark = pytest.mark.filterwarnings("ignore::ResourceWarning")


@pytest.fixture(scope="module")
def hostile_sims() -> Iterator[tuple[SimServer, SimServer]]:
    alpha = start_sim("--data", "hostile")
    try:
        beta = start_sim("--data", "hostile", "--scale", "5")
        try:
            yield alpha, beta
        finally:
            beta.stop()
    finally:
        alpha.stop()


def app_on_alpha(sims: tuple[SimServer, SimServer], keyring: MemoryKeyring) -> CloudApp:
    alpha, beta = sims
    for name in ("alpha", "beta"):
        keyring.entries[(KEYRING_SERVICE, name)] = TOKEN
    settings = Settings(
        profiles={
            "alpha": Profile(base_url=alpha.base_url),
            "beta": Profile(base_url=beta.base_url, color="magenta"),
        },
        default_profile="alpha",
        start_area="instances",
        refresh=RefreshSettings(fast=60, slow=3600, max_backoff=3600),
    )
    return CloudApp(settings, open_account(settings, "alpha"), profile_name="alpha")


async def test_the_fanout_list_and_overview_draw_only_display_text(
    hostile_sims: tuple[SimServer, SimServer],
    isolated_home: MemoryKeyring,
    terminal: list[str],
) -> None:
    app = app_on_alpha(hostile_sims, isolated_home)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await settle(pilot)
        assert_clean(app, terminal, "alpha's instances")
        app.run_command("fanout instances")
        await settle(pilot)
        assert isinstance(app.screen, FanoutScreen)
        pane = app.screen.query_one(FanoutPane)
        await wait_until(pilot, lambda: len(pane.items) > 12)
        assert any("␛]52" in cell for cell in pane.table.cells_at(0))  # shown, as pictures
        assert_clean(app, terminal, "fanout instances")
        app.run_command("fanout overview")
        await settle(pilot)
        assert isinstance(app.screen, FanoutOverviewScreen)
        assert_clean(app, terminal, "fanout overview")
        app.run_command("fanout check")
        await settle(pilot)
        check = app.screen
        assert isinstance(check, FanoutCheckScreen)
        await wait_until(pilot, lambda: len(check.checks) == 2)
        await settle(pilot)
        assert check.findings  # the hostile accounts have findings, with hostile labels
        assert_clean(app, terminal, "fanout check")
