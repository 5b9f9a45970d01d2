"""The relations index fed with listings (no network): links, updates, dangling, impact."""

from __future__ import annotations

from typing import Any

import pytest

from tests.unit.relations_account import API, WEB, fed_index, records, ref
from tui.relations import RelationIndex, Xray, tree_name


def _other(rows: Any, kind: str) -> list[str]:
    return sorted(str(r.other.label) for r in rows if r.other.kind == kind)


def test_an_instance_is_used_by_records_nodes_pools_databases_and_uses_its_volume() -> None:
    index = fed_index()
    web = index.relations(ref(index, "compute.instances", 1))
    assert _other(web.used_by, "domains.records") == ["api.example.com A", "www.example.com A"]
    assert _other(web.used_by, "loadbalancers.nodes") == ["n1"]
    assert _other(web.used_by, "databases") == ["orders"]
    assert _other(web.uses, "volumes") == ["pg-data"]
    allow = next(r for r in web.used_by if r.other.kind == "databases")
    assert allow.via == "203.0.113.5, 203.0.113.0/24"  # the entry and the range both admit it
    node = next(r for r in web.used_by if r.other.kind == "loadbalancers.nodes")
    assert node.via == "192.168.128.7:80" and node.direction == "used_by"
    # The row names the other object well enough to open it.
    assert node.other.path_params() == {"loadbalancerId": 20, "configId": 21, "nodeId": 22}
    assert web.addresses == ("203.0.113.5", "192.168.128.7")
    api = index.relations(ref(index, "compute.instances", 2))
    assert _other(api.used_by, "domains.records") == ["api.example.com AAAA"]  # IPv6 spellings
    assert api.addresses == ("203.0.113.6", "2001:db8::6/128")
    host = index.relations(ref(index, "compute.instances", 3))
    assert _other(host.used_by, "k8s.nodes") == ["3-aa"]


def test_each_kind_sees_its_side() -> None:
    index = fed_index()
    record = index.relations(ref(index, "domains.records", 100))
    assert _other(record.uses, "compute.instances") == ["web-1"]
    alias = index.relations(ref(index, "domains.records", 105))
    assert _other(alias.uses, "loadbalancers") == ["web-lb"]  # CNAME at the balancer's name
    volume = index.relations(ref(index, "volumes", 30))
    assert _other(volume.used_by, "compute.instances") == ["web-1"]
    bucket = index.relations(ref(index, "object_storage.buckets", "us-east-1/logs"))
    assert _other(bucket.used_by, "object_storage.keys") == ["agent"]
    database = index.relations(ref(index, "databases", 50))
    assert _other(database.uses, "compute.instances") == ["api-1", "lke-node", "web-1"]
    cluster = index.relations(ref(index, "k8s.clusters", 40))
    assert _other(cluster.uses, "k8s.pools") == ["3 (std-4)"]
    balancer = index.relations(ref(index, "loadbalancers", 20))
    assert _other(balancer.uses, "loadbalancers.configs") == ["80 (http)"]
    assert _other(balancer.used_by, "domains.records") == ["edge.example.com CNAME"]


def test_dangling_records_point_at_addresses_no_object_owns() -> None:
    index = fed_index()
    dangling = index.dangling_records()
    assert [str(d.source.label) for d in dangling] == ["old.example.com A"]
    assert dangling[0].values == ("198.51.100.99",)
    assert (
        "198.51.100.99" in dangling[0].text and "no object of the account owns" in dangling[0].text
    )
    nodes = index.dangling("balancer_backend")
    assert [str(d.source.label) for d in nodes] == ["n2"]
    assert [r.label for r in index.owners("2001:db8::6")] == ["api-1"]
    assert index.owners("198.51.100.99") == []


def test_an_update_relinks_only_what_changed() -> None:
    index = fed_index()
    domain = ref(index, "domains", 10)
    rows = records((100, "A", "www", "198.51.100.99"), (101, "A", "api", "203.0.113.5"))
    index.feed("domains.records", rows, parent=domain)
    web = index.relations(ref(index, "compute.instances", 1))
    assert _other(web.used_by, "domains.records") == ["api.example.com A"]
    # Records gone from the listing are gone from the index, with their links.
    assert index.ref("domains.records", 105) is None
    assert _other(index.relations(ref(index, "loadbalancers", 20)).used_by, "domains.records") == []
    assert [str(d.source.label) for d in index.dangling_records()] == ["www.example.com A"]
    # An instance given the address back is found by the record again.
    index.feed("compute.instances", [{**API, "ipv4": ["198.51.100.99"]}, WEB])
    api = index.relations(ref(index, "compute.instances", 2))
    assert _other(api.used_by, "domains.records") == ["www.example.com A"]
    assert index.dangling_records() == []
    assert index.ref("compute.instances", 3) is None  # not in the new listing
    assert _other(index.relations(ref(index, "k8s.clusters", 40)).uses, "k8s.pools") == [
        "3 (std-4)"
    ]


def test_removing_a_parent_removes_its_parts() -> None:
    index = fed_index()
    index.feed("loadbalancers", [])
    assert index.ref("loadbalancers.configs", 21) is None
    assert index.ref("loadbalancers.nodes", 22) is None
    web = index.relations(ref(index, "compute.instances", 1))
    assert _other(web.used_by, "loadbalancers.nodes") == []
    # A listing under the wrong parent, or a kind the index does not hold, is refused.
    assert index.feed("loadbalancers.nodes", [], ref(index, "compute.instances", 1)) is False
    assert index.feed("loadbalancers.nodes", []) is False
    assert index.feed("no.such.kind", []) is False


def test_labels_from_the_api_go_through_the_text_boundary() -> None:
    index = RelationIndex()
    index.feed("compute.instances", [{**WEB, "label": "evil\x1b]52;c;x\x07"}])
    index.feed("volumes", [{"id": 30, "label": "v\u202eol", "compute_id": 1}])
    web = ref(index, "compute.instances", 1)
    assert "\x1b" not in web.label and "\x07" not in web.label
    found = index.impact([web])
    assert found.findings
    for finding in found.findings:
        assert "\x1b" not in finding.text and "\u202e" not in finding.text


async def test_a_listing_taken_in_turns_is_the_same_as_fed_at_once() -> None:
    rows = [
        {**WEB, "id": n, "label": f"web-{n}", "ipv4": [f"10.1.{n // 250}.{n % 250}"]}
        for n in range(1200)
    ]
    at_once, in_turns = RelationIndex(), RelationIndex()
    at_once.feed("compute.instances", rows)
    assert await in_turns.feed_in_turns("compute.instances", rows)
    assert len(at_once.graph) == len(in_turns.graph) == 1200
    assert await in_turns.feed_in_turns("compute.instances", rows[:10])
    assert len(in_turns.graph) == 10  # the rest went away with the new listing
    assert not await in_turns.feed_in_turns("volumes.nope", [])


def test_a_row_changed_in_place_is_relinked() -> None:
    index = fed_index()
    web = index.graph.at(("compute.instances", 1))
    assert web is not None
    row = dict(web.row)
    index.feed("compute.instances", [row, API])
    row["ipv4"] = ["198.51.100.99"]  # the same dict object, changed, fed again
    index.feed("compute.instances", [row, API])
    found = index.relations(ref(index, "compute.instances", 1))
    assert _other(found.used_by, "domains.records") == ["old.example.com A"]


def test_xray_names_its_trees() -> None:
    assert tree_name(" Clusters ") == "k8s" and tree_name("lb") == "loadbalancers"
    assert tree_name("instances") == "compute" and tree_name("buckets") is None
    index = fed_index()
    tree = Xray(index, "compute")
    assert [str(n.ref.label) for n in tree.roots] == ["api-1", "lke-node", "web-1"]
    with pytest.raises(KeyError):
        Xray(index, "buckets")
