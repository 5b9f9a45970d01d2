"""Every Kubernetes operation through the typed ApiClient.call, against the simulator."""

from __future__ import annotations

import pytest

from tui.api.client import ApiClient
from tui.models.k8s import (
    AutoscalerRequest,
    ClusterCreate,
    ClusterUpdate,
    ControlPlaneRequest,
    K8sCluster,
    PoolCreate,
    PoolDiskRequest,
    PoolUpdate,
)
from tui.simulator import Simulator, VirtualClock

REGIONS = ("us-east", "us-west", "eu-central", "eu-west")
TYPES = ("std-1", "std-2", "std-4", "ded-4")


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


async def test_versions_list_iter_view(client: ApiClient) -> None:
    page = await client.fetch_page("k8s.versions.list")
    assert [v.id for v in page.data] == ["1.31", "1.30", "1.29"]
    pages = [p async for p in client.iter_all("k8s.versions.list")]
    assert [v.id for p in pages for v in p.data] == ["1.31", "1.30", "1.29"]
    assert (await client.call("k8s.versions.view", {"version": "1.30"})).id == "1.30"


async def test_clusters_list_iter_view(client: ApiClient, prod_id: int) -> None:
    page = await client.fetch_page("k8s.clusters.list")
    labels = {c.label for c in page.data}
    assert {"shop-prod", "zürich-staging"} <= labels
    pages = [p async for p in client.iter_all("k8s.clusters.list")]
    assert [c.id for p in pages for c in p.data] == [c.id for c in page.data]
    prod = await client.call("k8s.clusters.view", {"clusterId": prod_id})
    assert prod.status == "ready"
    assert prod.control_plane is not None and prod.control_plane.high_availability is True


async def test_create_cluster_becomes_ready(client: ApiClient, clock: VirtualClock) -> None:
    cluster = await client.call(
        "k8s.clusters.create",
        body=ClusterCreate(
            label="batch",
            k8s_version="1.30",
            region="us-west",
            node_pools=[
                PoolCreate(
                    count=2,
                    type="std-2",
                    autoscaler=AutoscalerRequest(enabled=True, min=2, max=5),
                    disks=[PoolDiskRequest(size=2048, type="raw")],
                    tags=["batch"],
                )
            ],
            control_plane=ControlPlaneRequest(high_availability=False),
            tags=["jobs"],
        ),
    )
    assert isinstance(cluster, K8sCluster) and cluster.id is not None
    assert cluster.status == "not_ready" and cluster.tags == ["jobs"]
    pools = (await client.fetch_page("k8s.pools.list", {"clusterId": cluster.id})).data
    assert len(pools) == 1 and pools[0].count == 2
    assert pools[0].autoscaler is not None and pools[0].autoscaler.max == 5
    assert [d.type for d in pools[0].disks] == ["raw"]
    assert all(n.status == "not_ready" for n in pools[0].nodes)
    clock.advance(20)
    assert (await client.call("k8s.clusters.view", {"clusterId": cluster.id})).status == "ready"
    pool = await client.call(
        "k8s.pools.view", {"clusterId": cluster.id, "poolId": pools[0].id or 0}
    )
    assert all(n.status == "ready" for n in pool.nodes)


async def test_create_cluster_with_keywords(client: ApiClient) -> None:
    cluster = await client.call(
        "k8s.clusters.create",
        body=ClusterCreate(
            label="kw",
            k8s_version="1.31",
            region="eu-west",
            node_pools=[PoolCreate(count=1, type="std-1")],
        ),
    )
    assert cluster.k8s_version == "1.31"
    assert cluster.control_plane is not None and cluster.control_plane.high_availability is False


async def test_update_cluster(client: ApiClient, staging_id: int) -> None:
    cluster = await client.call(
        "k8s.clusters.update",
        {"clusterId": staging_id},
        body=ClusterUpdate(label="zürich-stage", k8s_version="1.31", tags=["blue"]),
    )
    assert (cluster.label, cluster.k8s_version, cluster.tags) == ("zürich-stage", "1.31", ["blue"])
    cluster = await client.call(
        "k8s.clusters.update",
        {"clusterId": staging_id},
        body=ClusterUpdate(control_plane=ControlPlaneRequest(high_availability=True)),
    )
    assert cluster.control_plane is not None and cluster.control_plane.high_availability is True


async def test_delete_cluster(client: ApiClient, sim: Simulator, staging_id: int) -> None:
    await client.call("k8s.clusters.delete", {"clusterId": staging_id})
    assert sim.store.get("k8s.clusters", staging_id) is None
    assert not [p for p in sim.store.rows("k8s.pools") if p["_cluster_id"] == staging_id]


async def test_recycle_cluster(client: ApiClient, prod_id: int, clock: VirtualClock) -> None:
    before = {
        n.id: n.instance_id
        for p in (await client.fetch_page("k8s.pools.list", {"clusterId": prod_id})).data
        for n in p.nodes
    }
    await client.call("k8s.clusters.recycle", {"clusterId": prod_id})
    pools = (await client.fetch_page("k8s.pools.list", {"clusterId": prod_id})).data
    after = {n.id: n.instance_id for p in pools for n in p.nodes}
    assert after.keys() == before.keys()
    assert all(after[k] != before[k] for k in before)
    assert all(n.status == "not_ready" for p in pools for n in p.nodes)
    clock.advance(8 * len(before))
    pools = (await client.fetch_page("k8s.pools.list", {"clusterId": prod_id})).data
    assert all(n.status == "ready" for p in pools for n in p.nodes)


async def test_api_endpoints(client: ApiClient, prod_id: int) -> None:
    page = await client.fetch_page("k8s.api_endpoints", {"clusterId": prod_id})
    assert page.data and all((e.endpoint or "").startswith("https://") for e in page.data)
    assert page.data[0].endpoint == f"https://{prod_id}.eu-central.k8s.example:443"
    pages = [p async for p in client.iter_all("k8s.api_endpoints", {"clusterId": prod_id})]
    assert [e.endpoint for p in pages for e in p.data] == [e.endpoint for e in page.data]


async def test_dashboard(client: ApiClient, prod_id: int) -> None:
    dash = await client.call("k8s.dashboard", {"clusterId": prod_id})
    assert dash.url is not None and dash.url.startswith("https://") and str(prod_id) in dash.url


async def test_kubeconfig_view_yaml_and_regenerate(client: ApiClient, prod_id: int) -> None:
    config = await client.call("k8s.kubeconfig.view", {"clusterId": prod_id})
    text = config.yaml_text()
    assert text.startswith("apiVersion: v1\n") and "token: " in text
    assert (await client.call("k8s.kubeconfig.view", {"clusterId": prod_id})).yaml_text() == text
    await client.call("k8s.kubeconfig.delete", {"clusterId": prod_id})
    regenerated = (await client.call("k8s.kubeconfig.view", {"clusterId": prod_id})).yaml_text()
    token = next(line for line in text.splitlines() if "token:" in line)
    assert token not in regenerated and "token: " in regenerated


async def test_pools_list_iter_create_view(
    client: ApiClient, prod_id: int, clock: VirtualClock
) -> None:
    page = await client.fetch_page("k8s.pools.list", {"clusterId": prod_id})
    assert len(page.data) == 2
    pages = [p async for p in client.iter_all("k8s.pools.list", {"clusterId": prod_id})]
    assert [p.id for pg in pages for p in pg.data] == [p.id for p in page.data]
    pool = await client.call(
        "k8s.pools.create",
        {"clusterId": prod_id},
        body=PoolCreate(count=2, type="std-1", tags=["extra"]),
    )
    assert pool.id is not None and pool.count == 2 and len(pool.nodes) == 2
    assert pool.autoscaler is not None and (pool.autoscaler.min, pool.autoscaler.max) == (2, 2)
    clock.advance(8)
    viewed = await client.call("k8s.pools.view", {"clusterId": prod_id, "poolId": pool.id})
    assert viewed.tags == ["extra"] and all(n.status == "ready" for n in viewed.nodes)
    kw = await client.call(
        "k8s.pools.create", {"clusterId": prod_id}, body=PoolCreate(count=1, type="std-2")
    )
    assert kw.count == 1


async def test_update_pool(client: ApiClient, staging_id: int) -> None:
    pool = (await client.fetch_page("k8s.pools.list", {"clusterId": staging_id})).data[0]
    assert pool.id is not None
    grown = await client.call(
        "k8s.pools.update", {"clusterId": staging_id, "poolId": pool.id}, body=PoolUpdate(count=4)
    )
    assert grown.count == 4 and len(grown.nodes) == 4
    shrunk = await client.call(
        "k8s.pools.update",
        {"clusterId": staging_id, "poolId": pool.id},
        body=PoolUpdate(count=1, autoscaler=AutoscalerRequest(enabled=True, min=1, max=3)),
    )
    assert shrunk.count == 1 and len(shrunk.nodes) == 1
    assert shrunk.autoscaler is not None and shrunk.autoscaler.enabled is True


async def test_delete_pool(client: ApiClient, prod_id: int) -> None:
    pools = (await client.fetch_page("k8s.pools.list", {"clusterId": prod_id})).data
    assert pools[0].id is not None
    await client.call("k8s.pools.delete", {"clusterId": prod_id, "poolId": pools[0].id})
    assert [
        p.id for p in (await client.fetch_page("k8s.pools.list", {"clusterId": prod_id})).data
    ] == [pools[1].id]


async def test_recycle_pool(client: ApiClient, prod_id: int, clock: VirtualClock) -> None:
    first, second = (await client.fetch_page("k8s.pools.list", {"clusterId": prod_id})).data
    assert first.id is not None
    await client.call("k8s.pools.recycle", {"clusterId": prod_id, "poolId": first.id})
    now_first = await client.call("k8s.pools.view", {"clusterId": prod_id, "poolId": first.id})
    assert {n.instance_id for n in now_first.nodes}.isdisjoint({n.instance_id for n in first.nodes})
    assert second.id is not None
    untouched = await client.call("k8s.pools.view", {"clusterId": prod_id, "poolId": second.id})
    assert [n.instance_id for n in untouched.nodes] == [n.instance_id for n in second.nodes]
    clock.advance(8 * len(first.nodes))
    assert all(
        n.status == "ready"
        for n in (
            await client.call("k8s.pools.view", {"clusterId": prod_id, "poolId": first.id})
        ).nodes
    )


async def test_node_view_delete_recycle(
    client: ApiClient, prod_id: int, clock: VirtualClock
) -> None:
    pool = (await client.fetch_page("k8s.pools.list", {"clusterId": prod_id})).data[0]
    node = pool.nodes[0]
    assert isinstance(node.id, str) and node.id.startswith(f"{pool.id}-")
    viewed = await client.call("k8s.nodes.view", {"clusterId": prod_id, "nodeId": node.id})
    assert viewed.instance_id == node.instance_id and viewed.status == "ready"
    await client.call("k8s.nodes.recycle", {"clusterId": prod_id, "nodeId": node.id})
    recycled = await client.call("k8s.nodes.view", {"clusterId": prod_id, "nodeId": node.id})
    assert recycled.instance_id != node.instance_id and recycled.status == "not_ready"
    clock.advance(8)
    assert (
        await client.call("k8s.nodes.view", {"clusterId": prod_id, "nodeId": node.id})
    ).status == "ready"
    await client.call("k8s.nodes.delete", {"clusterId": prod_id, "nodeId": node.id})
    assert pool.id is not None
    after = await client.call("k8s.pools.view", {"clusterId": prod_id, "poolId": pool.id})
    assert after.count == (pool.count or 0) - 1
    assert node.id not in [n.id for n in after.nodes]
