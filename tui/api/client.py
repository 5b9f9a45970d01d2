"""The asynchronous API client: one long-lived ``httpx.AsyncClient`` for the whole program."""

from __future__ import annotations

import asyncio
import importlib.util
import ipaddress
import logging
import sys
from collections.abc import AsyncIterable, AsyncIterator, Awaitable, Callable, Mapping
from contextlib import asynccontextmanager
from typing import Any, TypedDict, TypeVar, Unpack, overload
from urllib.parse import urlsplit

import httpx
from pydantic import BaseModel, SecretStr, ValidationError

from tui import __version__
from tui.api.answers import check_model, decode_answer
from tui.api.changes import ChangeEvent, ReadOnlySession, change_event, status_event
from tui.api.endpoints import DEFAULT_PAGE_SIZE, Endpoint, endpoint
from tui.api.errors import (
    CloudError,
    ConnectFailure,
    ConnectionDropped,
    NotFound,
    TimeoutFailure,
    TransportFailure,
    error_for_status,
    malformed_answer,
)
from tui.api.pagination import Page, PageFormatError, page_plan, parse_page, parse_page_json
from tui.api.paths import fill_path
from tui.api.retry import RetryPolicy
from tui.models.base import RequestModel

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

T = TypeVar("T")
R = TypeVar("R")

DEFAULT_CONNECT_TIMEOUT = 5.0
DEFAULT_READ_TIMEOUT = 30.0
DEFAULT_MAX_CONCURRENCY = 24
"""Pages of one listing in flight at once. Page 1 tells how many pages there are; the rest are
sent together so a listing takes about two round trips: 24 covers 10,000 instances (page 1 of
100, then 24 pages), where 8 needed three more waves of round trips."""
KEEPALIVE_EXPIRY = 4.0
"""Seconds an idle pooled connection is kept. Below the common 5 s server keep-alive (uvicorn,
many proxies): a connection the server is about to close is not reused, because a POST sent on
it would fail after sending and be reported as "may have been carried out" (bench_faults saw
this without any fault)."""
MAX_UNSURE_PAGES = 200
"""Most pages followed when an envelope's ``pages`` and ``results`` disagree."""


class InsecureBaseUrl(ValueError):
    """The base URL is not acceptable (plain http to a remote host, wrong suffix, ...)."""


def is_loopback_host(host: str) -> bool:
    """True for ``localhost`` and loopback addresses (127.0.0.0/8, ::1)."""
    if host.lower() in ("localhost", "localhost.localdomain"):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def validate_base_url(url: str) -> str:
    """Check and normalise a base URL.

    Args:
        url: User-supplied base URL, for example ``https://api.example.com/v4``.

    Returns:
        The URL without a trailing slash.

    Raises:
        InsecureBaseUrl: Not http(s), missing host, not ending in ``/v4``, or plain ``http://``
            to a host that is not loopback.
    """
    url = url.strip().rstrip("/")
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise InsecureBaseUrl(f"{url!r} is not an http(s) URL with a host")
    if not parts.path.endswith("/v4"):
        raise InsecureBaseUrl(f"{url!r} must end in /v4 (the API version segment)")
    if parts.scheme == "http" and not is_loopback_host(parts.hostname):
        raise InsecureBaseUrl(
            f"{url!r} uses plain http to a remote host; the token would travel unencrypted. "
            "Use https (plain http is accepted only for 127.0.0.1/localhost)."
        )
    if parts.username or parts.password:
        raise InsecureBaseUrl("credentials do not belong in the base URL")
    return url


class _BearerAuth(httpx.Auth):
    """Adds the bearer token to each request; its repr never shows the token."""

    def __init__(self, token: SecretStr) -> None:
        self._token = token

    def auth_flow(self, request: httpx.Request) -> Any:
        request.headers["Authorization"] = f"Bearer {self._token.get_secret_value()}"
        yield request

    def __repr__(self) -> str:
        return "_BearerAuth(token='**********')"


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


def _dump_body(body: BaseModel | Mapping[str, Any] | None) -> Any:
    if body is None:
        return None
    if isinstance(body, RequestModel):
        # Only what the caller set is sent: server-side defaults stay the server's business.
        return body.body()
    if isinstance(body, BaseModel):
        return body.model_dump(mode="json", exclude_unset=True, by_alias=True)
    return dict(body)


class ListingOptions(TypedDict, total=False):
    """Options of a listing that :meth:`ApiClient.fetch_all` passes on to ``iter_all``."""

    page_size: int | None
    query: Mapping[str, Any] | None
    max_concurrency: int | None


class ApiClient:
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

    def __init__(
        self,
        base_url: str,
        token: SecretStr | str | None = None,
        *,
        transport: httpx.AsyncBaseTransport | None = None,
        connect_timeout: float = DEFAULT_CONNECT_TIMEOUT,
        read_timeout: float = DEFAULT_READ_TIMEOUT,
        retry: RetryPolicy | None = None,
        max_concurrency: int = DEFAULT_MAX_CONCURRENCY,
        page_size: int = DEFAULT_PAGE_SIZE,
        allow_insecure: bool = False,
    ) -> None:
        self.base_url = base_url.rstrip("/") if allow_insecure else validate_base_url(base_url)
        if isinstance(token, str):
            token = SecretStr(token)
        self._token = token
        self.retry = retry or RetryPolicy()
        self.max_concurrency = max(1, max_concurrency)
        self.page_size = page_size
        self._http = httpx.AsyncClient(
            base_url=self.base_url,
            transport=transport,
            auth=_BearerAuth(token) if token is not None else None,
            headers={"User-Agent": f"cloudtui/{__version__}", "Accept": "application/json"},
            timeout=httpx.Timeout(read_timeout, connect=connect_timeout),
            follow_redirects=False,
            event_hooks={"request": [_log_request]},
            limits=httpx.Limits(
                max_connections=100, max_keepalive_connections=20, keepalive_expiry=KEEPALIVE_EXPIRY
            ),
        )
        self.request_count = 0
        """Requests sent (retries included); the status bar and benchmarks read it."""
        self.on_retry: Callable[[CloudError, float], None] | None = None
        """Told ``(error, seconds)`` before each retry waits: the UI says why nothing arrives
        yet (a 429 may be retried after up to a minute)."""
        self.change_observers: list[Callable[[ChangeEvent], None]] = []
        """Told about every change sent (any method but GET), once it succeeded or failed:
        the activity log listens here, so every action, bulk action and upload is recorded."""
        self.read_only = False
        """Refuse every change before it is sent (a read-only session's last safeguard)."""
        self.on_recovered: Callable[[], None] | None = None
        """Told when a request that needed retries finally got its answer."""

    @property
    def has_token(self) -> bool:
        """True when a token is configured."""
        return self._token is not None

    @property
    def host(self) -> str:
        """Host part of the base URL, for display."""
        return urlsplit(self.base_url).netloc

    def __repr__(self) -> str:
        return f"ApiClient(base_url={self.base_url!r}, token={'set' if self._token else 'none'})"

    async def aclose(self) -> None:
        """Close the connection pool."""
        await self._http.aclose()

    async def __aenter__(self) -> ApiClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    # -- single requests --------------------------------------------------------------------

    @overload
    async def call(
        self,
        ep: Endpoint | str,
        path_params: Mapping[str, Any] | None = None,
        *,
        body: BaseModel | Mapping[str, Any] | None = None,
        query: Mapping[str, Any] | None = None,
        model: type[T],
    ) -> T: ...

    @overload
    async def call(
        self,
        ep: Endpoint | str,
        path_params: Mapping[str, Any] | None = None,
        *,
        body: BaseModel | Mapping[str, Any] | None = None,
        query: Mapping[str, Any] | None = None,
        model: None = None,
    ) -> Any: ...

    async def call(
        self,
        ep: Endpoint | str,
        path_params: Mapping[str, Any] | None = None,
        *,
        body: BaseModel | Mapping[str, Any] | None = None,
        query: Mapping[str, Any] | None = None,
        model: type[Any] | None = None,
    ) -> Any:
        """Perform one operation and return its answer as the endpoint declares it.

        The registry is the only place that knows an operation's response model, so the answer
        is validated into :meth:`Endpoint.response_model` (see :func:`decode_answer`). Names
        are plain strings (specs hold them as data), so a type checker cannot see that model by
        itself: pass ``model=TheModel`` to have the result typed; it must be the declared model.

        Args:
            ep: Endpoint or registry name.
            path_params: Values for the path template.
            body: JSON body, a request model (only fields that were set are sent) or a mapping.
            query: Query parameters.
            model: The declared response model (for the type checker), ``dict`` to keep the
                decoded JSON (``{}`` for an empty answer), or None.

        Returns:
            The declared model; a ``Page`` of it for a collection (one page: prefer
            :meth:`fetch_page` or :meth:`iter_all`); None for operations without a response
            model and for answers without a body (204); the decoded JSON with ``model=dict``.

        Raises:
            ApiError: Non-2xx answer (typed by status).
            TransportFailure: No HTTP answer.
            TypeError: ``model`` is neither ``dict`` nor the endpoint's declared model (nothing
                is sent).
        """
        e = endpoint(ep)
        check_model(e, model)
        path = fill_path(e.path, dict(path_params or {}))
        payload = await self._request(e.method, path, _dump_body(body), query)
        try:
            return decode_answer(e, payload, model)
        except ValidationError as error:
            raise malformed_answer(e.method, path, str(error)) from None

    async def request(
        self,
        method: str,
        path: str,
        *,
        json: Any = None,
        query: Mapping[str, Any] | None = None,
    ) -> Any:
        """Send a request with retries and map failures to typed errors.

        Args:
            method: HTTP method.
            path: Concrete path relative to the base URL.
            json: JSON body, or None for no body.
            query: Query parameters; None values are dropped.

        Returns:
            Decoded JSON, ``{}`` for empty bodies.
        """
        payload = await self._request(method, path, json, query)
        return {} if payload is None else payload

    async def _request(
        self, method: str, path: str, json: Any, query: Mapping[str, Any] | None
    ) -> Any:
        """:meth:`request`, but None for an answer without a body (``call`` tells them apart)."""
        params = {k: v for k, v in (query or {}).items() if v is not None}
        if method == "GET":
            return await self._with_retries(
                method, path, lambda: self._send_once(method, path, json, params)
            )
        return await self._change(method, path, lambda: self._send_once(method, path, json, params))

    async def _change(
        self, method: str, path: str, send: Callable[[], Awaitable[R]], *, retry: bool = True
    ) -> R:
        """Send a change (refused in a read-only session) and tell the observers its outcome."""
        if self.read_only:
            raise ReadOnlySession(method, path)
        try:
            answer = await (self._with_retries(method, path, send) if retry else send())
        except CloudError as error:
            self._tell_change(change_event(method, path, None, error))
            raise
        self._tell_change(change_event(method, path, answer, None))
        return answer

    def _tell_change(self, event: ChangeEvent) -> None:
        for observer in list(self.change_observers):
            try:
                observer(event)
            except Exception:  # a failing observer (a full disk) never fails the change
                log.exception("change observer failed")

    async def _with_retries(
        self, method: str, path: str, attempt_once: Callable[[], Awaitable[R]]
    ) -> R:
        """Run ``attempt_once`` until it succeeds or the retry policy gives up.

        A try whose answer was lost (sent, then no answer) marks the final error
        ``earlier_answer_lost``: the server may have acted. A DELETE retried after such a loss
        that then finds nothing (404) has done its job and counts as done.
        """
        attempt = 0
        lost = False
        while True:
            attempt += 1
            try:
                result = await attempt_once()
            except CloudError as error:
                if lost and method.upper() == "DELETE" and isinstance(error, NotFound):
                    return None  # type: ignore[return-value]  # the DELETE's empty answer
                if lost:
                    error.earlier_answer_lost = True
                lost = lost or (isinstance(error, TransportFailure) and error.sent)
                if not self.retry.should_retry(method, error, attempt):
                    raise
                wait = self.retry.delay(error, attempt)
                log.info("retrying %s %s in %.2fs after %s", method, path, wait, error)
                if self.on_retry is not None:
                    self.on_retry(error, wait)
                await self.retry.sleep(wait)
            else:
                if attempt > 1 and self.on_recovered is not None:
                    self.on_recovered()
                return result

    async def _send_once(self, method: str, path: str, json: Any, params: Mapping[str, Any]) -> Any:
        response = await self._exchange(method, path, json, params)
        body = response.content
        if response.status_code == 204 or not body.strip():
            return None
        try:
            return response.json()
        except ValueError:
            raise error_for_status(
                502, method, path, body, response.headers.get("content-type", "")
            ) from None

    async def _exchange(
        self, method: str, path: str, json: Any, params: Mapping[str, Any]
    ) -> httpx.Response:
        """Send once; a transport failure or a non-2xx answer raises the typed error."""
        self.request_count += 1
        request = self._http.build_request(
            method, path, json=json, params=params if params else None
        )
        try:
            response = await self._http.send(request)
        except (httpx.ConnectError, httpx.ConnectTimeout) as exc:
            raise ConnectFailure(method, path, self._describe(exc), sent=False) from None
        except httpx.PoolTimeout as exc:
            raise ConnectFailure(method, path, self._describe(exc), sent=False) from None
        except httpx.TimeoutException as exc:
            raise TimeoutFailure(method, path, self._describe(exc), sent=True) from None
        except (httpx.RemoteProtocolError, httpx.ReadError, httpx.WriteError) as exc:
            raise ConnectionDropped(method, path, self._describe(exc), sent=True) from None
        except httpx.TransportError as exc:
            raise TransportFailure(method, path, self._describe(exc), sent=True) from None
        if response.status_code >= 400 or response.status_code < 200:
            raise error_for_status(
                response.status_code,
                method,
                path,
                response.content,
                response.headers.get("content-type", ""),
                response.headers.get("retry-after"),
            )
        return response

    async def put_bytes(
        self,
        url: str,
        content: bytes | AsyncIterable[bytes],
        content_type: str = "application/octet-stream",
        *,
        content_length: int | None = None,
    ) -> None:
        """PUT raw bytes to an absolute address handed out by the API (image ``upload_to``).

        The bearer token is NOT sent: such addresses authorise by themselves and may belong to
        another host. There are no retries (a streamed body cannot be replayed).

        Args:
            url: Absolute http(s) URL; plain http only to loopback or the API's own host.
            content: The bytes, or an async iterator of chunks (streamed).
            content_type: ``Content-Type`` header to send.
            content_length: Total size when ``content`` is streamed (avoids chunked encoding).

        Raises:
            InsecureBaseUrl: The URL is not http(s) or uses plain http to a remote host.
            ApiError: Non-2xx answer.
            TransportFailure: No HTTP answer.
        """
        shown = self.external_path(url)
        headers = {"Content-Type": content_type}
        if content_length is not None:
            headers["Content-Length"] = str(content_length)

        async def send() -> None:
            self.request_count += 1
            request = self._http.build_request("PUT", url, content=content, headers=headers)
            try:
                response = await self._http.send(request, auth=None)
            except (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout) as exc:
                raise ConnectFailure("PUT", shown, self._describe(exc), sent=False) from None
            except httpx.TimeoutException as exc:
                raise TimeoutFailure("PUT", shown, self._describe(exc), sent=True) from None
            except (httpx.RemoteProtocolError, httpx.ReadError, httpx.WriteError) as exc:
                raise ConnectionDropped("PUT", shown, self._describe(exc), sent=True) from None
            except httpx.TransportError as exc:
                raise TransportFailure("PUT", shown, self._describe(exc), sent=True) from None
            if not 200 <= response.status_code < 300:
                raise error_for_status(
                    response.status_code,
                    "PUT",
                    shown,
                    response.content,
                    response.headers.get("content-type", ""),
                    response.headers.get("retry-after"),
                )

        # Uploads are changes like any other: refused when read-only, told to the observers.
        await self._change("PUT", shown, send, retry=False)

    def external_path(self, url: str) -> str:
        """Check an absolute address the API handed out; the part of it safe to show.

        Raises:
            InsecureBaseUrl: The URL is not http(s) or uses plain http to a remote host.
        """
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise InsecureBaseUrl(f"{url!r} is not an http(s) URL with a host")
        same_host = parts.netloc == urlsplit(self.base_url).netloc
        if parts.scheme == "http" and not (is_loopback_host(parts.hostname) or same_host):
            raise InsecureBaseUrl("refusing to send data over plain http to a remote host")
        # Upload addresses carry their authorisation in the path: keep it out of messages.
        return parts.path.rsplit("/", 1)[0] + "/..."

    @asynccontextmanager
    async def stream_url(
        self,
        method: str,
        url: str,
        *,
        headers: Mapping[str, str] | None = None,
        content: bytes | AsyncIterable[bytes] | None = None,
    ) -> AsyncIterator[httpx.Response]:
        """Send one request to a pre-signed address and stream its answer (transfers).

        Like :meth:`put_bytes`: no bearer token, no retries, the URL is checked first. The
        answer is not read and its status is not judged: the caller streams the body with
        ``aiter_raw`` (constant memory) and decides what a 206 or a 416 means. Errors while
        reading the body are httpx's own.

        Raises:
            InsecureBaseUrl: The URL is not acceptable.
            TransportFailure: No HTTP answer.
        """
        shown = self.external_path(url)
        # A PUT or DELETE of an object is a change like any other: refused when read-only,
        # told to the observers (the activity log) with its status once the answer came.
        changing = method.upper() != "GET"
        if changing and self.read_only:
            raise ReadOnlySession(method, shown)
        self.request_count += 1
        request = self._http.build_request(method, url, content=content, headers=headers)
        try:
            try:
                response = await self._http.send(request, auth=None, stream=True)
            except (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout) as exc:
                raise ConnectFailure(method, shown, self._describe(exc), sent=False) from None
            except httpx.TimeoutException as exc:
                raise TimeoutFailure(method, shown, self._describe(exc), sent=True) from None
            except (httpx.RemoteProtocolError, httpx.ReadError, httpx.WriteError) as exc:
                raise ConnectionDropped(method, shown, self._describe(exc), sent=True) from None
            except httpx.TransportError as exc:
                raise TransportFailure(method, shown, self._describe(exc), sent=True) from None
        except CloudError as error:
            if changing:
                self._tell_change(change_event(method, shown, None, error))
            raise
        try:
            yield response
        finally:
            await response.aclose()
            if changing:
                self._tell_change(status_event(method, shown, response.status_code))

    def _describe(self, exc: Exception) -> str:
        """A short reason for a transport exception, with the token scrubbed out of it."""
        text = str(exc).strip()
        if self._token is not None:
            secret = self._token.get_secret_value()
            if secret:
                text = text.replace(secret, "**********")
        return f"{type(exc).__name__}: {text}" if text else type(exc).__name__

    # -- collections ------------------------------------------------------------------------

    async def fetch_page(
        self,
        ep: Endpoint | str,
        path_params: Mapping[str, Any] | None = None,
        *,
        page: int = 1,
        page_size: int | None = None,
        model: type[T] | None = None,
        query: Mapping[str, Any] | None = None,
    ) -> Page[T]:
        """Fetch one page of a collection.

        Args:
            ep: Collection endpoint or its name.
            path_params: Values for the path template.
            page: Page number, 1-based.
            page_size: Items per page (default: the client's, capped by the endpoint's bound).
            model: Item model (``dict`` keeps raw dicts); defaults to the endpoint's model.
            query: Extra query parameters.

        Returns:
            The typed page.
        """
        e = endpoint(ep)
        item_model = model if model is not None else e.response_model()
        response, path = await self._page_response(e, path_params, page, page_size, query)
        return self._parse_page(e, path, response, item_model)

    async def _page_response(
        self,
        e: Endpoint,
        path_params: Mapping[str, Any] | None,
        page: int,
        page_size: int | None,
        query: Mapping[str, Any] | None,
    ) -> tuple[httpx.Response, str]:
        """The raw answer for one page (retried like any request) and its concrete path."""
        size = min(page_size or self.page_size, e.page_size_max)
        path = fill_path(e.path, dict(path_params or {}))
        params = {k: v for k, v in (query or {}).items() if v is not None}
        params.update(page=page, page_size=size)
        response = await self._with_retries(
            e.method, path, lambda: self._exchange(e.method, path, None, params)
        )
        return response, path

    @staticmethod
    def _parse_page(
        e: Endpoint, path: str, response: httpx.Response, item_model: type[T] | None
    ) -> Page[T]:
        try:
            # Decoding and validating in one pass from the bytes (pydantic-core's parser)
            # costs about half of json.loads plus model_validate on a 500-item page.
            return parse_page_json(response.content, item_model)
        except PageFormatError:
            # Not a valid envelope as raw JSON (empty body, odd shape): the ordinary path
            # decides between "not JSON" (502) and a validation error, as for any call.
            pass
        body = response.content
        if response.status_code == 204 or not body.strip():
            return parse_page({}, item_model)
        try:
            payload = response.json()
        except ValueError:
            raise error_for_status(
                502, e.method, path, body, response.headers.get("content-type", "")
            ) from None
        try:
            return parse_page(payload, item_model)
        except ValidationError as error:
            raise malformed_answer(e.method, path, str(error)) from None

    async def iter_all(
        self,
        ep: Endpoint | str,
        path_params: Mapping[str, Any] | None = None,
        *,
        page_size: int | None = None,
        model: type[T] | None = None,
        query: Mapping[str, Any] | None = None,
        max_concurrency: int | None = None,
    ) -> AsyncIterator[Page[T]]:
        """Yield every page of a collection, in order, as soon as each is ready.

        Page 1 is fetched first (it tells how many items exist); the rest are then fetched
        concurrently with at most ``max_concurrency`` requests in flight. Pages are still yielded
        in order, so a caller can render page 1 after one round trip and append the rest.

        Without an explicit ``page_size``, page 1 has the client's page size (the first rows
        arrive quickly) and the rest come in pages as large as the endpoint allows, where the
        sizes tile (see :func:`~tui.api.pagination.page_plan`): 10,000 instances take 25
        requests instead of 101.

        Args:
            ep: Collection endpoint or its name.
            path_params: Values for the path template.
            page_size: Items per page.
            model: Item model; defaults to the endpoint's response model.
            query: Extra query parameters.
            max_concurrency: Overrides the client's bound for this call.

        Yields:
            Pages 1..N in order.
        """
        e = endpoint(ep)
        first: Page[T] = await self.fetch_page(
            e, path_params, page=1, page_size=page_size, model=model, query=query
        )
        yield first
        if first.pages <= 1:
            return
        size = min(page_size or self.page_size, e.page_size_max)
        largest = e.page_size_max if page_size is None else size
        trusted = -(-first.results // size) == first.pages
        if trusted:
            plan = page_plan(first.results, size, largest)
        else:
            # The envelope's counts disagree: follow "pages", all of page 1's size, but never
            # further than a bound (a page claiming a billion pages must not hang the list)
            # and only until a page comes back empty.
            plan = [(n, size) for n in range(2, min(first.pages, MAX_UNSURE_PAGES) + 1)]
        bound = asyncio.Semaphore(max_concurrency or self.max_concurrency)

        item_model = model if model is not None else e.response_model()

        async def one(number: int, items: int) -> Page[T]:
            async with bound:
                response, path = await self._page_response(e, path_params, number, items, query)
            # Parsed after the slot is released, after one turn of the event loop, while the
            # other pages are in flight. (Holding parses to one per turn kept keys flowing when
            # pages arrive together, but every page waiting for its turn keeps its bytes: +20
            # MB at the peak of a 10,000-instance refresh. In-process, the simulator spaces its
            # answers instead; see Simulator._api.)
            await asyncio.sleep(0)
            return self._parse_page(e, path, response, item_model)

        tasks = [asyncio.ensure_future(one(n, items)) for n, items in plan]
        try:
            for task in tasks:
                page = await task
                yield page
                if not trusted and not page.data:
                    break
        finally:
            for task in tasks:
                task.cancel()
            # Collect cancelled or failed siblings so none logs "exception was never retrieved".
            await asyncio.gather(*tasks, return_exceptions=True)

    def listing_requests(self, ep: Endpoint | str, total: int) -> int:
        """Requests :meth:`iter_all` makes to list ``total`` items with the default page sizes.

        Refresh scheduling uses it to keep a large list within its request budget.
        """
        e = endpoint(ep)
        if not e.paged:
            return 1
        size = min(self.page_size, e.page_size_max)
        return 1 + len(page_plan(total, size, e.page_size_max))

    async def fetch_all(
        self,
        ep: Endpoint | str,
        path_params: Mapping[str, Any] | None = None,
        *,
        model: type[T] | None = None,
        **listing: Unpack[ListingOptions],
    ) -> list[T]:
        """Every item of a collection in server order: :meth:`iter_all`'s pages, joined.

        Takes the same arguments as :meth:`iter_all`.
        """
        items: list[T] = []
        async for page in self.iter_all(ep, path_params, model=model, **listing):
            items.extend(page.data)
        return items
