"""Each check rule finds its case and ignores the near miss beside it; each fix sends what the
API reference describes for it."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from tests.unit.tls_certs import self_signed
from tui.api.endpoints import REGISTRY
from tui.check.account import PARENT, Account
from tui.check.model import Finding
from tui.check.rules import BY_ID, RULES
from tui.check.run import evaluate

NOW = 1_793_610_000.0
"""2026-11-02T09:00:00Z (the simulator's virtual clock)."""
DAY = 86400.0


def ago(days: float) -> str:
    """An API date-time ``days`` before :data:`NOW` (negative: after it)."""
    return datetime.fromtimestamp(NOW - days * DAY, UTC).strftime("%Y-%m-%dT%H:%M:%S")


LB = {"balancers": [{"id": 10, "label": "lb", "region": "r1", "ipv4": "203.0.113.1"}]}
CONFIGS = [
    {"id": 20, "port": 80, "protocol": "http", "check": "none", PARENT: {"loadbalancerId": 10}},
    {
        "id": 21,
        "port": 81,
        "protocol": "tcp",
        "check": "connection",
        PARENT: {"loadbalancerId": 10},
    },
]


def _node(
    node_id: int, config_id: int, status: str, address: str = "192.168.1.5"
) -> dict[str, Any]:
    return {
        "id": node_id,
        "label": f"n{node_id}",
        "address": address,
        "status": status,
        PARENT: {"loadbalancerId": 10, "configId": config_id},
    }


def _certificate(config_id: int, ends_in_days: float) -> dict[str, Any]:
    pem, _key = self_signed(NOW + ends_in_days * DAY)
    config = {"id": config_id, "port": 443, "protocol": "https", PARENT: {"loadbalancerId": 10}}
    return {"config": config, "pem": pem, PARENT: config[PARENT]}


def _object(name: str, acl: str, xml: str = "") -> dict[str, Any]:
    return {"name": name, "acl": acl, "acl_xml": xml, PARENT: {"clusterId": "c", "bucket": "b"}}


ALL_USERS_READ = (
    "<Grant><Grantee><URI>http://acs.amazonaws.com/groups/global/AllUsers</URI></Grantee>"
    "<Permission>READ</Permission></Grant>"
)

CASES: dict[str, tuple[dict[str, list[dict[str, Any]]], set[str]]] = {
    "database-open-to-all": (
        {
            "databases": [
                {"id": 1, "engine": "mysql", "allow_list": ["10.0.0.1", "0.0.0.0/0"]},
                {"id": 2, "engine": "mongodb", "allow_list": ["::/0"]},
                {"id": 3, "engine": "mysql", "allow_list": ["0.0.0.0/1", "128.0.0.0/1"]},
            ]
        },
        {"1", "2"},
    ),
    "object-public": (
        {
            "objects": [
                _object("a.html", "public-read"),
                _object("c.html", "custom", ALL_USERS_READ),
                _object("b.html", "authenticated-read"),
                _object("d.html", "custom", "<Grant>owner only</Grant>"),
            ]
        },
        {"c/b/a.html", "c/b/c.html"},
    ),
    "important-without-backups": (
        {
            "instances": [
                {"id": 1, "tags": ["production"], "backups": {"enabled": False}},
                {"id": 2, "tags": ["production"], "backups": {"enabled": True}},
                {"id": 3, "tags": ["productionish"], "backups": {"enabled": False}},
            ]
        },
        {"1"},
    ),
    "lb-every-node-down": (
        {
            **LB,
            "lb_configs": [*CONFIGS, {**CONFIGS[0], "id": 22, "port": 82}],
            "lb_nodes": [
                _node(30, 20, "DOWN"),
                _node(31, 21, "DOWN"),
                _node(32, 21, "UP"),
            ],
        },
        {"10/20", "10/22"},
    ),
    "lb-certificate-expiry": (
        {
            **LB,
            "lb_configs": CONFIGS,
            "lb_certificates": [
                _certificate(40, 10),
                _certificate(41, -3),
                _certificate(42, 40),
            ],
        },
        {"10/40", "10/41"},
    ),
    "volume-unattached": (
        {"volumes": [{"id": 1, "compute_id": None}, {"id": 2, "compute_id": 5}]},
        {"1"},
    ),
    "instance-powered-off": (
        {
            "types": [],
            "instances": [
                {"id": 1, "status": "offline", "updated": ago(8)},
                {"id": 2, "status": "offline", "updated": ago(6)},
                {"id": 3, "status": "running", "updated": ago(30)},
            ],
        },
        {"1"},
    ),
    "lb-no-health-check": ({**LB, "lb_configs": CONFIGS}, {"10/20"}),
    "storage-key-all-buckets": (
        {
            "buckets": [{"cluster": "c", "label": "a"}, {"cluster": "c", "label": "b"}],
            "keys": [
                {"id": 1, "bucket_access": None},
                {
                    "id": 2,
                    "bucket_access": [
                        {"cluster": "c", "bucket_name": "a", "permissions": "read_write"},
                        {"cluster": "c", "bucket_name": "b", "permissions": "read_write"},
                    ],
                },
                {
                    "id": 3,
                    "bucket_access": [
                        {"cluster": "c", "bucket_name": "a", "permissions": "read_write"},
                        {"cluster": "c", "bucket_name": "b", "permissions": "read_only"},
                    ],
                },
                {"id": 4, "limited": True, "bucket_access": []},
            ],
        },
        {"1", "2"},
    ),
    "image-expiring": (
        {
            "images": [
                {"id": "private/1", "expiry": ago(-6)},
                {"id": "private/2", "expiry": ago(-8)},
                {"id": "compute/debian12", "expiry": None},
            ]
        },
        {"private/1"},
    ),
    "dns-record-dangling": (
        {
            "instances": [{"id": 1, "ipv4": ["192.0.2.1"], "ipv6": "2001:db8::1/128"}],
            "balancers": LB["balancers"],
            "domains": [{"id": 100, "domain": "example.com"}],
            "records": [
                {"id": n, "type": kind, "name": "www", "target": target, PARENT: {"domainId": 100}}
                for n, kind, target in (
                    (1, "A", "192.0.2.99"),
                    (2, "A", "192.0.2.1"),
                    (3, "AAAA", "2001:db8::1"),
                    (4, "A", "203.0.113.1"),
                    (5, "CNAME", "elsewhere.example"),
                    (6, "A", "[remote_addr]"),
                    (7, "AAAA", "2001:db8::99"),
                )
            ],
        },
        {"100/1", "100/7"},
    ),
    "lb-node-orphan": (
        {
            "balancers": [*LB["balancers"], {"id": 11, "label": "lb2", "region": "r2"}],
            "instances": [
                {"id": 1, "region": "r1", "ipv4": ["192.0.2.1", "192.168.1.5"]},
                {"id": 2, "region": "r2", "ipv4": ["192.168.1.6"]},
            ],
            "lb_configs": [*CONFIGS, {"id": 23, "port": 80, PARENT: {"loadbalancerId": 11}}],
            "lb_nodes": [
                _node(30, 20, "UP", "192.168.1.5:8080"),
                _node(31, 20, "UP", "192.168.1.6"),  # held, but in another region
                _node(32, 21, "UP", "192.168.1.5"),
                {
                    **_node(33, 23, "UP", "192.168.1.6"),
                    PARENT: {"loadbalancerId": 11, "configId": 23},
                },
            ],
        },
        {"10/20/31"},
    ),
    "database-allow-list-empty": (
        {
            "databases": [
                {"id": 1, "allow_list": []},
                {"id": 2, "allow_list": ["10.0.0.1"]},
                {"id": 3},
            ]
        },
        {"1"},
    ),
    "k8s-upgrade-available": (
        {
            "k8s_versions": [{"id": "1.31"}, {"id": "1.30"}],
            "clusters": [
                {"id": 1, "k8s_version": "1.30"},
                {"id": 2, "k8s_version": "1.31"},
                {"id": 3, "k8s_version": "1.28"},
            ],
        },
        {"1"},
    ),
    "domain-without-records": (
        {
            "domains": [
                {"id": 100, "type": "master"},
                {"id": 101, "type": "slave"},
                {"id": 102, "type": "master"},
            ],
            "records": [{"id": 1, "type": "A", "target": "192.0.2.1", PARENT: {"domainId": 102}}],
        },
        {"100"},
    ),
}
"""Rule -> (listings holding a case and near misses, the keys of the objects it must find)."""


def found(rule_id: str) -> list[Finding]:
    listings, _expected = CASES[rule_id]
    account = Account(listings, NOW, frozenset({"production"}))
    return evaluate(account, [BY_ID[rule_id]]).findings


def test_every_rule_has_a_case() -> None:
    assert set(CASES) == set(BY_ID)


@pytest.mark.parametrize("rule_id", list(CASES))
def test_rule_finds_its_case_and_ignores_the_near_miss(rule_id: str) -> None:
    assert {f.subject.key for f in found(rule_id)} == CASES[rule_id][1]


def test_important_tags_come_from_the_settings() -> None:
    listings, _ = CASES["important-without-backups"]
    rule = BY_ID["important-without-backups"]
    assert evaluate(Account(listings, NOW, frozenset()), [rule]).findings == []
    other = evaluate(Account(listings, NOW, frozenset({"productionish"})), [rule]).findings
    assert {f.subject.key for f in other} == {"3"}


def test_a_rule_missing_a_listing_is_not_checked() -> None:
    listings, _ = CASES["lb-node-orphan"]
    partial = {k: v for k, v in listings.items() if k != "instances"}
    result = evaluate(
        Account(partial, NOW), [BY_ID["lb-node-orphan"]], failed={"instances": "403 forbidden"}
    )
    assert result.findings == []
    assert "instances" in result.not_checked["lb-node-orphan"]
    assert "403 forbidden" in result.not_checked["lb-node-orphan"]
    assert not result.complete


def test_rules_are_ordered_most_severe_first_and_name_real_listings() -> None:
    from tui.check.gather import LISTINGS

    severities = [rule.severity for rule in RULES]
    assert severities == sorted(severities, reverse=True)
    for rule in RULES:
        assert set(rule.needs) <= set(LISTINGS), rule.id
        assert rule.fix is not None or rule.manual, f"{rule.id} says neither fix nor what to do"


# -- fixes -----------------------------------------------------------------------------------

EXPECTED_FIXES: dict[str, dict[str, list[tuple[str, str, dict[str, Any] | None]]]] = {
    "volume-unattached": {"1": [("DELETE", "/volumes/1", None)]},
    "instance-powered-off": {"1": [("DELETE", "/compute/instances/1", None)]},
    "database-open-to-all": {
        "1": [("PUT", "/databases/mysql/instances/1", {"allow_list": ["10.0.0.1"]})],
        "2": [("PUT", "/databases/mongodb/instances/2", {"allow_list": []})],
    },
    "object-public": {
        "c/b/a.html": [
            ("PUT", "/object-storage/buckets/c/b/object-acl", {"acl": "private", "name": "a.html"})
        ],
        "c/b/c.html": [
            ("PUT", "/object-storage/buckets/c/b/object-acl", {"acl": "private", "name": "c.html"})
        ],
    },
    "lb-no-health-check": {
        "10/20": [("PUT", "/loadbalancers/10/configs/20", {"check": "connection"})]
    },
    "k8s-upgrade-available": {"1": [("PUT", "/k8s/clusters/1", {"k8s_version": "1.31"})]},
    "dns-record-dangling": {
        "100/1": [("DELETE", "/domains/100/records/1", None)],
        "100/7": [("DELETE", "/domains/100/records/7", None)],
    },
    "lb-node-orphan": {"10/20/31": [("DELETE", "/loadbalancers/10/configs/20/nodes/31", None)]},
    "domain-without-records": {"100": [("DELETE", "/domains/100", None)]},
}
"""Rule -> object key -> the requests the reference describes for its fix."""


def test_every_fix_has_its_expected_requests() -> None:
    assert set(EXPECTED_FIXES) == {rule.id for rule in RULES if rule.fix is not None}


@pytest.mark.parametrize("rule_id", list(EXPECTED_FIXES))
def test_fix_sends_what_the_reference_describes(rule_id: str) -> None:
    sent = {f.subject.key: [(r.method, r.path, r.body) for r in f.requests] for f in found(rule_id)}
    assert sent == EXPECTED_FIXES[rule_id]
    for finding in found(rule_id):
        for request in finding.requests:
            model = REGISTRY[request.endpoint].request_model()
            # The body is one the request model (the reference's fields and rules) accepts.
            assert (request.body is None) == (model is None), request.endpoint
            if model is not None:
                model.model_validate(request.body)


def test_an_attached_volume_is_detached_before_it_is_deleted() -> None:
    from tui.check.fixes import detach_and_delete_volume
    from tui.check.model import subject

    attached = subject("volumes", {"id": 7, "compute_id": 5})
    assert [(r.method, r.path) for r in detach_and_delete_volume(attached)] == [
        ("POST", "/volumes/7/detach"),
        ("DELETE", "/volumes/7"),
    ]


def test_powered_off_instance_saving_is_its_type_price_with_backups() -> None:
    kind = {
        "id": "std-2",
        "price": {"monthly": 24.0, "hourly": 0.036},
        "addons": {"backups": {"price": {"monthly": 5.0, "hourly": 0.0075}}},
    }
    instances = [
        {"id": 1, "type": "std-2", "status": "offline", "updated": ago(9)},
        {"id": 2, "type": "std-2", "status": "offline", "updated": ago(9),
         "backups": {"enabled": True}},
        {"id": 3, "type": "gone-9", "status": "offline", "updated": ago(9)},
    ]  # fmt: skip
    account = Account({"types": [kind], "instances": instances}, NOW)
    result = evaluate(account, [BY_ID["instance-powered-off"]])
    assert {f.subject.key: f.saving for f in result.findings} == {"1": 24.0, "2": 29.0, "3": None}
    assert result.saving == 53.0 and result.saving_not_given == 1
