"""Load balancers, their port configs and backend nodes."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from tui.api.pagination import Page
from tui.api.services.base import Service, operation
from tui.models.loadbalancers import (
    LbConfig,
    LbConfigCreate,
    LbConfigUpdate,
    LbNode,
    LbNodeCreate,
    LbNodeUpdate,
    LoadBalancer,
    LoadBalancerCreate,
    LoadBalancerUpdate,
)


class LoadBalancersService(Service):
    """Typed access to the load balancer endpoints."""

    # -- balancers ------------------------------------------------------------------------

    @operation("loadbalancers.list")
    async def list_loadbalancers(
        self, page: int = 1, page_size: int | None = None
    ) -> Page[LoadBalancer]:
        """GET /loadbalancers

        Args:
            page: Page number, 1-based.
            page_size: Items per page (25..100).
        """
        return await self._page("loadbalancers.list", page=page, page_size=page_size)

    @operation("loadbalancers.list")
    def iter_loadbalancers(self) -> AsyncIterator[Page[LoadBalancer]]:
        """GET /loadbalancers

        Every page, fetched concurrently, yielded in order.
        """
        return self._iter("loadbalancers.list")

    @operation("loadbalancers.list")
    async def all_loadbalancers(self) -> list[LoadBalancer]:
        """GET /loadbalancers

        Every load balancer, all pages.
        """
        return await self._all("loadbalancers.list")

    @operation("loadbalancers.create")
    async def create_loadbalancer(
        self, body: LoadBalancerCreate | None = None, **fields: Any
    ) -> LoadBalancer:
        """POST /loadbalancers

        Creates the balancer and the given configs with their nodes, all or nothing. Charges
        apply.

        Args:
            body: The request; or pass its fields as keyword arguments.
            **fields: Fields of :class:`LoadBalancerCreate` when ``body`` is None.
        """
        request = body if body is not None else LoadBalancerCreate(**fields)
        return await self._one("loadbalancers.create", LoadBalancer, body=request)

    @operation("loadbalancers.view")
    async def get_loadbalancer(self, loadbalancer_id: int) -> LoadBalancer:
        """GET /loadbalancers/{loadbalancerId}

        Args:
            loadbalancer_id: Load balancer id.
        """
        return await self._one(
            "loadbalancers.view", LoadBalancer, {"loadbalancerId": loadbalancer_id}
        )

    @operation("loadbalancers.update")
    async def update_loadbalancer(
        self, loadbalancer_id: int, body: LoadBalancerUpdate | None = None, **fields: Any
    ) -> LoadBalancer:
        """PUT /loadbalancers/{loadbalancerId}

        Args:
            loadbalancer_id: Load balancer id.
            body: The changes; or pass them as keyword arguments (``label``,
                ``client_conn_throttle``, ``tags``, ``transfer``).
            **fields: Fields of :class:`LoadBalancerUpdate` when ``body`` is None.
        """
        request = body if body is not None else LoadBalancerUpdate(**fields)
        return await self._one(
            "loadbalancers.update",
            LoadBalancer,
            {"loadbalancerId": loadbalancer_id},
            body=request,
        )

    @operation("loadbalancers.delete")
    async def delete_loadbalancer(self, loadbalancer_id: int) -> None:
        """DELETE /loadbalancers/{loadbalancerId}

        Irreversible: deletes its configs and nodes and loses its addresses; the backend
        instances are untouched.

        Args:
            loadbalancer_id: Load balancer id.
        """
        await self._call("loadbalancers.delete", {"loadbalancerId": loadbalancer_id})

    # -- configs --------------------------------------------------------------------------

    @operation("loadbalancers.configs.list")
    async def list_configs(
        self, loadbalancer_id: int, page: int = 1, page_size: int | None = None
    ) -> Page[LbConfig]:
        """GET /loadbalancers/{loadbalancerId}/configs

        Args:
            loadbalancer_id: Load balancer id.
            page: Page number, 1-based.
            page_size: Items per page (25..100).
        """
        return await self._page(
            "loadbalancers.configs.list",
            {"loadbalancerId": loadbalancer_id},
            page=page,
            page_size=page_size,
        )

    @operation("loadbalancers.configs.list")
    def iter_configs(self, loadbalancer_id: int) -> AsyncIterator[Page[LbConfig]]:
        """GET /loadbalancers/{loadbalancerId}/configs

        Every page, fetched concurrently, yielded in order.

        Args:
            loadbalancer_id: Load balancer id.
        """
        return self._iter("loadbalancers.configs.list", {"loadbalancerId": loadbalancer_id})

    @operation("loadbalancers.configs.list")
    async def all_configs(self, loadbalancer_id: int) -> list[LbConfig]:
        """GET /loadbalancers/{loadbalancerId}/configs

        Every port config of the balancer, all pages.

        Args:
            loadbalancer_id: Load balancer id.
        """
        return await self._all("loadbalancers.configs.list", {"loadbalancerId": loadbalancer_id})

    @operation("loadbalancers.configs.create")
    async def create_config(
        self, loadbalancer_id: int, body: LbConfigCreate | None = None, **fields: Any
    ) -> LbConfig:
        """POST /loadbalancers/{loadbalancerId}/configs

        Every field is optional (port 80, http, roundrobin, no health check by default).

        Args:
            loadbalancer_id: Load balancer id.
            body: The request; or pass its fields as keyword arguments.
            **fields: Fields of :class:`LbConfigCreate` when ``body`` is None.
        """
        request = body if body is not None else LbConfigCreate(**fields)
        return await self._one(
            "loadbalancers.configs.create",
            LbConfig,
            {"loadbalancerId": loadbalancer_id},
            body=request,
        )

    @operation("loadbalancers.configs.view")
    async def get_config(self, loadbalancer_id: int, config_id: int) -> LbConfig:
        """GET /loadbalancers/{loadbalancerId}/configs/{configId}

        Args:
            loadbalancer_id: Load balancer id.
            config_id: Config id.
        """
        return await self._one(
            "loadbalancers.configs.view",
            LbConfig,
            {"loadbalancerId": loadbalancer_id, "configId": config_id},
        )

    @operation("loadbalancers.configs.update")
    async def update_config(
        self,
        loadbalancer_id: int,
        config_id: int,
        body: LbConfigUpdate | None = None,
        **fields: Any,
    ) -> LbConfig:
        """PUT /loadbalancers/{loadbalancerId}/configs/{configId}

        Args:
            loadbalancer_id: Load balancer id.
            config_id: Config id.
            body: The changes; or pass them as keyword arguments.
            **fields: Fields of :class:`LbConfigUpdate` when ``body`` is None.
        """
        request = body if body is not None else LbConfigUpdate(**fields)
        return await self._one(
            "loadbalancers.configs.update",
            LbConfig,
            {"loadbalancerId": loadbalancer_id, "configId": config_id},
            body=request,
        )

    @operation("loadbalancers.configs.delete")
    async def delete_config(self, loadbalancer_id: int, config_id: int) -> None:
        """DELETE /loadbalancers/{loadbalancerId}/configs/{configId}

        Deletes its nodes too; the port stops answering.

        Args:
            loadbalancer_id: Load balancer id.
            config_id: Config id.
        """
        await self._call(
            "loadbalancers.configs.delete",
            {"loadbalancerId": loadbalancer_id, "configId": config_id},
        )

    # -- nodes ----------------------------------------------------------------------------

    @operation("loadbalancers.nodes.list")
    async def list_nodes(
        self,
        loadbalancer_id: int,
        config_id: int,
        page: int = 1,
        page_size: int | None = None,
    ) -> Page[LbNode]:
        """GET /loadbalancers/{loadbalancerId}/configs/{configId}/nodes

        Args:
            loadbalancer_id: Load balancer id.
            config_id: Config id.
            page: Page number, 1-based.
            page_size: Items per page (25..100).
        """
        return await self._page(
            "loadbalancers.nodes.list",
            {"loadbalancerId": loadbalancer_id, "configId": config_id},
            page=page,
            page_size=page_size,
        )

    @operation("loadbalancers.nodes.list")
    def iter_nodes(self, loadbalancer_id: int, config_id: int) -> AsyncIterator[Page[LbNode]]:
        """GET /loadbalancers/{loadbalancerId}/configs/{configId}/nodes

        Every page, fetched concurrently, yielded in order.

        Args:
            loadbalancer_id: Load balancer id.
            config_id: Config id.
        """
        return self._iter(
            "loadbalancers.nodes.list",
            {"loadbalancerId": loadbalancer_id, "configId": config_id},
        )

    @operation("loadbalancers.nodes.list")
    async def all_nodes(self, loadbalancer_id: int, config_id: int) -> list[LbNode]:
        """GET /loadbalancers/{loadbalancerId}/configs/{configId}/nodes

        Every backend of the config, all pages.

        Args:
            loadbalancer_id: Load balancer id.
            config_id: Config id.
        """
        return await self._all(
            "loadbalancers.nodes.list",
            {"loadbalancerId": loadbalancer_id, "configId": config_id},
        )

    @operation("loadbalancers.nodes.create")
    async def create_node(
        self,
        loadbalancer_id: int,
        config_id: int,
        body: LbNodeCreate | None = None,
        **fields: Any,
    ) -> LbNode:
        """POST /loadbalancers/{loadbalancerId}/configs/{configId}/nodes

        Args:
            loadbalancer_id: Load balancer id.
            config_id: Config id.
            body: The request; or pass ``address``, ``label``, ``mode``, ``weight``.
            **fields: Fields of :class:`LbNodeCreate` when ``body`` is None.
        """
        request = body if body is not None else LbNodeCreate(**fields)
        return await self._one(
            "loadbalancers.nodes.create",
            LbNode,
            {"loadbalancerId": loadbalancer_id, "configId": config_id},
            body=request,
        )

    @operation("loadbalancers.nodes.view")
    async def get_node(self, loadbalancer_id: int, config_id: int, node_id: int) -> LbNode:
        """GET /loadbalancers/{loadbalancerId}/configs/{configId}/nodes/{nodeId}

        The reference asks for the ``loadbalancers:read_write`` scope here, even for reading.

        Args:
            loadbalancer_id: Load balancer id.
            config_id: Config id.
            node_id: Node id.
        """
        return await self._one(
            "loadbalancers.nodes.view",
            LbNode,
            {"loadbalancerId": loadbalancer_id, "configId": config_id, "nodeId": node_id},
        )

    @operation("loadbalancers.nodes.update")
    async def update_node(
        self,
        loadbalancer_id: int,
        config_id: int,
        node_id: int,
        body: LbNodeUpdate | None = None,
        **fields: Any,
    ) -> LbNode:
        """PUT /loadbalancers/{loadbalancerId}/configs/{configId}/nodes/{nodeId}

        Args:
            loadbalancer_id: Load balancer id.
            config_id: Config id.
            node_id: Node id.
            body: The changes; or pass ``label``, ``address``, ``mode``, ``weight``.
            **fields: Fields of :class:`LbNodeUpdate` when ``body`` is None.
        """
        request = body if body is not None else LbNodeUpdate(**fields)
        return await self._one(
            "loadbalancers.nodes.update",
            LbNode,
            {"loadbalancerId": loadbalancer_id, "configId": config_id, "nodeId": node_id},
            body=request,
        )

    @operation("loadbalancers.nodes.delete")
    async def delete_node(self, loadbalancer_id: int, config_id: int, node_id: int) -> None:
        """DELETE /loadbalancers/{loadbalancerId}/configs/{configId}/nodes/{nodeId}

        The backend instance itself is untouched.

        Args:
            loadbalancer_id: Load balancer id.
            config_id: Config id.
            node_id: Node id.
        """
        await self._call(
            "loadbalancers.nodes.delete",
            {"loadbalancerId": loadbalancer_id, "configId": config_id, "nodeId": node_id},
        )
