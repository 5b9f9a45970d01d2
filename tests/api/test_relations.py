"""The relations index against the simulator: the demo's relations of every kind, caching and
refreshes, the impact of deletes and the clean-up it sends, and the xray trees."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest

from tui.api.client import ApiClient
from tui.relations import Ref, Related, RelationIndex, Xray, run_cleanup
from tui.resources.areas import SPECS, open_target
from tui.simulator import Simulator

WEB_PROD_1 = 51201
MAIL_RELAY = 51209


def _labels(rows: Iterable[Related], kind: str) -> list[str]:
    return sorted(str(r.other.label) for r in rows if r.other.kind == kind)


def _ref(index: RelationIndex, kind: str, ident: Any) -> Ref:
    found = index.ref(kind, ident)
    assert found is not None, (kind, ident)
    return found


def _by_label(index: RelationIndex, kind: str, label: str) -> Ref:
    return next(e.ref for e in index.graph.entries(kind) if e.label == label)


def _node_instances(sim: Simulator) -> None:
    """Instances for the nodes of the first pool: the simulator does not list them."""
    pool = sim.store.rows("k8s.pools")[0]
    template = sim.store.get("compute.instances", 51202)
    assert template is not None
    for n, node in enumerate(pool["nodes"]):
        sim.store.put(
            "compute.instances",
            node["instance_id"],
            {
                **template,
                "id": node["instance_id"],
                "label": f"lke-node-{n}",
                "ipv4": [f"198.51.100.{200 + n}"],
                "ipv6": None,
                "tags": [],
            },
        )


@pytest.fixture
async def index(sim: Simulator, client: ApiClient) -> RelationIndex:
    _node_instances(sim)
    built = RelationIndex()
    await built.build(client)
    assert built.failures == {}
    return built


async def test_the_demo_has_a_relation_of_every_kind(
    index: RelationIndex, client: ApiClient
) -> None:
    web = _ref(index, "compute.instances", WEB_PROD_1)
    await index.ensure(client, web)
    seen = index.relations(web)
    assert _labels(seen.used_by, "domains.records") == ["app.example.com A", "app.example.com AAAA"]
    assert [
        (r.other.label, r.via) for r in seen.used_by if r.other.kind == "loadbalancers.nodes"
    ] == [
        ("web-2", "192.168.128.2"),
        ("web-2", "192.168.128.2:8443"),
    ]
    assert _labels(seen.uses, "volumes") == ["web-assets"]
    assert _labels(seen.uses, "compute.configs") == ["My Ubuntu 24.04 LTS Profile"]
    assert len(_labels(seen.uses, "compute.disks")) == 2
    assert _labels(seen.uses, "compute.backups")
    assert _labels(seen.uses, "tags") == ["production", "web"]

    volume = index.relations(_by_label(index, "volumes", "pg-data"))
    assert _labels(volume.used_by, "compute.instances") == ["db-primary"]

    balancer = index.relations(_by_label(index, "loadbalancers", "web-frontend"))
    assert _labels(balancer.uses, "loadbalancers.configs") == ["443 (https)", "80 (http)"]
    assert _labels(balancer.used_by, "domains.records") == [
        "edge.example.com CNAME",
        "lb.example.com A",
    ]
    node = index.relations(_ref(index, "loadbalancers.nodes", 530001))
    assert _labels(node.uses, "compute.instances") == ["web-prod-1"]

    cluster = index.relations(_by_label(index, "k8s.clusters", "shop-prod"))
    assert len(_labels(cluster.uses, "k8s.pools")) == 2
    pool = index.relations(_ref(index, "k8s.pools", 21000))
    assert len(_labels(pool.uses, "k8s.nodes")) == 3
    first_node = next(r.other for r in pool.uses if r.other.kind == "k8s.nodes")
    assert _labels(index.relations(first_node).uses, "compute.instances")[0].startswith("lke-node")
    lke = index.relations(_ref(index, "compute.instances", 71000000))
    assert _labels(lke.used_by, "k8s.nodes") == ["21000-d303d05f"]

    bucket = index.relations(_ref(index, "object_storage.buckets", "us-east-1/db-backups"))
    assert _labels(bucket.used_by, "object_storage.keys") == ["backup-agent"]
    site = index.relations(_ref(index, "object_storage.buckets", "us-east-1/cloudtui-site"))
    assert _labels(site.used_by, "object_storage.keys") == ["ci deploy [site]"]
    assert _labels(site.used_by, "domains.records") == ["static.example.com CNAME"]

    sessions = _by_label(index, "databases", "café-sessions")
    database = index.relations(sessions)
    assert _labels(database.uses, "compute.instances") == ["mail-relay"]
    # A UI opens a database with the spec of its engine, read from its row.
    row = index.row(sessions)
    assert row is not None and open_target(SPECS["databases"], row).id == "databases.mongodb"

    record = index.relations(_by_label(index, "domains.records", "app.example.com A"))
    assert _labels(record.uses, "compute.instances") == ["web-prod-1"]
    assert record.uses[0].other.path_params() == {"computeId": WEB_PROD_1}


async def test_records_at_addresses_nobody_owns_are_dangling(index: RelationIndex) -> None:
    dangling = [str(d.source.label) for d in index.dangling_records()]
    assert "www.legacy-shop.example A" in dangling
    assert "www.example.com A" in dangling  # 203.0.113.10: no instance, no balancer
    assert not any(label.startswith(("app.", "lb.")) for label in dangling)
    nodes = [str(d.source.label) for d in index.dangling("balancer_backend")]
    assert "maintenance-page" in nodes and "web-2" not in nodes
    assert [r.label for r in index.owners("192.0.2.2")] == ["web-prod-1"]


async def test_a_second_query_makes_no_request(
    index: RelationIndex, sim: Simulator, client: ApiClient
) -> None:
    web = _ref(index, "compute.instances", WEB_PROD_1)
    await index.ensure(client, web)
    before = len(sim.request_log)
    first = index.relations(web)
    await index.build(client)
    await index.ensure(client, web)
    await index.refresh(client)  # nothing stale, nothing old
    assert index.relations(web) == first
    assert len(sim.request_log) == before


async def test_a_build_is_concurrent_and_bounded(sim: Simulator, client: ApiClient) -> None:
    in_flight = peak = 0
    exchange = client._exchange

    async def counted(*args: Any) -> Any:
        nonlocal in_flight, peak
        in_flight += 1
        peak = max(peak, in_flight)
        try:
            return await exchange(*args)
        finally:
            in_flight -= 1

    client._exchange = counted  # type: ignore[method-assign]
    await RelationIndex(concurrency=3).build(client)
    assert 1 < peak <= 3
    assert "domains.records.list" in sim.request_log  # records of every domain
    assert "compute.configs.list" not in sim.request_log  # one per instance: only on demand


async def test_changes_through_the_client_update_the_index(
    index: RelationIndex, sim: Simulator, client: ApiClient
) -> None:
    stop = index.observe(client)
    web2 = _by_label(index, "compute.instances", "web-prod-2")
    example = _by_label(index, "domains", "example.com")
    await client.call(
        "domains.records.create",
        example.path_params(),
        body={"type": "A", "name": "api", "target": "192.0.2.3"},
        model=dict,
    )
    before = len(sim.request_log)
    await index.refresh(client)
    assert sim.request_log[before:] == ["domains.records.list"]  # only the changed listing
    assert _labels(index.relations(web2).used_by, "domains.records") == ["api.example.com A"]

    # A delete removes the object at once, with its parts; its records now dangle.
    web = _ref(index, "compute.instances", WEB_PROD_1)
    await index.ensure(client, web)
    await client.call("compute.instances.delete", web.path_params())
    assert index.ref("compute.instances", WEB_PROD_1) is None
    assert not [
        e for e in index.graph.entries("compute.configs") if e.parent and e.parent.key == web.key
    ]
    assert "app.example.com A" in [str(d.source.label) for d in index.dangling_records()]
    # The API detached its volume: the index reads that volume again, and only it.
    before = len(sim.request_log)
    await index.refresh(client)
    assert sim.request_log[before:] == ["volumes.view"]
    assert _ref(index, "volumes", 46001).kind == "volumes"
    stop()
    assert index.note_change not in client.change_observers


async def test_a_recycle_is_seen_after_a_refresh(
    index: RelationIndex, sim: Simulator, client: ApiClient
) -> None:
    index.observe(client)
    lke = _ref(index, "compute.instances", 71000000)
    node = next(r.other for r in index.relations(lke).used_by if r.other.kind == "k8s.nodes")
    await client.call("k8s.nodes.recycle", node.path_params())
    before = len(sim.request_log)
    await index.refresh(client)
    assert sim.request_log[before:] == ["k8s.nodes.view"]  # the node only, read again
    # The node runs as a new instance now: the old one is no longer its instance.
    assert _labels(index.relations(lke).used_by, "k8s.nodes") == []
    assert _labels(index.relations(node).uses, "compute.instances") == []


async def test_old_listings_are_listed_again(sim: Simulator, client: ApiClient) -> None:
    now = [0.0]
    index = RelationIndex(max_age=60.0, clock=lambda: now[0])
    await index.build(client)
    # A change made elsewhere (the web console): the index cannot know about it yet.
    node = sim.store.get("loadbalancers.nodes", 530008)
    assert node is not None
    node["address"] = "192.168.128.3"
    before = len(sim.request_log)
    await index.refresh(client)
    assert len(sim.request_log) == before
    web2 = _by_label(index, "compute.instances", "web-prod-2")
    assert _labels(index.relations(web2).used_by, "loadbalancers.nodes") == ["web-3 (old)"] * 2
    now[0] = 61.0
    await index.refresh(client)
    assert len(sim.request_log) > before
    assert _labels(index.relations(web2).used_by, "loadbalancers.nodes") == [
        "api-b",
        "web-3 (old)",
        "web-3 (old)",
    ]


async def test_a_failed_listing_is_reported_and_fetched_again(
    sim: Simulator, client: ApiClient
) -> None:
    sim.faults.fail_next("databases.instances.list", 1, 403)
    index = RelationIndex()
    await index.build(client)
    assert list(index.failures) == [("databases", None)]
    assert index.ref("compute.instances", WEB_PROD_1) is not None  # the rest is there
    await index.refresh(client)
    assert index.failures == {}
    assert _by_label(index, "databases", "café-sessions").kind == "databases"


async def test_deleting_an_instance_then_cleaning_up(
    index: RelationIndex, sim: Simulator, client: ApiClient
) -> None:
    index.observe(client)
    web = _ref(index, "compute.instances", WEB_PROD_1)
    await index.ensure(client, web)
    found = index.impact([web])
    app_a = _by_label(index, "domains.records", "app.example.com A")
    app_aaaa = _by_label(index, "domains.records", "app.example.com AAAA")
    assert found.lines == [
        "1 DNS record points at 192.0.2.2 (app.example.com A)",
        "1 DNS record points at 2001:db8:100::f03c:95ff:fe37:d3c8 (app.example.com AAAA)",
        "load balancer web-frontend port 80 has a node at 192.168.128.2",
        "load balancer web-frontend port 443 has a node at 192.168.128.2:8443",
        "volume web-assets will be detached",
        "instance web-prod-1 is deleted with its 1 config, 2 disks and 2 backups",
    ]
    # The requests the reference describes: Record delete and Node delete, no body.
    assert [(r.endpoint, r.method, r.path, r.body) for r in found.cleanup] == [
        ("domains.records.delete", "DELETE", f"/domains/128400/records/{app_a.id}", None),
        ("domains.records.delete", "DELETE", f"/domains/128400/records/{app_aaaa.id}", None),
        (
            "loadbalancers.nodes.delete",
            "DELETE",
            "/loadbalancers/27000/configs/41000/nodes/530001",
            None,
        ),
        (
            "loadbalancers.nodes.delete",
            "DELETE",
            "/loadbalancers/27000/configs/41001/nodes/530004",
            None,
        ),
    ]
    await client.call("compute.instances.delete", web.path_params())
    results = await run_cleanup(client, found.cleanup)
    assert all(r.ok for r in results), results
    assert sim.store.get("domains.records", app_a.id) is None
    assert sim.store.get("domains.records", app_aaaa.id) is None
    assert sim.store.get("loadbalancers.nodes", 530001) is None
    assert sim.store.get("loadbalancers.nodes", 530004) is None
    assert sim.store.get("loadbalancers.nodes", 530000) is not None  # another instance's node
    # The index saw the clean-up too: nothing of it dangles.
    assert not [d for d in index.dangling_records() if str(d.source.label).startswith("app.")]


async def test_the_allow_list_cleanup_updates_the_database(
    index: RelationIndex, sim: Simulator, client: ApiClient
) -> None:
    relay = _ref(index, "compute.instances", MAIL_RELAY)
    found = index.impact([relay])
    assert found.lines[0] == (
        "the allow list of database café-sessions admits 192.0.2.10, an address of mail-relay"
    )
    # Database update (PUT, the whole list: an update overwrites it); the open range the
    # demo also allows is kept, since it links to no instance.
    assert [(r.method, r.path, r.body) for r in found.cleanup] == [
        ("PUT", "/databases/mongodb/instances/4101", {"allow_list": ["0.0.0.0/0"]})
    ]
    await client.call("compute.instances.delete", relay.path_params())
    assert all(r.ok for r in await run_cleanup(client, found.cleanup))
    database = sim.store.get("databases.instances", 4101)
    assert database is not None and database["allow_list"] == ["0.0.0.0/0"]


async def test_a_bulk_delete_has_one_combined_impact(index: RelationIndex) -> None:
    labels = ("db-primary", "web-prod-1", "web-prod-2")
    targets = [_by_label(index, "compute.instances", label) for label in labels]
    found = index.impact(targets)
    nodes = [f for f in found.findings if f.relation == "balancer_backend"]
    assert len(nodes) == 6  # each instance is a node of both ports
    assert len([r for r in found.cleanup if r.endpoint == "loadbalancers.nodes.delete"]) == 6
    assert len(found.cleanup) == len(set(found.cleanup))
    assert "volume pg-data will be detached" in found.lines
    assert "volume web-assets will be detached" in found.lines
    assert set(found.targets) == set(targets)


async def test_deleting_a_node_instance_offers_a_recycle(index: RelationIndex) -> None:
    found = index.impact([_ref(index, "compute.instances", 71000000)])
    assert found.lines[0] == (
        "instance lke-node-0 belongs to pool 21000 of cluster shop-prod: recycle the node instead"
    )
    assert [(r.method, r.path) for r in found.findings[0].instead] == [
        ("POST", "/k8s/clusters/9100/nodes/21000-d303d05f/recycle")
    ]


async def test_xray_trees(index: RelationIndex, sim: Simulator, client: ApiClient) -> None:
    k8s = Xray(index, "clusters")
    assert [str(n.ref.label) for n in k8s.roots] == ["shop-prod", "zürich-staging"]
    pools = await k8s.expand(k8s.roots[0], client)
    assert [n.ref.kind for n in pools] == ["k8s.pools", "k8s.pools"]
    nodes = await k8s.expand(pools[0], client)
    assert len(nodes) == 3
    instances = await k8s.expand(nodes[0], client)
    node_row = index.graph.at(nodes[0].ref.key)
    assert node_row is not None
    assert [n.ref.id for n in instances] == [node_row.row["instance_id"]]
    assert str(instances[0].ref.label).startswith("lke-node-") and not instances[0].expandable

    balancers = Xray(index, "loadbalancers")
    web = next(n for n in balancers.roots if n.ref.label == "web-frontend")
    ports = await balancers.expand(web)
    backends = await balancers.expand(ports[0])
    assert [str(n.ref.label) for n in backends][:3] == ["web-1", "web-2", "web-3 (old)"]
    hosts = await balancers.expand(backends[0])
    assert [n.ref.label for n in hosts] == ["db-primary"]
    balancers.collapse(web)
    assert web not in [n for n in balancers.rows() if n.depth > 0]
    assert ports[0] not in balancers.rows()

    # An attached volume sits in a config's device slot (the API puts it there on attach).
    config = sim.store.get("compute.configs", 23400)
    assert config is not None
    config["devices"]["sdc"] = {"disk_id": None, "volume_id": 46000}
    compute = Xray(index, "compute")
    db = next(n for n in compute.roots if n.ref.label == "db-primary")
    before = len(sim.request_log)
    configs = await compute.expand(db, client)  # fetched now: configs, disks, backups
    assert len(sim.request_log) - before == 3
    assert [str(n.ref.label) for n in configs] == ["My Debian 12 Profile", "Recovery (single user)"]
    parts = await compute.expand(configs[0], client)
    assert [(n.ref.kind, str(n.ref.label)) for n in parts] == [
        ("compute.disks", "512 MB Swap Image"),
        ("compute.disks", "Debian 12 Disk"),
        ("volumes", "pg-data"),
    ]
    rows = compute.rows()
    assert rows[rows.index(db) + 1] is configs[0] and rows[rows.index(db) + 2] is parts[0]
    compute.reload()  # after a refresh: the open branches stay open
    reopened = next(n for n in compute.roots if n.ref.label == "db-primary")
    assert reopened.expanded and reopened.children and reopened.children[0].expanded
