"""The HTTP layer under the API client: its one ``httpx.AsyncClient``, and failures to get an
answer turned into typed errors."""

from __future__ import annotations

import importlib.util
import logging
import ssl
import sys
from typing import Any

import httpx

from tui import __version__
from tui.api.errors import ConnectFailure, ConnectionDropped, TimeoutFailure, TransportFailure
from tui.api.token import SecretText

log = logging.getLogger("cloudtui.api")


def _remember_missing_sniffio() -> None:
    """Make httpcore's per-request ``import sniffio`` fail fast when sniffio is not installed.

    httpcore asks which async library runs by importing ``sniffio`` several times per request;
    when it is absent every attempt searches the whole import path again (about 1 ms per
    request here, a sixth of the client's CPU on a fast listing). A ``None`` entry in
    ``sys.modules`` makes the same ImportError immediate. Installed sniffio is left alone.
    """
    if "sniffio" not in sys.modules and importlib.util.find_spec("sniffio") is None:
        sys.modules["sniffio"] = None  # type: ignore[assignment]


_remember_missing_sniffio()

DEFAULT_CONNECT_TIMEOUT = 5.0
DEFAULT_READ_TIMEOUT = 30.0
KEEPALIVE_EXPIRY = 4.0
"""Seconds an idle pooled connection is kept. Below the common 5 s server keep-alive (uvicorn,
many proxies): a connection the server is about to close is not reused, because a POST sent on
it would fail after sending and be reported as "may have been carried out" (bench_faults saw
this without any fault)."""


class BearerAuth(httpx.Auth):
    """Adds the bearer token to each request; its repr never shows the token."""

    def __init__(self, token: SecretText) -> None:
        self._token = token

    def auth_flow(self, request: httpx.Request) -> Any:
        request.headers["Authorization"] = f"Bearer {self._token.get_secret_value()}"
        yield request

    def __repr__(self) -> str:
        return "BearerAuth(token='**********')"


def _redacted_headers(headers: httpx.Headers) -> dict[str, str]:
    return {
        k: ("Bearer **********" if k.lower() == "authorization" else v) for k, v in headers.items()
    }


async def _log_request(request: httpx.Request) -> None:
    # Runs after authentication, so the header exists here; it is logged redacted.
    if log.isEnabledFor(logging.DEBUG):
        log.debug(
            "%s %s headers=%s", request.method, request.url, _redacted_headers(request.headers)
        )


class DeferredTlsTransport(httpx.AsyncBaseTransport):
    """httpx's own transport, with the certificates for TLS loaded by the first https request.

    Loading the certificate bundle costs ~16 ms of CPU, which httpx pays whenever a client is
    made. Clients of the simulator, ``cloudtui sim`` or a test server (http on 127.0.0.1) never
    need it, and the app makes one client per account it opens; a client of the real API
    loads it just before its first connection. Plain http goes through a pool whose TLS
    context trusts no certificate at all, so TLS can never happen there unverified.
    """

    def __init__(self, limits: httpx.Limits) -> None:
        """Make no pool yet.

        Args:
            limits: Connection limits of each pool (one for http, one for https).
        """
        self._limits = limits
        self._plain: httpx.AsyncHTTPTransport | None = None
        self._tls: httpx.AsyncHTTPTransport | None = None

    def _pool_for(self, request: httpx.Request) -> httpx.AsyncHTTPTransport:
        if request.url.scheme == "https":
            if self._tls is None:
                self._tls = httpx.AsyncHTTPTransport(limits=self._limits)
            return self._tls
        if self._plain is None:
            untrusting = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)  # verifies, trusts nothing
            self._plain = httpx.AsyncHTTPTransport(verify=untrusting, limits=self._limits)
        return self._plain

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        """Send ``request`` through the pool of its scheme."""
        return await self._pool_for(request).handle_async_request(request)

    async def aclose(self) -> None:
        """Close the pools made."""
        for pool in (self._plain, self._tls):
            if pool is not None:
                await pool.aclose()


def http_client(
    base_url: str,
    token: SecretText | None,
    transport: httpx.AsyncBaseTransport | None,
    *,
    connect_timeout: float,
    read_timeout: float,
) -> httpx.AsyncClient:
    """The program's one ``httpx.AsyncClient``: bearer token, no redirects, redacted logging.

    Args:
        base_url: The checked base URL.
        token: Bearer token, or None for anonymous calls.
        transport: Optional httpx transport (simulator, MockTransport).
        connect_timeout: Seconds to establish a connection.
        read_timeout: Seconds to wait for an answer.
    """
    limits = httpx.Limits(
        max_connections=100, max_keepalive_connections=20, keepalive_expiry=KEEPALIVE_EXPIRY
    )
    return httpx.AsyncClient(
        base_url=base_url,
        transport=transport or DeferredTlsTransport(limits),
        auth=BearerAuth(token) if token is not None else None,
        headers={"User-Agent": f"cloudtui/{__version__}", "Accept": "application/json"},
        timeout=httpx.Timeout(read_timeout, connect=connect_timeout),
        follow_redirects=False,
        event_hooks={"request": [_log_request]},
    )


def describe_failure(exc: Exception, token: SecretText | None) -> str:
    """A short reason for a transport exception, with the token scrubbed out of it."""
    text = str(exc).strip()
    if token is not None:
        secret = token.get_secret_value()
        if secret:
            text = text.replace(secret, "**********")
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


async def send(
    http: httpx.AsyncClient,
    request: httpx.Request,
    shown: str,
    token: SecretText | None,
    *,
    bearer: bool = True,
    stream: bool = False,
) -> httpx.Response:
    """Send ``request`` once; a failure to get an answer raises the typed error.

    Whether the request may have reached the server (``sent``) decides what the caller may
    say and retry: a failed connect never sent anything, a timeout or a dropped connection may
    have.

    Args:
        http: The client to send with.
        request: The built request.
        shown: The path to name in errors (never a pre-signed address's secret part).
        token: The token to scrub out of error texts.
        bearer: Send the client's bearer token (False for pre-signed addresses).
        stream: Leave the answer's body unread (the caller streams it).

    Raises:
        TransportFailure: No HTTP answer (ConnectFailure, TimeoutFailure, ConnectionDropped).
    """
    method = request.method
    try:
        return await http.send(
            request, auth=httpx.USE_CLIENT_DEFAULT if bearer else None, stream=stream
        )
    except (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout) as exc:
        raise ConnectFailure(method, shown, describe_failure(exc, token), sent=False) from None
    except httpx.TimeoutException as exc:
        raise TimeoutFailure(method, shown, describe_failure(exc, token), sent=True) from None
    except (httpx.RemoteProtocolError, httpx.ReadError, httpx.WriteError) as exc:
        raise ConnectionDropped(method, shown, describe_failure(exc, token), sent=True) from None
    except httpx.TransportError as exc:
        raise TransportFailure(method, shown, describe_failure(exc, token), sent=True) from None
