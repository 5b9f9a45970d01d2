"""Which changes can be undone, and how: one declaration per operation (headless data).

:mod:`tui.home.undo` reads this table for every change the app sends: a :class:`Reversal` says
which operation undoes it and where that request's body and path come from (the item as it was
before the change, the change's own body, its answer); an :class:`Irreversible` says why it
cannot be undone. An operation named in neither cannot be undone from the app either.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Reversal:
    """How to undo a change.

    Attributes:
        endpoint: The operation that undoes it (sent to the same path parameters).
        restore: The undo sends, for every field the change sent, the value the item had
            before (an edit of label, tags, a record's target ...).
        copy: Undo body field -> field of the item before (a detached volume's instance).
        rebuild: Builds the undo body from the item before (a deleted record recreated).
        from_answer: Undo path parameter -> field of the change's answer (a created record's
            id, which its delete needs).
    """

    endpoint: str
    restore: bool = False
    copy: Mapping[str, str] = field(default_factory=dict)
    rebuild: Callable[[Mapping[str, Any]], dict[str, Any]] | None = None
    from_answer: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Irreversible:
    """A change that cannot be undone.

    Attributes:
        why: The reason, as the user reads it after "cannot be undone: ".
    """

    why: str


_EDIT = ("compute.instances.update", "volumes.update", "domains.update", "images.update")
"""Edits of label and tags (and the other fields their forms send), undone by restoring."""

_GONE = "deleted on the server; a new one would have a new id, new addresses and no data"


def _record_create_body(record: Mapping[str, Any]) -> dict[str, Any]:
    """The create request that recreates a deleted DNS record (see tui.dns.zone_plan)."""
    # Imported on use: the undo journal loads this table on every start, and zone planning
    # brings the record request models and the form machinery (~20 ms before the first frame).
    from tui.dns.zone_plan import restore_body

    return restore_body(record)


REVERSIBILITY: Mapping[str, Reversal | Irreversible] = {
    **{name: Reversal(name, restore=True) for name in _EDIT},
    "loadbalancers.update": Reversal("loadbalancers.update", restore=True),
    "k8s.clusters.update": Reversal("k8s.clusters.update", restore=True),
    "compute.instances.boot": Reversal("compute.instances.shutdown"),
    "compute.instances.shutdown": Reversal("compute.instances.boot"),
    "volumes.attach": Reversal("volumes.detach"),
    "volumes.detach": Reversal("volumes.attach", copy={"compute_id": "compute_id"}),
    "domains.records.update": Reversal("domains.records.update", restore=True),
    "domains.records.create": Reversal("domains.records.delete", from_answer={"recordId": "id"}),
    "domains.records.delete": Reversal("domains.records.create", rebuild=_record_create_body),
    "compute.instances.delete": Irreversible(f"the instance and its disks are {_GONE}"),
    "volumes.delete": Irreversible(f"the volume is {_GONE}"),
    "images.delete": Irreversible(f"the image is {_GONE}"),
    "domains.delete": Irreversible(f"the domain and all its records are {_GONE}"),
    "loadbalancers.delete": Irreversible(f"the balancer is {_GONE}"),
    "k8s.clusters.delete": Irreversible(f"the cluster and its nodes are {_GONE}"),
    "k8s.pools.delete": Irreversible(f"the pool and its nodes are {_GONE}"),
    "k8s.nodes.delete": Irreversible(f"the node is {_GONE}"),
    "k8s.nodes.recycle": Irreversible("the node was replaced by a new one"),
    "k8s.pools.recycle": Irreversible("the pool's nodes were replaced by new ones"),
    "k8s.clusters.recycle": Irreversible("the cluster's nodes were replaced by new ones"),
    "databases.mysql.delete": Irreversible(f"the database and its data are {_GONE}"),
    "databases.mongodb.delete": Irreversible(f"the database and its data are {_GONE}"),
    "databases.mysql.backups.restore": Irreversible(
        "the database's data was overwritten by the backup"
    ),
    "databases.mongodb.backups.restore": Irreversible(
        "the database's data was overwritten by the backup"
    ),
    "object_storage.buckets.remove": Irreversible(f"the bucket and its objects are {_GONE}"),
    "object_storage.cancel": Irreversible("object storage was cancelled with all its buckets"),
}
"""Operation name -> how a change it made is undone, or why it cannot be."""
