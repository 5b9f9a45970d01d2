"""Kubernetes clusters, node pools, nodes, versions, API endpoints, kubeconfigs, dashboards.

The reference has no grant kind for clusters: the simulator lets restricted users read clusters
but requires an unrestricted user for every change and for the kubeconfig (admin credentials).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from tui.api.pagination import Page
from tui.api.services.base import Service, operation
from tui.models.k8s import (
    ApiEndpoint,
    ClusterCreate,
    ClusterUpdate,
    DashboardUrl,
    K8sCluster,
    K8sVersion,
    Kubeconfig,
    NodePool,
    PoolCreate,
    PoolNode,
    PoolUpdate,
)


class K8sService(Service):
    """Typed access to the Kubernetes endpoints."""

    # -- clusters ---------------------------------------------------------------------------

    @operation("k8s.clusters.list")
    async def list_clusters(self, page: int = 1, page_size: int | None = None) -> Page[K8sCluster]:
        """GET /k8s/clusters

        Args:
            page: Page number, 1-based.
            page_size: Items per page (25..100).
        """
        return await self._page("k8s.clusters.list", page=page, page_size=page_size)

    @operation("k8s.clusters.list")
    def iter_clusters(self) -> AsyncIterator[Page[K8sCluster]]:
        """GET /k8s/clusters

        Every page, fetched concurrently, yielded in order.
        """
        return self._iter("k8s.clusters.list")

    @operation("k8s.clusters.create")
    async def create_cluster(self, body: ClusterCreate | None = None, **fields: Any) -> K8sCluster:
        """POST /k8s/clusters

        The cluster is ``not_ready`` until its control plane answers (2 to 5 minutes).

        Args:
            body: The request; or pass its fields as keyword arguments.
            **fields: Fields of :class:`ClusterCreate` when ``body`` is None.
        """
        request = body if body is not None else ClusterCreate(**fields)
        return await self._one("k8s.clusters.create", K8sCluster, body=request)

    @operation("k8s.clusters.view")
    async def get_cluster(self, cluster_id: int) -> K8sCluster:
        """GET /k8s/clusters/{clusterId}

        Args:
            cluster_id: Cluster id.
        """
        return await self._one("k8s.clusters.view", K8sCluster, {"clusterId": cluster_id})

    @operation("k8s.clusters.update")
    async def update_cluster(
        self, cluster_id: int, body: ClusterUpdate | None = None, **fields: Any
    ) -> K8sCluster:
        """PUT /k8s/clusters/{clusterId}

        ``tags`` replaces the whole list; ``k8s_version`` accepts only the next minor version;
        enabling ``control_plane.high_availability`` is irreversible.

        Args:
            cluster_id: Cluster id.
            body: The changes; or pass them as keyword arguments.
            **fields: Fields of :class:`ClusterUpdate` when ``body`` is None.
        """
        request = body if body is not None else ClusterUpdate(**fields)
        return await self._one(
            "k8s.clusters.update", K8sCluster, {"clusterId": cluster_id}, body=request
        )

    @operation("k8s.clusters.delete")
    async def delete_cluster(self, cluster_id: int) -> None:
        """DELETE /k8s/clusters/{clusterId}

        Irreversible: deletes every node of every pool (volumes are kept).

        Args:
            cluster_id: Cluster id.
        """
        await self._call("k8s.clusters.delete", {"clusterId": cluster_id})

    @operation("k8s.clusters.recycle")
    async def recycle_cluster(self, cluster_id: int) -> None:
        """POST /k8s/clusters/{clusterId}/recycle

        Rolling replacement of all nodes of all pools.

        Args:
            cluster_id: Cluster id.
        """
        await self._call("k8s.clusters.recycle", {"clusterId": cluster_id})

    @operation("k8s.api_endpoints")
    async def list_api_endpoints(
        self, cluster_id: int, page: int = 1, page_size: int | None = None
    ) -> Page[ApiEndpoint]:
        """GET /k8s/clusters/{clusterId}/api-endpoints

        Refused until the cluster is ready (2 to 5 minutes after creation).

        Args:
            cluster_id: Cluster id.
            page: Page number, 1-based.
            page_size: Items per page (25..100).
        """
        return await self._page(
            "k8s.api_endpoints", {"clusterId": cluster_id}, page=page, page_size=page_size
        )

    @operation("k8s.api_endpoints")
    def iter_api_endpoints(self, cluster_id: int) -> AsyncIterator[Page[ApiEndpoint]]:
        """GET /k8s/clusters/{clusterId}/api-endpoints

        Every page, yielded in order.

        Args:
            cluster_id: Cluster id.
        """
        return self._iter("k8s.api_endpoints", {"clusterId": cluster_id})

    @operation("k8s.dashboard")
    async def get_dashboard(self, cluster_id: int) -> DashboardUrl:
        """GET /k8s/clusters/{clusterId}/dashboard

        Args:
            cluster_id: Cluster id.
        """
        return await self._one("k8s.dashboard", DashboardUrl, {"clusterId": cluster_id})

    @operation("k8s.kubeconfig.view")
    async def get_kubeconfig(self, cluster_id: int) -> Kubeconfig:
        """GET /k8s/clusters/{clusterId}/kubeconfig

        Base64-encoded as the API sends it; :meth:`kubeconfig_yaml` decodes it. Refused until
        the cluster is ready.

        Args:
            cluster_id: Cluster id.
        """
        return await self._one("k8s.kubeconfig.view", Kubeconfig, {"clusterId": cluster_id})

    async def kubeconfig_yaml(self, cluster_id: int) -> str:
        """The cluster's kubeconfig as YAML text (``GET .../kubeconfig``, decoded).

        Args:
            cluster_id: Cluster id.

        Raises:
            ValueError: The API sent something that is not base64-encoded text.
        """
        return (await self.get_kubeconfig(cluster_id)).yaml_text()

    @operation("k8s.kubeconfig.delete")
    async def delete_kubeconfig(self, cluster_id: int) -> None:
        """DELETE /k8s/clusters/{clusterId}/kubeconfig

        Deletes and regenerates the kubeconfig: the old one stops working.

        Args:
            cluster_id: Cluster id.
        """
        await self._call("k8s.kubeconfig.delete", {"clusterId": cluster_id})

    # -- pools ------------------------------------------------------------------------------

    @operation("k8s.pools.list")
    async def list_pools(
        self, cluster_id: int, page: int = 1, page_size: int | None = None
    ) -> Page[NodePool]:
        """GET /k8s/clusters/{clusterId}/pools

        Args:
            cluster_id: Cluster id.
            page: Page number, 1-based.
            page_size: Items per page (25..100).
        """
        return await self._page(
            "k8s.pools.list", {"clusterId": cluster_id}, page=page, page_size=page_size
        )

    @operation("k8s.pools.list")
    def iter_pools(self, cluster_id: int) -> AsyncIterator[Page[NodePool]]:
        """GET /k8s/clusters/{clusterId}/pools

        Every page, yielded in order.

        Args:
            cluster_id: Cluster id.
        """
        return self._iter("k8s.pools.list", {"clusterId": cluster_id})

    @operation("k8s.pools.create")
    async def create_pool(
        self, cluster_id: int, body: PoolCreate | None = None, **fields: Any
    ) -> NodePool:
        """POST /k8s/clusters/{clusterId}/pools

        Args:
            cluster_id: Cluster id.
            body: The request; or pass its fields as keyword arguments.
            **fields: Fields of :class:`PoolCreate` when ``body`` is None.
        """
        request = body if body is not None else PoolCreate(**fields)
        return await self._one(
            "k8s.pools.create", NodePool, {"clusterId": cluster_id}, body=request
        )

    @operation("k8s.pools.view")
    async def get_pool(self, cluster_id: int, pool_id: int) -> NodePool:
        """GET /k8s/clusters/{clusterId}/pools/{poolId}

        Args:
            cluster_id: Cluster id.
            pool_id: Pool id.
        """
        return await self._one(
            "k8s.pools.view", NodePool, {"clusterId": cluster_id, "poolId": pool_id}
        )

    @operation("k8s.pools.update")
    async def update_pool(
        self, cluster_id: int, pool_id: int, body: PoolUpdate | None = None, **fields: Any
    ) -> NodePool:
        """PUT /k8s/clusters/{clusterId}/pools/{poolId}

        Nodes are created or deleted to match ``count``.

        Args:
            cluster_id: Cluster id.
            pool_id: Pool id.
            body: The changes; or pass them as keyword arguments.
            **fields: Fields of :class:`PoolUpdate` when ``body`` is None.
        """
        request = body if body is not None else PoolUpdate(**fields)
        return await self._one(
            "k8s.pools.update",
            NodePool,
            {"clusterId": cluster_id, "poolId": pool_id},
            body=request,
        )

    @operation("k8s.pools.delete")
    async def delete_pool(self, cluster_id: int, pool_id: int) -> None:
        """DELETE /k8s/clusters/{clusterId}/pools/{poolId}

        Irreversible: deletes every node of the pool.

        Args:
            cluster_id: Cluster id.
            pool_id: Pool id.
        """
        await self._call("k8s.pools.delete", {"clusterId": cluster_id, "poolId": pool_id})

    @operation("k8s.pools.recycle")
    async def recycle_pool(self, cluster_id: int, pool_id: int) -> None:
        """POST /k8s/clusters/{clusterId}/pools/{poolId}/recycle

        Rolling replacement of every node of the pool.

        Args:
            cluster_id: Cluster id.
            pool_id: Pool id.
        """
        await self._call("k8s.pools.recycle", {"clusterId": cluster_id, "poolId": pool_id})

    # -- nodes ------------------------------------------------------------------------------

    @operation("k8s.nodes.view")
    async def get_node(self, cluster_id: int, node_id: str) -> PoolNode:
        """GET /k8s/clusters/{clusterId}/nodes/{nodeId}

        Args:
            cluster_id: Cluster id.
            node_id: Node id (a string such as ``21000-5f3a2b1c``).
        """
        return await self._one(
            "k8s.nodes.view", PoolNode, {"clusterId": cluster_id, "nodeId": node_id}
        )

    @operation("k8s.nodes.delete")
    async def delete_node(self, cluster_id: int, node_id: str) -> None:
        """DELETE /k8s/clusters/{clusterId}/nodes/{nodeId}

        Irreversible; the node's pool shrinks by one.

        Args:
            cluster_id: Cluster id.
            node_id: Node id.
        """
        await self._call("k8s.nodes.delete", {"clusterId": cluster_id, "nodeId": node_id})

    @operation("k8s.nodes.recycle")
    async def recycle_node(self, cluster_id: int, node_id: str) -> None:
        """POST /k8s/clusters/{clusterId}/nodes/{nodeId}/recycle

        The node is replaced by a new instance; its local storage is erased.

        Args:
            cluster_id: Cluster id.
            node_id: Node id.
        """
        await self._call("k8s.nodes.recycle", {"clusterId": cluster_id, "nodeId": node_id})

    # -- versions ---------------------------------------------------------------------------

    @operation("k8s.versions.list")
    async def list_versions(self, page: int = 1, page_size: int | None = None) -> Page[K8sVersion]:
        """GET /k8s/versions

        Args:
            page: Page number, 1-based.
            page_size: Items per page (25..100).
        """
        return await self._page("k8s.versions.list", page=page, page_size=page_size)

    @operation("k8s.versions.list")
    def iter_versions(self) -> AsyncIterator[Page[K8sVersion]]:
        """GET /k8s/versions

        Every page, yielded in order.
        """
        return self._iter("k8s.versions.list")

    @operation("k8s.versions.view")
    async def get_version(self, version: str) -> K8sVersion:
        """GET /k8s/versions/{version}

        Args:
            version: ``<major>.<minor>`` such as ``1.31``.
        """
        return await self._one("k8s.versions.view", K8sVersion, {"version": version})
