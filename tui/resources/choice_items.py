"""The items a form's choice source offers, fetched through the client (headless).

A plain source pages through its listing; one with an ``adapter`` reads a listing that is not a
collection; one with ``across`` asks its listing once per item of another listing (the backups
of every instance with backups), a few at a time, and copies the parent's fields it names into
each choice (the source instance's label). Then one item becomes one choice per ``each`` entry
(an instance's private addresses, or the instance marked unavailable without one), a ``local``
source adds what this machine holds (the keys in ``~/.ssh``), and a ``distinct`` one keeps one
choice per value.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from tui.api.errors import CloudError
from tui.resources.adapters import ADAPTERS
from tui.resources.loader import Client
from tui.resources.local_choices import LOCAL_CHOICES
from tui.resources.spec import dig

if TYPE_CHECKING:
    from tui.resources.forms import ChoiceSource

ACROSS_CONCURRENCY = 6
"""Parents asked at the same time by a source gathered across a listing."""


async def _listing(
    client: Client, source: ChoiceSource, params: Mapping[str, Any]
) -> list[dict[str, Any]]:
    """The items of the source's own listing for ``params``."""
    if source.adapter:
        payload = await client.call(source.endpoint, dict(params), model=dict)
        return ADAPTERS[source.adapter](payload).items
    items: list[dict[str, Any]] = []
    async for page in client.iter_all(source.endpoint, dict(params), model=dict):
        items.extend(page.data)
    return items


async def _across(
    client: Client, source: ChoiceSource, params: Mapping[str, Any], limit: int
) -> list[dict[str, Any]]:
    """The source's items under every parent it is gathered across, parents in list order."""
    across = source.across
    assert across is not None
    parents: list[dict[str, Any]] = []
    async for page in client.iter_all(across.endpoint, {}, model=dict):
        for parent in page.data:
            if across.where is None or dig(parent, across.where[0]) == across.where[1]:
                parents.append(parent)
        if len(parents) >= across.limit:
            break
    gate = asyncio.Semaphore(ACROSS_CONCURRENCY)

    async def under(parent: Mapping[str, Any]) -> list[dict[str, Any]]:
        own = {**params, **{p: dig(parent, f) for p, f in across.params.items()}}
        async with gate:
            try:
                items = await _listing(client, source, own)
            except CloudError:
                return []  # one instance gone or refused: the others are still offered
        kept = {name: dig(parent, f) for name, f in across.keep.items()}
        return [{**item, **kept} for item in items]

    found = await asyncio.gather(*(under(p) for p in parents[: across.limit]))
    return [item for items in found for item in items][:limit]


async def choice_items(
    client: Client,
    source: ChoiceSource,
    params: Mapping[str, Any],
    accept: Any,
    limit: int,
) -> list[dict[str, Any]]:
    """The items ``source`` offers (at most ``limit``).

    Args:
        client: The API client.
        source: Where the choices come from.
        params: Path parameters of its listing.
        accept: ``item -> bool``: whether an item is offered.
        limit: Most items kept.
    """
    # A source without a listing offers only what this machine knows (the time zones).
    listed = await _listed(client, source, params, accept, limit) if source.endpoint else []
    choices = [choice for item in listed for choice in source.expand(item)]
    if source.local:
        reader = LOCAL_CHOICES[source.local]
        choices += [item for item in await asyncio.to_thread(reader) if accept(item)]
    if source.distinct:
        choices = _distinct(source, choices)
    return choices[:limit]


async def _listed(
    client: Client,
    source: ChoiceSource,
    params: Mapping[str, Any],
    accept: Any,
    limit: int,
) -> list[dict[str, Any]]:
    """The accepted items of the source's listing (at most ``limit``)."""
    if source.across is not None:
        return [i for i in await _across(client, source, params, limit) if accept(i)]
    if source.adapter:
        return [i for i in await _listing(client, source, params) if accept(i)][:limit]
    items: list[dict[str, Any]] = []
    async for page in client.iter_all(source.endpoint, dict(params), model=dict):
        items.extend(item for item in page.data if accept(item))
        if len(items) >= limit:
            break
    return items[:limit]


def _distinct(source: ChoiceSource, items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The first item of each value (items without a value left out)."""
    seen: set[Any] = set()
    out: list[dict[str, Any]] = []
    for item in items:
        _text, value = source.option(item)
        if value in (None, "") or value in seen:
            continue
        seen.add(value)
        out.append(item)
    return out
