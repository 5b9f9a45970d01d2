"""The impact of a delete in its confirmation, and the clean-up sent in the same flow only once
the delete succeeded, each result reported (the activity log and a notification)."""

from __future__ import annotations

from typing import Any

from screens.actions.bulk_progress import BulkProgressModal
from screens.dialogs.confirm import ConfirmModal
from tests.ui.helpers import make_app, open_area, settle, wait_for_screen, wait_until
from tui.api.errors import NotFound

WEB_PROD = 51201
RECORDS = ((128400, 8630028), (128400, 8630029))
"""The demo's DNS records pointing at web-prod-1 (app.example.com A and AAAA)."""
NODES = ((27000, 41000, 530001), (27000, 41001, 530004))
"""The demo's balancer nodes at web-prod-1's private address (ports 80 and 443)."""


async def gone(client: Any, endpoint: str, params: dict[str, Any]) -> bool:
    try:
        await client.call(endpoint, params, model=dict)
    except NotFound:
        return True
    return False


async def open_delete(pilot: Any) -> ConfirmModal:
    pane = await open_area(pilot, "instances")
    assert pane.table.move_cursor(str(WEB_PROD))
    await pilot.press("d")
    return await wait_for_screen(pilot, ConfirmModal)


async def test_the_confirmation_names_what_breaks_and_the_cleanup_is_sent_after_the_delete() -> (
    None
):
    app = make_app()
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await settle(pilot)
        client = app.state.session.client
        modal = await open_delete(pilot)
        preview = modal.preview
        assert "1 DNS record points at 192.0.2.2 (app.example.com A)" in preview
        assert "load balancer web-frontend port 80 has a node at 192.168.128.2" in preview
        assert "volume web-assets will be detached" in preview
        for domain, record in RECORDS:
            assert f"DELETE /domains/{domain}/records/{record}" in preview
        for balancer, config, node in NODES:
            assert f"DELETE /loadbalancers/{balancer}/configs/{config}/nodes/{node}" in preview
        assert "It breaks 4 things" in modal.message
        # Tick the clean-up, type the label, confirm.
        await pilot.press("shift+tab", "space")
        assert modal.option_on
        await pilot.press("tab", *"web-prod-1", "enter")
        await settle(pilot)
        assert await gone(client, "compute.instances.view", {"computeId": WEB_PROD})
        for domain, record in RECORDS:
            assert await gone(
                client, "domains.records.view", {"domainId": domain, "recordId": record}
            )
        for balancer, config, node in NODES:
            params = {"loadbalancerId": balancer, "configId": config, "nodeId": node}
            assert await gone(client, "loadbalancers.nodes.view", params)
        titles = [title for title, _message in app.notification_log]
        assert "Clean-up: 4 of 4 done" in titles, titles
        logged = [entry.summary() for entry in app.state.activity.read()]
        assert sum("app.example.com" in line for line in logged) == 2, logged


async def test_without_the_tick_only_the_delete_is_sent() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await settle(pilot)
        client = app.state.session.client
        modal = await open_delete(pilot)
        assert not modal.option_on
        await pilot.press(*"web-prod-1", "enter")
        await settle(pilot)
        assert await gone(client, "compute.instances.view", {"computeId": WEB_PROD})
        domain, record = RECORDS[0]
        assert not await gone(
            client, "domains.records.view", {"domainId": domain, "recordId": record}
        )


async def test_a_bulk_delete_names_what_all_the_marked_items_break_and_cleans_up_after() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await settle(pilot)
        client = app.state.session.client
        pane = await open_area(pilot, "instances")
        for key in ("51201", "51202"):  # web-prod-1 and web-prod-2, both balancer nodes
            assert pane.table.move_cursor(key)
            await pilot.press("space")
        await pilot.press("d")
        modal = await wait_for_screen(pilot, ConfirmModal)
        assert modal.typed == "delete 2"
        preview = modal.preview
        assert "1 DNS record points at 192.0.2.2 (app.example.com A)" in preview
        assert "has a node at 192.168.128.2" in preview  # web-prod-1's
        assert "has a node at 192.168.128.3" in preview  # web-prod-2's
        await pilot.press("shift+tab", "space", "tab", *"delete 2", "enter")
        progress = await wait_for_screen(pilot, BulkProgressModal)
        await wait_until(pilot, lambda: progress.summary is not None)
        await wait_until(
            pilot,
            lambda: any(t.startswith("Clean-up") for t, _m in app.notification_log),
            what="the clean-up reported",
        )
        await pilot.press("enter")
        await settle(pilot)
        title = next(t for t, _m in app.notification_log if t.startswith("Clean-up"))
        done, total = title.removeprefix("Clean-up: ").split(" done")[0].split(" of ")
        assert done == total and int(total) >= 5, title
        for balancer, config, node in NODES:
            params = {"loadbalancerId": balancer, "configId": config, "nodeId": node}
            assert await gone(client, "loadbalancers.nodes.view", params)


async def test_a_delete_that_fails_sends_no_cleanup() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await settle(pilot)
        client = app.state.session.client
        app.state.session.simulator.faults.fail_next("compute.instances.delete", 1, 400)
        modal = await open_delete(pilot)
        await pilot.press("shift+tab", "space")
        assert modal.option_on
        await pilot.press("tab", *"web-prod-1", "enter")
        await settle(pilot)
        assert not await gone(client, "compute.instances.view", {"computeId": WEB_PROD})
        for domain, record in RECORDS:
            params = {"domainId": domain, "recordId": record}
            assert not await gone(client, "domains.records.view", params)
        assert not any(title.startswith("Clean-up") for title, _m in app.notification_log)


async def test_after_a_partial_bulk_delete_the_failed_instance_keeps_its_nodes() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await settle(pilot)
        client = app.state.session.client
        pane = await open_area(pilot, "instances")
        for key in ("51201", "51202"):
            assert pane.table.move_cursor(key)
            await pilot.press("space")
        app.state.session.simulator.faults.fail_next("compute.instances.delete", 1, 400)
        await pilot.press("d")
        await wait_for_screen(pilot, ConfirmModal)
        await pilot.press("shift+tab", "space", "tab", *"delete 2", "enter")
        progress = await wait_for_screen(pilot, BulkProgressModal)
        await wait_until(pilot, lambda: progress.summary is not None)
        await wait_until(
            pilot,
            lambda: any(t.startswith("Clean-up") for t, _m in app.notification_log),
            what="the clean-up reported",
        )
        await pilot.press("enter")
        await settle(pilot)
        deleted = {
            ident
            for ident in (51201, 51202)
            if await gone(client, "compute.instances.view", {"computeId": ident})
        }
        assert len(deleted) == 1
        nodes = await client.fetch_all(
            "loadbalancers.nodes.list", {"loadbalancerId": 27000, "configId": 41000}, model=dict
        )
        left = {node["address"] for node in nodes}
        kept, removed = ("192.168.128.2", "192.168.128.3")[:: 1 if 51202 in deleted else -1]
        assert kept in left and removed not in left, left


async def test_a_recycle_says_the_instances_are_replaced() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await settle(pilot)
        pane = await open_area(pilot, "k8s")
        assert pane.table.move_cursor("9100")
        await pilot.press("c")
        modal = await wait_for_screen(pilot, ConfirmModal)
        assert "will be replaced by new ones with new addresses" in modal.preview
        assert "It breaks 1 thing" in modal.message
        assert not modal.option  # nothing to clean up after a recycle
        await pilot.press("escape")
        await settle(pilot)
