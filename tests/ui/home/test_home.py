"""The operator's home: overview counts and cost, attention rows, bookmarks, activity log,
read-only sessions."""

from __future__ import annotations

import contextlib
import json
from collections import Counter
from typing import Any

import pytest

from screens.actions.start import check_availability
from screens.dialogs.confirm import ConfirmModal
from screens.home.activity_log import ActivityLogScreen
from screens.home.overview import OverviewScreen
from screens.home.watchlist import DiffScreen, WatchlistScreen
from screens.lists.resource_list import ResourceListScreen
from screens.shell.palette import ActionCommands
from tests.ui.actions.test_compute_ui import instances, select
from tests.ui.helpers import demo_session, make_app, settle, wait_for_screen, wait_until
from tui.api.changes import ReadOnlySession
from tui.api.errors import NotFound
from tui.resources.areas import SPECS
from tui.resources.availability import READ_ONLY_REASON, is_mutating
from tui.resources.pricing import money
from tui.session.datadir import data_dir
from tui.simulator.auth import DEMO_TOKENS
from widgets.status_bar import status_parts


async def overview(pilot: Any) -> OverviewScreen:
    await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, OverviewScreen)
    await wait_until(pilot, lambda: screen.loaded)
    await settle(pilot)
    return screen


def text_of(screen: Any, selector: str) -> str:
    return str(screen.query_one(selector).render())


async def test_overview_counts_and_cost_match_the_simulator() -> None:
    session = demo_session(start_area="overview")
    app = make_app(session)
    async with app.run_test(size=(200, 60)) as pilot:
        screen = await overview(pilot)
        store = session.simulator.store
        # Independently of the app: from the simulator's store and the types' prices.
        found = list(store.rows("compute.instances"))
        counts = text_of(screen, "#ov-counts")
        for status, n in Counter(i["status"] for i in found).items():
            assert f"{n:,} {status}" in counts
        volumes = list(store.rows("volumes.volumes"))
        unattached = sum(1 for v in volumes if not v.get("compute_id"))
        assert f"{len(volumes) - unattached} attached, {unattached} unattached" in counts
        types = {t["id"]: t for t in store.rows("compute.types")}
        instance_cost = sum(
            types[i["type"]]["price"]["monthly"]
            + (types[i["type"]]["addons"]["backups"]["price"]["monthly"]
               if i["backups"]["enabled"] else 0)
            for i in found
        )  # fmt: skip
        pool_cost = sum(
            types[p["type"]]["price"]["monthly"] * p["count"] for p in store.rows("k8s.pools")
        )
        cost = text_of(screen, "#ov-cost")
        assert f"≈ {money(instance_cost + pool_cost)}/month" in cost
        assert f"Instances {money(instance_cost)} ({len(found)})" in cost
        assert f"Kubernetes pools {money(pool_cost)}" in cost
        # The API gives no price for these: said, never guessed.
        assert f"Databases price not given ({len(list(store.rows('databases.instances')))})" in cost
        assert "Volumes price not given" in cost
        production = sum(
            types[i["type"]]["price"]["monthly"]
            + (types[i["type"]]["addons"]["backups"]["price"]["monthly"]
               if i["backups"]["enabled"] else 0)
            for i in found
            if "production" in i.get("tags", [])
        ) + sum(
            types[p["type"]]["price"]["monthly"] * p["count"]
            for p in store.rows("k8s.pools")
            if "production" in set(p.get("tags") or [])
            | set(next(c for c in store.rows("k8s.clusters") if c["id"] == p["_cluster_id"])
                  .get("tags") or [])
        )  # fmt: skip
        assert f"production {money(production)}" in cost


async def test_an_attention_row_opens_the_list_filtered_to_those_items() -> None:
    session = demo_session(start_area="overview")
    app = make_app(session)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await overview(pilot)
        offline = [
            str(i["id"])
            for i in session.simulator.store.rows("compute.instances")
            if i["status"] == "offline"
        ]
        assert offline
        index = next(i for i, a in enumerate(screen.items) if a.query == "status:offline")
        table = screen.query_one("#ov-attention")
        table.focus()
        table.move_cursor(index)
        await pilot.press("enter")
        await settle(pilot)
        await wait_until(pilot, lambda: isinstance(app.screen, ResourceListScreen))
        assert app.current_mode == "instances"
        pane = app.screen.pane
        await wait_until(pilot, lambda: pane.loaded)
        assert pane.table.row_count == len(offline)
        assert [pane.table.cursor_key] == offline
        assert "status:offline" in text_of(pane, ".list-title")
        await pilot.press("escape")  # all rows again
        assert pane.table.row_count == len(pane.items) > len(offline)


async def test_bookmarks_persist_across_runs_and_mark_a_changed_item(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        pane = await instances(pilot)
        item = await select(pilot, pane, "web-prod-2")
        await pilot.press("b")
        await settle(pilot)
        assert ("compute.instances", str(item["id"])) in app.state.watchlist
    stored = app.state.watchlist.path.read_text()
    assert "web-prod-2" in stored and "root_pass" not in stored

    # A new run over the same state, as a profile's next run is (a demo starts clean: its
    # folder stands in for a profile's): the bookmark is still there; the item changed.
    folder = app.state.watchlist.path.parent
    monkeypatch.setattr("tui.session.datadir.demo_dir", lambda _user: folder)
    session = demo_session()
    row = next(
        r for r in session.simulator.store.rows("compute.instances") if r["id"] == item["id"]
    )
    row["label"] = "web-prod-2-renamed"
    app = make_app(session)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        app.run_command("watch")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, WatchlistScreen)
        key = f"compute.instances\x1f{item['id']}"
        await wait_until(pilot, lambda: screen.table.row(key).cells[0] == "✱")
        assert "label" in screen.table.row(key).cells[4]
        screen.table.focus()
        await pilot.press("J")
        diff = await wait_for_screen(pilot, DiffScreen)
        assert ("label", "web-prod-2", "web-prod-2-renamed") in diff.changes
        await pilot.press("escape")
        await settle(pilot)
        assert screen.table.row(key).cells[0] == " "  # looked at: the new reference


async def test_the_activity_log_records_a_create_and_a_failed_delete_without_secrets(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    secret = "Sup3r-s3cret-root-pass!"
    session = demo_session()
    app = make_app(session)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        client = app.state.session.client
        body = {
            "label": "logged-1",
            "region": "us-east",
            "type": "nano-1",
            "image": "compute/debian12",
            "root_pass": secret,
        }
        created = await client.call("compute.instances.create", body=body, model=dict)
        try:
            await client.call("volumes.delete", {"volumeId": 999999})
        except NotFound:
            pass
        else:  # pragma: no cover - the simulator must refuse it
            raise AssertionError("deleting a missing volume succeeded")
        app.run_command("log")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ActivityLogScreen)
        assert screen.table.row_count == 2
        newest, oldest = screen.entries
        assert (newest.method, newest.path, newest.ok, newest.status) == (
            "DELETE", "/volumes/999999", False, 404,
        )  # fmt: skip
        assert (oldest.method, oldest.path, oldest.ok) == ("POST", "/compute/instances", True)
        assert (oldest.target, oldest.target_id) == ("logged-1", str(created["id"]))
        screen.query_one(".log-filter").value = "delete"
        await pilot.pause()
        assert screen.table.row_count == 1
    text = app.state.activity.path.read_text()
    assert secret not in text and "root_pass" not in text
    assert DEMO_TOKENS["unrestricted"] not in text
    assert [json.loads(line)["method"] for line in text.splitlines()] == ["POST", "DELETE"]

    # The demo keeps to itself: nothing went to the real data folder, and the next demo (its
    # simulator seeded anew) shows no changes to objects it does not have.
    assert not data_dir().exists() or not any(p.is_file() for p in data_dir().rglob("*"))
    folder = app.state.activity.folder
    app = make_app(demo_session(start_area="overview"))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await overview(pilot)
        assert app.state.activity.folder != folder and app.state.activity.previous == []
        assert "logged-1" not in text_of(screen, "#ov-previous")

    # A run over the same state (as a profile's next run is) lists them on its start screen.
    monkeypatch.setattr("tui.session.datadir.demo_dir", lambda _user: folder)
    app = make_app(demo_session(start_area="overview"))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await overview(pilot)
        previous = text_of(screen, "#ov-previous")
        assert "DELETE /volumes/999999 failed (404)" in previous
        assert "POST /compute/instances (logged-1) ok" in previous


async def test_read_only_greys_every_mutating_action_with_the_reason() -> None:
    app = make_app(read_only=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert "READ-ONLY" in [text for text, _cls in status_parts(app.state)]
        for area in ("instances", "volumes", "domains", "k8s"):
            app.go_to_area(area)
            await settle(pilot)
            pane = app.screen.pane
            await wait_until(pilot, lambda pane=pane: pane.loaded)
            item = pane.current_item
            for action in pane.spec.actions:
                target = item if action.target == "item" else None
                enabled, reason = check_availability(app, pane.spec, action, target)
                if is_mutating(action):
                    assert (enabled, reason) == (False, READ_ONLY_REASON), action.id
                elif action.target == "collection" or item:
                    assert enabled, action.id  # statistics, kubeconfig download ...
            commands = ActionCommands(app.screen)._commands()  # the palette
            mutating = [a for a in pane.spec.actions if is_mutating(a)]
            greyed = [c for c in commands if c[2].startswith(f"not available: {READ_ONLY_REASON}")]
            assert len(greyed) == len(mutating) > 0
        # Pressing a greyed key says why and opens nothing.
        pane = await instances(pilot)
        await select(pilot, pane, "web-prod-1")
        await pilot.press("d")
        await settle(pilot)
        assert not isinstance(app.screen, ConfirmModal)
        assert app.notification_log[-1] == ("Delete: not available", READ_ONLY_REASON)
        # The client refuses too: nothing is sent, whatever the token could do.
        try:
            await app.state.session.client.call("tags.create", body={"label": "x"})
        except ReadOnlySession:
            pass
        else:  # pragma: no cover
            raise AssertionError("a change was sent in a read-only session")


async def test_read_only_goes_on_at_once_and_off_only_after_a_confirmation() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        pane = await instances(pilot)
        await select(pilot, pane, "web-prod-1")
        delete = SPECS["compute.instances"].action("compute.delete")
        assert check_availability(app, pane.spec, delete, pane.current_item)[0]
        app.run_command("read-only")
        await pilot.pause()
        assert app.state.read_only and app.state.session.client.read_only
        assert check_availability(app, pane.spec, delete, pane.current_item) == (
            False, READ_ONLY_REASON,
        )  # fmt: skip
        app.run_command("read-only")
        modal = await wait_for_screen(pilot, ConfirmModal)
        await pilot.press("escape")  # declined: still read-only
        await pilot.pause()
        assert app.state.read_only and not isinstance(app.screen, ConfirmModal)
        app.run_command("read-only")
        modal = await wait_for_screen(pilot, ConfirmModal)
        assert modal is app.screen
        await pilot.press("y")
        await pilot.pause()
        assert not app.state.read_only and not app.state.session.client.read_only
        assert check_availability(app, pane.spec, delete, pane.current_item)[0]


async def test_b_bookmarks_the_item_a_detail_screen_shows_and_a_child_row() -> None:
    from screens.details.resource_detail import ResourceDetailScreen

    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        pane = await instances(pilot)
        item = await select(pilot, pane, "db-primary")
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, ResourceDetailScreen)
        app.screen.set_focus(None)  # the detail itself, not one of its tabs' lists
        await pilot.press("b")
        assert ("compute.instances", str(item["id"])) in app.state.watchlist
        app.run_command("volumes")  # another area: a volume row
        await settle(pilot)
        volumes = app.screen.pane
        volumes.table.focus()
        await pilot.press("b")
        await pilot.pause()
        volume = volumes.current_item
        assert ("volumes", str(volume["id"])) in app.state.watchlist
        app.run_command("watch")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, WatchlistScreen)
        assert screen.table.row_count == 2
        screen.table.focus()
        screen.table.move_cursor(f"volumes\x1f{volume['id']}")
        await pilot.press("enter")  # opens the item
        await settle(pilot)
        assert isinstance(app.screen, ResourceDetailScreen)
        assert app.screen.item["id"] == volume["id"]


async def test_a_delete_that_fails_in_the_ui_is_logged_with_its_label() -> None:
    from tests.ui.helpers import open_area

    session = demo_session()
    app = make_app(session)
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        pane = await open_area(pilot, "volumes")
        item = pane.current_item
        assert item is not None
        session.simulator.store.delete("volumes.volumes", item["id"])  # gone meanwhile
        await pilot.press("d")
        confirm = await wait_for_screen(pilot, ConfirmModal)
        confirm.query_one("#confirm-typed").value = item["label"]
        await pilot.press("enter")
        await settle(pilot)
        entry = app.state.activity.read()[0]
        assert (entry.method, entry.path) == ("DELETE", f"/volumes/{item['id']}")
        assert (entry.ok, entry.status, entry.target) == (False, 404, item["label"])


async def test_a_log_entry_opens_in_words_and_its_outcome_shows_at_120_columns() -> None:
    from screens.home.activity_log import EntryScreen
    from tests.ui.keyboard import screen_text

    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        with contextlib.suppress(NotFound):
            await app.state.session.client.call("volumes.delete", {"volumeId": 999999})
        app.run_command("log")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ActivityLogScreen)
        shown = screen_text(app)
        assert "Outcome" in shown and "failed (404)" in shown
        screen.table.focus()
        await pilot.press("enter")
        entry = await wait_for_screen(pilot, EntryScreen)
        text = str(entry.query_one(".text-modal-body").render())
        assert "Request  DELETE /volumes/999999" in text
        assert "Outcome  refused: failed (404)" in text
        assert entry.entry.local_when in text
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen
