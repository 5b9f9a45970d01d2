"""The sidebar (13 areas), every resource spec by id, and the ``:`` command vocabulary."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tui.resources import (
    compute,
    databases,
    deployscripts,
    domains,
    images,
    k8s,
    loadbalancers,
    managed,
    object_storage,
    profile,
    tags,
    volumes,
)
from tui.resources.spec import Area, ResourceSpec, dig

AREAS: tuple[Area, ...] = (
    Area(
        "instances",
        "Instances",
        "compute.instances",
        ("in", "inst", "vm", "vms", "compute", "computes", "linodes"),
        "Compute",
        ("compute.types", "compute.regions"),
    ),
    Area("volumes", "Volumes", "volumes", ("vol", "vols", "volume"), "Compute"),
    Area("images", "Images", "images", ("img", "image", "im"), "Compute"),
    Area("kernels", "Kernels", "compute.kernels", ("ker", "kern", "kernel"), "Compute"),
    Area(
        "deployscripts",
        "Deployment scripts",
        "deployscripts",
        ("ds", "scripts", "script", "stackscripts", "deploy"),
        "Compute",
    ),
    Area(
        "loadbalancers",
        "Load balancers",
        "loadbalancers",
        ("lb", "lbs", "nb", "balancers", "balancer"),
        "Network",
    ),
    Area("domains", "Domains", "domains", ("dns", "dom", "domain", "zones"), "Network"),
    Area(
        "databases",
        "Databases",
        "databases",
        ("db", "dbs", "database", "mysql", "mongodb", "mongo"),
        "Services",
        ("databases.engines",),
    ),
    Area(
        "k8s",
        "Kubernetes",
        "k8s.clusters",
        ("kubernetes", "kube", "lke", "clusters", "cluster"),
        "Services",
        ("k8s.versions",),
    ),
    Area(
        "object_storage",
        "Object storage",
        "object_storage.buckets",
        ("os", "obj", "objects", "buckets", "bucket", "s3", "storage"),
        "Services",
        ("object_storage.keys", "object_storage.clusters"),
    ),
    Area(
        "managed",
        "Managed",
        "managed.services",
        ("mgd", "support", "services", "monitor"),
        "Services",
        (
            "managed.issues",
            "managed.contacts",
            "managed.credentials",
            "managed.compute_settings",
            "managed.sshkey",
            "managed.stats",
        ),
    ),
    Area("tags", "Tags", "tags", ("tag",), "Account"),
    Area("profile", "Profile", "profile", ("me", "account", "prof", "user"), "Account"),
)
"""The sidebar, in order; each area is one Textual mode with its own navigation stack."""

_MODULES = (
    compute,
    profile,
    object_storage,
    loadbalancers,
    domains,
    databases,
    k8s,
    managed,
    volumes,
    deployscripts,
    tags,
    images,
)

SPECS: dict[str, ResourceSpec] = {spec.id: spec for module in _MODULES for spec in module.SPECS}
"""Every resource of both reference documents, by spec id."""

AREA_BY_ID: dict[str, Area] = {area.id: area for area in AREAS}


def _area_of_spec() -> dict[str, str]:
    """Spec id -> id of the area it is reached from (roots, tabs, then their children)."""
    found: dict[str, str] = {}
    queue = [(spec_id, area.id) for area in AREAS for spec_id in (area.root, *area.tabs)]
    while queue:
        spec_id, area_id = queue.pop(0)
        if spec_id in found or spec_id not in SPECS:
            continue
        found[spec_id] = area_id
        spec = SPECS[spec_id]
        queue.extend((child.resource, area_id) for child in spec.children)
        queue.extend((target, area_id) for target in spec.item_specs.values())
    return found


AREA_OF_SPEC: dict[str, str] = _area_of_spec()
"""Spec id -> area id, for jumping to a resource from the palette."""


def open_target(spec: ResourceSpec, item: Mapping[str, Any]) -> ResourceSpec:
    """The spec whose detail screen opens ``item`` (a database by its engine, a tagged object
    by its kind, an instance's volume as a volume); ``spec`` itself otherwise."""
    if spec.item_specs:
        value = dig(item, spec.item_spec_field) if spec.item_spec_field else None
        target = spec.item_specs.get(str(value)) or spec.item_specs.get("*")
        if target and target in SPECS:
            return SPECS[target]
    return spec


@dataclass(frozen=True)
class Destination:
    """Where a ``:`` command leads.

    Attributes:
        area: The area (mode) to switch to.
        spec: The top-level resource to show in it (the root, or one of its tabs).
    """

    area: Area
    spec: str


def _vocabulary() -> dict[str, Destination]:
    words: dict[str, Destination] = {}
    for area in AREAS:
        for word in (area.id, area.title.lower().replace(" ", ""), *area.aliases):
            words.setdefault(word.lower(), Destination(area, area.root))
        for tab in area.tabs:
            spec = SPECS[tab]
            short = tab.rsplit(".", 1)[-1].replace("_", "")
            for word in (short, spec.title.lower().replace(" ", "")):
                words.setdefault(word, Destination(area, tab))
    return words


COMMANDS: dict[str, Destination] = _vocabulary()
"""Every ``:`` word (area ids, titles without spaces, aliases, tab names) -> destination."""

BUILTIN_COMMANDS: dict[str, str] = {
    "q": "quit",
    "quit": "quit",
    "help": "help",
    "refresh": "refresh",
    "r": "refresh",
    "json": "json",
    "back": "back",
    "overview": "overview",
    "watch": "watch",
    "log": "log",
    "check": "check",
    "read-only": "read-only",
    "export": "export",
    "account": "account",
    "fanout": "fanout",
    "xray": "xray",
}
"""Non-navigation ``:`` commands -> app action (the home areas are in :mod:`tui.home.areas`)."""


def resolve_command(text: str) -> Destination | None:
    """The destination of a ``:`` command, by exact word or unique prefix.

    Args:
        text: What the user typed after ``:`` (case and surrounding space ignored).

    Returns:
        The destination, or None when the word is unknown or ambiguous.
    """
    word = text.strip().lower().lstrip(":")
    if not word:
        return None
    if word in COMMANDS:
        return COMMANDS[word]
    matches = {dest for key, dest in COMMANDS.items() if key.startswith(word)}
    return matches.pop() if len(matches) == 1 else None


def complete_command(text: str, limit: int = 12) -> list[str]:
    """Completions of a partial ``:`` command, shortest first.

    Args:
        text: The partial word.
        limit: At most this many.

    Returns:
        Matching words (area ids, aliases, tab names and built-ins).
    """
    word = text.strip().lower().lstrip(":")
    pool = [*COMMANDS, *BUILTIN_COMMANDS]
    found = sorted({w for w in pool if w.startswith(word)}, key=lambda w: (len(w), w))
    return found[:limit]
