"""The kinds of object the relations index holds, as data (headless).

Each :class:`Kind` is named by the id of the :class:`~tui.resources.spec.ResourceSpec` that
opens such an object, so a UI row naming ``(kind, params)`` opens it with the generic detail
screen. The table says where the objects are listed (a child kind under its parent), how one is
identified and labelled, which path parameters name it, and which endpoints view and delete it.
Endpoint names may hold ``{field}`` placeholders filled from the object's row (a database's
``databases.{engine}.delete``).
"""

from __future__ import annotations

import string
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from tui.relations.paths import Readable, first_at, values_at


def record_name(record: Readable) -> str:
    """A DNS record's full name: ``www.example.com``, the domain itself at the apex, and
    ``_sip._tcp.example.com`` for a service record."""
    domain = str(first_at(record, "^domain") or "").rstrip(".")
    name = str(first_at(record, "name") or "").rstrip(".")
    if not name and first_at(record, "type") == "SRV":
        parts = [str(first_at(record, f) or "").strip(".") for f in ("service", "protocol")]
        name = ".".join(p for p in parts if p)
    if not name:
        return domain
    if not domain or name == domain or name.endswith(f".{domain}"):
        return name
    return f"{name}.{domain}"


def record_label(record: Readable) -> str:
    """A DNS record as people name it: ``www.example.com A``."""
    return f"{record_name(record)} {first_at(record, 'type') or ''}".strip()


def backup_label(backup: Readable) -> str:
    """A backup: its label (snapshots have one) or when it was taken, and its slot."""
    name = first_at(backup, "label") or first_at(backup, "created") or ""
    slot = first_at(backup, "slot") or first_at(backup, "type") or ""
    return f"{name} ({slot})" if slot else str(name)


LABELS: dict[str, Callable[[Readable], str]] = {"record": record_label, "backup": backup_label}
"""Labels that are more than a template, by the name a kind's ``label`` gives after ``@``."""


@dataclass(frozen=True)
class Kind:
    """One kind of object.

    Attributes:
        name: Id of the ResourceSpec that opens it (``compute.instances``).
        singular: What one is called in sentences (``DNS record``).
        plural: What several are called.
        listing: Endpoint listing them (under the parent for a child kind); None for a kind
            read from its parent's rows (``nested_in``).
        parent: Kind of the object they belong to, if any.
        params: Path parameter -> path in the object naming it (``("configId", "id")``,
            ``("computeId", "^id")``): the parameters of its view and delete endpoints.
        path: Path templates of the object itself, as change events name them.
        identity: Fields that identify one among all of its kind (a bucket: cluster and label).
        label: Template of its display label, or ``@name`` of a function in :data:`LABELS`.
        view: Endpoint showing one (re-read after a change), if any.
        delete: Endpoint deleting one, if any.
        nested_in: Field of the parent's row that holds these objects (a pool's nodes).
        adapter: How an odd listing becomes rows (``backups``: ``{automatic, snapshot}``).
        eager: Listed when the index is built; otherwise only when one parent's relations are
            asked for (an instance's configs, disks and backups: three requests per instance).
    """

    name: str
    singular: str
    plural: str
    listing: str | None
    params: tuple[tuple[str, str], ...]
    path: tuple[str, ...] = ()
    parent: str | None = None
    identity: tuple[str, ...] = ("id",)
    label: str = "{label}"
    view: str | None = None
    delete: str | None = None
    nested_in: str | None = None
    adapter: str | None = None
    eager: bool = True

    def ident(self, row: Mapping[str, Any]) -> Any:
        """The object's id in its row (None when the row lacks it)."""
        values = [row.get(f) for f in self.identity]
        if any(v is None or v == "" for v in values):
            return None
        return values[0] if len(values) == 1 else "/".join(str(v) for v in values)

    def endpoint_name(self, template: str, obj: Readable) -> str:
        """An endpoint name of this kind with its ``{field}`` placeholders filled from ``obj``."""
        if "{" not in template:
            return template
        names = [name for _, name, _, _ in string.Formatter().parse(template) if name]
        return template.format(**{name: first_at(obj, name) or "" for name in names})

    def path_params(self, obj: Readable) -> dict[str, Any]:
        """The path parameters naming ``obj`` (those it has a value for)."""
        found: dict[str, Any] = {}
        for param, path in self.params:
            values = values_at(obj, path)
            if values:
                found[param] = values[0]
        return found


def _ids(*pairs: str) -> tuple[tuple[str, str], ...]:
    """``("loadbalancerId", "^^id", "configId", "^id")`` -> pairs."""
    return tuple(zip(pairs[::2], pairs[1::2], strict=True))


KINDS: tuple[Kind, ...] = (
    Kind(
        "domains",
        "domain",
        "domains",
        "domains.list",
        _ids("domainId", "id"),
        path=("/domains/{domainId}",),
        label="{domain}",
        view="domains.view",
        delete="domains.delete",
    ),
    Kind(
        "domains.records",
        "DNS record",
        "DNS records",
        "domains.records.list",
        _ids("domainId", "^id", "recordId", "id"),
        path=("/domains/{domainId}/records/{recordId}",),
        parent="domains",
        label="@record",
        view="domains.records.view",
        delete="domains.records.delete",
    ),
    Kind(
        "loadbalancers",
        "load balancer",
        "load balancers",
        "loadbalancers.list",
        _ids("loadbalancerId", "id"),
        path=("/loadbalancers/{loadbalancerId}",),
        view="loadbalancers.view",
        delete="loadbalancers.delete",
    ),
    Kind(
        "loadbalancers.configs",
        "port",
        "ports",
        "loadbalancers.configs.list",
        _ids("loadbalancerId", "^id", "configId", "id"),
        path=("/loadbalancers/{loadbalancerId}/configs/{configId}",),
        parent="loadbalancers",
        label="{port} ({protocol})",
        view="loadbalancers.configs.view",
        delete="loadbalancers.configs.delete",
    ),
    Kind(
        "loadbalancers.nodes",
        "balancer node",
        "balancer nodes",
        "loadbalancers.nodes.list",
        _ids("loadbalancerId", "^^id", "configId", "^id", "nodeId", "id"),
        path=("/loadbalancers/{loadbalancerId}/configs/{configId}/nodes/{nodeId}",),
        parent="loadbalancers.configs",
        view="loadbalancers.nodes.view",
        delete="loadbalancers.nodes.delete",
    ),
    Kind(
        "k8s.clusters",
        "cluster",
        "clusters",
        "k8s.clusters.list",
        _ids("clusterId", "id"),
        path=("/k8s/clusters/{clusterId}",),
        view="k8s.clusters.view",
        delete="k8s.clusters.delete",
    ),
    Kind(
        "k8s.pools",
        "pool",
        "pools",
        "k8s.pools.list",
        _ids("clusterId", "^id", "poolId", "id"),
        path=("/k8s/clusters/{clusterId}/pools/{poolId}",),
        parent="k8s.clusters",
        label="{id} ({type})",
        view="k8s.pools.view",
        delete="k8s.pools.delete",
    ),
    Kind(
        "k8s.nodes",
        "Kubernetes node",
        "Kubernetes nodes",
        None,
        _ids("clusterId", "^^id", "poolId", "^id", "nodeId", "id"),
        path=("/k8s/clusters/{clusterId}/nodes/{nodeId}",),
        parent="k8s.pools",
        label="{id}",
        view="k8s.nodes.view",
        delete="k8s.nodes.delete",
        nested_in="nodes",
    ),
    Kind(
        "compute.instances",
        "instance",
        "instances",
        "compute.instances.list",
        _ids("computeId", "id"),
        path=("/compute/instances/{computeId}",),
        view="compute.instances.view",
        delete="compute.instances.delete",
    ),
    Kind(
        "compute.configs",
        "config",
        "configs",
        "compute.configs.list",
        _ids("computeId", "^id", "configId", "id"),
        path=("/compute/instances/{computeId}/configs/{configId}",),
        parent="compute.instances",
        view="compute.configs.view",
        delete="compute.configs.delete",
        eager=False,
    ),
    Kind(
        "compute.disks",
        "disk",
        "disks",
        "compute.disks.list",
        _ids("computeId", "^id", "diskId", "id"),
        path=("/compute/instances/{computeId}/disks/{diskId}",),
        parent="compute.instances",
        eager=False,
    ),
    Kind(
        "compute.backups",
        "backup",
        "backups",
        "compute.backups.list",
        _ids("computeId", "^id", "backupId", "id"),
        path=("/compute/instances/{computeId}/backups/{backupId}",),
        parent="compute.instances",
        label="@backup",
        adapter="compute_backups",
        eager=False,
    ),
    Kind(
        "volumes",
        "volume",
        "volumes",
        "volumes.list",
        _ids("volumeId", "id"),
        path=("/volumes/{volumeId}",),
        view="volumes.view",
        delete="volumes.delete",
    ),
    Kind(
        "databases",
        "database",
        "databases",
        "databases.instances.list",
        _ids("instanceId", "id"),
        path=(
            "/databases/mysql/instances/{instanceId}",
            "/databases/mongodb/instances/{instanceId}",
        ),
        view="databases.{engine}.view",
        delete="databases.{engine}.delete",
    ),
    Kind(
        "object_storage.buckets",
        "bucket",
        "buckets",
        "object_storage.buckets.list",
        _ids("clusterId", "cluster", "bucket", "label"),
        path=("/object-storage/buckets/{clusterId}/{bucket}",),
        identity=("cluster", "label"),
        view="object_storage.buckets.view",
        delete="object_storage.buckets.remove",
    ),
    Kind(
        "object_storage.keys",
        "access key",
        "access keys",
        "object_storage.keys.list",
        _ids("keyId", "id"),
        path=("/object-storage/keys/{keyId}",),
        delete="object_storage.keys.revoke",
    ),
    Kind(
        "tags",
        "tag",
        "tags",
        "tags.list",
        _ids("label", "label"),
        path=("/tags/{label}",),
        identity=("label",),
        delete="tags.delete",
    ),
)
"""Every kind the index holds; a kind comes after the kinds whose deletion takes it along
(a cluster, its pools, their nodes, the nodes' instances, their configs), so sentences that
count what goes with a delete list it in that order."""

BY_NAME: dict[str, Kind] = {kind.name: kind for kind in KINDS}
"""Every kind by its name."""


def children_of(kind: str) -> tuple[Kind, ...]:
    """The kinds whose parent is ``kind``."""
    return tuple(k for k in KINDS if k.parent == kind)
