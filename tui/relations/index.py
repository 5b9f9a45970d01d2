"""The relations index: what uses what, kept across refreshes (headless).

:class:`RelationIndex` is built from listings the app already has (:meth:`~RelationIndex.feed`,
rows as plain dicts) and fetches what else it needs itself (:meth:`~RelationIndex.build`:
every collection of the kinds marked ``eager``, concurrently, at most ``concurrency`` listings
in flight, each paged by the client as usual). Kinds that would cost a request per instance
(configs, disks, backups) are listed only for the object asked about
(:meth:`~RelationIndex.ensure`).

How the cache stays true (invalidation):

- A listing fed or fetched replaces its collection: rows that changed are relinked, rows gone
  are removed with their descendants; nothing else is touched.
- The index observes the client's changes (:meth:`~RelationIndex.observe`). A successful
  ``DELETE`` of an object removes it at once, with what goes with it (an instance's configs, a
  node's instance); any other change to an object marks it stale (re-read with one view
  request on the next refresh) and, for an action such as a recycle, its child collections
  too; a create marks its collection stale.
- A collection older than ``max_age`` seconds is re-listed by the next
  :meth:`~RelationIndex.refresh`, which catches changes made elsewhere (the web console,
  another tool). Answers never wait: they read what is held.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tui.api.changes import ChangeEvent
from tui.api.client import ApiClient
from tui.api.endpoints import REGISTRY, endpoint
from tui.api.errors import CloudError, NotFound
from tui.relations.answers import Dangling, Related, Relations
from tui.relations.graph import Entry, Graph, ObjKey, Ref, entry_order, natural
from tui.relations.impact import ActionKind, Impact, impact
from tui.relations.kinds import Kind, children_of
from tui.relations.located import locate
from tui.resources.adapters import compute_backups
from tui.untrusted import Shown, shown

CollKey = tuple[str, ObjKey | None]
"""``(kind, parent)``: one listing (the records of one domain; all instances)."""

DEFAULT_MAX_AGE = 900.0
"""Seconds a listing is trusted before a refresh lists it again. Re-listing everything costs
about as many requests as the first build (a request per domain, per balancer and per port), so
a refresh belongs where the user looks at relations (a Relations tab, a delete's confirmation),
never on a timer; changes sent through the client are followed at once anyway."""

ADDRESS_FAMILY = "dns_address"
"""The relations of records to the addresses of instances and balancers: who owns an address."""

CHUNK = 250
"""Rows put between two turns of the event loop while a large listing is taken in: 500 new
instances were ~25 ms of CPU in one turn on a loaded 2-core machine, and other work ready in
the same turn (a page to parse, a repaint) adds to what a key waits."""

DEFAULT_CONCURRENCY = 8
"""Listings in flight at once while building (each is paged by the client as usual)."""

ADAPTERS: dict[str, Callable[[Any], list[dict[str, Any]]]] = {
    "compute_backups": lambda answer: compute_backups(answer).items,
}
"""Listings whose answer is not a collection, by the name a kind's ``adapter`` gives."""


@dataclass
class _Collection:
    kind: Kind
    parent: ObjKey | None
    members: set[ObjKey]
    fetched_at: float
    stale: bool = False


class RelationIndex:
    """The index; see the module docstring.

    Args:
        max_age: Seconds a listing is trusted before :meth:`refresh` lists it again.
        concurrency: Listings (and object views) in flight at once.
        clock: Monotonic seconds (tests pass their own).
        graph: The graph to fill (a new one over the standard tables by default).
    """

    def __init__(
        self,
        *,
        max_age: float = DEFAULT_MAX_AGE,
        concurrency: int = DEFAULT_CONCURRENCY,
        clock: Callable[[], float] = time.monotonic,
        graph: Graph | None = None,
    ) -> None:
        self.graph = graph or Graph()
        self.max_age = max_age
        self.concurrency = max(1, concurrency)
        self._clock = clock
        self._collections: dict[CollKey, _Collection] = {}
        self._home: dict[ObjKey, CollKey] = {}
        self._stale: set[ObjKey] = set()
        self.failures: dict[CollKey, Shown] = {}
        """Listings that failed the last time (a restricted user's 403 ...) -> why."""

    # -- feeding ----------------------------------------------------------------------------

    def feed(self, kind: str, rows: Iterable[Mapping[str, Any]], parent: Ref | None = None) -> bool:
        """Take a whole listing the app already has (rows as plain dicts).

        Args:
            kind: Its kind (the ResourceSpec id: ``compute.instances``).
            rows: Every row of the collection (a partial listing would remove the rest).
            parent: The object it is listed under, for a child kind.

        Returns:
            False when the index has no such kind, or does not hold the parent, or the parent
            is not of the kind's parent kind.
        """
        found, holder = self._target(kind, parent)
        if found is None:
            return False
        self._settle(found, holder, self._put(found, holder, rows))
        return True

    async def feed_in_turns(
        self, kind: str, rows: Iterable[Mapping[str, Any]], parent: Ref | None = None
    ) -> bool:
        """:meth:`feed`, giving the event loop a turn every :data:`CHUNK` rows: for a large
        listing fed from the UI's event loop (10,000 new instances take a few hundred ms)."""
        found, holder = self._target(kind, parent)
        if found is None:
            return False
        await self._apply_in_turns(found, holder, list(rows))
        return True

    def _target(self, kind: str, parent: Ref | None) -> tuple[Kind | None, Entry | None]:
        found = self.graph.kinds.get(kind)
        holder = self.graph.at(parent.key) if parent is not None else None
        if found is None or found.parent != (holder.kind.name if holder is not None else None):
            return None, None
        return found, holder

    def _present(self, parent: Entry | None) -> bool:
        """Whether a listing under ``parent`` still belongs (the parent may have gone meanwhile)."""
        return parent is None or self.graph.at(parent.key) is parent

    async def _apply_in_turns(
        self, kind: Kind, parent: Entry | None, rows: Sequence[Mapping[str, Any]]
    ) -> None:
        members: set[ObjKey] = set()
        for start in range(0, len(rows), CHUNK):
            if not self._present(parent):
                return
            members |= self._put(kind, parent, rows[start : start + CHUNK])
            if len(rows) > CHUNK:
                await asyncio.sleep(0)
        self._settle(kind, parent, members)

    def _put(
        self, kind: Kind, parent: Entry | None, rows: Iterable[Mapping[str, Any]]
    ) -> set[ObjKey]:
        """Put rows of one listing; returns their keys."""
        members: set[ObjKey] = set()
        if not self._present(parent):
            return members
        ckey: CollKey = (kind.name, parent.key if parent is not None else None)
        for row in rows:
            entry = self.graph.put(kind, row, parent)
            if entry is not None:
                members.add(entry.key)
                self._home[entry.key] = ckey
                self._stale.discard(entry.key)
        return members

    def _settle(self, kind: Kind, parent: Entry | None, members: set[ObjKey]) -> None:
        """Finish a listing: drop what it no longer has, note when it was listed, and read the
        kinds nested in its rows (a pool's nodes)."""
        if not self._present(parent):
            return
        ckey: CollKey = (kind.name, parent.key if parent is not None else None)
        old = self._collections.get(ckey)
        for key in (old.members - members) if old is not None else ():
            self._drop(key)
        self._collections[ckey] = _Collection(kind, ckey[1], members, self._clock())
        for child in children_of(kind.name):
            if child.nested_in:
                for key in members:
                    entry = self.graph.at(key)
                    if entry is not None:
                        nested = _rows(entry.row.get(child.nested_in))
                        self._settle(child, entry, self._put(child, entry, nested))

    def _drop(self, key: ObjKey) -> None:
        for gone in self.graph.remove(key):
            self._stale.discard(gone)
            home = self._collections.get(self._home.pop(gone, ("", None)))
            if home is not None:
                home.members.discard(gone)
            for kind in children_of(gone[0]):
                self._collections.pop((kind.name, gone), None)

    # -- fetching ---------------------------------------------------------------------------

    async def build(self, client: ApiClient) -> None:
        """Fetch every ``eager`` listing the index does not hold yet, concurrently."""
        await self._complete(client, asyncio.Semaphore(self.concurrency))

    async def ensure(self, client: ApiClient, ref: Ref) -> None:
        """Fetch the listings under one object that the index lacks or holds stale (an
        instance's configs, disks and backups), so its relations are complete."""
        entry = self.graph.at(ref.key)
        if entry is None:
            return
        bound = asyncio.Semaphore(self.concurrency)
        jobs = []
        for kind in children_of(entry.kind.name):
            held = self._collections.get((kind.name, entry.key))
            if kind.listing and (held is None or self._due(held, force=False)):
                jobs.append(self._load(client, bound, kind, entry))
        await asyncio.gather(*jobs)

    async def refresh(self, client: ApiClient, *, force: bool = False) -> None:
        """Bring the index up to date: re-read objects marked stale, re-list stale or old
        listings (every one with ``force``), then fetch listings of new parents."""
        bound = asyncio.Semaphore(self.concurrency)
        stale, self._stale = list(self._stale), set()
        await asyncio.gather(*(self._reload(client, bound, key) for key in stale))
        jobs = []
        for held in list(self._collections.values()):
            parent = self.graph.at(held.parent) if held.parent is not None else None
            if self._due(held, force) and (held.parent is None or parent is not None):
                jobs.append(self._load(client, bound, held.kind, parent))
        await asyncio.gather(*jobs)
        await self._complete(client, bound)

    def _due(self, held: _Collection, force: bool) -> bool:
        if held.kind.listing is None:
            return False  # read from the parent's rows: re-listing the parent re-reads it
        return force or held.stale or self._clock() - held.fetched_at >= self.max_age

    async def _complete(self, client: ApiClient, bound: asyncio.Semaphore) -> None:
        jobs = [
            self._load(client, bound, kind, None)
            for kind in self.graph.kinds.values()
            if kind.parent is None and kind.eager and kind.listing
            if (kind.name, None) not in self._collections
        ]
        jobs += [
            self._children(client, bound, list(self.graph.entries(k))) for k in self._parents()
        ]
        await asyncio.gather(*jobs)

    def _parents(self) -> list[str]:
        return sorted({k.parent for k in self.graph.kinds.values() if k.parent and k.eager})

    async def _children(
        self, client: ApiClient, bound: asyncio.Semaphore, parents: list[Entry]
    ) -> None:
        """Fetch the eager listings under ``parents`` that the index lacks."""
        jobs = [
            self._load(client, bound, kind, parent)
            for parent in parents
            for kind in children_of(parent.kind.name)
            if kind.eager and kind.listing and (kind.name, parent.key) not in self._collections
        ]
        await asyncio.gather(*jobs)

    async def _load(
        self, client: ApiClient, bound: asyncio.Semaphore, kind: Kind, parent: Entry | None
    ) -> None:
        async with bound:
            rows = await self._list(client, kind, parent)
        if rows is None:
            return
        await self._apply_in_turns(kind, parent, rows)
        held = self._collections.get((kind.name, parent.key if parent is not None else None))
        if held is not None:
            members = [e for key in held.members if (e := self.graph.at(key)) is not None]
            await self._children(client, bound, members)

    async def _list(
        self, client: ApiClient, kind: Kind, parent: Entry | None
    ) -> list[dict[str, Any]] | None:
        assert kind.listing is not None
        ckey: CollKey = (kind.name, parent.key if parent is not None else None)
        ep = endpoint(kind.listing)
        given = parent.kind.path_params(parent) if parent is not None else {}
        params = {name: given[name] for name in ep.params if name in given}
        try:
            if ep.paged:
                rows: list[dict[str, Any]] = await client.fetch_all(ep, params, model=dict)
            else:
                answer = await client.call(ep, params, model=dict)
                adapt = ADAPTERS.get(kind.adapter or "")
                rows = adapt(answer) if adapt else _rows(answer)
        except CloudError as error:
            self.failures[ckey] = shown(str(error))
            return None
        self.failures.pop(ckey, None)
        return rows

    async def _reload(self, client: ApiClient, bound: asyncio.Semaphore, key: ObjKey) -> None:
        """Re-read one stale object with its view (a listing when it has none)."""
        entry = self.graph.at(key)
        if entry is None:
            return
        home = self._collections.get(self._home.get(key, ("", None)))
        if entry.kind.view is None:
            if home is not None:
                home.stale = True
            return
        name = entry.kind.endpoint_name(entry.kind.view, entry)
        ep = REGISTRY.get(name)
        if ep is None:
            return
        params = {p: v for p, v in entry.kind.path_params(entry).items() if p in ep.params}
        try:
            async with bound:
                row = await client.call(ep, params, model=dict)
        except NotFound:
            self._drop(key)
            return
        except CloudError:
            self._stale.add(key)  # tried again on the next refresh
            return
        if isinstance(row, Mapping):
            self.graph.put(entry.kind, row, entry.parent)
            for child in children_of(entry.kind.name):
                if child.nested_in:
                    nested = _rows(row.get(child.nested_in))
                    self._settle(child, entry, self._put(child, entry, nested))

    # -- invalidation -----------------------------------------------------------------------

    def observe(self, client: ApiClient) -> Callable[[], None]:
        """Follow ``client``'s changes (see the module docstring).

        Returns:
            A function that stops following them.
        """
        client.change_observers.append(self.note_change)

        def stop() -> None:
            if self.note_change in client.change_observers:
                client.change_observers.remove(self.note_change)

        return stop

    def note_change(self, event: ChangeEvent) -> None:
        """Apply what one change sent through the client means for the cache."""
        if not event.ok or event.method == "GET":
            return
        path = "/" + event.path.split("?", 1)[0].strip("/")
        located = locate(self.graph.kinds.values(), path)
        if located is None:
            return
        kind, params, how = located
        if how == "listing":
            self._collection_stale(kind, params)
            return
        entry = self._entry(kind, params)
        if entry is None:
            self._collection_stale(kind, params)
        elif how == "object" and event.method == "DELETE":
            self._deleted(entry)
        else:
            self._stale.add(entry.key)
            if how == "action":  # a recycle, an attach: what is listed under it changes too
                for child in children_of(kind.name):
                    held = self._collections.get((child.name, entry.key))
                    if held is not None:
                        held.stale = True

    def _deleted(self, entry: Entry) -> None:
        doomed = self.graph.cascade([entry.key])
        for key in doomed:
            for link in [*self.graph.links_out(key), *self.graph.links_in(key)]:
                other = link.target if link.source == key else link.source
                effect = (
                    link.relation.if_source_deleted
                    if link.source == key
                    else link.relation.if_target_deleted
                )
                if effect is not None and effect.kind == "detaches" and other not in doomed:
                    self._stale.add(other)  # the API changed it (a volume is detached)
        for key in doomed:
            self._drop(key)

    def _entry(self, kind: Kind, params: Mapping[str, str]) -> Entry | None:
        """The object a path's parameters name (a bucket: cluster and label), or None."""
        param_of = {path: param for param, path in kind.params}
        values = [params.get(param_of.get(field, ""), "") for field in kind.identity]
        if not all(values):
            return None
        return self.graph.get(kind.name, values[0] if len(values) == 1 else "/".join(values))

    def _collection_stale(self, kind: Kind, params: Mapping[str, str]) -> None:
        for held in self._collections.values():
            if held.kind is not kind:
                continue
            parent = self.graph.at(held.parent) if held.parent is not None else None
            given = parent.kind.path_params(parent) if parent is not None else {}
            if all(str(given[p]) == v for p, v in params.items() if p in given):
                held.stale = True

    # -- answers ----------------------------------------------------------------------------

    def ref(self, kind: str, ident: Any) -> Ref | None:
        """The object of ``kind`` with id ``ident``, as answers name it, or None."""
        entry = self.graph.get(kind, ident)
        return entry.ref if entry is not None else None

    def ref_of(self, kind: str, row: Mapping[str, Any]) -> Ref | None:
        """The object a UI row shows (its item dict), or None when not held."""
        found = self.graph.kinds.get(kind)
        ident = found.ident(row) if found is not None else None
        return self.ref(kind, ident) if ident is not None else None

    def row(self, ref: Ref) -> Mapping[str, Any] | None:
        """The object's row as last listed (to open it: a database's spec depends on its
        ``engine``), or None when not held."""
        entry = self.graph.at(ref.key)
        return entry.row if entry is not None else None

    def relations(self, subject: Ref) -> Relations:
        """What ``subject`` uses and what uses it (the Relations tab)."""
        key = subject.key
        entry = self.graph.at(key)
        if entry is None:
            return Relations(None)
        order = {r.name: n for n, r in enumerate(self.graph.relations)}
        uses = [
            Related(link.relation.name, link.relation.uses, other.ref, _via(link.values), "uses")
            for link in self.graph.links_out(key)
            if (other := self.graph.at(link.target)) is not None
        ]
        used_by = [
            Related(
                link.relation.name, link.relation.used_by, other.ref, _via(link.values), "used_by"
            )
            for link in self.graph.links_in(key)
            if (other := self.graph.at(link.source)) is not None
        ]

        def sort_key(row: Related) -> tuple[Any, ...]:
            other = row.other
            return (
                order.get(row.relation, 0),
                other.kind,
                natural(other.label),
                natural(str(other.id)),
            )

        addresses = {
            shown(value): None
            for relation in self.graph.relations
            if relation.family == ADDRESS_FAMILY and relation.target == entry.kind.name
            for value in self.graph.values_of(key, relation, "target")
        }
        return Relations(
            entry.ref,
            tuple(sorted(uses, key=sort_key)),
            tuple(sorted(used_by, key=sort_key)),
            tuple(addresses),
        )

    def dangling(self, family: str | None = None) -> list[Dangling]:
        """Objects pointing at what no object of the account owns: records at addresses no
        instance or balancer has, balancer nodes at addresses no instance has."""
        found: list[Dangling] = []
        for entry, relation, values in self.graph.dangling(family):
            seen = tuple(shown(v) for v in values)
            text = shown(
                f"{entry.kind.singular} {entry.label} {relation.uses} {', '.join(seen)}, "
                "which no object of the account owns"
            )
            found.append(Dangling(entry.ref, relation.family, seen, text))
        return sorted(found, key=lambda d: (d.family, natural(d.source.label), str(d.source.id)))

    def dangling_records(self) -> list[Dangling]:
        """DNS records (A, AAAA) whose target is an address no instance or balancer owns."""
        return self.dangling(ADDRESS_FAMILY)

    def owners(self, address: str) -> list[Ref]:
        """The instances and balancers that have ``address`` (any spelling)."""
        found = sorted(self.graph.owners(address, ADDRESS_FAMILY), key=entry_order)
        return [entry.ref for entry in found]

    def impact(self, targets: Iterable[Ref], action: ActionKind = "delete") -> Impact:
        """What ``action`` on ``targets`` breaks, with its clean-up requests (see
        :mod:`tui.relations.impact`). Call :meth:`ensure` on the targets first for complete
        counts of what is deleted with them."""
        return impact(self.graph, targets, action)


def _rows(value: Any) -> list[dict[str, Any]]:
    """The dict items of a list (anything else: none)."""
    return (
        [dict(item) for item in value if isinstance(item, Mapping)]
        if isinstance(value, list)
        else []
    )


def _via(values: tuple[str, ...]) -> Shown:
    return shown(", ".join(values))
