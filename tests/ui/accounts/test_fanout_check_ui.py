"""``:fanout check``: the account check of every profile, one row per finding naming its
account, and a line for an account that cannot be checked."""

from __future__ import annotations

from screens.accounts.fanout_check import FanoutCheckScreen
from tests.ui.helpers import demo_session, make_app, settle, wait_until
from tui.accounts.switch import AccountUnavailable
from tui.check.rules import RULES
from tui.session.config import Profile, Settings
from tui.session.runtime import Session


async def test_the_check_of_every_account_has_a_row_per_finding_naming_its_account() -> None:
    settings = Settings(
        profiles={
            "alpha": Profile(base_url="http://127.0.0.1:9/v4"),
            "beta": Profile(base_url="http://127.0.0.1:9/v4"),
            "gamma": Profile(base_url="http://127.0.0.1:9/v4"),
        },
        start_area="instances",
    )
    session = demo_session(profiles=settings.profiles)
    app = make_app(session)

    def opener(_settings: Settings, name: str) -> Session:
        if name == "gamma":
            raise AccountUnavailable("no token for gamma")
        other = demo_session()
        other.profile_name = name
        return other

    app.state.account_opener = opener
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        app.run_command("fanout check")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, FanoutCheckScreen)
        await wait_until(pilot, lambda: len(screen.checks) == 3)
        await settle(pilot)
        table = screen.query_one("#fc-table")
        accounts = [table.row(key).cells[0] for key in table.keys]
        per_account = {name: accounts.count(name) for name in ("alpha", "beta", "gamma")}
        alpha = screen.checks["alpha"]
        assert per_account == {
            "alpha": len(alpha.findings),
            "beta": len(alpha.findings),
            "gamma": 0,
        }
        assert len(alpha.findings) >= len(RULES)
        problems = str(screen.query_one("#fc-problems").render())
        assert "✖ gamma: no token for gamma" in problems
        assert "2 accounts" in str(screen.query_one(".fc-title").render())
