"""What the overview shows: counts per area and the items that need attention (headless).

The overview loads the root lists of several areas (:data:`SOURCES`) in parallel; each function
here reads whatever has arrived so far, so every part can be shown as soon as its lists are in.
Attention items name the list they jump to, the items themselves (their keys) and a filter
query (``status:offline``) describing them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from tui.home.cost import cost_lines
from tui.home.overview_data import OverviewData
from tui.resources.areas import SPECS
from tui.resources.format import human_size, or_missing
from tui.resources.rows import item_key_of
from tui.resources.spec import TRANSITIONAL_STATUSES
from tui.untrusted import shown

SOURCES: dict[str, str] = {
    "types": "compute.types",
    "volumes": "volumes",
    "balancers": "loadbalancers",
    "domains": "domains",
    "databases": "databases",
    "clusters": "k8s.clusters",
    "buckets": "object_storage.buckets",
    "managed": "managed.services",
    "images": "images",
    "instances": "compute.instances",
}
"""Part of the overview -> the spec whose whole list it loads (small lists first, so the first
parts show while the longest one, the instances, streams in)."""

POOLS = "pools"
"""Kubernetes pools (per cluster, loaded once the clusters are in)."""

PART_TITLES: dict[str, str] = {
    "instances": "Instances",
    "volumes": "Volumes",
    "balancers": "Load balancers",
    "domains": "Domains",
    "databases": "Databases",
    "clusters": "Kubernetes clusters",
    "buckets": "Buckets",
    "managed": "Managed services",
    "images": "Images",
    "types": "Instance types",
    POOLS: "Kubernetes pools",
}
"""Each part of the overview as the user reads it (counts, and what could not be loaded)."""

RETRY_HINT = "r loads everything again."
"""How the overview is loaded again (its ``r`` binding)."""

LONG_TRANSITION = 30 * 60
"""Seconds in a transitional status after which an instance needs attention."""

EXPIRING_SOON = 7 * 24 * 3600
"""Images expiring within this many seconds need attention."""


@dataclass(frozen=True)
class CountLine:
    """One line of counts: the area and what it holds (``12 · 10 running, 1 offline``)."""

    area: str
    total: int | None
    detail: str = ""
    error: str = ""


def _by(items: Iterable[Mapping[str, Any]], key: Callable[[Mapping[str, Any]], Any]) -> str:
    # A status the API left out counts as "—" (never "None": "1 —; 1 nodes").
    counts = Counter(or_missing(key(i)) for i in items)
    return ", ".join(f"{n:,} {name}" for name, n in counts.most_common())


def counts(data: OverviewData) -> list[CountLine]:
    """Counts per area from what arrived; a part still loading has ``total`` None."""

    def line(part: str, title: str, detail: Callable[[list[dict[str, Any]]], str]) -> CountLine:
        if part in data.errors:
            return CountLine(title, None, error=data.errors[part])
        if not data.has(part):
            held, total = data.loading.get(part, (0, None))
            progress = f"{held:,} of {total:,} loaded…" if total else "loading…"
            return CountLine(title, None, progress)
        items = data.items(part)
        return CountLine(title, len(items), detail(items) if items else "")

    def volumes(items: list[dict[str, Any]]) -> str:
        attached = sum(1 for v in items if v.get("compute_id"))
        return f"{attached:,} attached, {len(items) - attached:,} unattached"

    def buckets(items: list[dict[str, Any]]) -> str:
        total = sum(float(b.get("size") or 0) for b in items)  # bytes
        return f"{human_size(total)} in total"

    def clusters(items: list[dict[str, Any]]) -> str:
        nodes = [n for p in data.all_pools() for n in p.get("nodes") or []]
        text = _by(items, lambda c: c.get("status"))
        return f"{text}; {len(nodes):,} nodes" if data.pools else text

    def status(items: list[dict[str, Any]]) -> str:
        return _by(items, lambda i: i.get("status"))

    details: dict[str, Callable[[list[dict[str, Any]]], str]] = {
        "instances": status,
        "volumes": volumes,
        "balancers": lambda _i: "",
        "domains": status,
        "databases": status,
        "clusters": clusters,
        "buckets": buckets,
        "managed": status,
    }
    return [line(part, PART_TITLES[part], detail) for part, detail in details.items()]


SINGULAR = {
    "instances": "instance",
    "volumes": "volume",
    "databases": "database",
    "managed services": "managed service",
    "clusters": "cluster",
    "images": "image",
    "domains": "domain",
}
"""Plural nouns the attention titles start with -> the word for one item."""


@dataclass(frozen=True)
class Attention:
    """Items that need a look, shown as one row that jumps to their list.

    Attributes:
        title: What is wrong (``instances offline``).
        area_id: Area of the list.
        spec_id: The list (root or tab of the area).
        query: Filter query describing the items (``status:offline``).
        keys: Keys of the items in that list.
    """

    title: str
    area_id: str
    spec_id: str
    query: str
    keys: frozenset[str]

    @property
    def count(self) -> int:
        """How many items."""
        return len(self.keys)

    @property
    def filterable(self) -> bool:
        """The query is plain ``/`` filter language (``status:offline``); the others
        (``nodes:not_ready``, ``expiry:<7d`` ...) only describe the items."""
        return self.query.startswith("status:")

    def text(self) -> str:
        """The row's text: ``3 instances offline``, ``1 instance offline``."""
        title = self.title
        if self.count == 1:
            for plural, singular in SINGULAR.items():
                if title.startswith(plural):
                    title = singular + title[len(plural) :]
                    break
        return f"{self.count:,} {title}"


def _timestamp(value: Any) -> float | None:
    if not isinstance(value, str) or not value:
        return None
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        return None
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=UTC)
    return parsed.timestamp()


def attention(data: OverviewData, now: float) -> list[Attention]:
    """Everything that needs attention among the parts that arrived (empty groups left out).

    Args:
        data: The lists loaded so far.
        now: Epoch seconds (the simulator's clock in demo mode).
    """
    out: list[Attention] = []

    def add(title: str, area: str, spec: str, query: str, items: list[dict[str, Any]]) -> None:
        if items:
            key = item_key_of(SPECS[spec])  # the list's own row keys
            out.append(Attention(title, area, spec, query, frozenset(map(key, items))))  # type: ignore[arg-type]

    # One pass over the instances (10,000 of them in a large account).
    by_status: dict[str, list[dict[str, Any]]] = {"offline": [], "stopped": []}
    stuck: dict[str, list[dict[str, Any]]] = {}
    no_backups: list[dict[str, Any]] = []
    for item in data.items("instances"):
        status = item.get("status")
        if status in by_status:
            by_status[status].append(item)
        elif status in TRANSITIONAL_STATUSES:
            since = _timestamp(item.get("updated"))
            if since is not None and now - since > LONG_TRANSITION:
                stuck.setdefault(str(status), []).append(item)
        backups = item.get("backups")
        if not (type(backups) is dict and backups.get("enabled")):
            no_backups.append(item)
    for status, found in by_status.items():
        add(f"instances {status}", "instances", "compute.instances", f"status:{status}", found)
    for status, found in sorted(stuck.items()):
        add(f"instances {status} for over 30 min", "instances", "compute.instances",
            f"status:{status}", found)  # fmt: skip
    add(
        "instances without backups",
        "instances",
        "compute.instances",
        "backups.enabled:false",
        no_backups,
    )
    add(
        "volumes unattached",
        "volumes",
        "volumes",
        "compute_id:none",
        [v for v in data.items("volumes") if not v.get("compute_id")],
    )
    bad_dbs: dict[str, list[dict[str, Any]]] = {}
    for db in data.items("databases"):
        if db.get("status") != "active":
            bad_dbs.setdefault(str(db.get("status")), []).append(db)
    for status, found in sorted(bad_dbs.items()):
        add(f"databases {status}", "databases", "databases", f"status:{status}", found)
    add(
        "managed services in problem",
        "managed",
        "managed.services",
        "status:problem",
        [s for s in data.items("managed") if s.get("status") == "problem"],
    )
    not_ready = {
        str(cluster_id)
        for cluster_id, pools in data.pools.items()
        for pool in pools
        for node in pool.get("nodes") or []
        if node.get("status") != "ready"
    }
    add(
        "clusters with nodes not ready",
        "k8s",
        "k8s.clusters",
        "nodes:not_ready",
        [c for c in data.items("clusters") if str(c.get("id")) in not_ready],
    )
    expiring = []
    for image in data.items("images"):
        expiry = _timestamp(image.get("expiry"))
        if expiry is not None and expiry - now < EXPIRING_SOON:
            expiring.append(image)
    add("images expiring within 7 days", "images", "images", "expiry:<7d", expiring)
    for status in ("disabled", "has_errors"):
        found = [d for d in data.items("domains") if d.get("status") == status]
        title = "domains disabled" if status == "disabled" else "domains with errors"
        add(title, "domains", "domains", f"status:{status}", found)
    return out


PAGES = 3
"""Instance pages in flight at once while the overview loads."""

INSTANCE_FIELDS = ("id", "label", "status", "type", "updated", "tags")
"""What the overview reads of an instance (the rest is dropped as the pages arrive)."""


def trim(instance: Mapping[str, Any]) -> dict[str, Any]:
    """The fields of an instance the overview needs: 10,000 full records are ~70,000 objects the
    garbage collector scans on every full pass (40-60 ms with keys waiting); trimmed records
    hold only atomic values, which the collector stops tracking."""
    out = {name: instance.get(name) for name in INSTANCE_FIELDS}
    # Only atomic values (tags as a tuple): CPython then stops tracking the dicts altogether.
    tags = out["tags"]
    out["tags"] = tuple(t for t in tags if isinstance(t, str)) if isinstance(tags, list) else ()
    backups = instance.get("backups")
    out["backups"] = {"enabled": bool(isinstance(backups, Mapping) and backups.get("enabled"))}
    return out


async def load_overview(
    client: Any,
    data: OverviewData,
    arrived: Callable[[str], None],
    *,
    concurrency: int = 4,
) -> None:
    """Load every part of the overview into ``data``, at most ``concurrency`` lists at once.

    Each list's pages stream in; ``arrived(part)`` is called after every chunk (the part's
    items so far are in ``data.loading``) and once it is complete (in ``data.parts``), so the
    screen can show each part as soon as it is in. A part that fails is recorded in
    ``data.errors``; the others carry on.

    Args:
        client: The API client.
        data: Filled in place.
        arrived: Told the part's key after each chunk (``"pools"`` for Kubernetes pools).
        concurrency: Lists loaded at once (each one's pages are bounded by the client).
    """
    import asyncio

    from tui.api.errors import CloudError
    from tui.refresh import describe_error
    from tui.resources.loader import iter_chunks

    bound = asyncio.Semaphore(max(1, concurrency))

    async def one(part: str, spec_id: str, params: Mapping[str, Any]) -> list[dict[str, Any]]:
        items: list[dict[str, Any]] = []
        async with bound:
            if part == "instances":
                # The long list: fewer pages in flight, so fewer of them are parsed back to
                # back in one turn of the event loop (each is ~5-10 ms of CPU) while keys wait.
                pages = client.iter_all(
                    SPECS[spec_id].list_endpoint, params, model=dict, max_concurrency=PAGES
                )
                async for page in pages:
                    items.extend(map(trim, page.data))
                    data.loading[part] = (len(items), page.results)
                    arrived(part)
                return items
            async for chunk in iter_chunks(client, SPECS[spec_id], params):
                items.extend(chunk.items)
                if part != POOLS:
                    data.loading[part] = (len(items), chunk.total)
                    arrived(part)
        return items

    async def source(part: str, spec_id: str) -> None:
        try:
            items = await one(part, spec_id, {})
        except CloudError as error:
            data.errors[part] = describe_error(error)
            data.last_error = error
            data.loading.pop(part, None)
            data.version += 1
            arrived(part)
            return
        data.parts[part] = items
        data.loading.pop(part, None)
        data.version += 1
        arrived(part)
        if part == "clusters":
            await asyncio.gather(*(pools(c) for c in items))

    async def pools(cluster: Mapping[str, Any]) -> None:
        cluster_id = cluster.get("id")
        try:
            found = await one(POOLS, "k8s.pools", {"clusterId": cluster_id})
        except CloudError as error:
            data.errors[POOLS] = describe_error(error)
            data.last_error = error
            data.version += 1
            arrived(POOLS)
            return
        data.pools[str(cluster_id)] = found
        data.version += 1
        arrived(POOLS)

    await asyncio.gather(*(source(part, spec_id) for part, spec_id in SOURCES.items()))


@dataclass(frozen=True)
class Summary:
    """Everything the overview draws from one state of the data (computed off the UI thread).

    Attributes:
        counts: Count lines.
        attention: Attention rows.
        cost: The cost block's text (brief).
    """

    counts: list[CountLine]
    attention: list[Attention]
    cost: str


def snapshot(data: OverviewData) -> OverviewData:
    """A copy whose dicts the loader no longer changes (its lists are complete, never mutated)."""
    return OverviewData(
        dict(data.parts),
        dict(data.errors),
        dict(data.pools),
        dict(data.loading),
        data.version,
        data.last_error,
    )


def summarize(data: OverviewData, now: float) -> Summary:
    """Counts, attention and cost of ``data`` (about 60 ms of CPU for 10,000 instances: run it
    in a thread so keys are served meanwhile)."""
    return Summary(counts(data), attention(data, now), cost_lines(data, brief=True))


def not_loaded(data: OverviewData) -> list[tuple[list[str], str]]:
    """The lists that could not be loaded, grouped by why: ``([titles], reason)`` per reason,
    in the order of :data:`PART_TITLES` (a reason quoting the server made displayable)."""
    by_reason: dict[str, list[str]] = {}
    for part, title in PART_TITLES.items():
        if part in data.errors:
            by_reason.setdefault(shown(data.errors[part]), []).append(title)
    return [(titles, reason) for reason, titles in by_reason.items()]


def attention_note(data: OverviewData, *, found: int, done: bool) -> list[str]:
    """The lines under the attention rows: what to do with them, or that nothing needs
    attention (only when every list loaded), and which lists could not be loaded and why.

    Args:
        data: What has been loaded (and what failed) so far.
        found: Attention rows shown.
        done: Every list has been asked and has answered or failed.
    """
    failed = not_loaded(data)
    lines: list[str] = []
    if found:
        lines.append("enter opens the list filtered to those items")
    elif not done:
        lines.append("Looking…")
    elif not failed:
        lines.append("Nothing needs attention.")
    elif data.parts:
        lines.append("Nothing needs attention in the lists that loaded.")
    for titles, reason in failed:
        lines.append(f"✖ Not loaded: {', '.join(titles)}. {reason}")
    if failed and done:
        lines.append(RETRY_HINT)
    return lines
