"""Which fields of each listing a filter may name: the fields the reference marks *filterable*.

One table, copied from the reference text ("Resources and their fields" of both parts): a
listing answers the resource named in its comment, and its entry holds that resource's fields
marked (filterable). A listing without an entry has no filterable field, so any field named in
its ``X-Filter`` is refused. The listings the reference adds beyond its two documents (regions,
instance types) mark no field, and have none here.
"""

from __future__ import annotations

_DATABASE = frozenset({"label", "region", "type"})
"""Managed database: ``label``, ``region``, ``type`` (Part 2)."""
_VOLUME = frozenset({"label"})
"""Volume: ``label`` (Part 2)."""

FILTERABLE: dict[str, frozenset[str]] = {
    # Part 1, Authorized app: created, expiry.
    "profile.apps.list": frozenset({"created", "expiry"}),
    # Part 1, Compute instance: group, id, image, ipv4, label, region, tags.
    "compute.instances.list": frozenset(
        {"group", "id", "image", "ipv4", "label", "region", "tags"}
    ),
    # Part 1, Configuration profile: label.
    "compute.configs.list": frozenset({"label"}),
    # Part 1, Kernel: architecture.
    "compute.kernels.list": frozenset({"architecture"}),
    # Part 1, Instance volumes list: a collection of Volume (Part 2).
    "compute.volumes.list": _VOLUME,
    # Part 2, Load balancer: label, tags.
    "loadbalancers.list": frozenset({"label", "tags"}),
    # Part 2, Domain: domain, group, tags.
    "domains.list": frozenset({"domain", "group", "tags"}),
    # Part 2, Domain record: type, name, target, tag.
    "domains.records.list": frozenset({"name", "tag", "target", "type"}),
    # Part 2, Managed database (the list across engines and each engine's list).
    "databases.instances.list": _DATABASE,
    "databases.mysql.list": _DATABASE,
    "databases.mongodb.list": _DATABASE,
    # Part 2, Kubernetes cluster: label, tags.
    "k8s.clusters.list": frozenset({"label", "tags"}),
    # Part 2, Managed support contact: group.
    "managed.contacts.list": frozenset({"group"}),
    # Part 2, Volume: label.
    "volumes.list": _VOLUME,
    # Part 2, Deployment script: description, is_public, label, rev_note.
    "deployscripts.list": frozenset({"description", "is_public", "label", "rev_note"}),
    # Part 2, Image: deprecated, is_public, label, size, type, vendor.
    "images.list": frozenset({"deprecated", "is_public", "label", "size", "type", "vendor"}),
}
"""List endpoint name -> the fields its ``X-Filter`` may name."""


def filterable(endpoint_name: str) -> frozenset[str]:
    """The filterable fields of a listing (empty for a listing with none)."""
    return FILTERABLE.get(endpoint_name, frozenset())
