"""A small account as listings, fed to a relations index (shared by the relations tests)."""

from __future__ import annotations

from typing import Any

from tui.relations import RelationIndex
from tui.relations.graph import Ref

WEB = {"id": 1, "label": "web-1", "ipv4": ["203.0.113.5", "192.168.128.7"], "ipv6": None}
API = {"id": 2, "label": "api-1", "ipv4": ["203.0.113.6"], "ipv6": "2001:db8::6/128"}
NODE_HOST = {"id": 3, "label": "lke-node", "ipv4": ["203.0.113.8"], "ipv6": None}


def records(*rows: tuple[int, str, str, str]) -> list[dict[str, Any]]:
    return [{"id": i, "type": t, "name": n, "target": target} for i, t, n, target in rows]


def fed_index(**extra: list[dict[str, Any]]) -> RelationIndex:
    """An index fed with two instances, a domain with records, a balancer and more."""
    index = RelationIndex()
    index.feed("compute.instances", [WEB, API, NODE_HOST])
    index.feed("domains", [{"id": 10, "domain": "example.com"}])
    domain = index.ref("domains", 10)
    assert domain is not None
    index.feed(
        "domains.records",
        extra.get(
            "records",
            records(
                (100, "A", "www", "203.0.113.5"),
                (101, "A", "api", "203.0.113.5"),
                (102, "AAAA", "api", "2001:db8:0::6"),
                (103, "A", "old", "198.51.100.99"),
                (104, "TXT", "", "203.0.113.5"),  # a TXT record names no address
                (105, "CNAME", "edge", "LB-1.example.net."),
            ),
        ),
        parent=domain,
    )
    index.feed(
        "loadbalancers",
        [{"id": 20, "label": "web-lb", "ipv4": "198.51.100.1", "hostname": "lb-1.example.net"}],
    )
    balancer = index.ref("loadbalancers", 20)
    assert balancer is not None
    index.feed("loadbalancers.configs", [{"id": 21, "port": 80, "protocol": "http"}], balancer)
    config = index.ref("loadbalancers.configs", 21)
    assert config is not None
    index.feed(
        "loadbalancers.nodes",
        [
            {"id": 22, "label": "n1", "address": "192.168.128.7:80"},
            {"id": 23, "label": "n2", "address": "192.168.200.9:80"},
        ],
        config,
    )
    index.feed("volumes", [{"id": 30, "label": "pg-data", "compute_id": 1}])
    index.feed("k8s.clusters", [{"id": 40, "label": "prod-k8s", "tags": []}])
    cluster = index.ref("k8s.clusters", 40)
    assert cluster is not None
    index.feed(
        "k8s.pools",
        [{"id": 3, "type": "std-4", "nodes": [{"id": "3-aa", "instance_id": 3}]}],
        cluster,
    )
    index.feed(
        "databases",
        [
            {
                "id": 50,
                "label": "orders",
                "engine": "mysql",
                "allow_list": ["203.0.113.6", "203.0.113.5", "203.0.113.0/24", "10.0.0.1"],
            }
        ],
    )
    index.feed("object_storage.buckets", [{"cluster": "us-east-1", "label": "logs"}])
    index.feed(
        "object_storage.keys",
        [
            {
                "id": 60,
                "label": "agent",
                "bucket_access": [{"cluster": "us-east-1", "bucket_name": "logs"}],
            }
        ],
    )
    return index


def ref(index: RelationIndex, kind: str, ident: Any) -> Ref:
    found = index.ref(kind, ident)
    assert found is not None, (kind, ident)
    return found
