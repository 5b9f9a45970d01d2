"""Fetching what a spec lists, whatever shape its listing has (headless).

Collections stream page by page through :meth:`ApiClient.iter_all` (pages 2..N concurrently),
object lists follow their marker, odd answers go through an adapter, and singletons yield one
item. A spec's ``also_listed`` listings follow its own (the clusters carrying a tag, found by a
filtered listing). Screens consume :func:`iter_chunks` and never care which shape it was.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Mapping
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any, Protocol

from tui.api.endpoints import REGISTRY
from tui.api.errors import CloudError
from tui.resources.adapters import ADAPTERS
from tui.resources.spec import AlsoListed, ResourceSpec, dig

log = logging.getLogger(__name__)

MAX_MARKER_CHUNKS = 200
"""Safety bound on marker-paged listings (a server repeating its marker must not loop forever)."""


class Client(Protocol):
    """The part of :class:`tui.api.client.ApiClient` the loader uses."""

    async def call(
        self,
        ep: Any,
        path_params: Mapping[str, Any] | None = None,
        *,
        query: Any = None,
        model: Any = None,
    ) -> Any: ...

    def iter_all(
        self,
        ep: Any,
        path_params: Mapping[str, Any] | None = None,
        *,
        model: Any = None,
        where: Mapping[str, Any] | None = None,
        slots: AbstractAsyncContextManager[Any] | None = None,
    ) -> AsyncIterator[Any]: ...


@dataclass(frozen=True)
class Chunk:
    """Items that arrived together.

    Attributes:
        items: Item dicts in display order.
        total: How many items the whole listing has, when the API said.
        last: True for the final chunk.
    """

    items: list[dict[str, Any]]
    total: int | None = None
    last: bool = False


def is_paged(spec: ResourceSpec) -> bool:
    """True when the spec's listing is a ``{data, page, pages, results}`` collection."""
    return REGISTRY[spec.list_endpoint].paged


def _items_of(spec: ResourceSpec, payload: Any) -> tuple[list[dict[str, Any]], Any]:
    """Items of a non-collection answer and the adapter's follow-up query."""
    if spec.adapter:
        adapted = ADAPTERS[spec.adapter](payload)
        return adapted.items, adapted.next_query
    if spec.items_key:
        raw = payload.get(spec.items_key) if isinstance(payload, Mapping) else None
        return [dict(i) for i in raw or [] if isinstance(i, Mapping)], None
    if isinstance(payload, list):
        return [dict(i) for i in payload if isinstance(i, Mapping)], None
    return ([dict(payload)] if isinstance(payload, Mapping) else []), None


async def iter_chunks(
    client: Client,
    spec: ResourceSpec,
    params: Mapping[str, Any] | None = None,
    *,
    slots: AbstractAsyncContextManager[Any] | None = None,
) -> AsyncIterator[Chunk]:
    """Everything the spec lists, chunk by chunk, as soon as each arrives.

    Args:
        client: The API client.
        spec: What to list.
        params: Path parameters (the parent's ids for child resources).
        slots: A bound on pages in flight shared with other listings (a fanout's accounts),
            instead of the client's own.

    Yields:
        Chunks in display order; the last one has ``last=True``.
    """
    params = dict(params or {})
    if not spec.also_listed:
        async for chunk in _own_chunks(client, spec, params, slots):
            yield chunk
        return
    seen: set[str] = set()
    async for chunk in _own_chunks(client, spec, params, slots):
        seen.update(spec.item_key(item) for item in chunk.items)
        yield Chunk(chunk.items, None, False)  # the total is not known before the others
    more: list[dict[str, Any]] = []
    for also in spec.also_listed:
        more += await _also_listed(client, spec, also, params)
    yield Chunk([item for item in more if spec.item_key(item) not in seen], None, True)


async def _own_chunks(
    client: Client,
    spec: ResourceSpec,
    params: dict[str, Any],
    slots: AbstractAsyncContextManager[Any] | None = None,
) -> AsyncIterator[Chunk]:
    """The chunks of the spec's own listing (see :func:`iter_chunks`)."""
    if is_paged(spec):
        adapter = ADAPTERS.get(spec.adapter) if spec.adapter else None
        pages = client.iter_all(spec.list_endpoint, params, model=dict, slots=slots)
        page = None
        async for page in pages:
            items = adapter({"data": page.data}).items if adapter else list(page.data)
            yield Chunk(items, page.results, page.page >= page.pages)
        if page is None:
            yield Chunk([], 0, True)
        return
    query: dict[str, Any] | None = None
    for _ in range(MAX_MARKER_CHUNKS):
        payload = await client.call(spec.list_endpoint, params, query=query, model=dict)
        items, follow = _items_of(spec, payload)
        yield Chunk(items, None, follow is None)
        if follow is None or follow == query:
            return
        query = follow
    yield Chunk([], None, True)


def holds(item: Mapping[str, Any], where: Mapping[str, Any]) -> bool:
    """True when every field ``where`` names holds its value (a list field: among its entries)."""
    for name, wanted in where.items():
        value = dig(item, name)
        if not (wanted in value if isinstance(value, list) else value == wanted):
            return False
    return True


async def _also_listed(
    client: Client, spec: ResourceSpec, also: AlsoListed, params: Mapping[str, Any]
) -> list[dict[str, Any]]:
    """The rows ``also`` adds to the spec's list for ``params`` (the clusters with a tag)."""
    where = {name: params.get(param) for name, param in also.where.items()}
    if any(value in (None, "") for value in where.values()):
        return []
    found: list[dict[str, Any]] = []
    try:
        async for page in client.iter_all(also.endpoint, {}, model=dict, where=where):
            found.extend(item for item in page.data if holds(item, where))
    except CloudError as error:
        # A kind this user may not list (no scope, no grant) is not part of the list.
        log.info("%s left out of %s: %s", also.endpoint, spec.id, error)
        return []
    entries = [{"type": also.kind, "data": item} for item in found]
    adapter = ADAPTERS.get(spec.adapter) if spec.adapter else None
    return adapter({"data": entries}).items if adapter else found


async def fetch_all(
    client: Client,
    spec: ResourceSpec,
    params: Mapping[str, Any] | None = None,
    *,
    slots: AbstractAsyncContextManager[Any] | None = None,
) -> list[dict[str, Any]]:
    """Every item the spec lists (pages fetched concurrently), for one refresh diff; ``slots``
    as for :func:`iter_chunks`."""
    items: list[dict[str, Any]] = []
    async for chunk in iter_chunks(client, spec, params, slots=slots):
        items.extend(chunk.items)
    return items


async def fetch_item(
    client: Client,
    spec: ResourceSpec,
    item: Mapping[str, Any],
    params: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """A fresh copy of one item through the spec's view endpoint.

    Singletons are fetched through their listing; specs without a view endpoint (or with an
    adapter, whose rows are derived) return ``item`` unchanged.

    Args:
        client: The API client.
        spec: The item's spec.
        item: The item as listed.
        params: The parent's path parameters.

    Returns:
        The item.
    """
    if spec.singleton:
        chunks = [c async for c in iter_chunks(client, spec, params)]
        found = [i for c in chunks for i in c.items]
        return found[0] if found else {}
    if not spec.view_endpoint or spec.adapter:
        return dict(item)
    payload = await client.call(spec.view_endpoint, spec.params_for(item, params), model=dict)
    if not isinstance(payload, Mapping):
        return dict(item)
    # Keep listing-only fields (a backup's slot ...) the view does not return.
    return {**item, **payload}
