"""Tags across instances, domains, volumes and load balancers.

A tag exists when it was created explicitly (table ``tags.tags``, keyed by label) or when any
object carries it in its ``tags`` list, whichever area set it. The other areas' tables are read
defensively: a table that is missing or empty simply contributes nothing.

Choices where the reference is silent:

* Creating and deleting need an unrestricted user (403). Listing works for anyone with the
  scope, but a restricted user sees only explicit tags and tags of objects they can read, and
  only those objects in a tag's object list; a tag they cannot see answers 404.
* Creating a tag that was already created explicitly is refused (400, field ``label``); a label
  that so far lives only on objects becomes an explicit tag.
* Object ids that do not exist (or that the caller cannot see) fail with 400 on the array's
  field (``computes``, ``domains``, ``volumes``, ``loadbalancers``); an existing object the
  caller cannot change (no ``read_write`` grant, or an OAuth token without the kind's
  ``<area>:read_write`` scope) fails with 403 on that field. Either way nothing is created or
  tagged.
* Tags sort case-insensitively; a tag's objects come by kind (instances, domains, volumes, load
  balancers), then by id.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tui.simulator.context import Collection, Ctx, public
from tui.simulator.errors import SimError, not_found
from tui.simulator.registry import handles
from tui.simulator.store import Store
from tui.simulator.validate import Check

TAGS = "tags.tags"


@dataclass(frozen=True)
class Kind:
    """One kind of taggable object.

    Attributes:
        type: ``type`` of its entries in the tagged-objects list.
        table: Store table of its records.
        grant: Grant kind of a restricted user.
        field: Array field of the create request naming its ids.
        scope: OAuth scope area that allows changing it.
    """

    type: str
    table: str
    grant: str
    field: str
    scope: str


KINDS = (
    Kind("compute", "compute.instances", "compute", "computes", "computes"),
    Kind("domain", "domains.domains", "domain", "domains", "domains"),
    Kind("volume", "volumes.volumes", "volume", "volumes", "volumes"),
    Kind(
        "loadbalancer", "loadbalancers.balancers", "loadbalancer", "loadbalancers", "loadbalancers"
    ),
)


def _id_key(record: dict[str, Any]) -> tuple[int, str]:
    raw = record.get("id")
    return (raw, "") if isinstance(raw, int) else (0, str(raw))


def tags_of(record: dict[str, Any]) -> list[str]:
    """The tag labels an object carries (non-strings ignored)."""
    tags = record.get("tags")
    return [t for t in tags if isinstance(t, str)] if isinstance(tags, list) else []


def objects_of(store: Store, kind: Kind) -> list[dict[str, Any]]:
    """Every record of a kind, by id (an absent table is empty)."""
    table = store.tables.get(kind.table) or {}
    return sorted((r for r in table.values() if isinstance(r, dict)), key=_id_key)


def sort_labels(labels: set[str]) -> list[str]:
    """Case-insensitive order, ties broken by the exact text."""
    return sorted(labels, key=lambda t: (t.casefold(), t))


def _visible(ctx: Ctx, kind: Kind) -> list[dict[str, Any]]:
    return [r for r in objects_of(ctx.store, kind) if ctx.principal.can_read(kind.grant, r["id"])]


def visible_tags(ctx: Ctx) -> set[str]:
    """Explicit tags plus the tags of every object the caller can read."""
    labels = {str(r.get("label")) for r in ctx.store.rows(TAGS) if r.get("label")}
    for kind in KINDS:
        for record in _visible(ctx, kind):
            labels.update(tags_of(record))
    return labels


def _label_param(ctx: Ctx) -> str:
    return str(ctx.params.get("label", ""))


@handles("tags.list")
def tags_list(ctx: Ctx) -> Collection:
    """Every tag the caller can see, sorted."""
    return Collection([{"label": label} for label in sort_labels(visible_tags(ctx))])


@handles("tags.create")
def tags_create(ctx: Ctx) -> dict[str, Any]:
    """Create a tag and put it at once on the listed objects (all or nothing)."""
    p = ctx.principal
    p.require_unrestricted()
    v = Check(ctx.body)
    v.unknown(("label", *(k.field for k in KINDS)))
    label = v.string("label", required=True, min_len=3, max_len=50)
    if isinstance(label, str) and ctx.store.get(TAGS, label) is not None:
        v.fail("label", "a tag with this label already exists")
    targets: list[tuple[Kind, dict[str, Any]]] = []
    denied: list[dict[str, Any]] = []
    for kind in KINDS:
        ids = v.int_list(kind.field)
        if not isinstance(ids, list):
            continue
        missing: list[int] = []
        refused: list[int] = []
        for object_id in dict.fromkeys(ids):
            record = ctx.store.get(kind.table, object_id)
            if record is None or not p.can_read(kind.grant, object_id):
                missing.append(object_id)
            elif not (
                p.can_write(kind.grant, object_id) and p.has_scope(f"{kind.scope}:read_write")
            ):
                refused.append(object_id)
            else:
                targets.append((kind, record))
        if missing:
            v.fail(kind.field, f"{kind.field} names objects that do not exist: {missing}")
        if refused:
            denied.append(
                {
                    "field": kind.field,
                    "reason": f"{kind.field}: read_write access is needed on {refused}",
                }
            )
    v.done()
    if denied:
        raise SimError(403, errors=denied)
    ctx.store.put(TAGS, label, {"label": label})
    for kind, record in targets:
        tags = tags_of(record)
        if label not in tags:
            record["tags"] = [*tags, label]
            ctx.store.put(kind.table, record["id"], record)
    return {"label": label}


@handles("tags.delete")
def tags_delete(ctx: Ctx) -> None:
    """Delete a tag and remove it from every object."""
    ctx.principal.require_unrestricted()
    label = _label_param(ctx)
    if label not in visible_tags(ctx):
        raise not_found("Tag not found")
    ctx.store.delete(TAGS, label)
    for kind in KINDS:
        for record in objects_of(ctx.store, kind):
            tags = tags_of(record)
            if label in tags:
                record["tags"] = [t for t in tags if t != label]
                ctx.store.put(kind.table, record["id"], record)


@handles("tags.objects")
def tags_objects(ctx: Ctx) -> Collection:
    """The objects carrying a tag that the caller can read, of every kind."""
    label = _label_param(ctx)
    if label not in visible_tags(ctx):
        raise not_found("Tag not found")
    items = [
        {"type": kind.type, "data": public(record)}
        for kind in KINDS
        for record in _visible(ctx, kind)
        if label in tags_of(record)
    ]
    return Collection(items)
