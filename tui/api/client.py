"""The asynchronous API client: one long-lived ``httpx.AsyncClient`` for the whole program.

:class:`ApiClient` is assembled from modules of one job each:

- :mod:`tui.api.transport`: the ``httpx.AsyncClient`` (token, timeouts, keep-alive, redacted
  logging) and failures to get an answer as typed errors;
- :mod:`tui.api.base_url`: which addresses are acceptable;
- :mod:`tui.api.calls`: one operation (send, retry, decode, tell observers of changes);
- :mod:`tui.api.listing`: collections, page by page, concurrently and in order;
- :mod:`tui.api.presigned`: uploads and downloads to addresses the API hands out.
"""

from __future__ import annotations

from tui.api.base_url import InsecureBaseUrl, is_loopback_host, validate_base_url
from tui.api.calls import DEFAULT_MAX_CONCURRENCY
from tui.api.listing import ListingClient, ListingOptions
from tui.api.presigned import PresignedClient
from tui.api.transport import DEFAULT_CONNECT_TIMEOUT, DEFAULT_READ_TIMEOUT, KEEPALIVE_EXPIRY

__all__ = [
    "DEFAULT_CONNECT_TIMEOUT",
    "DEFAULT_MAX_CONCURRENCY",
    "DEFAULT_READ_TIMEOUT",
    "KEEPALIVE_EXPIRY",
    "ApiClient",
    "InsecureBaseUrl",
    "ListingOptions",
    "is_loopback_host",
    "validate_base_url",
]


class ApiClient(ListingClient, PresignedClient):
    """Typed access to every endpoint of the registry: the one API surface.

    One instance lives as long as the program; it owns one ``httpx.AsyncClient`` so connections
    are reused. Tests and demo mode pass ``transport=httpx.ASGITransport(simulator)``.

    Args:
        base_url: URL ending in ``/v4``.
        token: Bearer token, or None for anonymous calls.
        transport: Optional httpx transport (simulator, MockTransport).
        connect_timeout: Seconds to establish a connection.
        read_timeout: Seconds to wait for an answer.
        retry: Retry policy; its ``sleep`` is injectable.
        max_concurrency: Bound on concurrent page requests in :meth:`iter_all`.
        page_size: Page size requested for collections.
        allow_insecure: Skip the base URL check (in-process transports only).
    """
