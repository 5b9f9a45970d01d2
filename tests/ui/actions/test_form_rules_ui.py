"""Fields that follow the choice, in the UI: a DNS record form shows only its type's inputs and
creates the record against the demo simulator; a balancer with an https config, an http health
check and two nodes picked from instances' private addresses is created in one form."""

from __future__ import annotations

from typing import Any

import pytest
from textual.widgets import Select, TabbedContent

from screens.actions.form import FormModal
from screens.lists.list_pane import ResourceListPane
from tests.ui.helpers import make_app, open_area, pauses, settle, wait_for_screen, wait_until
from tui.simulator.seeds.loadbalancers import DEMO_CERT as CERT
from tui.simulator.seeds.loadbalancers import DEMO_KEY as KEY
from widgets.model_form import ModelForm


async def options_of(pilot: Any, form: ModelForm, name: str, at_least: int = 1) -> list[Any]:
    """The values a choice input offers, once loaded."""
    widget = form.widget_for(name)
    assert isinstance(widget, Select)
    found: list[Any] = []

    def loaded() -> bool:
        found[:] = [v for _t, v in widget._options if v is not None and v is not Select.NULL]
        return len(found) >= at_least

    await wait_until(pilot, loaded)
    return found


async def offered_exactly(pilot: Any, form: ModelForm, name: str, wanted: set[str]) -> None:
    """Wait until the choice ``name`` offers exactly ``wanted``; fail showing what it offers."""
    widget = form.widget_for(name)
    assert isinstance(widget, Select)
    async for _ in pauses(pilot):
        offered = {v for _t, v in widget._options if isinstance(v, str)}
        if offered == wanted:
            return
    raise AssertionError(f"{name} offers {offered}, not {wanted}")


async def sent(pilot: Any, modal: FormModal) -> None:
    """Wait until the form closed after sending (a billed request's price confirmation is
    accepted with y); fail with what the form shows if it stays open."""
    from screens.dialogs.confirm import ConfirmModal

    async for _ in pauses(pilot):
        top = pilot.app.screen
        if isinstance(top, ConfirmModal) and top.price and not top.typed:
            await pilot.press("y")
        if not modal.is_attached:
            await settle(pilot)
            return
    errors = {f.name: modal.model_form.error_text(f.name) for f in modal.form.fields}
    general = modal.query_one("#form-general").render()
    raise AssertionError(f"not sent: { ({k: v for k, v in errors.items() if v}) } {general}")


def shown(form: ModelForm) -> list[str]:
    """Names of the inputs the form shows now, in order."""
    return [
        f.name
        for f in form.form.fields
        if not form.query_one(f"#row-{form.id_of(f.name)}").has_class("-hidden")
    ]


async def record_form(pilot: Any) -> FormModal:
    """Open a master zone's Records tab and press n."""
    await records_list(pilot)
    await pilot.press("n")
    modal: FormModal = await wait_for_screen(pilot, FormModal)
    return modal


async def records_list(pilot: Any) -> ResourceListPane:
    """Open a master zone's Records tab; its list has the focus."""
    app = pilot.app
    pane = await open_area(pilot, "domains")
    key = next(k for k, item in pane.items.items() if item.get("type") == "master")
    pane.table.move_cursor(key)
    await pilot.press("enter")
    await settle(pilot)
    screen = app.screen
    titles = [c.title for c in screen.resource.children]
    index = titles.index("Records")
    screen.query_one("#detail-tabs", TabbedContent).active = f"tab-child-{index}"
    await settle(pilot)
    records = screen.query_one(f"#child-{index}", ResourceListPane)
    records.table.focus()
    await pilot.pause()
    return records


RECORDS = {
    "A": (
        ["type", "name", "target", "ttl_sec"],
        {"name": "api", "target": "203.0.113.7"},
    ),
    "MX": (
        ["type", "name", "target", "ttl_sec", "priority"],
        {"name": "", "target": "mx2.example.org", "priority": "20"},
    ),
    "SRV": (
        ["type", "service", "protocol", "target", "ttl_sec", "priority", "weight", "port"],
        {
            "service": "sip",
            "protocol": "tcp",
            "target": "sip.example.org",
            "priority": "10",
            "weight": "5",
            "port": "5060",
        },
    ),
    "CAA": (
        ["type", "name", "target", "ttl_sec", "tag"],
        {"tag": "issue", "target": "letsencrypt.org"},
    ),
}


@pytest.mark.parametrize("kind", list(RECORDS))
async def test_a_record_form_shows_only_its_types_fields_and_creates_it(kind: str) -> None:
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        modal = await record_form(pilot)
        form = modal.model_form
        assert shown(form) == ["type"]  # nothing else until the type is chosen
        form.set_value("type", kind)
        await pilot.pause()
        expected, values = RECORDS[kind]
        assert shown(form) == expected
        for name, value in values.items():
            form.set_value(name, value)
        before = len(app.state.session.simulator.store.rows("domains.records"))
        await pilot.press("ctrl+s")
        await sent(pilot, modal)
        rows = app.state.session.simulator.store.rows("domains.records")
        assert len(rows) == before + 1
        created = rows[-1]
        assert created["type"] == kind
        if kind == "SRV":
            assert (created["port"], created["weight"], created["priority"]) == (5060, 5, 10)
        if kind == "CAA":
            assert (created["tag"], created["target"]) == ("issue", "letsencrypt.org")
            # The Records list shows its tag (issue, issuewild or iodef) beside the target.
            pane = next(
                p for p in app.screen.query(ResourceListPane) if p.spec.id == "domains.records"
            )
            key = pane.spec.item_key(created)
            await wait_until(pilot, lambda: pane.table.row(key) is not None)
            row = pane.table.row(key)
            assert row is not None
            cells = dict(zip((c.key for c in pane.spec.columns), row.cells, strict=True))
            assert cells["tag"] == "issue"


async def test_the_demo_import_form_names_the_nameserver_that_allows_transfers() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await open_area(pilot, "domains")
        await pilot.press("I")
        modal: FormModal = await wait_for_screen(pilot, FormModal)
        note = str(modal.query_one("#form-note").render())
        assert "ns1.allows-axfr.example" in note and "refuses" in note
        form = modal.model_form
        form.set_value("domain", "imported-demo.example")
        form.set_value("remote_nameserver", "ns1.allows-axfr.example")
        await pilot.press("ctrl+s")
        await sent(pilot, modal)
        domains = app.state.session.simulator.store.rows("domains.domains")
        assert any(d["domain"] == "imported-demo.example" for d in domains)


async def test_changing_the_type_hides_what_was_typed_for_the_other_type() -> None:
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        modal = await record_form(pilot)
        form = modal.model_form
        form.set_value("type", "SRV")
        await pilot.pause()
        form.set_value("weight", "5")
        form.set_value("type", "A")
        await pilot.pause()
        assert "weight" not in shown(form)
        form.set_value("target", "[remote_addr]")
        body = modal.build()
        assert body == {"type": "A", "target": "[remote_addr]"}  # no weight sent
        form.set_value("target", "2001:db8::1")
        assert modal.build() is None
        assert "IPv4" in form.error_text("target")
        await pilot.press("escape")


async def test_an_https_balancer_with_an_http_check_and_two_nodes_in_one_form() -> None:
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        store = app.state.session.simulator.store
        await open_area(pilot, "loadbalancers")
        await pilot.press("n")
        modal: FormModal = await wait_for_screen(pilot, FormModal)
        form = modal.model_form
        # Before a protocol or check is chosen: http without checks, so no TLS or check fields.
        assert "configs.0.ssl_cert" not in shown(form)
        assert "configs.0.check_path" not in shown(form)
        instance = next(i for i in store.rows("compute.instances") if len(i["ipv4"]) > 1)
        private = next(a for a in instance["ipv4"] if a.startswith("192.168."))
        assert instance["region"] in await options_of(pilot, form, "region")
        form.set_value("region", instance["region"])
        form.set_value("label", "shop-front")
        form.set_value("configs.0.port", "443")
        form.set_value("configs.0.protocol", "https")
        form.set_value("configs.0.check", "http")
        await pilot.pause()
        for name in ("ssl_cert", "ssl_key", "check_path", "check_interval"):
            assert f"configs.0.{name}" in shown(form)
        assert "configs.0.check_body" not in shown(form)
        assert "configs.0.proxy_protocol" not in shown(form)
        form.set_value("configs.0.ssl_cert", CERT)
        form.set_value("configs.0.ssl_key", KEY)
        form.set_value("configs.0.check_path", "/healthz")

        # The first node's address is picked among the instances' private addresses.
        offered = await options_of(pilot, form, "configs.0.nodes.0.address", at_least=3)
        assert private in offered
        assert all(v.startswith(("10.", "172.", "192.168.")) for v in offered)
        form.set_value("configs.0.nodes.0.address", private)
        form.set_value("configs.0.nodes.0.label", "web-a")

        # A second node: a row added with the keyboard (focus the button, enter).
        form.query_one("#add-configs-0-nodes").focus()
        await pilot.press("enter")
        await wait_until(pilot, lambda: "configs.0.nodes.1.address" in shown(form))
        assert app.focused is form.widget_for("configs.0.nodes.1.address")
        second = await options_of(pilot, form, "configs.0.nodes.1.address", at_least=3)
        other = next(v for v in second if v != private)
        form.set_value("configs.0.nodes.1.address", other)
        form.set_value("configs.0.nodes.1.label", "web-b")

        await pilot.press("ctrl+s")
        await sent(pilot, modal)
        balancer = next(
            b for b in store.rows("loadbalancers.balancers") if b["label"] == "shop-front"
        )
        configs = [
            c for c in store.rows("loadbalancers.configs") if c["_balancer_id"] == balancer["id"]
        ]
        assert [(c["port"], c["protocol"], c["check"], c["check_path"]) for c in configs] == [
            (443, "https", "http", "/healthz")
        ]
        nodes = [
            n for n in store.rows("loadbalancers.nodes") if n["_config_id"] == configs[0]["id"]
        ]
        assert sorted(n["label"] for n in nodes) == ["web-a", "web-b"]
        assert {n["address"].split(":")[0] for n in nodes} == {private, other}


async def test_reboot_offers_the_profile_only_when_the_instance_has_several() -> None:
    from screens.dialogs.confirm import ConfirmModal

    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        store = app.state.session.simulator.store
        pane = await open_area(pilot, "instances")
        counts: dict[Any, int] = {}
        for config in store.rows("compute.configs"):
            counts[config["_compute_id"]] = counts.get(config["_compute_id"], 0) + 1
        several = next(
            i
            for i in store.rows("compute.instances")
            if counts.get(i["id"], 0) > 1 and i["status"] == "running"
        )
        one = next(
            i
            for i in store.rows("compute.instances")
            if counts.get(i["id"], 0) == 1 and i["status"] == "running"
        )
        pane.table.move_cursor(str(one["id"]))
        await pilot.press("R")
        await wait_for_screen(pilot, ConfirmModal)  # one profile: nothing to choose
        await pilot.press("escape")
        await settle(pilot)
        pane.table.move_cursor(str(several["id"]))
        await pilot.press("R")
        modal: FormModal = await wait_for_screen(pilot, FormModal)
        profiles = await options_of(pilot, modal.model_form, "config_id", at_least=2)
        mine = [c["id"] for c in store.rows("compute.configs") if c["_compute_id"] == several["id"]]
        assert sorted(profiles) == sorted(mine)
        modal.model_form.set_value("config_id", profiles[-1])
        before = len(app.state.session.simulator.request_log)
        await pilot.press("ctrl+s")
        await sent(pilot, modal)
        sent_requests = app.state.session.simulator.request_log[before:]
        assert any("reboot" in str(r) for r in sent_requests)
        assert pane.items[str(several["id"])]["status"] == "rebooting"


async def test_a_cluster_with_pools_as_rows_and_ha_needs_its_label_typed() -> None:
    from textual.widgets import Input

    from screens.dialogs.confirm import ConfirmModal

    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        await open_area(pilot, "k8s")
        await pilot.press("n")
        modal: FormModal = await wait_for_screen(pilot, FormModal)
        form = modal.model_form
        form.set_value("label", "ha-prod")
        form.set_value("k8s_version", (await options_of(pilot, form, "k8s_version"))[-1])
        form.set_value("region", "us-east")
        types = await options_of(pilot, form, "node_pools.0.type", at_least=2)
        form.set_value("node_pools.0.count", "3")
        form.set_value("node_pools.0.type", types[0])
        # A second pool: a row, never JSON; its type comes from the same list.
        await form.add_row("node_pools")
        await options_of(pilot, form, "node_pools.1.type", at_least=2)
        form.set_value("node_pools.1.count", "1")
        form.set_value("node_pools.1.type", types[1])
        form.set_value("node_pools.1.autoscaler.enabled", True)
        await wait_until(pilot, lambda: "node_pools.1.autoscaler.max" in shown(form))
        assert "node_pools.0.autoscaler.max" not in shown(form)
        form.set_value("node_pools.1.autoscaler.min", "1")
        form.set_value("node_pools.1.autoscaler.max", "4")
        form.set_value("control_plane.high_availability", True)
        await pilot.press("ctrl+s")
        confirm = await wait_for_screen(pilot, ConfirmModal)
        assert confirm.typed == "ha-prod"
        assert "never be turned off" in confirm.message
        await pilot.press("y")  # not typed: nothing happens
        await pilot.pause()
        assert app.screen is confirm
        confirm.query_one(Input).value = "ha-prod"
        await pilot.press("enter")
        await sent(pilot, modal)
        cluster = next(
            c
            for c in app.state.session.simulator.store.rows("k8s.clusters")
            if c["label"] == "ha-prod"
        )
        assert cluster["control_plane"]["high_availability"] is True


async def test_a_limited_key_picks_each_rows_bucket_among_its_clusters_buckets() -> None:
    from screens.dialogs.once import OnceModal

    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        store = app.state.session.simulator.store
        app.go_to_area("object_storage", "object_storage.keys")
        await settle(pilot)
        await pilot.press("n")
        modal: FormModal = await wait_for_screen(pilot, FormModal)
        form = modal.model_form
        form.set_value("label", "ci-limited")
        buckets: dict[str, set[str]] = {}
        for bucket in store.rows("object_storage.buckets"):
            if bucket.get("_account") != "demo-account":
                continue  # another account's bucket (the demo seeds one)
            buckets.setdefault(bucket["cluster"], set()).add(bucket["label"])
        first, second = sorted(buckets)[:2]
        assert first in await options_of(pilot, form, "bucket_access.0.cluster", at_least=2)
        form.set_value("bucket_access.0.cluster", first)
        await offered_exactly(pilot, form, "bucket_access.0.bucket_name", buckets[first])
        form.set_value("bucket_access.0.bucket_name", sorted(buckets[first])[0])
        form.set_value("bucket_access.0.permissions", "read_only")
        await form.add_row("bucket_access")
        await options_of(pilot, form, "bucket_access.1.cluster", at_least=2)
        form.set_value("bucket_access.1.cluster", second)
        await offered_exactly(pilot, form, "bucket_access.1.bucket_name", buckets[second])
        form.set_value("bucket_access.1.bucket_name", sorted(buckets[second])[0])
        form.set_value("bucket_access.1.permissions", "read_write")
        await pilot.press("ctrl+s")
        once = await wait_for_screen(pilot, OnceModal)
        await pilot.press("escape")
        await settle(pilot)
        key = once.answer
        assert key["limited"] is True
        assert sorted((a["cluster"], a["permissions"]) for a in key["bucket_access"]) == [
            (first, "read_only"),
            (second, "read_write"),
        ]
