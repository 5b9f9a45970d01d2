"""The impact of a delete (or a recycle): sentences, bulk, cascades and clean-up requests."""

from __future__ import annotations

from typing import Any, cast

from tests.unit.relations_account import fed_index, ref
from tui.api.changes import CHANGE_TARGET
from tui.api.client import ApiClient
from tui.api.errors import Conflict, FieldError
from tui.relations import CleanupRequest, Impact, run_cleanup


def _requests(found: Impact) -> list[tuple[str, str, Any]]:
    return [(r.method, r.path, r.body) for r in found.cleanup]


def test_deleting_an_instance_names_what_breaks_with_its_cleanup() -> None:
    index = fed_index()
    found = index.impact([ref(index, "compute.instances", 1)])
    assert found.lines == [
        "2 DNS records point at 203.0.113.5 (api.example.com A, www.example.com A)",
        "load balancer web-lb port 80 has a node at 192.168.128.7:80",
        "the allow list of database orders admits 203.0.113.5, 203.0.113.0/24, an address of web-1",
        "volume pg-data will be detached",
    ]
    assert found.breaks
    assert _requests(found) == [
        ("DELETE", "/domains/10/records/101", None),
        ("DELETE", "/domains/10/records/100", None),
        ("DELETE", "/loadbalancers/20/configs/21/nodes/22", None),
        # The range stays: it may admit other hosts; the update sends the whole list.
        (
            "PUT",
            "/databases/mysql/instances/50",
            {"allow_list": ["203.0.113.6", "203.0.113.0/24", "10.0.0.1"]},
        ),
    ]
    assert found.cleanup[0].says == "delete DNS record api.example.com A"
    assert found.findings[0].affected == (
        ref(index, "domains.records", 101),
        ref(index, "domains.records", 100),
    )


def test_a_bulk_delete_is_one_combined_impact() -> None:
    index = fed_index()
    targets = [ref(index, "compute.instances", 1), ref(index, "compute.instances", 2)]
    found = index.impact(targets)
    assert found.targets == tuple(targets)
    assert "1 DNS record points at 2001:db8:0::6 (api.example.com AAAA)" in found.lines
    # One update of the allow list, without the entries of both instances.
    updates = [r for r in found.cleanup if r.method == "PUT"]
    assert [(r.path, r.body) for r in updates] == [
        ("/databases/mysql/instances/50", {"allow_list": ["203.0.113.0/24", "10.0.0.1"]})
    ]
    assert len(found.cleanup) == len(set(found.cleanup))
    # A record deleted together with its instance is not reported as broken.
    with_record = index.impact([targets[0], ref(index, "domains.records", 100)])
    assert with_record.lines[0] == "1 DNS record points at 203.0.113.5 (api.example.com A)"
    assert ("DELETE", "/domains/10/records/100", None) not in _requests(with_record)


def test_an_instance_of_a_kubernetes_pool_offers_a_recycle_instead() -> None:
    index = fed_index()
    found = index.impact([ref(index, "compute.instances", 3)])
    pool = next(f for f in found.findings if f.relation == "pool_node_instance")
    assert pool.text == (
        "instance lke-node belongs to pool 3 of cluster prod-k8s: recycle the node instead"
    )
    assert [(r.method, r.path, r.body) for r in pool.instead] == [
        ("POST", "/k8s/clusters/40/nodes/3-aa/recycle", None)
    ]
    assert pool.instead[0] not in found.cleanup  # instead of the delete, never after it


def test_what_goes_with_a_target_breaks_what_it_was_used_by() -> None:
    index = fed_index()
    found = index.impact([ref(index, "k8s.clusters", 40)])
    assert {r.kind for r in found.deleted} == {"k8s.pools", "k8s.nodes", "compute.instances"}
    assert found.lines == [
        # The pool's instance goes too: the allow-list range that admitted it is named, and
        # left alone (a range may admit other hosts).
        "the allow list of database orders admits 203.0.113.0/24, an address of lke-node",
        "cluster prod-k8s is deleted with its 1 pool, 1 Kubernetes node and 1 instance",
    ]
    assert found.cleanup == ()
    balancer = index.impact([ref(index, "loadbalancers", 20)])
    assert balancer.lines == [
        "1 CNAME record points at LB-1.example.net. (edge.example.com CNAME)",
        "load balancer web-lb is deleted with its 1 port and 2 balancer nodes",
    ]
    assert _requests(balancer) == [("DELETE", "/domains/10/records/105", None)]


def test_a_recycle_replaces_instances_and_sends_no_cleanup() -> None:
    index = fed_index()
    found = index.impact([ref(index, "k8s.pools", 3)], action="replace")
    assert found.lines == [
        "1 instance will be replaced by new ones with new addresses (lke-node)",
        "the allow list of database orders admits 203.0.113.0/24, an address of lke-node",
    ]
    assert found.cleanup == () and found.deleted == ()


def test_unknown_targets_are_said_to_be_unknown() -> None:
    index = fed_index()
    found = index.impact([("compute.instances", 999)])
    assert found.findings == () and found.unknown == (("compute.instances", 999),)
    assert not found.breaks


class _FakeClient:
    """Records the calls; refuses the ones whose path ends in a given id."""

    def __init__(self, refuse: str) -> None:
        self.refuse = refuse
        self.calls: list[tuple[str, dict[str, Any], Any, str | None]] = []

    async def call(self, name: str, params: dict[str, Any], *, body: Any, model: Any) -> Any:
        self.calls.append((name, params, body, CHANGE_TARGET.get()))
        if str(params.get("recordId")) == self.refuse:
            raise Conflict(409, "DELETE", "/x", [FieldError(reason="busy \x1b[2J")])
        return {}


async def test_cleanup_reports_each_result_and_a_failure_stops_nothing() -> None:
    index = fed_index()
    found = index.impact([ref(index, "compute.instances", 1)])
    fake = _FakeClient(refuse="101")
    results = await run_cleanup(cast(ApiClient, fake), found.cleanup)
    assert [r.ok for r in results] == [False, True, True, True]
    assert "busy" in results[0].error and "\x1b" not in results[0].error
    assert [c[0] for c in fake.calls] == [
        "domains.records.delete",
        "domains.records.delete",
        "loadbalancers.nodes.delete",
        "databases.mysql.update",
    ]
    # Each request names its object for the activity log.
    assert fake.calls[2][3] == "n1"
    assert isinstance(results[0].request, CleanupRequest)
