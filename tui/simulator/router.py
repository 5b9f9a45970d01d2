"""Matching request paths to registry endpoints."""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import unquote

from tui.api.endpoints import Endpoint
from tui.api.paths import SLASHED_PARAMS

SEEN_PATHS = 4096
"""Paths whose owners are remembered (forgotten all at once past it)."""


@dataclass(frozen=True)
class _Route:
    endpoint: Endpoint
    pattern: re.Pattern[str]
    rank: tuple[int, ...]
    """One entry per template segment, 1 for a literal and 0 for a parameter: compared as
    tuples, a literal segment outranks a parameter at the first place two templates differ."""


def _compile(ep: Endpoint) -> _Route:
    regex = ""
    rank: list[int] = []
    for segment in ep.path.strip("/").split("/"):
        match = re.fullmatch(r"\{(\w+)\}", segment)
        if match:
            name = match.group(1)
            # Image and kernel ids may carry one slash (private/12, compute/latest-64bit).
            piece = r"[^/]+(?:/[^/]+)?" if name in SLASHED_PARAMS else r"[^/]+"
            regex += f"/(?P<{name}>{piece})"
            rank.append(0)
        else:
            rank.append(1)
            regex += "/" + re.escape(segment)
    return _Route(ep, re.compile(regex + "/?"), tuple(rank))


class Router:
    """Finds the endpoint of a method and path.

    Literal segments win over parameters: a path that a template with a literal matches
    belongs to that template's routes only. ``PUT /managed/credentials/sshkey`` is a method
    the ``sshkey`` route lacks (405), not a credential whose id is ``sshkey``; ``GET
    /images/upload`` is 405, not an image named ``upload``.

    Args:
        endpoints: The endpoints to route.
    """

    def __init__(self, endpoints: list[Endpoint]) -> None:
        routes = [_compile(ep) for ep in endpoints]
        routes.sort(key=lambda r: r.rank, reverse=True)
        self._routes = routes
        self._seen: dict[str, list[tuple[_Route, re.Match[str]]]] = {}
        """Path -> its owners: a listing asks for the same path for every page, and finding
        them tries every route's pattern (~190)."""

    def _owners(self, path: str) -> list[tuple[_Route, re.Match[str]]]:
        """The routes that own ``path``: those matching it with the highest rank."""
        found = self._seen.get(path)
        if found is None:
            if len(self._seen) >= SEEN_PATHS:
                self._seen.clear()
            found = self._seen[path] = self._find_owners(path)
        return found

    def _find_owners(self, path: str) -> list[tuple[_Route, re.Match[str]]]:
        found: list[tuple[_Route, re.Match[str]]] = []
        for route in self._routes:
            if found and route.rank != found[0][0].rank:
                break  # sorted by rank: the rest rank lower
            m = route.pattern.fullmatch(path)
            if m is not None:
                found.append((route, m))
        return found

    def match(self, method: str, path: str) -> tuple[Endpoint | None, dict[str, str], bool]:
        """Match a request.

        Args:
            method: HTTP method.
            path: Path relative to ``/v4`` (still percent-encoded).

        Returns:
            ``(endpoint, params, path_known)``: the endpoint and its unquoted parameters, or
            ``(None, {}, True)`` when the path exists with other methods, or ``(None, {}, False)``
            for an unknown route.
        """
        owners = self._owners(path)
        for route, m in owners:
            if route.endpoint.method == method:
                params = {k: unquote(v) for k, v in m.groupdict().items()}
                return route.endpoint, params, True
        return None, {}, bool(owners)

    def allowed(self, path: str) -> list[str]:
        """Methods some endpoint accepts on ``path`` (the ``Allow`` header of a 405), sorted."""
        return sorted({route.endpoint.method for route, _m in self._owners(path)})
