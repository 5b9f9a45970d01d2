"""The Relations tab of a detail screen: what an object uses and what uses it, each row opening
the other object, kept by the account (a switch of account shows none of the old one's)."""

from __future__ import annotations

from typing import Any

import pytest
from textual.widgets import DataTable, TabbedContent

from screens.details.resource_detail import ResourceDetailScreen
from screens.lists.list_pane import ResourceListPane
from screens.relations.tab import RelationsPane
from tests.ui.details.test_resource_detail import open_item
from tests.ui.helpers import demo_session, make_app, settle, wait_until
from tui.resources.areas import SPECS

WEB_PROD = "51201"
"""web-prod-1 of the demo: DNS records point at it, balancer nodes send traffic to it."""


async def relations_of(pilot: Any, screen: ResourceDetailScreen) -> RelationsPane:
    """Show the Relations tab and wait for its rows."""
    screen.query_one("#detail-tabs", TabbedContent).active = "tab-relations"
    await settle(pilot)
    pane = screen.query_one(RelationsPane)
    await wait_until(pilot, lambda: pane.loaded, what="the relations loaded")
    return pane


async def test_an_instance_shows_what_it_uses_and_what_uses_it() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = await open_item(pilot, "instances", WEB_PROD)
        pane = await relations_of(pilot, screen)
        lines = pane.lines
        assert any(
            "DNS record pointing at it" in line and "app.example.com A" in line for line in lines
        ), lines
        assert any("load balancer node at it" in line for line in lines), lines
        assert any(line.startswith("uses") and "has volume" in line for line in lines), lines
        assert any("has config" in line for line in lines), lines  # fetched on demand
        assert "used by" in pane.status and "192.0.2.2" in pane.status
        table = pane.query_one(DataTable)
        assert table.row_count == len(lines)


async def test_enter_on_a_row_opens_the_other_object() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = await open_item(pilot, "instances", WEB_PROD)
        pane = await relations_of(pilot, screen)
        row = next(i for i, line in enumerate(pane.lines) if "app.example.com A" in line)
        table = pane.query_one(DataTable)
        table.focus()
        table.move_cursor(row=row)
        await pilot.press("enter")
        await settle(pilot)
        opened = app.screen
        assert isinstance(opened, ResourceDetailScreen) and opened is not screen
        assert opened.resource.id == "domains.records"
        assert opened.item.get("name") == "app"


async def open_detail(pilot: Any, spec_id: str, view: str, params: dict[str, Any]) -> Any:
    """The detail screen of one object, fetched by its view (as the palette opens one)."""
    app = pilot.app
    item = await app.state.session.client.call(view, params, model=dict)
    app.open_detail(SPECS[spec_id], item, params)
    await settle(pilot)
    return app.screen


@pytest.mark.parametrize(
    ("spec_id", "view", "params", "row"),
    [
        # a volume: its instance
        (
            "volumes",
            "volumes.view",
            {"volumeId": 46001},
            "used by  attached to  instance  web-prod-1",
        ),
        # a balancer: its ports, and the records pointing at its addresses
        (
            "loadbalancers",
            "loadbalancers.view",
            {"loadbalancerId": 27000},
            "uses  has port  port  80 (http)",
        ),
        (
            "loadbalancers",
            "loadbalancers.view",
            {"loadbalancerId": 27000},
            "used by  DNS record pointing at it",
        ),
        # a cluster: its pools
        ("k8s.clusters", "k8s.clusters.view", {"clusterId": 9100}, "uses  has pool  pool"),
        # a bucket: the access keys limited to it
        (
            "object_storage.buckets",
            "object_storage.buckets.view",
            {"clusterId": "eu-central-1", "bucket": "eu-logs"},
            "used by  access key limited to it  access key",
        ),
        # a database (opened through its engine): the instances its allow list admits
        (
            "databases.mongodb",
            "databases.mongodb.view",
            {"instanceId": 4101},
            "uses  admits  instance",
        ),
        # a record: the instance it points at
        (
            "domains.records",
            "domains.records.view",
            {"domainId": 128400, "recordId": 8630028},
            "uses  points at  instance  web-prod-1  192.0.2.2",
        ),
        # a record pointing at an address no object of the account owns
        (
            "domains.records",
            "domains.records.view",
            {"domainId": 128401, "recordId": 8630020},
            "uses  points at  address  owned by no object  198.51.100.70",
        ),
    ],
)
async def test_each_kind_shows_its_relations(
    spec_id: str, view: str, params: dict[str, Any], row: str
) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = await open_detail(pilot, spec_id, view, params)
        assert isinstance(screen, ResourceDetailScreen)
        pane = await relations_of(pilot, screen)
        assert any(line.startswith(row) for line in pane.lines), pane.lines


async def test_a_switch_of_account_drops_the_old_accounts_relations() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = await open_item(pilot, "instances", WEB_PROD)
        await relations_of(pilot, screen)
        old = app.state.account
        cache = old.relations
        assert cache is not None and len(cache.index.graph) > 0
        await app.move_to_account(demo_session("restricted"))
        await settle(pilot)
        assert app.state.account is not old
        fresh = app.state.account.relations
        assert fresh is None or fresh is not cache
        # the old index no longer follows the old client's changes
        assert cache.index.note_change not in old.session.client.change_observers


async def test_a_long_list_of_relations_is_cut_and_counted(monkeypatch: pytest.MonkeyPatch) -> None:
    import screens.relations.tab as tab

    monkeypatch.setattr(tab, "ROWS_SHOWN", 3)
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = await open_item(pilot, "instances", WEB_PROD)
        pane = await relations_of(pilot, screen)
        assert len(pane.lines) == 4
        assert pane.lines[-1].strip().startswith("… and ")
        assert pane.refs[-1] is None


async def test_once_cached_the_tab_asks_nothing_and_r_lists_everything_again() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = await open_item(pilot, "instances", WEB_PROD)
        pane = await relations_of(pilot, screen)
        client = app.state.session.client
        sent = client.request_count
        pane.refresh_now()  # what its timer does
        await settle(pilot)
        assert client.request_count == sent
        pane.query_one(DataTable).focus()
        await pilot.press("r")
        await settle(pilot)
        domains = len(await client.fetch_all("domains.list", model=dict))
        assert client.request_count - sent > domains  # the records of every domain, and more


async def test_a_list_feeds_the_index_again_only_when_its_rows_changed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tui.relations.cache import RelationCache

    fed: list[str] = []
    feed = RelationCache.feed

    async def counted(self: RelationCache, spec_id: str, params: Any, items: Any) -> bool:
        fed.append(spec_id)
        return await feed(self, spec_id, params, items)

    monkeypatch.setattr(RelationCache, "feed", counted)
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        app.go_to_area("instances")
        await settle(pilot)
        pane = app.screen.query_one("#pane-0", ResourceListPane)
        log = app.state.session.simulator.request_log

        async def refreshed() -> None:
            asked = log.count("compute.instances.list")
            pane.refresh_now()
            await wait_until(pilot, lambda: log.count("compute.instances.list") > asked)
            await wait_until(
                pilot, lambda: not any(w.node is pane and w.is_running for w in app.workers)
            )

        await wait_until(pilot, lambda: fed.count("compute.instances") == 1)
        # A refresh that finds every row as it was feeds nothing (it used to feed every row).
        await refreshed()
        assert fed.count("compute.instances") == 1
        # One that changes a row feeds the list again: the index sees the new label.
        store = app.state.session.simulator.store
        store.table("compute.instances")[WEB_PROD]["label"] = "web-prod-renamed"
        await refreshed()
        assert fed.count("compute.instances") == 2
        cache = app.state.relation_cache()
        assert cache is not None
        labels = {e.row.get("label") for e in cache.index.graph.entries("compute.instances")}
        assert "web-prod-renamed" in labels
