"""``:fanout check``: the account check of every profile, one row per finding naming its
account, a line for an account that cannot be checked, and a row's fix sent to its account."""

from __future__ import annotations

from screens.accounts.fanout_check import FanoutCheckScreen
from screens.dialogs.confirm import ConfirmModal
from tests.ui.helpers import demo_session, make_app, settle, wait_for_screen, wait_until
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


async def test_a_fix_on_a_row_goes_to_that_rows_account_only() -> None:
    settings = Settings(
        profiles={name: Profile(base_url="http://127.0.0.1:9/v4") for name in ("alpha", "beta")},
        start_area="instances",
    )
    session = demo_session(profiles=settings.profiles)
    app = make_app(session)
    opened: dict[str, Session] = {}

    def opener(_settings: Settings, name: str) -> Session:
        opened[name] = demo_session()
        opened[name].profile_name = name
        return opened[name]

    app.state.account_opener = opener
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        app.run_command("fanout check")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, FanoutCheckScreen)
        await wait_until(pilot, lambda: len(screen.checks) == 2)
        await settle(pilot)
        key = next(
            k for k, (account, f) in screen.findings.items()
            if account == "beta" and f.rule.id == "k8s-upgrade-available"
        )  # fmt: skip
        table = screen.query_one("#fc-table")
        assert table.move_cursor(key)
        logs = {name: len(s.simulator.request_log) for name, s in opened.items()}
        await pilot.press("f")
        confirm = await wait_for_screen(pilot, ConfirmModal)
        assert confirm.shown_title.endswith(" in beta?")
        await pilot.press("y")
        await settle(pilot)
        sent = opened["beta"].simulator.request_log[logs["beta"] :]
        assert "k8s.clusters.update" in sent
        assert "k8s.clusters.update" not in opened["alpha"].simulator.request_log[logs["alpha"] :]
        # beta was checked again: its row went, alpha's stayed.
        assert key not in screen.findings
        assert (("alpha", key[1])) in screen.findings
        assert key not in table.keys
