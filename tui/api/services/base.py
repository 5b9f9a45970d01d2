"""Shared plumbing of the per-area services."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Mapping
from typing import Any, TypeVar, cast

from pydantic import BaseModel

from tui.api.client import ApiClient
from tui.api.endpoints import endpoint
from tui.api.pagination import Page

M = TypeVar("M", bound=BaseModel)
F = TypeVar("F", bound=Callable[..., Any])


def operation(*names: str) -> Callable[[F], F]:
    """Mark a service method as the client of the endpoints ``names``.

    The coverage test reads these marks to prove every registry entry has a service method.

    Args:
        *names: Endpoint names from ``tui.api.endpoints.REGISTRY``.
    """
    for name in names:
        endpoint(name)  # fail at import time on a typo

    def mark(fn: F) -> F:
        fn.__endpoints__ = names  # type: ignore[attr-defined]
        return fn

    return mark


class Service:
    """Base of one area's service: typed methods over :class:`ApiClient`.

    Subclasses define one method per operation; its docstring's first line is ``METHOD /path``
    so the mapping to the reference stays obvious.

    Args:
        client: The shared API client.
    """

    def __init__(self, client: ApiClient) -> None:
        self.client = client

    async def _call(
        self,
        name: str,
        path_params: Mapping[str, Any] | None = None,
        *,
        body: BaseModel | Mapping[str, Any] | None = None,
        query: Mapping[str, Any] | None = None,
    ) -> Any:
        """Run an operation and return raw JSON."""
        return await self.client.call(name, path_params, body=body, query=query)

    async def _one(
        self,
        name: str,
        model: type[M],
        path_params: Mapping[str, Any] | None = None,
        *,
        body: BaseModel | Mapping[str, Any] | None = None,
        query: Mapping[str, Any] | None = None,
    ) -> M:
        """Run an operation and validate its answer as ``model``."""
        data = await self._call(name, path_params, body=body, query=query)
        return model.model_validate(data)

    async def _page(
        self,
        name: str,
        path_params: Mapping[str, Any] | None = None,
        *,
        page: int = 1,
        page_size: int | None = None,
        query: Mapping[str, Any] | None = None,
    ) -> Page[Any]:
        """One page of a collection operation, items typed by the endpoint's response model."""
        return await self.client.fetch_page(
            name, path_params, page=page, page_size=page_size, query=query
        )

    def _iter(
        self,
        name: str,
        path_params: Mapping[str, Any] | None = None,
        *,
        query: Mapping[str, Any] | None = None,
    ) -> AsyncIterator[Page[Any]]:
        """Every page of a collection operation, concurrently fetched, yielded in order."""
        return self.client.iter_all(name, path_params, query=query)

    async def _all(
        self,
        name: str,
        path_params: Mapping[str, Any] | None = None,
        *,
        query: Mapping[str, Any] | None = None,
    ) -> list[Any]:
        """Every item of a collection operation."""
        return cast(list[Any], await self.client.fetch_all(name, path_params, query=query))

    @staticmethod
    def endpoint_path(name: str) -> str:
        """``METHOD /path`` of an operation (for confirm dialogs and help)."""
        return endpoint(name).key
