"""Updates accept what a client read: every update operation of the registry takes back the
representation its read answers, unchanged, and changes nothing; a read-only field sent with
another value is still refused, naming it.

The operations come from the endpoint registry (every ``PUT``), so a new update without a case
here fails :func:`test_every_update_operation_has_a_case`.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest

from tui.api.endpoints import REGISTRY, Endpoint
from tui.simulator import DEMO_TOKENS, Simulator, VirtualClock
from tui.simulator.app import DEFAULT_TIMINGS
from tui.simulator.handlers.object_storage import ACCOUNT

UPDATES = sorted(e.name for e in REGISTRY.values() if e.method == "PUT")
"""Every update operation (derived, never listed by hand)."""


def _row(table: str, **where: Any) -> Callable[[Simulator], dict[str, Any]]:
    def find(sim: Simulator) -> dict[str, Any]:
        return next(
            r for r in sim.store.rows(table) if all(r.get(k) == v for k, v in where.items())
        )

    return find


_WEB = _row("compute.instances", label="web-prod-1")
_DB_PRIMARY = _row("compute.instances", label="db-primary")
_BALANCER = _row("loadbalancers.balancers", label="web-frontend")
_HTTPS = _row("loadbalancers.configs", port=443)
_ZONE = _row("domains.domains", domain="example.com")
_SRV = _row("domains.records", type="SRV")
_CLUSTER = _row("k8s.clusters", label="shop-prod")
_BUCKET = _row("object_storage.buckets", label="cloudtui-site")
_OBJECT = "site/index.html"


def _first(table: str) -> Callable[[Simulator], dict[str, Any]]:
    return lambda sim: sim.store.rows(table)[0]


@dataclass(frozen=True)
class Case:
    """How to reach one update's resource.

    Attributes:
        params: Path parameters of the update (a seeded resource).
        query: Query of the read (the object ACL read names its object there).
        extra: Fields the update needs besides the echo (the object ACL names its object).
        changed: A read-only field and another value for it: refused, naming the field (None
            where the read answers no read-only field).
    """

    params: Callable[[Simulator], dict[str, Any]]
    query: dict[str, Any] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)
    changed: tuple[str, Any] | None = ("id", 1)


def _bucket(sim: Simulator) -> dict[str, Any]:
    bucket = _BUCKET(sim)
    return {"clusterId": bucket["cluster"], "bucket": bucket["label"]}


CASES: dict[str, Case] = {
    "profile.update": Case(lambda sim: {}, changed=("username", "someone-else")),
    "profile.preferences.update": Case(lambda sim: {}, changed=None),
    "object_storage.buckets.access_update": Case(_bucket, changed=("hostname", "x.example")),
    "object_storage.objects.acl_update": Case(
        _bucket, query={"name": _OBJECT}, extra={"name": _OBJECT}, changed=("acl_xml", "<x/>")
    ),
    "compute.instances.update": Case(
        lambda sim: {"computeId": _WEB(sim)["id"]}, changed=("region", "eu-west")
    ),
    "compute.configs.update": Case(
        lambda sim: {
            "computeId": _DB_PRIMARY(sim)["id"],
            "configId": next(
                c["id"]
                for c in sim.store.rows("compute.configs")
                if c["_compute_id"] == _DB_PRIMARY(sim)["id"]
            ),
        }
    ),
    "loadbalancers.update": Case(lambda sim: {"loadbalancerId": _BALANCER(sim)["id"]}),
    "loadbalancers.configs.update": Case(
        lambda sim: {"loadbalancerId": _BALANCER(sim)["id"], "configId": _HTTPS(sim)["id"]},
        changed=("ssl_fingerprint", "00:11"),
    ),
    "loadbalancers.nodes.update": Case(
        lambda sim: {
            "loadbalancerId": _BALANCER(sim)["id"],
            "configId": _HTTPS(sim)["id"],
            "nodeId": next(
                n["id"]
                for n in sim.store.rows("loadbalancers.nodes")
                if n["_config_id"] == _HTTPS(sim)["id"]
            ),
        }
    ),
    "domains.update": Case(lambda sim: {"domainId": _ZONE(sim)["id"]}),
    "domains.records.update": Case(
        lambda sim: {"domainId": _SRV(sim)["_domain_id"], "recordId": _SRV(sim)["id"]}
    ),
    "databases.mysql.update": Case(
        lambda sim: {
            "instanceId": _row("databases.instances", engine="mysql", status="active")(sim)["id"]
        },
        changed=("engine", "mongodb"),
    ),
    "databases.mongodb.update": Case(
        lambda sim: {"instanceId": _row("databases.instances", engine="mongodb")(sim)["id"]},
        changed=("cluster_size", 3),
    ),
    "k8s.clusters.update": Case(
        lambda sim: {"clusterId": _CLUSTER(sim)["id"]}, changed=("region", "eu-west")
    ),
    "k8s.pools.update": Case(
        lambda sim: {
            "clusterId": _CLUSTER(sim)["id"],
            "poolId": next(
                p["id"]
                for p in sim.store.rows("k8s.pools")
                if p["_cluster_id"] == _CLUSTER(sim)["id"]
            ),
        },
        changed=("type", "std-8"),
    ),
    "managed.contacts.update": Case(
        lambda sim: {"contactId": _first("managed.contacts")(sim)["id"]}
    ),
    "managed.credentials.update": Case(
        lambda sim: {"credentialId": _first("managed.credentials")(sim)["id"]}
    ),
    "managed.compute_settings.update": Case(
        lambda sim: {"computeId": _WEB(sim)["id"]}, changed=("label", "renamed")
    ),
    "managed.services.update": Case(
        lambda sim: {"serviceId": _first("managed.services")(sim)["id"]}
    ),
    "volumes.update": Case(
        lambda sim: {"volumeId": _first("volumes.volumes")(sim)["id"]}, changed=("size", 4096)
    ),
    "deployscripts.update": Case(
        lambda sim: {
            "deployscriptId": _row("deployscripts.scripts", label="nightly backup agent")(sim)["id"]
        },
        changed=("deployments_total", 12345),
    ),
    "images.update": Case(
        lambda sim: {
            "imageId": next(
                i["id"]
                for i in sim.store.rows("images.images")
                if not i["is_public"] and i["status"] == "available"
            )
        },
        changed=("size", 1),
    ),
}


def unchanged(before: dict[str, Any], after: dict[str, Any]) -> bool:
    """True when ``after`` is ``before`` but for the time of the last update."""
    return {k: v for k, v in after.items() if k != "updated"} == {
        k: v for k, v in before.items() if k != "updated"
    }


def read_of(update: Endpoint) -> Endpoint:
    """The read a client echoes into ``update``: a GET of the same path, else of the path above."""
    gets = {e.path: e for e in REGISTRY.values() if e.method == "GET"}
    return gets.get(update.path) or gets[update.path.rsplit("/", 1)[0]]


def _http(sim: Simulator) -> httpx.AsyncClient:
    return httpx.AsyncClient(
        transport=sim.transport(),
        base_url="http://sim.local/v4",
        headers={"Authorization": f"Bearer {DEMO_TOKENS['unrestricted']}"},
    )


async def _read(sim: Simulator, name: str, case: Case) -> Any:
    path = read_of(REGISTRY[name]).path.format(**case.params(sim))
    async with _http(sim) as http:
        response = await http.get(path, params=case.query)
    assert response.status_code == 200, response.text
    return response.json()


async def _update(sim: Simulator, name: str, case: Case, body: Any) -> httpx.Response:
    path = REGISTRY[name].path.format(**case.params(sim))
    async with _http(sim) as http:
        return await http.put(path, json=body)


def test_every_update_operation_has_a_case() -> None:
    assert UPDATES and set(UPDATES) == set(CASES)


@pytest.mark.parametrize("name", UPDATES)
async def test_an_update_takes_back_what_its_read_answered(sim: Simulator, name: str) -> None:
    case = CASES[name]
    before = await _read(sim, name, case)
    assert isinstance(before, dict) and before
    response = await _update(sim, name, case, {**before, **case.extra})
    assert response.status_code == 200, response.text
    assert unchanged(before, await _read(sim, name, case))


@pytest.mark.parametrize("name", [n for n in UPDATES if CASES[n].changed is not None])
async def test_a_changed_read_only_field_is_still_refused(sim: Simulator, name: str) -> None:
    case = CASES[name]
    assert case.changed is not None
    read_only, value = case.changed
    before = await _read(sim, name, case)
    assert read_only in before and before[read_only] != value
    body = {**before, **case.extra, read_only: value}
    response = await _update(sim, name, case, body)
    assert response.status_code == 400, response.text
    assert [e.get("field") for e in response.json()["errors"]] == [read_only]
    assert await _read(sim, name, case) == before


@pytest.mark.parametrize("name", UPDATES)
async def test_an_unknown_field_is_still_refused(sim: Simulator, name: str) -> None:
    if name == "profile.preferences.update":
        pytest.skip("preferences are an arbitrary object: every field is the client's own")
    case = CASES[name]
    before = await _read(sim, name, case)
    response = await _update(sim, name, case, {**before, **case.extra, "no_such_field": 1})
    assert response.status_code == 400, response.text
    assert "no_such_field" in {e.get("field") for e in response.json()["errors"]}


Every = Callable[[Simulator], list[Case]]


def _each(table: str, params: Callable[[dict[str, Any]], dict[str, Any]], **where: Any) -> Every:
    """A case per seeded record of ``table`` (those matching ``where``)."""

    def cases(sim: Simulator) -> list[Case]:
        rows = [r for r in sim.store.rows(table) if all(r.get(k) == v for k, v in where.items())]
        return [Case(lambda s, r=row: params(r)) for row in rows]

    return cases


def _objects(sim: Simulator) -> list[Case]:
    return [
        Case(
            lambda s, o=obj: {"clusterId": o["_cluster"], "bucket": o["_bucket"]},
            query={"name": obj["name"]},
            extra={"name": obj["name"]},
        )
        for obj in sim.store.rows("object_storage.objects")
    ]


EVERY: dict[str, Every] = {
    "object_storage.buckets.access_update": _each(
        "object_storage.buckets",
        lambda r: {"clusterId": r["cluster"], "bucket": r["label"]},
        _account=ACCOUNT,  # not the buckets of other accounts that hold a label
    ),
    "object_storage.objects.acl_update": _objects,
    "compute.instances.update": _each("compute.instances", lambda r: {"computeId": r["id"]}),
    "compute.configs.update": _each(
        "compute.configs", lambda r: {"computeId": r["_compute_id"], "configId": r["id"]}
    ),
    "loadbalancers.update": _each("loadbalancers.balancers", lambda r: {"loadbalancerId": r["id"]}),
    "loadbalancers.configs.update": _each(
        "loadbalancers.configs",
        lambda r: {"loadbalancerId": r["_balancer_id"], "configId": r["id"]},
    ),
    "loadbalancers.nodes.update": _each(
        "loadbalancers.nodes",
        lambda r: {
            "loadbalancerId": r["_balancer_id"],
            "configId": r["_config_id"],
            "nodeId": r["id"],
        },
    ),
    "domains.update": _each("domains.domains", lambda r: {"domainId": r["id"]}),
    "domains.records.update": _each(
        "domains.records", lambda r: {"domainId": r["_domain_id"], "recordId": r["id"]}
    ),
    # Only an active database takes an update (the reference's rule).
    "databases.mysql.update": _each(
        "databases.instances", lambda r: {"instanceId": r["id"]}, engine="mysql", status="active"
    ),
    "databases.mongodb.update": _each(
        "databases.instances", lambda r: {"instanceId": r["id"]}, engine="mongodb", status="active"
    ),
    "k8s.clusters.update": _each("k8s.clusters", lambda r: {"clusterId": r["id"]}),
    "k8s.pools.update": _each(
        "k8s.pools", lambda r: {"clusterId": r["_cluster_id"], "poolId": r["id"]}
    ),
    "managed.contacts.update": _each("managed.contacts", lambda r: {"contactId": r["id"]}),
    "managed.credentials.update": _each("managed.credentials", lambda r: {"credentialId": r["id"]}),
    "managed.compute_settings.update": _each("compute.instances", lambda r: {"computeId": r["id"]}),
    "managed.services.update": _each("managed.services", lambda r: {"serviceId": r["id"]}),
    "volumes.update": _each("volumes.volumes", lambda r: {"volumeId": r["id"]}),
    # The account's own scripts: public ones of other users cannot be changed.
    "deployscripts.update": _each(
        "deployscripts.scripts", lambda r: {"deployscriptId": r["id"]}, username="demo"
    ),
    "images.update": _each("images.images", lambda r: {"imageId": r["id"]}, is_public=False),
}
"""Every seeded resource of each update that has many (the profile and its preferences are one)."""


def test_every_update_of_many_resources_walks_them_all() -> None:
    assert set(EVERY) == set(UPDATES) - {"profile.update", "profile.preferences.update"}


@pytest.mark.parametrize("name", sorted(EVERY))
async def test_every_seeded_resource_takes_back_what_it_answered(sim: Simulator, name: str) -> None:
    cases = EVERY[name](sim)
    assert cases
    for case in cases:
        before = await _read(sim, name, case)
        response = await _update(sim, name, case, {**before, **case.extra})
        assert response.status_code == 200, (before, response.text)
        assert unchanged(before, await _read(sim, name, case))


async def test_an_echo_may_carry_a_change(sim: Simulator) -> None:
    """Read, change one writable field, send everything back: only that field changes."""
    params = CASES["compute.instances.update"].params(sim)
    case = Case(lambda s: params)  # found by label, which this test changes
    before = await _read(sim, "compute.instances.update", case)
    schedule = {"day": "Monday", "window": "W4"}
    body = json.loads(json.dumps(before))
    body["label"] = "web-prod-renamed"
    body["backups"]["schedule"] = schedule
    response = await _update(sim, "compute.instances.update", case, body)
    assert response.status_code == 200, response.text
    after = await _read(sim, "compute.instances.update", case)
    assert after["label"] == "web-prod-renamed" and after["backups"]["schedule"] == schedule
    assert after["backups"]["enabled"] == before["backups"]["enabled"]
    assert unchanged(
        {k: v for k, v in before.items() if k not in ("label", "backups")},
        {k: v for k, v in after.items() if k not in ("label", "backups")},
    )


async def test_a_stale_echo_of_what_the_service_moves_by_itself_is_ignored(
    sim: Simulator,
) -> None:
    """Read while booting, update after the boot: the old status and time are no change."""
    params = {
        "computeId": next(
            r["id"] for r in sim.store.rows("compute.instances") if r["status"] == "offline"
        )
    }
    case = Case(lambda s: params)
    async with _http(sim) as http:
        assert (
            await http.post(f"/compute/instances/{params['computeId']}/boot")
        ).status_code == 200
    read = await _read(sim, "compute.instances.update", case)
    assert read["status"] == "booting"
    assert isinstance(sim.clock, VirtualClock)
    sim.clock.advance(DEFAULT_TIMINGS["compute.boot"])
    response = await _update(
        sim,
        "compute.instances.update",
        case,
        {**read, "updated": "2000-01-01T00:00:00", "label": "booted-1"},
    )
    assert response.status_code == 200, response.text
    after = await _read(sim, "compute.instances.update", case)
    assert (after["status"], after["label"]) == ("running", "booted-1")


async def test_null_for_an_optional_update_field_leaves_it_unchanged(sim: Simulator) -> None:
    case = CASES["compute.instances.update"]
    before = await _read(sim, "compute.instances.update", case)
    response = await _update(
        sim, "compute.instances.update", case, {"label": None, "watchdog_enabled": None}
    )
    assert response.status_code == 200, response.text
    assert unchanged(before, await _read(sim, "compute.instances.update", case))


async def test_null_still_clears_a_field_the_reference_makes_nullable(sim: Simulator) -> None:
    case = CASES["images.update"]
    before = await _read(sim, "images.update", case)
    assert before["description"]
    response = await _update(sim, "images.update", case, {"description": None})
    assert response.status_code == 200, response.text
    assert (await _read(sim, "images.update", case))["description"] is None
