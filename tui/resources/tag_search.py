"""``#tag`` across every list loaded so far: what the palette offers for a tag (headless).

The palette searches the resources the app has listed (every area's first page is fetched when
it opens, Kubernetes clusters included). A query made only of tag terms (``#production``,
``#prod*``, ``!#staging``: the ``/`` filter's tag language, :mod:`tui.resources.filter_query`)
finds every listed item carrying the tag, whatever its kind, instead of matching labels.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from tui.resources.areas import open_target
from tui.resources.filter_query import FilterQuery, compile_query, parse
from tui.resources.spec import ResourceSpec
from tui.untrusted import Shown, shown

Listed = tuple[ResourceSpec, Mapping[str, Any], Iterable[Mapping[str, Any]]]
"""One loaded list: its spec, its path parameters and its items."""


@dataclass(frozen=True)
class TagHit:
    """A listed item carrying the tag.

    Attributes:
        spec: The list's spec (it opens the item).
        params: The list's path parameters.
        item: The item.
        text: Its label, as the palette shows it.
        help: Its kind and tags (``cluster · #production #shop``).
    """

    spec: ResourceSpec
    params: Mapping[str, Any]
    item: Mapping[str, Any]
    text: Shown
    help: Shown


def tag_query(text: str) -> FilterQuery | None:
    """The query of ``text`` when it is made only of tag terms (None: it is not a tag search)."""
    if not text.strip().lstrip("!").startswith("#"):
        return None
    query = parse(text)
    if query.empty or any(term.kind != "tag" for term in query.terms):
        return None
    return query


def tagged(lists: Iterable[Listed], text: str, limit: int = 50) -> list[TagHit]:
    """The items of ``lists`` carrying the tags of ``text`` (``#production``), at most
    ``limit``; an item listed in two places (the volumes list and an instance's Volumes tab)
    once. Empty when ``text`` is not a tag search.
    """
    query = tag_query(text)
    if query is None:
        return []
    hits: list[TagHit] = []
    seen: set[tuple[str, str]] = set()
    for spec, params, items in lists:
        matches = compile_query(query, spec)
        for item in items:
            target = open_target(spec, item)
            identity = (target.id, target.item_key(item))
            if identity in seen or not matches(item, (), ""):
                continue
            seen.add(identity)
            tags = " ".join(f"#{tag}" for tag in item.get("tags") or [] if isinstance(tag, str))
            label = spec.display_label(item)
            hits.append(TagHit(spec, params, item, label, shown(f"{target.singular} · {tags}")))
            if len(hits) >= limit:
                return hits
    return hits
