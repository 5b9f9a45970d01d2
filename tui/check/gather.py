"""Fetching what the rules need, and only that, concurrently (headless).

:data:`LISTINGS` says how each listing the rules name is fetched: a spec's whole list through
the app's own listing machinery (:func:`tui.resources.loader.iter_chunks`), a child spec's list
under every item of its parent listing, or one of the two derived listings (object ACLs and the
certificates balancers serve). :func:`gather` fetches the listings a set of rules needs, their
parents first, at most ``concurrency`` requests or listings at once. A listing that fails is
recorded with its reason; the rules that need it are then "not checked", the others run.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from tui.api.errors import CloudError
from tui.check.account import PARENT
from tui.check.certificates import CertificateSource, pem_in_config
from tui.check.model import Rule
from tui.refresh import describe_error
from tui.resources.areas import SPECS
from tui.resources.loader import Client, iter_chunks

MAX_OBJECTS_PER_BUCKET = 1000
"""Objects of one bucket whose ACL is read (one request each); past it a note says so."""

DEFAULT_CONCURRENCY = 8
"""Listings, or requests of a derived listing, in flight at once."""


@dataclass
class Gathered:
    """What :func:`gather` fetched.

    Attributes:
        listings: Listing name -> its items (child items carry :data:`PARENT`).
        errors: Listing name -> why it could not be fetched.
        notes: What was left out and why (objects past the limit, unreadable certificates).
    """

    listings: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


class ListingFailed(Exception):
    """A listing could not be fetched (its reason is in :attr:`Gathered.errors`)."""


@dataclass
class Gathering:
    """One run of :func:`gather`: the client, the bound and what has been fetched.

    Attributes:
        client: The API client.
        certificates: Where served certificates are read (None: not read at all).
        bound: Limits requests and listings in flight.
        result: Filled as listings arrive.
    """

    client: Client
    certificates: CertificateSource | None
    bound: asyncio.Semaphore
    result: Gathered = field(default_factory=Gathered)
    tasks: dict[str, asyncio.Task[list[dict[str, Any]]]] = field(default_factory=dict)

    def listing(self, name: str) -> Awaitable[list[dict[str, Any]]]:
        """The items of listing ``name``, fetched once however many ask.

        Raises:
            ListingFailed: It (or a listing it is listed under) could not be fetched.
        """
        if name not in self.tasks:
            self.tasks[name] = asyncio.ensure_future(self._fetch(LISTINGS[name]))
        return self.tasks[name]

    async def _fetch(self, listing: Listing) -> list[dict[str, Any]]:
        try:
            items = await (listing.fetch or whole_list)(self, listing)
        except ListingFailed:
            self.result.errors.setdefault(listing.name, "a listing it needs could not be fetched")
            raise
        except CloudError as error:
            self.result.errors[listing.name] = describe_error(error)
            raise ListingFailed(listing.name) from None
        self.result.listings[listing.name] = items
        return items

    async def spec_items(self, spec_id: str, params: Mapping[str, Any]) -> list[dict[str, Any]]:
        """Every item ``spec_id`` lists under ``params`` (the app's listing machinery)."""
        items: list[dict[str, Any]] = []
        async with self.bound:
            async for chunk in iter_chunks(self.client, SPECS[spec_id], params):
                items.extend(chunk.items)
        return items


Fetch = Callable[[Gathering, "Listing"], Awaitable[list[dict[str, Any]]]]


@dataclass(frozen=True)
class Listing:
    """How one listing the rules read is fetched.

    Attributes:
        name: What rules name in :attr:`Rule.needs`.
        spec: The spec whose list it is.
        parent: The listing whose every item it is listed under (a domain's records).
        fetch: How it is fetched (None: :func:`whole_list`).
    """

    name: str
    spec: str
    parent: str | None = None
    fetch: Fetch | None = None


async def whole_list(gathering: Gathering, listing: Listing) -> list[dict[str, Any]]:
    """The spec's whole list; for a child listing, its list under each parent item, each item
    carrying its parent's path parameters in :data:`PARENT`."""
    if listing.parent is None:
        return await gathering.spec_items(listing.spec, {})
    parents = await gathering.listing(listing.parent)
    parent_spec = SPECS[LISTINGS[listing.parent].spec]

    async def under(parent: Mapping[str, Any]) -> list[dict[str, Any]]:
        params = parent_spec.params_for(parent, parent.get(PARENT))
        return [
            {**item, PARENT: params} for item in await gathering.spec_items(listing.spec, params)
        ]

    groups = await asyncio.gather(*(under(p) for p in parents))
    return [item for group in groups for item in group]


async def objects_with_acls(gathering: Gathering, listing: Listing) -> list[dict[str, Any]]:
    """The objects of every bucket, each with its ``acl`` and ``acl_xml`` (one request each,
    the first :data:`MAX_OBJECTS_PER_BUCKET` of a bucket)."""
    objects = await whole_list(gathering, Listing(listing.name, listing.spec, "buckets"))
    kept: list[dict[str, Any]] = []
    counted: dict[str, int] = {}
    for entry in objects:
        bucket = "{clusterId}/{bucket}".format(**entry[PARENT])
        counted[bucket] = counted.get(bucket, 0) + 1
        if counted[bucket] <= MAX_OBJECTS_PER_BUCKET:
            kept.append(entry)
    for bucket, count in counted.items():
        if count > MAX_OBJECTS_PER_BUCKET:
            gathering.result.notes.append(
                f"bucket {bucket}: the ACLs of the first {MAX_OBJECTS_PER_BUCKET:,} of "
                f"{count:,} objects were read"
            )

    async def acl(entry: dict[str, Any]) -> dict[str, Any]:
        async with gathering.bound:
            answer = await gathering.client.call(
                "object_storage.objects.acl_view",
                entry[PARENT],
                query={"name": entry.get("name")},
                model=dict,
            )
        return {**entry, "acl": answer.get("acl"), "acl_xml": answer.get("acl_xml")}

    return list(await asyncio.gather(*(acl(e) for e in kept)))


async def served_certificates(gathering: Gathering, listing: Listing) -> list[dict[str, Any]]:
    """The certificate each https config serves: ``{config, pem}`` per config it could read."""
    configs = await gathering.listing("lb_configs")
    balancers = {str(b.get("id")): b for b in await gathering.listing("balancers")}
    source = gathering.certificates

    async def one(config: dict[str, Any]) -> dict[str, Any] | None:
        pem = pem_in_config(config)
        balancer = balancers.get(str(config[PARENT].get("loadbalancerId")), {})
        if pem is None and source is not None:
            try:
                async with gathering.bound:
                    pem = await source(balancer, config)
            except OSError as error:  # no handshake: noted, the other configs go on
                where = f"{balancer.get('label')}:{config.get('port')}"
                gathering.result.notes.append(f"certificate of {where} not read: {error}")
        return {"config": config, "pem": pem, PARENT: config[PARENT]} if pem else None

    https = [c for c in configs if c.get("protocol") == "https"]
    return [entry for entry in await asyncio.gather(*(one(c) for c in https)) if entry]


LISTINGS: dict[str, Listing] = {
    listing.name: listing
    for listing in (
        Listing("instances", "compute.instances"),
        Listing("types", "compute.types"),
        Listing("volumes", "volumes"),
        Listing("databases", "databases"),
        Listing("balancers", "loadbalancers"),
        Listing("lb_configs", "loadbalancers.configs", "balancers"),
        Listing("lb_nodes", "loadbalancers.nodes", "lb_configs"),
        Listing("lb_certificates", "loadbalancers.configs", fetch=served_certificates),
        Listing("buckets", "object_storage.buckets"),
        Listing("objects", "object_storage.objects", "buckets", fetch=objects_with_acls),
        Listing("keys", "object_storage.keys"),
        Listing("clusters", "k8s.clusters"),
        Listing("k8s_versions", "k8s.versions"),
        Listing("images", "images"),
        Listing("domains", "domains"),
        Listing("records", "domains.records", "domains"),
    )
}
"""Every listing a rule may need, by the name rules use."""


def needed(rules: Iterable[Rule]) -> list[str]:
    """The listings ``rules`` read, each once, in :data:`LISTINGS` order."""
    wanted = {name for rule in rules for name in rule.needs}
    return [name for name in LISTINGS if name in wanted]


async def gather(
    client: Client,
    rules: Iterable[Rule],
    *,
    certificates: CertificateSource | None = None,
    concurrency: int = DEFAULT_CONCURRENCY,
) -> Gathered:
    """Fetch every listing ``rules`` need (and the listings those are listed under).

    Args:
        client: The API client.
        rules: The rules to be run.
        certificates: Where the certificates balancers serve are read (None: only from the
            configs' own answers).
        concurrency: Listings or requests in flight at once (each listing's pages are bounded
            by the client as well).

    Returns:
        The listings, the failures and the notes.
    """
    gathering = Gathering(client, certificates, asyncio.Semaphore(max(1, concurrency)))
    names = needed(rules)
    outcomes = await asyncio.gather(
        *(gathering.listing(name) for name in names), return_exceptions=True
    )
    for outcome in outcomes:
        if isinstance(outcome, BaseException) and not isinstance(outcome, ListingFailed):
            raise outcome
    return gathering.result
