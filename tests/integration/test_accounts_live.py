"""Two accounts in one running app: two ``cloudtui sim`` servers as the profiles alpha and beta.

beta runs with ``--scale 30`` (30 more instances), so each account's rows are told apart by
their number as well as by their labels.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Iterator
from dataclasses import replace
from typing import Any

import pytest

from screens.accounts.fanout import FanoutPane, FanoutScreen
from screens.accounts.fanout_overview import FanoutOverviewScreen
from screens.accounts.switch import AccountPicker, switch_account
from screens.actions.form import FormModal
from screens.details.resource_detail import ResourceDetailScreen
from screens.dialogs.confirm import ConfirmModal
from screens.home.activity_log import ActivityLogScreen
from screens.home.check import CheckScreen
from screens.home.check_dialogs import SilenceModal
from screens.lists.list_pane import ResourceListPane
from screens.shell.command_line import CommandLineScreen
from tests.conftest import MemoryKeyring
from tests.integration.sim_servers import TOKEN, SimServer, free_port, two_sims
from tests.ui.actions.test_compute_ui import select
from tests.ui.helpers import no_sleep, open_area, settle, wait_for_screen, wait_until
from tests.waits import WAIT_LIMIT, eventually
from tui.accounts.switch import open_account
from tui.app import CloudApp
from tui.check.silences import Silences
from tui.home.activity import ActivityLog
from tui.session.auth import KEYRING_SERVICE
from tui.session.config import Profile, RefreshSettings, Settings
from tui.session.runtime import Session
from widgets.resource_table import ResourceTable

pytestmark = pytest.mark.filterwarnings("ignore::ResourceWarning")


@pytest.fixture(scope="module")
def sims() -> Iterator[tuple[SimServer, SimServer]]:
    with two_sims() as servers:
        yield servers


@pytest.fixture(autouse=True)
def retries_without_waiting(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every session opened here retries as often as in use, without sleeping between tries.

    gamma, where nothing listens, is tried four times per request whatever the sleep; the real
    back-off between tries (seconds per fanout) was wall time the assertions never looked at.
    The demo sessions of the UI tests retry the same way (:func:`tests.ui.helpers.demo_session`).
    """
    for_profile = Session.for_profile.__func__  # type: ignore[attr-defined]

    def without_waiting(cls: type[Session], *args: Any, **kwargs: Any) -> Session:
        session: Session = for_profile(cls, *args, **kwargs)
        session.client.retry = replace(session.client.retry, sleep=no_sleep)
        return session

    monkeypatch.setattr(Session, "for_profile", classmethod(without_waiting))


class RecordingKeyring(MemoryKeyring):
    """The test keyring, noting which profiles' tokens were read."""

    def __init__(self, entries: dict[tuple[str, str], str]) -> None:
        super().__init__()
        self.entries = entries
        self.read: list[str] = []

    def get_password(self, service: str, username: str) -> str | None:
        self.read.append(username)
        return super().get_password(service, username)


@pytest.fixture
def keyring_reads(isolated_home: MemoryKeyring) -> Iterator[RecordingKeyring]:
    """Tokens for alpha, beta and gamma in a keyring that records every read."""
    import keyring

    recording = RecordingKeyring(isolated_home.entries)
    for name in ("alpha", "beta", "gamma"):
        recording.entries[(KEYRING_SERVICE, name)] = TOKEN
    keyring.set_keyring(recording)
    yield recording


def accounts_settings(alpha: SimServer, beta: SimServer) -> Settings:
    return Settings(
        profiles={
            "alpha": Profile(base_url=alpha.base_url),
            "beta": Profile(base_url=beta.base_url, color="magenta"),
        },
        default_profile="alpha",
        start_area="instances",
        refresh=RefreshSettings(fast=60, slow=3600, max_backoff=3600),
    )


def alpha_app(sims: tuple[SimServer, SimServer]) -> CloudApp:
    settings = accounts_settings(*sims)
    return CloudApp(settings, open_account(settings, "alpha"), profile_name="alpha")


def labels(pane: ResourceListPane) -> set[str]:
    return {str(item["label"]) for item in pane.items.values()}


def switched(app: CloudApp, name: str) -> bool:
    """The switch to ``name`` is over."""
    busy = any(w.group == "account-switch" and not w.is_finished for w in app.workers)
    return app.state.session.profile_name == name and not busy


def instance_count(server: SimServer) -> int:
    return int(server.get("/compute/instances").json()["results"])


async def test_account_switches_lists_and_status_bar_to_the_other_profile(
    sims: tuple[SimServer, SimServer], keyring_reads: RecordingKeyring
) -> None:
    alpha, beta = sims
    app = alpha_app(sims)
    async with app.run_test(size=(120, 40)) as pilot:
        pane = await open_area(pilot, "instances")
        await wait_until(pilot, lambda: len(pane.items) == instance_count(alpha))
        assert keyring_reads.read == ["alpha"]  # beta's token is not read ahead of time
        app.notify("a toast of alpha", title="alpha")

        await pilot.press("colon")
        line = await wait_for_screen(pilot, CommandLineScreen)
        await pilot.press(*"account b", "tab")
        assert line.query_one("Input").value == "account beta"
        await pilot.press("enter")
        await settle(pilot)
        assert app.state.session.profile_name == "beta"
        assert keyring_reads.read == ["alpha", "beta"]
        assert app.current_mode == "instances"
        pane = app.screen.query_one("#pane-0", ResourceListPane)
        await wait_until(pilot, lambda: len(pane.items) == instance_count(beta))
        assert instance_count(beta) == instance_count(alpha) + 30
        assert "profile beta" in str(app.screen.query_one("StatusBar").render())
        assert app.state.activity.folder.name == "beta" and app.state.watchlist is not None
        assert not any("alpha" in str(n.message) for n in app._notifications)

        # Every screen left is the new account's: the overview opens afresh too.
        app.go_to_area("overview")
        await settle(pilot)
        assert app.screen.app.state.session.profile_name == "beta"


async def test_the_picker_lists_profiles_and_switches_to_the_chosen_one(
    sims: tuple[SimServer, SimServer], keyring_reads: RecordingKeyring
) -> None:
    app = alpha_app(sims)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.run_command("account")
        picker = await wait_for_screen(pilot, AccountPicker)
        assert picker.names == ["alpha", "beta"]
        await pilot.press("down", "enter")
        await settle(pilot)
        assert app.state.session.profile_name == "beta"
        assert "gamma" not in keyring_reads.read


async def test_a_dialog_open_during_a_switch_is_cancelled_and_sends_nothing(
    sims: tuple[SimServer, SimServer], keyring_reads: RecordingKeyring
) -> None:
    alpha, beta = sims
    app = alpha_app(sims)
    async with app.run_test(size=(120, 40)) as pilot:
        pane = await open_area(pilot, "volumes")
        await wait_until(pilot, lambda: "pg-data" in labels(pane))
        volume = await select(pilot, pane, "pg-data")
        await pilot.press("d")
        confirm = await wait_for_screen(pilot, ConfirmModal)
        assert confirm.shown_title == 'Delete volume "pg-data" in alpha?'
        switch_account(app, "beta")
        # Not settle(): the dialog's worker ends cancelled, which waiting for it reports.
        await wait_until(pilot, lambda: switched(app, "beta"))
        assert app.state.session.profile_name == "beta"
        assert not isinstance(app.screen, ConfirmModal)
        assert all(not isinstance(s, ConfirmModal) for s in app.screen_stack)
        await pilot.press("y")  # were the dialog still there, this would confirm it
        await settle(pilot)
        assert alpha.get(f"/volumes/{volume['id']}").status_code == 200
        assert beta.get(f"/volumes/{volume['id']}").status_code == 200  # same seed, same id
        assert app.state.activity.read() == []


async def test_an_unknown_profile_says_so_and_stays(
    sims: tuple[SimServer, SimServer], keyring_reads: RecordingKeyring
) -> None:
    app = alpha_app(sims)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.run_command("account nowhere")
        await settle(pilot)
        assert app.state.session.profile_name == "alpha"
        assert any("No profile named 'nowhere'" in m for _t, m in app.notification_log)


async def undo_from_the_log(pilot: Any, app: CloudApp, title_has: str) -> ConfirmModal:
    """Open ``:log``, check the newest change says ``u undoes``, press u; the confirmation."""
    app.go_to_area("log")
    await settle(pilot)
    screen = app.screen
    assert isinstance(screen, ActivityLogScreen)
    screen.table.focus()
    newest = screen.table.cells_at(0)
    assert newest[-1] == "u undoes", newest
    await pilot.press("u")
    confirm = await wait_for_screen(pilot, ConfirmModal)
    assert title_has in confirm.shown_title and confirm.shown_title.endswith("in alpha?")
    return confirm


async def test_a_label_change_is_undone_from_the_log(
    sims: tuple[SimServer, SimServer], keyring_reads: RecordingKeyring
) -> None:
    alpha, _beta = sims
    app = alpha_app(sims)
    async with app.run_test(size=(120, 40)) as pilot:
        pane = await open_area(pilot, "instances")
        await wait_until(pilot, lambda: "mail-relay" in labels(pane))
        instance = await select(pilot, pane, "mail-relay")
        await pilot.press("e")
        form = await wait_for_screen(pilot, FormModal)
        form.model_form.set_value("label", "mail-relay-2")
        await pilot.press("ctrl+s")
        await settle(pilot)
        path = f"/compute/instances/{instance['id']}"
        assert alpha.get(path).json()["label"] == "mail-relay-2"

        confirm = await undo_from_the_log(pilot, app, "mail-relay")
        assert confirm.preview.startswith(f"PUT {path}")
        assert '"label": "mail-relay"' in confirm.preview
        await pilot.press("y")
        await settle(pilot)
        assert alpha.get(path).json()["label"] == "mail-relay"
        assert app.screen.table.cells_at(1)[-1] == "undone"  # the undo itself is on top
        await pilot.press("u")  # nothing else to undo: said, nothing sent
        await settle(pilot)
        assert "No change of this session can be undone." in app.notification_log[-1][1]


async def test_a_detach_is_undone_and_a_delete_says_why_it_cannot_be(
    sims: tuple[SimServer, SimServer], keyring_reads: RecordingKeyring
) -> None:
    alpha, _beta = sims
    app = alpha_app(sims)
    async with app.run_test(size=(120, 40)) as pilot:
        pane = await open_area(pilot, "volumes")
        await wait_until(pilot, lambda: "web-assets" in labels(pane))
        volume = await select(pilot, pane, "web-assets")
        attached_to = volume["compute_id"]
        assert attached_to is not None
        await pilot.press("D")
        await wait_for_screen(pilot, ConfirmModal)
        await pilot.press("y")
        await settle(pilot)
        path = f"/volumes/{volume['id']}"
        await wait_until_server(lambda: alpha.get(path).json()["compute_id"] is None)

        confirm = await undo_from_the_log(pilot, app, "web-assets")
        assert confirm.preview.startswith(f"POST {path}/attach")
        assert f'"compute_id": {attached_to}' in confirm.preview
        await pilot.press("y")
        await settle(pilot)
        await wait_until_server(lambda: alpha.get(path).json()["compute_id"] == attached_to)

        # A delete is noted as one that cannot be undone, with the reason.
        pane = await open_area(pilot, "volumes")
        await wait_until(pilot, lambda: "backup-scratch" in labels(pane))
        await select(pilot, pane, "backup-scratch")
        await pilot.press("d")
        confirm = await wait_for_screen(pilot, ConfirmModal)
        await pilot.press(*"backup-scratch", "enter")
        await settle(pilot)
        app.go_to_area("log")
        await settle(pilot)
        log = app.screen
        assert log.table.cells_at(0)[-1].startswith("cannot: the volume is deleted")
        log.table.focus()
        await pilot.press("u")
        await settle(pilot)
        assert "cannot be undone: the volume is deleted" in app.notification_log[-1][1]


async def wait_until_server(condition: Any, seconds: float = WAIT_LIMIT) -> None:
    """Poll a server-side condition (attachments settle on the simulator's real clock)."""
    await eventually(condition, "the server's change", seconds=seconds, poll=0.1)


def fanout_settings(alpha: SimServer, beta: SimServer) -> Settings:
    """alpha and beta, gamma where nothing listens, delta whose token is rejected."""
    settings = accounts_settings(alpha, beta)
    settings.profiles["gamma"] = Profile(base_url=f"http://127.0.0.1:{free_port()}/v4")
    settings.profiles["delta"] = Profile(base_url=alpha.base_url)
    return settings


@contextlib.asynccontextmanager
async def fanout_from_alpha(
    sims: tuple[SimServer, SimServer], command: str
) -> AsyncIterator[tuple[Any, CloudApp, FanoutPane]]:
    """The app on alpha, headless at 120x40, showing the cross-account list ``command`` asks."""
    app = alpha_app(sims)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        yield pilot, app, await open_fanout_list(pilot, app, command)


async def open_fanout_list(pilot: Any, app: CloudApp, command: str) -> FanoutPane:
    app.run_command(command)
    await settle(pilot)
    assert isinstance(app.screen, FanoutScreen)
    return app.screen.query_one(FanoutPane)


async def test_fanout_lists_both_accounts_and_filters_by_account(
    sims: tuple[SimServer, SimServer], keyring_reads: RecordingKeyring
) -> None:
    alpha, beta = sims
    async with fanout_from_alpha(sims, "fanout instances") as (pilot, _app, pane):
        counts = {"alpha": instance_count(alpha), "beta": instance_count(beta)}
        assert len(pane.items) == sum(counts.values())
        assert pane.table.columns[0].title == "Account"
        by_account = {name: sum(1 for key in pane.table.keys if key[0] == name) for name in counts}
        assert by_account == counts
        assert keyring_reads.read == ["alpha", "beta"]  # beta's token read for the fanout

        await pilot.press("slash", *"account:beta", "enter")
        await pilot.pause()
        shown = pane.table.keys
        assert len(shown) == counts["beta"] and all(key[0] == "beta" for key in shown)


async def test_fanout_shows_each_failed_account_and_still_lists_the_others(
    sims: tuple[SimServer, SimServer], keyring_reads: RecordingKeyring
) -> None:
    alpha, beta = sims
    keyring_reads.entries[(KEYRING_SERVICE, "delta")] = "a-token-the-server-rejects"
    settings = fanout_settings(alpha, beta)
    app = CloudApp(settings, open_account(settings, "alpha"), profile_name="alpha")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        pane = await open_fanout_list(pilot, app, "fanout instances")
        assert len(pane.items) == instance_count(alpha) + instance_count(beta)
        errors = str(pane.query_one(".fanout-errors").render())
        assert "✖ gamma:" in errors and "✖ delta:" in errors
        assert pane.listings["gamma"].items == [] and pane.listings["delta"].items == []
        assert not pane.listings["alpha"].error and not pane.listings["beta"].error


async def test_an_action_on_a_fanout_row_reaches_that_rows_account(
    sims: tuple[SimServer, SimServer], keyring_reads: RecordingKeyring
) -> None:
    alpha, beta = sims
    async with fanout_from_alpha(sims, "fanout instances alpha beta") as (pilot, app, pane):
        # The same seed: build-cache has the same id on both servers.
        key = next(
            k for k, item in pane.items.items() if k[0] == "beta" and item["label"] == "build-cache"
        )
        path = f"/compute/instances/{key[1]}"
        assert alpha.get(path).json()["status"] == beta.get(path).json()["status"] == "running"
        pane.table.focus()
        assert pane.table.move_cursor(key)
        await pilot.pause()
        await pilot.press("e")  # a form names the account when it is not the app's
        form = await wait_for_screen(pilot, FormModal)
        assert str(form.query_one("#form-title").render()).endswith("(in beta)")
        await pilot.press("escape")
        await settle(pilot)
        await pilot.press("S")
        confirm = await wait_for_screen(pilot, ConfirmModal)
        assert confirm.shown_title.endswith(" in beta?")
        await pilot.press("y")
        await settle(pilot)
        assert beta.get(path).json()["status"] != "running"
        assert alpha.get(path).json()["status"] == "running"
        logged = ActivityLog("beta").read()
        assert logged and logged[0].path == f"{path}/shutdown" and logged[0].ok
        assert app.state.activity.read() == []  # nothing was sent to alpha


async def test_enter_on_a_fanout_row_opens_its_item_in_its_account(
    sims: tuple[SimServer, SimServer], keyring_reads: RecordingKeyring
) -> None:
    alpha, beta = sims
    async with fanout_from_alpha(sims, "fanout instances alpha beta") as (pilot, app, pane):
        fanout = app.screen

        def row(account: str) -> tuple[Any, dict[str, Any]]:
            # An instance only one account has: beta's extra ones are not on alpha.
            return next(
                (k, item)
                for k, item in pane.items.items()
                if k[0] == account and (account == "alpha" or k[1] not in alpha_ids)
            )

        alpha_ids = {k[1] for k in pane.items if k[0] == "alpha"}
        # A row of the app's own account: its detail, over the cross-account list.
        key, item = row("alpha")
        pane.table.focus()
        assert pane.table.move_cursor(key)
        await pilot.press("enter")
        detail = await wait_for_screen(pilot, ResourceDetailScreen)
        assert detail.item["id"] == item["id"] and app.state.session.profile_name == "alpha"
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is fanout)
        # A row of another account: the app moves there, then shows the item's detail.
        key, item = row("beta")
        assert pane.table.move_cursor(key)
        await pilot.press("enter")
        await wait_until(pilot, lambda: switched(app, "beta"))
        detail = await wait_for_screen(pilot, ResourceDetailScreen)
        assert detail.item["id"] == item["id"] and detail.item["label"] == item["label"]
        assert "account" not in detail.item
        path = f"/compute/instances/{item['id']}"
        assert beta.get(path).json()["label"] == item["label"]
        assert alpha.get(path).status_code == 404  # only beta has it
        await settle(pilot)


async def test_the_overview_of_every_account_totals_those_that_answer(
    sims: tuple[SimServer, SimServer], keyring_reads: RecordingKeyring
) -> None:
    alpha, beta = sims
    settings = fanout_settings(alpha, beta)
    del settings.profiles["delta"]
    app = CloudApp(settings, open_account(settings, "alpha"), profile_name="alpha")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        app.run_command("fanout overview")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, FanoutOverviewScreen)
        table = screen.query_one(ResourceTable)
        rows = {table.cells_at(i)[0]: table.cells_at(i) for i in range(table.row_count)}
        assert set(rows) == {"alpha", "beta", "gamma", "Total (2)"}
        instances = (instance_count(alpha), instance_count(beta))
        assert (rows["alpha"][1], rows["beta"][1]) == tuple(str(n) for n in instances)
        assert rows["Total (2)"][1] == str(sum(instances))
        assert rows["gamma"][1] == "?"
        assert rows["alpha"][-1].startswith("$") and rows["Total (2)"][-1].startswith("$")
        below = str(screen.query_one("#fo-attention").render())
        assert "✖ gamma:" in below and "alpha: " in below and "beta: " in below


async def checked(pilot: Any, app: CloudApp) -> CheckScreen:
    """``:check`` on the app's account, its first check drawn."""
    app.run_command("check")
    await settle(pilot)
    screen = app.screen
    assert isinstance(screen, CheckScreen)
    await wait_until(pilot, lambda: screen.result is not None and not screen.checking)
    return screen


async def test_a_check_silence_is_kept_for_its_profile_only(
    sims: tuple[SimServer, SimServer], keyring_reads: RecordingKeyring
) -> None:
    app = alpha_app(sims)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = await checked(pilot, app)
        finding = next(f for f in screen.findings.values() if f.rule.id == "image-expiring")
        assert screen.table.move_cursor(("finding", finding.id))
        await pilot.press("s")
        await wait_for_screen(pilot, SilenceModal)
        await pilot.press(*"kept on purpose", "enter")
        await settle(pilot)
        assert finding.id not in screen.findings
        # In alpha's data folder, not beta's.
        assert Silences("alpha").reason_for(finding.id) == "kept on purpose"
        assert Silences("beta").entries() == []
        switch_account(app, "beta")
        await wait_until(pilot, lambda: switched(app, "beta"))
        await settle(pilot)
        on_beta = await checked(pilot, app)
        # The same seed: beta has the same image, and nothing silences it there.
        assert finding.id in on_beta.findings and on_beta.result.silenced == []
        switch_account(app, "alpha")
        await wait_until(pilot, lambda: switched(app, "alpha"))
        await settle(pilot)
        again = await checked(pilot, app)
        assert finding.id not in again.findings
        assert [f.id for f in again.result.silenced] == [finding.id]
