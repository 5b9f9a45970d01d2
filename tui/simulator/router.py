"""Matching request paths to registry endpoints."""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import unquote

from tui.api.endpoints import Endpoint
from tui.api.paths import SLASHED_PARAMS


@dataclass(frozen=True)
class _Route:
    endpoint: Endpoint
    pattern: re.Pattern[str]
    literals: int


def _compile(ep: Endpoint) -> _Route:
    regex = ""
    literals = 0
    for segment in ep.path.strip("/").split("/"):
        match = re.fullmatch(r"\{(\w+)\}", segment)
        if match:
            name = match.group(1)
            # Image and kernel ids may carry one slash (private/12, compute/latest-64bit).
            piece = r"[^/]+(?:/[^/]+)?" if name in SLASHED_PARAMS else r"[^/]+"
            regex += f"/(?P<{name}>{piece})"
        else:
            literals += 1
            regex += "/" + re.escape(segment)
    return _Route(ep, re.compile(regex + "/?"), literals)


class Router:
    """Finds the endpoint of a method and path.

    Routes with more literal segments win, so ``/managed/credentials/sshkey`` beats
    ``/managed/credentials/{credentialId}``.

    Args:
        endpoints: The endpoints to route.
    """

    def __init__(self, endpoints: list[Endpoint]) -> None:
        routes = [_compile(ep) for ep in endpoints]
        routes.sort(key=lambda r: -r.literals)
        self._routes = routes

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
        path_known = False
        for route in self._routes:
            m = route.pattern.fullmatch(path)
            if m is None:
                continue
            if route.endpoint.method != method:
                path_known = True
                continue
            params = {k: unquote(v) for k, v in m.groupdict().items()}
            return route.endpoint, params, True
        return None, {}, path_known

    def allowed(self, path: str) -> list[str]:
        """Methods some endpoint accepts on ``path`` (the ``Allow`` header of a 405), sorted."""
        return sorted({r.endpoint.method for r in self._routes if r.pattern.fullmatch(path)})
