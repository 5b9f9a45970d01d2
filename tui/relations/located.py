"""Which object a changed path names: how the index follows the client's changes (headless).

A change event names a path (``/domains/1/records/7``, ``/k8s/clusters/9/nodes/x/recycle``).
The kinds table gives each kind's object paths; an object's own path is that object, a path
one segment shorter is its listing (a create), and a longer one is an action on the object.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Literal
from urllib.parse import unquote

from tui.api.endpoints import endpoint
from tui.relations.kinds import Kind

How = Literal["object", "listing", "action"]
"""What a path names: an object, a listing of a kind, or an action on an object."""

_PARAM = re.compile(r"\\\{(\w+)\\\}")


def _pattern(template: str) -> re.Pattern[str]:
    return re.compile("^" + _PARAM.sub(r"(?P<\1>[^/]+)", re.escape(template)) + "(?P<_rest>/.*)?$")


_PATTERNS: dict[str, re.Pattern[str]] = {}


def _compiled(template: str) -> re.Pattern[str]:
    found = _PATTERNS.get(template)
    if found is None:
        found = _PATTERNS[template] = _pattern(template)
    return found


def locate(kinds: Iterable[Kind], path: str) -> tuple[Kind, dict[str, str], How] | None:
    """Which object (or listing) a changed path names: an object's own path first, then a
    listing (a create), then the longest object path it extends (an action on the object)."""
    best: tuple[int, Kind, dict[str, str]] | None = None
    listing: tuple[Kind, dict[str, str]] | None = None
    for kind in kinds:
        templates = list(kind.path)
        for template in templates:
            match = _compiled(template).match(path)
            if match is None:
                continue
            groups = {k: unquote(v) for k, v in match.groupdict().items() if k != "_rest" and v}
            if not match.group("_rest"):
                return kind, groups, "object"
            if best is None or template.count("/") > best[0]:
                best = (template.count("/"), kind, groups)
        parents = [t.rsplit("/", 1)[0] for t in templates]
        if kind.listing:
            parents.append(endpoint(kind.listing).path)
        for template in parents:
            match = _compiled(template).match(path)
            if match is not None and not match.group("_rest"):
                groups = {k: unquote(v) for k, v in match.groupdict().items() if k != "_rest"}
                listing = listing or (kind, groups)
    if listing is not None:
        return listing[0], listing[1], "listing"
    if best is not None:
        return best[1], best[2], "action"
    return None
