"""Kubernetes rules: validation, readiness on the clock, upgrades, HA, pools, nodes, permissions."""

from __future__ import annotations

import base64
import copy
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from pydantic import ValidationError

from tests.simulator.rules import refusal_check
from tests.simulator.rules import refused as _refused
from tui.api.client import ApiClient
from tui.api.errors import ApiError
from tui.models.k8s import AutoscalerRequest, ClusterCreate, ClusterUpdate, PoolCreate
from tui.simulator import Simulator, VirtualClock
from tui.simulator.auth import DEMO_TOKENS

REGIONS = ("us-east", "us-west", "eu-central", "eu-west")
TYPES = ("std-1", "std-2", "std-4", "ded-4")
POOL = {"count": 1, "type": "std-1"}
GOOD: dict[str, Any] = {
    "label": "new-cluster",
    "k8s_version": "1.30",
    "region": "us-east",
    "node_pools": [POOL],
}


@pytest.fixture(autouse=True)
def catalog(sim: Simulator) -> None:
    """The region and type ids used here, in case the compute area has not seeded its catalog."""
    for rid in REGIONS:
        sim.store.table("compute.regions").setdefault(
            rid, {"id": rid, "label": rid, "country": "us", "status": "ok", "capabilities": []}
        )
    for tid in TYPES:
        sim.store.table("compute.types").setdefault(tid, {"id": tid, "label": tid})


def _cluster_id(sim: Simulator, label: str) -> int:
    return next(c["id"] for c in sim.store.rows("k8s.clusters") if c["label"] == label)


@pytest.fixture
def prod_id(sim: Simulator) -> int:
    return _cluster_id(sim, "shop-prod")


@pytest.fixture
def staging_id(sim: Simulator) -> int:
    return _cluster_id(sim, "zürich-staging")


def _pools(sim: Simulator, cluster_id: int) -> list[dict[str, Any]]:
    return [p for p in sim.store.rows("k8s.pools") if p["_cluster_id"] == cluster_id]


def _state(sim: Simulator) -> dict[str, Any]:
    return copy.deepcopy({k: v for k, v in sim.store.tables.items() if k.startswith("k8s.")})


_bad = refusal_check(_state)
"""The call is refused with ``status``, names ``field``, and changes nothing."""


# -- authentication, scopes, restricted users -----------------------------------------------


async def test_anonymous_and_unscoped_tokens_refused(
    client_for: Callable[..., ApiClient],
) -> None:
    await _refused(client_for("anonymous"), "k8s.clusters.list", status=401)
    await _refused(client_for("readonly"), "k8s.versions.list", status=403)


async def test_restricted_user_reads_but_cannot_change(
    client_for: Callable[..., ApiClient], sim: Simulator, prod_id: int
) -> None:
    restricted = client_for("restricted")
    assert (await restricted.call("k8s.clusters.list", model=dict))["results"] == 2
    assert (await restricted.call("k8s.pools.list", {"clusterId": prod_id}, model=dict))[
        "results"
    ] == 2
    before = _state(sim)
    await _refused(restricted, "k8s.clusters.create", body=GOOD, status=403)
    await _refused(restricted, "k8s.clusters.delete", {"clusterId": prod_id}, status=403)
    await _refused(restricted, "k8s.kubeconfig.view", {"clusterId": prod_id}, status=403)
    await _refused(restricted, "k8s.clusters.recycle", {"clusterId": prod_id}, status=403)
    assert _state(sim) == before


async def test_page_size_bounds(client: ApiClient) -> None:
    for size in (24, 101):
        with pytest.raises(ApiError) as info:
            await client.call("k8s.clusters.list", query={"page_size": size}, model=dict)
        assert info.value.status == 400 and "page_size" in info.value.field_errors()


async def test_unknown_ids_are_not_found(client: ApiClient, prod_id: int) -> None:
    await _refused(client, "k8s.clusters.view", {"clusterId": 1}, status=404)
    await _refused(client, "k8s.clusters.view", {"clusterId": "abc"}, status=404)
    await _refused(client, "k8s.versions.view", {"version": "1.20"}, status=404)
    await _refused(client, "k8s.nodes.view", {"clusterId": prod_id, "nodeId": "1-x"}, status=404)


# -- create ---------------------------------------------------------------------------------


@pytest.mark.parametrize("field", ["label", "k8s_version", "region", "node_pools"])
async def test_create_required_fields(client: ApiClient, sim: Simulator, field: str) -> None:
    body = {k: v for k, v in GOOD.items() if k != field}
    await _bad(client, sim, "k8s.clusters.create", None, body, field)


@pytest.mark.parametrize("label", ["", "x" * 33, "web-😀", "𝔘nicode"])
async def test_create_label_length_and_no_four_byte_characters(
    client: ApiClient, sim: Simulator, label: str
) -> None:
    await _bad(client, sim, "k8s.clusters.create", None, {**GOOD, "label": label}, "label")


async def test_non_ascii_label_returned_as_unicode_escapes(sim: Simulator) -> None:
    async with httpx.AsyncClient(
        transport=sim.transport(),
        base_url="http://sim.local/v4",
        headers={"Authorization": f"Bearer {DEMO_TOKENS['unrestricted']}"},
    ) as raw:
        response = await raw.post("/k8s/clusters", json={**GOOD, "label": "bérénice-ü"})
    assert response.status_code == 200
    assert '"label":"b\\u00e9r\\u00e9nice-\\u00fc"' in response.text
    assert response.json()["label"] == "bérénice-ü"


@pytest.mark.parametrize("version", ["1.28", "2.0", "latest", "1.31.2"])
async def test_create_version_must_be_known(
    client: ApiClient, sim: Simulator, version: str
) -> None:
    await _bad(
        client, sim, "k8s.clusters.create", None, {**GOOD, "k8s_version": version}, "k8s_version"
    )


async def test_create_region_must_be_valid(client: ApiClient, sim: Simulator) -> None:
    await _bad(client, sim, "k8s.clusters.create", None, {**GOOD, "region": "moon"}, "region")


@pytest.mark.parametrize("pools", [[], "std-1", {"count": 1, "type": "std-1"}])
async def test_create_node_pools_non_empty_array(
    client: ApiClient, sim: Simulator, pools: Any
) -> None:
    await _bad(
        client, sim, "k8s.clusters.create", None, {**GOOD, "node_pools": pools}, "node_pools"
    )


@pytest.mark.parametrize(
    ("pool", "field"),
    [
        ({"type": "std-1"}, "node_pools[0].count"),
        ({"count": 0, "type": "std-1"}, "node_pools[0].count"),
        ({"count": 101, "type": "std-1"}, "node_pools[0].count"),
        ({"count": 1}, "node_pools[0].type"),
        ({"count": 1, "type": "nope-1"}, "node_pools[0].type"),
        ({**POOL, "autoscaler": {"enabled": True, "min": 1}}, "node_pools[0].autoscaler.max"),
        ({**POOL, "autoscaler": {"enabled": True, "max": 3}}, "node_pools[0].autoscaler.min"),
        ({**POOL, "autoscaler": {"min": 4, "max": 2}}, "node_pools[0].autoscaler.min"),
        ({**POOL, "autoscaler": {"min": 0, "max": 2}}, "node_pools[0].autoscaler.min"),
        ({**POOL, "autoscaler": {"min": 1, "max": 101}}, "node_pools[0].autoscaler.max"),
        ({**POOL, "autoscaler": {"enabled": "yes"}}, "node_pools[0].autoscaler.enabled"),
        ({**POOL, "disks": [{"size": 1024, "type": "ext4"}] * 8}, "node_pools[0].disks"),
        ({**POOL, "disks": [{"size": 1024, "type": "xfs"}]}, "node_pools[0].disks[0].type"),
        ({**POOL, "disks": [{"type": "raw"}]}, "node_pools[0].disks[0].size"),
        ({**POOL, "tags": "a,b"}, "node_pools[0].tags"),
        ({**POOL, "colour": "blue"}, "node_pools[0].colour"),
        ("std-1", "node_pools[0]"),
    ],
)
async def test_create_pool_rules(client: ApiClient, sim: Simulator, pool: Any, field: str) -> None:
    body = {**GOOD, "node_pools": [pool]}
    await _bad(client, sim, "k8s.clusters.create", None, body, field)


async def test_create_control_plane_must_be_boolean(client: ApiClient, sim: Simulator) -> None:
    body = {**GOOD, "control_plane": {"high_availability": "true"}}
    await _bad(client, sim, "k8s.clusters.create", None, body, "control_plane.high_availability")


async def test_create_defaults_and_limits_accepted(client: ApiClient, sim: Simulator) -> None:
    pool = {
        "count": 100,
        "type": "std-1",
        "autoscaler": {"enabled": True},
        "disks": [{"size": 512, "type": "raw"}] * 7,
    }
    cluster = await client.call(
        "k8s.clusters.create", body={**GOOD, "label": "x" * 32, "node_pools": [pool]}, model=dict
    )
    assert cluster["control_plane"] == {"high_availability": False}
    assert cluster["tags"] == []
    (stored,) = _pools(sim, cluster["id"])
    assert stored["autoscaler"] == {"enabled": True, "min": 100, "max": 100}
    assert len(stored["nodes"]) == 100 and len(stored["disks"]) == 7


# -- readiness on the clock -----------------------------------------------------------------


async def test_endpoints_and_kubeconfig_not_ready_then_ready(
    client: ApiClient, clock: VirtualClock
) -> None:
    cluster = await client.call("k8s.clusters.create", body=GOOD, model=dict)
    params = {"clusterId": cluster["id"]}
    for name in ("k8s.api_endpoints", "k8s.kubeconfig.view", "k8s.kubeconfig.delete"):
        err = await _refused(client, name, params)
        assert err.errors[0].reason.startswith("The cluster is not ready yet:")
    assert (await client.call("k8s.clusters.view", params, model=dict))["status"] == "not_ready"
    clock.advance(19)
    await _refused(client, "k8s.api_endpoints", params)
    clock.advance(1)
    assert (await client.call("k8s.clusters.view", params, model=dict))["status"] == "ready"
    endpoints = await client.call("k8s.api_endpoints", params, model=dict)
    assert endpoints["data"][0]["endpoint"] == f"https://{cluster['id']}.us-east.k8s.example:443"
    config = base64.b64decode(
        (await client.call("k8s.kubeconfig.view", params, model=dict))["kubeconfig"]
    )
    assert f"server: https://{cluster['id']}.us-east.k8s.example:443" in config.decode()
    pools = (await client.call("k8s.pools.list", params, model=dict))["data"]
    assert all(n["status"] == "ready" for p in pools for n in p["nodes"])


async def test_kubeconfig_delete_regenerates_token(client: ApiClient, prod_id: int) -> None:
    params = {"clusterId": prod_id}

    async def token() -> str:
        text = base64.b64decode(
            (await client.call("k8s.kubeconfig.view", params, model=dict))["kubeconfig"]
        )
        return next(line for line in text.decode().splitlines() if "token:" in line)

    old = await token()
    assert old == await token()
    await client.call("k8s.kubeconfig.delete", params, model=dict)
    assert await token() != old


# -- update ---------------------------------------------------------------------------------


async def test_upgrade_to_next_minor_only(
    client: ApiClient, sim: Simulator, staging_id: int
) -> None:
    params = {"clusterId": staging_id}
    await _bad(client, sim, "k8s.clusters.update", params, {"k8s_version": "1.29"}, "k8s_version")
    await _bad(client, sim, "k8s.clusters.update", params, {"k8s_version": "1.32"}, "k8s_version")
    updated = await client.call(
        "k8s.clusters.update", params, body={"k8s_version": "1.31"}, model=dict
    )
    assert updated["k8s_version"] == "1.31"


async def test_upgrade_skipping_a_minor_refused(client: ApiClient, sim: Simulator) -> None:
    cluster = await client.call(
        "k8s.clusters.create", body={**GOOD, "k8s_version": "1.29"}, model=dict
    )
    params = {"clusterId": cluster["id"]}
    await _bad(client, sim, "k8s.clusters.update", params, {"k8s_version": "1.31"}, "k8s_version")
    assert (
        await client.call("k8s.clusters.update", params, body={"k8s_version": "1.30"}, model=dict)
    )["k8s_version"] == "1.30"


async def test_high_availability_is_irreversible(
    client: ApiClient, sim: Simulator, prod_id: int
) -> None:
    await _bad(
        client,
        sim,
        "k8s.clusters.update",
        {"clusterId": prod_id},
        {"control_plane": {"high_availability": False}},
        "control_plane.high_availability",
    )


async def test_enabling_high_availability_replaces_nodes(
    client: ApiClient, sim: Simulator, clock: VirtualClock, staging_id: int
) -> None:
    before = {n["id"]: n["instance_id"] for p in _pools(sim, staging_id) for n in p["nodes"]}
    params = {"clusterId": staging_id}
    cluster = await client.call(
        "k8s.clusters.update",
        params,
        body={"control_plane": {"high_availability": True}},
        model=dict,
    )
    assert cluster["control_plane"] == {"high_availability": True}
    nodes = [n for p in _pools(sim, staging_id) for n in p["nodes"]]
    assert all(n["instance_id"] != before[n["id"]] and n["status"] == "not_ready" for n in nodes)
    clock.advance(8 * len(nodes))
    await client.call("k8s.clusters.view", params, model=dict)
    assert all(n["status"] == "ready" for p in _pools(sim, staging_id) for n in p["nodes"])
    # Sending true again changes nothing.
    await client.call(
        "k8s.clusters.update",
        params,
        body={"control_plane": {"high_availability": True}},
        model=dict,
    )
    assert all(n["status"] == "ready" for p in _pools(sim, staging_id) for n in p["nodes"])


async def test_update_tags_replace_and_omitted_tags_are_removed(
    client: ApiClient, prod_id: int
) -> None:
    params = {"clusterId": prod_id}
    updated = await client.call("k8s.clusters.update", params, body={"tags": ["shop"]}, model=dict)
    assert updated["tags"] == ["shop"]
    relabelled = await client.call(
        "k8s.clusters.update", params, body={"label": "shop-prod-2"}, model=dict
    )
    assert relabelled["tags"] == ["shop"]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"label": ""}, "label"),
        ({"label": "🚀-prod"}, "label"),
        ({"tags": "prod"}, "tags"),
        ({"region": "us-west"}, "region"),
        ({"node_pools": [POOL]}, "node_pools"),
        ({"control_plane": True}, "control_plane"),
    ],
)
async def test_update_validation(
    client: ApiClient, sim: Simulator, prod_id: int, body: dict[str, Any], field: str
) -> None:
    await _bad(client, sim, "k8s.clusters.update", {"clusterId": prod_id}, body, field)


async def test_delete_cluster_removes_pools_and_pending_work(
    client: ApiClient, sim: Simulator, clock: VirtualClock
) -> None:
    cluster = await client.call("k8s.clusters.create", body=GOOD, model=dict)
    params = {"clusterId": cluster["id"]}
    await client.call("k8s.clusters.delete", params, model=dict)
    assert not _pools(sim, cluster["id"])
    assert not [e for e in sim.store.events if e["name"].startswith("k8s.")]
    await _refused(client, "k8s.clusters.view", params, status=404)


# -- pools and nodes ------------------------------------------------------------------------


async def test_pool_create_validation(client: ApiClient, sim: Simulator, prod_id: int) -> None:
    params = {"clusterId": prod_id}
    await _bad(client, sim, "k8s.pools.create", params, {"type": "std-1"}, "count")
    await _bad(client, sim, "k8s.pools.create", params, {"count": 2, "type": "x"}, "type")
    await _bad(
        client,
        sim,
        "k8s.pools.create",
        params,
        {**POOL, "autoscaler": {"min": 3, "max": 2}},
        "autoscaler.min",
    )


async def test_pool_update_count_adds_and_removes_nodes(
    client: ApiClient, sim: Simulator, clock: VirtualClock, staging_id: int
) -> None:
    pool = _pools(sim, staging_id)[0]
    params = {"clusterId": staging_id, "poolId": pool["id"]}
    grown = await client.call("k8s.pools.update", params, body={"count": 5}, model=dict)
    assert grown["count"] == 5 and len(grown["nodes"]) == 5
    assert [n["status"] for n in grown["nodes"]] == ["ready"] * 2 + ["not_ready"] * 3
    assert len({n["id"] for n in grown["nodes"]}) == 5
    clock.advance(8)
    assert all(
        n["status"] == "ready"
        for n in (await client.call("k8s.pools.view", params, model=dict))["nodes"]
    )
    shrunk = await client.call("k8s.pools.update", params, body={"count": 3}, model=dict)
    assert shrunk["count"] == 3 and [n["id"] for n in shrunk["nodes"]] == [
        n["id"] for n in grown["nodes"][:3]
    ]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"count": 0}, "count"),
        ({"count": 101}, "count"),
        ({"autoscaler": {"max": 4}}, "autoscaler.min"),
        ({"autoscaler": {"min": 5, "max": 4}}, "autoscaler.min"),
        ({"disks": [{"size": 1024, "type": "raw"}]}, "disks"),
        ({"type": "std-4"}, "type"),
    ],
)
async def test_pool_update_validation(
    client: ApiClient, sim: Simulator, staging_id: int, body: dict[str, Any], field: str
) -> None:
    pool = _pools(sim, staging_id)[0]
    params = {"clusterId": staging_id, "poolId": pool["id"]}
    await _bad(client, sim, "k8s.pools.update", params, body, field)


async def test_pool_update_autoscaler_defaults_to_count(
    client: ApiClient, sim: Simulator, staging_id: int
) -> None:
    pool = _pools(sim, staging_id)[0]
    params = {"clusterId": staging_id, "poolId": pool["id"]}
    updated = await client.call(
        "k8s.pools.update", params, body={"count": 4, "autoscaler": {"enabled": True}}, model=dict
    )
    assert updated["autoscaler"] == {"enabled": True, "min": 4, "max": 4}


async def test_pool_of_another_cluster_is_not_found(
    client: ApiClient, sim: Simulator, prod_id: int, staging_id: int
) -> None:
    pool = _pools(sim, staging_id)[0]
    await _refused(
        client, "k8s.pools.view", {"clusterId": prod_id, "poolId": pool["id"]}, status=404
    )


async def test_last_pool_cannot_be_deleted(
    client: ApiClient, sim: Simulator, staging_id: int
) -> None:
    (pool,) = _pools(sim, staging_id)
    before = _state(sim)
    await _refused(
        client, "k8s.pools.delete", {"clusterId": staging_id, "poolId": pool["id"]}, status=409
    )
    assert _state(sim) == before


async def test_node_ids_are_strings_and_delete_shrinks_pool(
    client: ApiClient, sim: Simulator, staging_id: int
) -> None:
    pool = _pools(sim, staging_id)[0]
    first, second = pool["nodes"]
    assert isinstance(first["id"], str) and first["id"].startswith(f"{pool['id']}-")
    node = await client.call(
        "k8s.nodes.view", {"clusterId": staging_id, "nodeId": first["id"]}, model=dict
    )
    assert node == {"id": first["id"], "instance_id": first["instance_id"], "status": "ready"}
    await client.call(
        "k8s.nodes.delete", {"clusterId": staging_id, "nodeId": first["id"]}, model=dict
    )
    after = await client.call(
        "k8s.pools.view", {"clusterId": staging_id, "poolId": pool["id"]}, model=dict
    )
    assert after["count"] == 1 and [n["id"] for n in after["nodes"]] == [second["id"]]
    # The last node of a pool stays: delete the pool (or cluster) instead.
    before = _state(sim)
    await _refused(
        client, "k8s.nodes.delete", {"clusterId": staging_id, "nodeId": second["id"]}, status=409
    )
    assert _state(sim) == before


async def test_node_recycle_new_instance_not_ready_then_ready(
    client: ApiClient, sim: Simulator, clock: VirtualClock, prod_id: int
) -> None:
    pool = _pools(sim, prod_id)[0]
    node, other = dict(pool["nodes"][0]), dict(pool["nodes"][1])  # copies: the store mutates
    params = {"clusterId": prod_id, "nodeId": node["id"]}
    await client.call("k8s.nodes.recycle", params, model=dict)
    recycled = await client.call("k8s.nodes.view", params, model=dict)
    assert recycled["id"] == node["id"] and recycled["instance_id"] != node["instance_id"]
    assert recycled["status"] == "not_ready"
    untouched = await client.call(
        "k8s.nodes.view", {"clusterId": prod_id, "nodeId": other["id"]}, model=dict
    )
    assert untouched["instance_id"] == other["instance_id"] and untouched["status"] == "ready"
    clock.advance(7)
    assert (await client.call("k8s.nodes.view", params, model=dict))["status"] == "not_ready"
    clock.advance(1)
    assert (await client.call("k8s.nodes.view", params, model=dict))["status"] == "ready"


async def test_recycled_node_deleted_before_ready_leaves_no_trace(
    client: ApiClient, sim: Simulator, clock: VirtualClock, prod_id: int
) -> None:
    pool = _pools(sim, prod_id)[0]
    node = pool["nodes"][0]
    params = {"clusterId": prod_id, "nodeId": node["id"]}
    await client.call("k8s.nodes.recycle", params, model=dict)
    await client.call("k8s.nodes.delete", params, model=dict)
    clock.advance(60)
    await _refused(client, "k8s.nodes.view", params, status=404)


# -- client-side request models -------------------------------------------------------------


def test_client_model_rules() -> None:
    ClusterCreate(**GOOD)
    for change in (
        {"label": ""},
        {"label": "x" * 33},
        {"label": "web-😀"},
        {"k8s_version": "latest"},
        {"node_pools": []},
        {"node_pools": [{"count": 0, "type": "std-1"}]},
        {"node_pools": [{**POOL, "disks": [{"size": 1, "type": "raw"}] * 8}]},
        {"node_pools": [{**POOL, "disks": [{"size": 1, "type": "xfs"}]}]},
    ):
        with pytest.raises(ValidationError):
            ClusterCreate(**{**GOOD, **change})
    with pytest.raises(ValidationError):
        AutoscalerRequest(min=2)
    with pytest.raises(ValidationError):
        AutoscalerRequest(min=3, max=2)
    with pytest.raises(ValidationError):
        PoolCreate(count=101, type="std-1")
    with pytest.raises(ValidationError):
        ClusterUpdate(label="🚀")
    assert ClusterUpdate(tags=[]).body() == {"tags": []}
