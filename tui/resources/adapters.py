"""Adapters for listings that are not the plain ``{data, page, pages, results}`` collection.

Each adapter turns one answer into item dicts the generic list screen can show, and says how to
ask for the next chunk when the listing has its own paging (object lists use a marker).
Headless: plain dicts in, plain dicts out.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from tui.resources.local_keys import PROFILE_ORIGIN, keys_of


@dataclass(frozen=True)
class Adapted:
    """Items of one answer and how to continue.

    Attributes:
        items: Item dicts in display order.
        next_query: Query parameters for the next chunk, or None when this was the last.
    """

    items: list[dict[str, Any]]
    next_query: dict[str, Any] | None = None


def compute_backups(payload: Any) -> Adapted:
    """``{automatic: [...], snapshot: {current, in_progress}}`` -> one list with a ``slot``.

    The snapshot slots hold at most one backup each; they come first because they are the ones
    a user made on purpose.
    """
    items: list[dict[str, Any]] = []
    if not isinstance(payload, Mapping):
        return Adapted(items)
    snapshot = payload.get("snapshot") or {}
    if isinstance(snapshot, Mapping):
        for slot in ("in_progress", "current"):
            backup = snapshot.get(slot)
            if isinstance(backup, Mapping):
                items.append({**backup, "slot": f"snapshot ({slot.replace('_', ' ')})"})
    for backup in payload.get("automatic") or []:
        if isinstance(backup, Mapping):
            items.append({**backup, "slot": "automatic"})
    return Adapted(items)


def object_list(payload: Any) -> Adapted:
    """``{data, is_truncated, next_marker}`` -> objects, and the marker of the next chunk."""
    if not isinstance(payload, Mapping):
        return Adapted([])
    items = [dict(o) for o in payload.get("data") or [] if isinstance(o, Mapping)]
    marker = payload.get("next_marker")
    more = bool(payload.get("is_truncated")) and bool(marker)
    return Adapted(items, {"marker": marker} if more else None)


TAGGED_LABEL_FIELDS = ("label", "domain", "name")


def tagged_objects(payload: Any) -> Adapted:
    """Tagged objects ``{type, data}`` -> the objects themselves, with their kind.

    Ids of different kinds may collide, so each row gets ``_key`` = ``kind:id``; ``_kind`` picks
    the spec that opens it.
    """
    items: list[dict[str, Any]] = []
    data = payload.get("data") if isinstance(payload, Mapping) else None
    for entry in data or []:
        if not isinstance(entry, Mapping):
            continue
        kind = str(entry.get("type") or "unknown")
        obj = entry.get("data")
        obj = dict(obj) if isinstance(obj, Mapping) else {}
        label = next((obj[f] for f in TAGGED_LABEL_FIELDS if obj.get(f)), obj.get("id"))
        items.append(
            {
                **obj,
                "_kind": kind,
                "_key": f"{kind}:{obj.get('id')}",
                "_label": "" if label is None else str(label),
            }
        )
    # Grouped by kind (instances, domains, volumes, load balancers, then any other), in the
    # API's order within a kind: the list reads as one section per kind.
    items.sort(key=lambda i: KIND_ORDER.get(i["_kind"], len(KIND_ORDER)))
    return Adapted(items)


KIND_ORDER = {"compute": 0, "domain": 1, "volume": 2, "loadbalancer": 3, "k8s_cluster": 4}
"""Order of the kinds in a tag's object list."""


def grants(payload: Any) -> Adapted:
    """The grants object -> one row per entity grant, then one row per global grant.

    An unrestricted user's answer is empty (204), so the list is empty too.
    """
    items: list[dict[str, Any]] = []
    if not isinstance(payload, Mapping):
        return Adapted(items)
    for kind, entries in payload.items():
        if kind == "global" or not isinstance(entries, list):
            continue
        for entry in entries:
            if isinstance(entry, Mapping):
                items.append(
                    {
                        "_key": f"{kind}:{entry.get('id')}",
                        "kind": kind,
                        "id": entry.get("id"),
                        "label": entry.get("label"),
                        "permissions": entry.get("permissions"),
                    }
                )
    glob = payload.get("global")
    if isinstance(glob, Mapping):
        for name, value in glob.items():
            items.append(
                {
                    "_key": f"global:{name}",
                    "kind": "global",
                    "id": None,
                    "label": name,
                    "permissions": "yes" if value is True else ("no" if not value else str(value)),
                }
            )
    return Adapted(items)


def plain_list(payload: Any) -> Adapted:
    """A bare JSON array, or ``{data: [...]}`` without paging."""
    if isinstance(payload, list):
        return Adapted([dict(i) for i in payload if isinstance(i, Mapping)])
    if isinstance(payload, Mapping):
        return Adapted([dict(i) for i in payload.get("data") or [] if isinstance(i, Mapping)])
    return Adapted([])


def profile_keys(payload: Any) -> Adapted:
    """The profile -> one item per SSH public key it registers (a key choice's item)."""
    keys = payload.get("authorized_keys") if isinstance(payload, Mapping) else None
    return Adapted(keys_of(keys if isinstance(keys, list) else [], PROFILE_ORIGIN))


def profile_user(payload: Any) -> Adapted:
    """The profile -> its user, the one user name the app knows (``{username}``)."""
    name = payload.get("username") if isinstance(payload, Mapping) else None
    return Adapted([{"username": name}] if isinstance(name, str) and name else [])


ADAPTERS: dict[str, Callable[[Any], Adapted]] = {
    "compute_backups": compute_backups,
    "object_list": object_list,
    "tagged_objects": tagged_objects,
    "grants": grants,
    "plain_list": plain_list,
    "profile_keys": profile_keys,
    "profile_user": profile_user,
}
"""Adapter name (``ResourceSpec.adapter``) -> function."""
