"""One account's relations index as the app keeps it: fed by its lists, built once, shared.

The app holds one :class:`RelationCache` per account (on its
:class:`~tui.accounts.state.AccountState`, so a switch of account drops it whole). Lists the
app loads anyway are fed to it as they arrive (:meth:`RelationCache.feed`); whoever needs the
relations (a Relations tab, a delete's confirmation, ``:xray``) awaits
:meth:`RelationCache.ready`, which fetches what is missing the first time and brings the index
up to date afterwards, one build at a time however many ask at once. A build that is cancelled
half way (its screen closed) leaves every listing it finished in place; the next one fetches only
the rest.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Mapping
from typing import Any

from tui.api.client import ApiClient
from tui.relations.graph import Ref
from tui.relations.index import RelationIndex
from tui.relations.kinds import BY_NAME, Kind
from tui.untrusted import Shown

SPEC_KINDS: dict[str, str] = {
    "databases.mysql": "databases",
    "databases.mongodb": "databases",
    "compute.volumes": "volumes",
}
"""Specs that show objects of a kind under another name (a database opens by its engine, an
instance's volumes tab lists volumes). Only for finding the object a screen shows: such a list
holds part of its kind, so it is never fed as the whole listing."""


def kind_of(spec_id: str) -> str | None:
    """The relation kind of the objects a spec shows, or None when the index holds none."""
    name = SPEC_KINDS.get(spec_id, spec_id)
    return name if name in BY_NAME else None


class RelationCache:
    """The relations index of one account; see the module docstring.

    Args:
        client: The account's client: the index follows the changes sent through it.
        index: The index to keep (a new one by default).
    """

    def __init__(self, client: ApiClient, index: RelationIndex | None = None) -> None:
        self.index = index or RelationIndex()
        self._stop = self.index.observe(client)
        self._lock = asyncio.Lock()
        self.built = False
        """True once a build fetched every eager listing."""
        self.building = False
        """True while :meth:`ready` fetches."""

    def close(self) -> None:
        """Stop following the client's changes (the account is left)."""
        self._stop()

    async def feed(self, spec_id: str, params: Mapping[str, Any], items: Iterable[Any]) -> bool:
        """Take a whole listing the app loaded (the rows of a list pane).

        Args:
            spec_id: The listed spec; only a spec that is a kind of the index is taken.
            params: The list's path parameters (a child list's parent ids).
            items: Every row of the list.

        Returns:
            False when the listing is not one the index holds (or its parent is not held).
        """
        kind = BY_NAME.get(spec_id)
        if kind is None:
            return False
        parent = None
        if kind.parent is not None:
            parent = parent_ref(self.index, kind, params)
            if parent is None:
                return False
        rows = [row for row in items if isinstance(row, Mapping)]
        return await self.index.feed_in_turns(kind.name, rows, parent)

    async def ready(self, client: ApiClient, *, force: bool = False) -> RelationIndex:
        """The index with every eager listing fetched (the first time) or brought up to date
        (afterwards); concurrent callers share one build.

        Args:
            client: The account's client.
            force: List everything again, however recent (the user asked for a refresh).
        """
        async with self._lock:
            self.building = True
            try:
                if self.built:
                    await self.index.refresh(client, force=force)
                else:
                    await self.index.build(client)
                    self.built = True
            finally:
                self.building = False
        return self.index

    def subject(self, spec_id: str, item: Mapping[str, Any]) -> Ref | None:
        """The object a screen of ``spec_id`` shows (its row ``item``), when the index holds
        it."""
        kind = kind_of(spec_id)
        return self.index.ref_of(kind, item) if kind is not None else None

    def progress(self, client: ApiClient) -> Shown:
        """How far the index has got, in words (our text only)."""
        held = len(self.index.graph)
        return f"{held:,} objects held, {client.request_count:,} requests sent"


def parent_ref(index: RelationIndex, kind: Kind, params: Mapping[str, Any]) -> Ref | None:
    """The parent a child listing's path parameters name (a domain's records: ``domainId``),
    when the index holds it."""
    if kind.parent is None:
        return None
    parent_kind = BY_NAME[kind.parent]
    param_at = {path: param for param, path in kind.params}
    values = [params.get(param_at.get(f"^{field}", "")) for field in parent_kind.identity]
    if any(value in (None, "") for value in values):
        return None
    ident: Any = values[0] if len(values) == 1 else "/".join(str(v) for v in values)
    found = index.ref(parent_kind.name, ident)
    if found is None and isinstance(ident, str) and ident.isdigit():
        found = index.ref(parent_kind.name, int(ident))  # a path parameter typed as text
    return found
