"""Kubernetes clusters, node pools, nodes, versions, API endpoints, kubeconfigs, dashboards.

Choices where the reference is silent:

* Restricted users: the reference has no grant kind for clusters and says restricted users act
  only within grants. They may therefore read clusters, pools, nodes, versions, endpoints and
  dashboards (scope permitting), but every change, and the kubeconfig (full admin credentials),
  needs an unrestricted user (403 otherwise).
* A cluster is ``not_ready`` until ``k8s.ready`` seconds after creation, then ``ready``; before
  that its API endpoints and kubeconfig answer 400 "The cluster is not ready yet: ...".
  Nodes follow the same ``not_ready`` -> ``ready`` path when created or recycled.
* A node id is ``<pool id>-<8 hex digits>``; recycling keeps it and changes its ``instance_id``.
* Deleting the last node of a pool or the last pool of a cluster is refused (409): a pool holds
  1..100 nodes and a cluster needs at least one pool; delete the pool or the cluster instead.
"""

from __future__ import annotations

import base64
import hashlib
import secrets
from typing import Any

from tui.simulator.clock import iso
from tui.simulator.context import Collection, Ctx, public
from tui.simulator.errors import SimError, bad_request, conflict, not_found
from tui.simulator.registry import handles, transition
from tui.simulator.store import Store
from tui.simulator.validate import Check

CLUSTERS = "k8s.clusters"
POOLS = "k8s.pools"

VERSIONS = ("1.29", "1.30", "1.31")
"""Kubernetes versions on offer, oldest first."""

POOL_FIELDS = ("count", "type", "autoscaler", "disks", "tags")
MAX_DISKS = 7
TRANSITION_NAMES = ("k8s.cluster_ready", "k8s.node_ready")


# -- records --------------------------------------------------------------------------------


def new_node(store: Store, pool_id: int, status: str) -> dict[str, Any]:
    """A node of pool ``pool_id`` with a fresh string id and instance id."""
    seq = store.next_id("k8s.node", start=1)
    suffix = hashlib.sha1(f"k8s-node-{seq}".encode()).hexdigest()[:8]
    return {
        "id": f"{pool_id}-{suffix}",
        "instance_id": store.next_id("k8s.instance", start=71000000),
        "status": status,
    }


def new_pool(
    store: Store, cluster_id: int, spec: dict[str, Any], node_status: str
) -> dict[str, Any]:
    """Build and store a pool of ``spec['count']`` nodes."""
    pool_id = store.next_id("k8s.pool", start=21000)
    record = {
        "id": pool_id,
        "count": spec["count"],
        "type": spec["type"],
        "autoscaler": spec["autoscaler"],
        "disks": spec["disks"],
        "tags": spec["tags"],
        "nodes": [new_node(store, pool_id, node_status) for _ in range(spec["count"])],
        "_cluster_id": cluster_id,
    }
    return store.put(POOLS, pool_id, record)


def new_cluster(
    store: Store,
    *,
    label: str,
    region: str,
    k8s_version: str,
    now: float,
    token: str,
    high_availability: bool = False,
    tags: list[str] | None = None,
    ready: bool = False,
) -> dict[str, Any]:
    """Build and store a cluster record (no pools yet)."""
    cluster_id = store.next_id("k8s.cluster", start=9100)
    record = {
        "id": cluster_id,
        "label": label,
        "region": region,
        "k8s_version": k8s_version,
        "status": "ready" if ready else "not_ready",
        "control_plane": {"high_availability": high_availability},
        "tags": list(tags or []),
        "created": iso(now),
        "updated": iso(now),
        "_ready": ready,
        "_kube_token": token,
    }
    return store.put(CLUSTERS, cluster_id, record)


def kubeconfig_yaml(cluster: dict[str, Any]) -> str:
    """The cluster's kubeconfig as YAML text."""
    name = f"k8s-{cluster['id']}"
    ca = base64.b64encode(
        f"simulated CA of {name}\n".encode() + hashlib.sha256(name.encode()).digest()
    ).decode()
    return (
        "apiVersion: v1\n"
        "kind: Config\n"
        "preferences: {}\n"
        "clusters:\n"
        "- cluster:\n"
        f"    certificate-authority-data: {ca}\n"
        f"    server: {_endpoints(cluster)[0]}\n"
        f"  name: {name}\n"
        "users:\n"
        f"- name: {name}-admin\n"
        "  user:\n"
        f"    token: {cluster['_kube_token']}\n"
        "contexts:\n"
        "- context:\n"
        f"    cluster: {name}\n"
        "    namespace: default\n"
        f"    user: {name}-admin\n"
        f"  name: {name}-ctx\n"
        f"current-context: {name}-ctx\n"
    )


def _endpoints(cluster: dict[str, Any]) -> list[str]:
    cid = int(cluster["id"])
    return [
        f"https://{cid}.{cluster['region']}.k8s.example:443",
        f"https://192.0.2.{cid % 250 + 1}:443",
        f"https://[2001:db8::{cid:x}]:443",
    ]


def _pools_of(store: Store, cluster_id: int) -> list[dict[str, Any]]:
    return [p for p in store.rows(POOLS) if p["_cluster_id"] == cluster_id]


def _pool_view(pool: dict[str, Any]) -> dict[str, Any]:
    view = public(pool)
    view["nodes"] = [dict(n) for n in pool["nodes"]]
    return view


def _schedule_node_ready(ctx: Ctx, cluster_id: int, node: dict[str, Any], after: float) -> None:
    ctx.schedule(
        "k8s.node_ready",
        after=after,
        cluster_id=cluster_id,
        node_id=node["id"],
        instance_id=node["instance_id"],
    )


def _replace_nodes(
    ctx: Ctx, cluster_id: int, pools: list[dict[str, Any]], only: str | None = None
) -> None:
    """Rolling replacement: nodes (all, or the one named ``only``) get new instances and
    become ready one after another."""
    step = ctx.delay("k8s.recycle")
    index = 0
    for pool in pools:
        for node in pool["nodes"]:
            if only is not None and node["id"] != only:
                continue
            node["instance_id"] = ctx.store.next_id("k8s.instance", start=71000000)
            node["status"] = "not_ready"
            index += 1
            _schedule_node_ready(ctx, cluster_id, node, step * index)
        ctx.store.put(POOLS, pool["id"], pool)


@transition("k8s.cluster_ready")
def cluster_ready(store: Store, now: float, id: int) -> None:
    """The control plane answers: API endpoints and kubeconfig become available."""
    cluster = store.get(CLUSTERS, id)
    if cluster is None or cluster["_ready"]:
        return
    cluster.update(status="ready", _ready=True)
    store.put(CLUSTERS, id, cluster)


@transition("k8s.node_ready")
def node_ready(store: Store, now: float, cluster_id: int, node_id: str, instance_id: int) -> None:
    """A new or recycled node joins the cluster (unless it was replaced or removed since)."""
    for pool in _pools_of(store, cluster_id):
        for node in pool["nodes"]:
            if node["id"] == node_id and node["instance_id"] == instance_id:
                node["status"] = "ready"
                store.put(POOLS, pool["id"], pool)
                return


# -- validation -----------------------------------------------------------------------------


def _merge(v: Check, sub: Check, prefix: str) -> None:
    """Copy ``sub``'s errors into ``v`` with field names under ``prefix``."""
    for err in sub.errors:
        field = err.get("field")
        v.fail(f"{prefix}.{field}" if field else prefix, err["reason"])


def _check_label(v: Check, *, required: bool) -> Any:
    label = v.string("label", required=required, min_len=1, max_len=32)
    if isinstance(label, str) and any(ord(ch) > 0xFFFF for ch in label):
        v.fail("label", "label may not contain 4-byte UTF-8 characters (such as emoji)")
    return label


def _check_region(ctx: Ctx, v: Check) -> Any:
    region = v.string("region", required=True)
    if isinstance(region, str) and ctx.store.get("compute.regions", region) is None:
        v.fail("region", "region is not valid")
    return region


def _check_autoscaler(v: Check, count: Any) -> dict[str, Any] | None:
    """The pool's ``autoscaler`` (None when absent); min and max default to the pool count."""
    raw = v.obj("autoscaler")
    if raw is None:
        return None
    a = Check(raw)
    a.unknown(("enabled", "min", "max"))
    enabled = a.boolean("enabled", default=False)
    low = a.integer("min", lo=1, hi=100)
    high = a.integer("max", lo=1, hi=100)
    if a.has("min") and not a.has("max"):
        a.fail("max", "max is required when min is given")
    elif a.has("max") and not a.has("min"):
        a.fail("min", "min is required when max is given")
    elif isinstance(low, int) and isinstance(high, int) and low > high:
        a.fail("min", "min must not be greater than max")
    _merge(v, a, "autoscaler")
    return {
        "enabled": enabled,
        "min": low if isinstance(low, int) else count,
        "max": high if isinstance(high, int) else count,
    }


def _check_disks(v: Check) -> list[dict[str, Any]]:
    raw = v.raw("disks")
    if raw is None and not v.has("disks"):
        return []
    if not isinstance(raw, list):
        v.fail("disks", "disks must be an array")
        return []
    if len(raw) > MAX_DISKS:
        v.fail("disks", f"a pool may have at most {MAX_DISKS} custom disks")
        return []
    disks = []
    for i, item in enumerate(raw):
        d = Check(item)
        d.unknown(("size", "type"))
        size = d.integer("size", required=True, lo=1)
        kind = d.string("type", required=True, choices=("raw", "ext4"))
        _merge(v, d, f"disks[{i}]")
        disks.append({"size": size, "type": kind})
    return disks


def _check_pool(ctx: Ctx, body: Any) -> tuple[dict[str, Any], Check]:
    """A pool spec from a create body; errors are left in the returned :class:`Check`."""
    p = Check(body)
    p.unknown(POOL_FIELDS)
    count = p.integer("count", required=True, lo=1, hi=100)
    type_ = p.string("type", required=True)
    if isinstance(type_, str) and ctx.store.get("compute.types", type_) is None:
        p.fail("type", "type is not valid")
    autoscaler = _check_autoscaler(p, count) or {"enabled": False, "min": count, "max": count}
    disks = _check_disks(p)
    tags = p.string_list("tags", default=[])
    spec = {"count": count, "type": type_, "autoscaler": autoscaler, "disks": disks, "tags": tags}
    return spec, p


def _not_ready(what: str) -> SimError:
    return bad_request(
        f"The cluster is not ready yet: the {what} is usually available 2 to 5 minutes after "
        "creation"
    )


# -- lookups --------------------------------------------------------------------------------


def _cluster(ctx: Ctx) -> dict[str, Any]:
    cluster = ctx.store.get(CLUSTERS, ctx.param_int("clusterId"))
    if cluster is None:
        raise not_found("Cluster not found")
    return cluster


def _pool(ctx: Ctx, cluster: dict[str, Any]) -> dict[str, Any]:
    pool = ctx.store.get(POOLS, ctx.param_int("poolId"))
    if pool is None or pool["_cluster_id"] != cluster["id"]:
        raise not_found("Pool not found")
    return pool


def _node(ctx: Ctx, cluster: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    node_id = str(ctx.params.get("nodeId", ""))
    for pool in _pools_of(ctx.store, cluster["id"]):
        for node in pool["nodes"]:
            if node["id"] == node_id:
                return pool, node
    raise not_found("Node not found")


def _writer(ctx: Ctx) -> None:
    # No grant kind covers clusters: only unrestricted users may change them (module docstring).
    ctx.principal.require_unrestricted()


# -- clusters -------------------------------------------------------------------------------


@handles("k8s.clusters.list")
def clusters_list(ctx: Ctx) -> Collection:
    """Every cluster."""
    return Collection([public(c) for c in ctx.store.rows(CLUSTERS)])


@handles("k8s.clusters.create")
def clusters_create(ctx: Ctx) -> dict[str, Any]:
    """Create a cluster with its pools; it becomes ready ``k8s.ready`` seconds later."""
    _writer(ctx)
    v = Check(ctx.body)
    v.unknown(("label", "k8s_version", "region", "node_pools", "control_plane", "tags"))
    label = _check_label(v, required=True)
    version = v.string("k8s_version", required=True)
    if isinstance(version, str) and version not in VERSIONS:
        v.fail("k8s_version", f"k8s_version must be one of: {', '.join(VERSIONS)}")
    region = _check_region(ctx, v)
    raw_pools = v.raw("node_pools")
    specs: list[dict[str, Any]] = []
    if not v.has("node_pools"):
        v.fail("node_pools", "node_pools is required")
    elif not isinstance(raw_pools, list) or not raw_pools:
        v.fail("node_pools", "node_pools must be a non-empty array")
    else:
        for i, item in enumerate(raw_pools):
            spec, p = _check_pool(ctx, item)
            _merge(v, p, f"node_pools[{i}]")
            specs.append(spec)
    high_availability = False
    control_plane = v.obj("control_plane")
    if control_plane is not None:
        cp = Check(control_plane)
        cp.unknown(("high_availability",))
        high_availability = cp.boolean("high_availability", default=False)
        _merge(v, cp, "control_plane")
    tags = v.string_list("tags", default=[])
    v.done()
    cluster = new_cluster(
        ctx.store,
        label=label,
        region=region,
        k8s_version=version,
        now=ctx.now,
        token=secrets.token_hex(32),
        high_availability=high_availability,
        tags=tags,
    )
    ready_after = ctx.delay("k8s.ready")
    for spec in specs:
        pool = new_pool(ctx.store, cluster["id"], spec, "not_ready")
        for node in pool["nodes"]:
            _schedule_node_ready(ctx, cluster["id"], node, ready_after)
    ctx.schedule("k8s.cluster_ready", after=ready_after, id=cluster["id"])
    return public(cluster)


@handles("k8s.clusters.view")
def clusters_view(ctx: Ctx) -> dict[str, Any]:
    """One cluster."""
    return public(_cluster(ctx))


@handles("k8s.clusters.update")
def clusters_update(ctx: Ctx) -> dict[str, Any]:
    """Change label, tags (replaced whole), version (next minor only) or enable HA."""
    cluster = _cluster(ctx)
    _writer(ctx)
    v = ctx.check()
    v.unknown(("label", "k8s_version", "tags", "control_plane"))
    label = _check_label(v, required=False)
    tags = v.string_list("tags")
    version = v.string("k8s_version")
    if isinstance(version, str) and version != cluster["k8s_version"]:
        current = tuple(int(x) for x in cluster["k8s_version"].split("."))
        if version not in VERSIONS:
            v.fail("k8s_version", f"k8s_version must be one of: {', '.join(VERSIONS)}")
        elif tuple(int(x) for x in version.split(".")) < current:
            v.fail("k8s_version", "downgrading the Kubernetes version is not allowed")
        elif version != f"{current[0]}.{current[1] + 1}":
            v.fail(
                "k8s_version",
                f"only the next minor version ({current[0]}.{current[1] + 1}) is allowed",
            )
    enable_ha = False
    control_plane = v.obj("control_plane")
    if control_plane is not None:
        cp = Check(control_plane)
        cp.unknown(("high_availability",))
        ha = cp.boolean("high_availability")
        was_ha = bool(cluster["control_plane"]["high_availability"])
        if ha is False and was_ha:
            cp.fail("high_availability", "high availability cannot be disabled once enabled")
        enable_ha = ha is True and not was_ha
        _merge(v, cp, "control_plane")
    v.done()
    if label is not None:
        cluster["label"] = label
    if tags is not None:
        cluster["tags"] = list(tags)
    if version is not None:
        cluster["k8s_version"] = version
    if enable_ha:
        cluster["control_plane"] = {"high_availability": True}
        # Enabling HA on a running cluster replaces every node, rolling.
        _replace_nodes(ctx, cluster["id"], _pools_of(ctx.store, cluster["id"]))
    cluster["updated"] = ctx.now_iso
    ctx.store.put(CLUSTERS, cluster["id"], cluster)
    return public(cluster)


@handles("k8s.clusters.delete")
def clusters_delete(ctx: Ctx) -> None:
    """Delete a cluster with all its pools and nodes."""
    cluster = _cluster(ctx)
    _writer(ctx)
    for pool in _pools_of(ctx.store, cluster["id"]):
        ctx.store.delete(POOLS, pool["id"])
    ctx.store.delete(CLUSTERS, cluster["id"])
    ctx.store.cancel_events("k8s.cluster_ready", id=cluster["id"])
    ctx.store.cancel_events("k8s.node_ready", cluster_id=cluster["id"])


@handles("k8s.clusters.recycle")
def clusters_recycle(ctx: Ctx) -> None:
    """Rolling replacement of every node of every pool."""
    cluster = _cluster(ctx)
    _writer(ctx)
    _replace_nodes(ctx, cluster["id"], _pools_of(ctx.store, cluster["id"]))


@handles("k8s.api_endpoints")
def api_endpoints(ctx: Ctx) -> Collection:
    """The API server URLs, once the cluster is ready."""
    cluster = _cluster(ctx)
    if not cluster["_ready"]:
        raise _not_ready("API endpoint")
    return Collection([{"endpoint": url} for url in _endpoints(cluster)])


@handles("k8s.dashboard")
def dashboard(ctx: Ctx) -> dict[str, Any]:
    """The dashboard URL (dashboards are installed by default)."""
    cluster = _cluster(ctx)
    return {"url": f"https://{cluster['id']}.dashboard.{cluster['region']}.k8s.example"}


@handles("k8s.kubeconfig.view")
def kubeconfig_view(ctx: Ctx) -> dict[str, Any]:
    """The kubeconfig, base64-encoded, once the cluster is ready."""
    cluster = _cluster(ctx)
    _writer(ctx)
    if not cluster["_ready"]:
        raise _not_ready("kubeconfig")
    return {"kubeconfig": base64.b64encode(kubeconfig_yaml(cluster).encode()).decode()}


@handles("k8s.kubeconfig.delete")
def kubeconfig_delete(ctx: Ctx) -> None:
    """Delete and regenerate the kubeconfig: the old token stops working."""
    cluster = _cluster(ctx)
    _writer(ctx)
    if not cluster["_ready"]:
        raise _not_ready("kubeconfig")
    cluster["_kube_token"] = secrets.token_hex(32)
    ctx.store.put(CLUSTERS, cluster["id"], cluster)


# -- pools ----------------------------------------------------------------------------------


@handles("k8s.pools.list")
def pools_list(ctx: Ctx) -> Collection:
    """The cluster's pools with their nodes."""
    cluster = _cluster(ctx)
    return Collection([_pool_view(p) for p in _pools_of(ctx.store, cluster["id"])])


@handles("k8s.pools.create")
def pools_create(ctx: Ctx) -> dict[str, Any]:
    """Add a pool; its nodes become ready on the clock."""
    cluster = _cluster(ctx)
    _writer(ctx)
    spec, p = _check_pool(ctx, ctx.body)
    p.done()
    pool = new_pool(ctx.store, cluster["id"], spec, "not_ready")
    for node in pool["nodes"]:
        _schedule_node_ready(ctx, cluster["id"], node, ctx.delay("k8s.node_ready"))
    return _pool_view(pool)


@handles("k8s.pools.view")
def pools_view(ctx: Ctx) -> dict[str, Any]:
    """One pool."""
    return _pool_view(_pool(ctx, _cluster(ctx)))


@handles("k8s.pools.update")
def pools_update(ctx: Ctx) -> dict[str, Any]:
    """Change count (nodes added or removed to match) and autoscaler settings."""
    cluster = _cluster(ctx)
    pool = _pool(ctx, cluster)
    _writer(ctx)
    v = ctx.check()
    # The pool's other fields (type, disks, tags, nodes) are fixed once it is created.
    v.unknown(("count", "autoscaler"))
    count = v.integer("count", lo=1, hi=100)
    autoscaler = _check_autoscaler(v, count if isinstance(count, int) else pool["count"])
    v.done()
    if isinstance(count, int):
        while len(pool["nodes"]) < count:
            node = new_node(ctx.store, pool["id"], "not_ready")
            pool["nodes"].append(node)
            _schedule_node_ready(ctx, cluster["id"], node, ctx.delay("k8s.node_ready"))
        del pool["nodes"][count:]
        pool["count"] = count
    if autoscaler is not None:
        pool["autoscaler"] = autoscaler
    ctx.store.put(POOLS, pool["id"], pool)
    return _pool_view(pool)


@handles("k8s.pools.delete")
def pools_delete(ctx: Ctx) -> None:
    """Delete a pool and its nodes (not the cluster's last pool)."""
    cluster = _cluster(ctx)
    pool = _pool(ctx, cluster)
    _writer(ctx)
    if len(_pools_of(ctx.store, cluster["id"])) == 1:
        raise conflict("A cluster needs at least one pool: delete the cluster instead")
    ctx.store.delete(POOLS, pool["id"])


@handles("k8s.pools.recycle")
def pools_recycle(ctx: Ctx) -> None:
    """Rolling replacement of every node of the pool."""
    cluster = _cluster(ctx)
    pool = _pool(ctx, cluster)
    _writer(ctx)
    _replace_nodes(ctx, cluster["id"], [pool])


# -- nodes ----------------------------------------------------------------------------------


@handles("k8s.nodes.view")
def nodes_view(ctx: Ctx) -> dict[str, Any]:
    """One node."""
    _pool_of_node, node = _node(ctx, _cluster(ctx))
    return dict(node)


@handles("k8s.nodes.delete")
def nodes_delete(ctx: Ctx) -> None:
    """Delete a node; its pool shrinks by one (not below one node)."""
    cluster = _cluster(ctx)
    pool, node = _node(ctx, cluster)
    _writer(ctx)
    if pool["count"] <= 1:
        raise conflict("A pool keeps at least one node: delete the pool instead")
    pool["nodes"] = [n for n in pool["nodes"] if n["id"] != node["id"]]
    pool["count"] = len(pool["nodes"])
    ctx.store.put(POOLS, pool["id"], pool)


@handles("k8s.nodes.recycle")
def nodes_recycle(ctx: Ctx) -> None:
    """Replace the node by a new instance; it is ``not_ready`` until it joins."""
    cluster = _cluster(ctx)
    pool, node = _node(ctx, cluster)
    _writer(ctx)
    _replace_nodes(ctx, cluster["id"], [pool], only=node["id"])


# -- versions -------------------------------------------------------------------------------


@handles("k8s.versions.list")
def versions_list(ctx: Ctx) -> Collection:
    """Supported versions, newest first."""
    return Collection([{"id": v} for v in reversed(VERSIONS)])


@handles("k8s.versions.view")
def versions_view(ctx: Ctx) -> dict[str, Any]:
    """One version."""
    version = str(ctx.params.get("version", ""))
    if version not in VERSIONS:
        raise not_found("Version not found")
    return {"id": version}
