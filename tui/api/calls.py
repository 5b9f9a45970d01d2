"""The API client's state and its single requests: send, retry, map failures to typed
errors, and tell observers about every change (headless)."""

from __future__ import annotations

import logging
import sys
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, overload
from urllib.parse import urlsplit

import httpx

from tui.api.answers import check_model, decode_answer
from tui.api.base_url import validate_base_url
from tui.api.changes import ChangeEvent, ReadOnlySession, change_event
from tui.api.endpoints import DEFAULT_PAGE_SIZE, Endpoint, endpoint
from tui.api.errors import (
    CloudError,
    NotFound,
    TransportFailure,
    error_for_status,
    malformed_answer,
)
from tui.api.paths import fill_path
from tui.api.retry import RetryPolicy
from tui.api.token import ApiToken, SecretText
from tui.api.transport import (
    DEFAULT_CONNECT_TIMEOUT,
    DEFAULT_READ_TIMEOUT,
    http_client,
    send,
)

if TYPE_CHECKING:
    from pydantic import BaseModel

log = logging.getLogger("cloudtui.api")

T = TypeVar("T")
R = TypeVar("R")

DEFAULT_MAX_CONCURRENCY = 24
"""Pages of one listing in flight at once. Page 1 tells how many pages there are; the rest are
sent together so a listing takes about two round trips: 24 covers 10,000 instances (page 1 of
100, then 24 pages), where 8 needed three more waves of round trips."""


def _dump_body(body: BaseModel | Mapping[str, Any] | None) -> Any:
    if body is None:
        return None
    # A model exists only once its base module is loaded; looking it up there keeps pydantic
    # (~50 ms) and the models' base classes (~13 ms) out of a client that sends plain bodies.
    models = sys.modules.get("tui.models.base")
    if models is not None and isinstance(body, models.RequestModel):
        # Only what the caller set is sent: server-side defaults stay the server's business.
        return body.body()
    pydantic = sys.modules.get("pydantic")
    if pydantic is not None and isinstance(body, pydantic.BaseModel):
        return body.model_dump(mode="json", exclude_unset=True, by_alias=True)
    return dict(body)


class CallingClient:
    """The client's connection, settings and observers, and one operation at a time.

    :class:`~tui.api.client.ApiClient` adds listings and pre-signed transfers on top; see it
    for the arguments.
    """

    def __init__(
        self,
        base_url: str,
        token: SecretText | str | None = None,
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
            token = ApiToken(token)
        self._token = token
        self.retry = retry or RetryPolicy()
        self.max_concurrency = max(1, max_concurrency)
        self.page_size = page_size
        self._http = http_client(
            self.base_url,
            token,
            transport,
            connect_timeout=connect_timeout,
            read_timeout=read_timeout,
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
        shown = f"base_url={self.base_url!r}, token={'set' if self._token else 'none'}"
        return f"{type(self).__name__}({shown})"

    async def aclose(self) -> None:
        """Close the connection pool."""
        await self._http.aclose()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

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
        except ValueError as error:  # pydantic's ValidationError is one
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

    async def _change(self, method: str, path: str, send: Callable[[], Awaitable[R]]) -> R:
        """Send a change (refused in a read-only session) and tell the observers its outcome."""
        if self.read_only:
            raise ReadOnlySession(method, path)
        try:
            answer = await self._with_retries(method, path, send)
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
        self,
        method: str,
        path: str,
        json: Any,
        params: Mapping[str, Any],
        headers: Mapping[str, str] | None = None,
    ) -> httpx.Response:
        """Send once; a transport failure or a non-2xx answer raises the typed error."""
        self.request_count += 1
        request = self._http.build_request(
            method, path, json=json, params=params if params else None, headers=headers
        )
        response = await send(self._http, request, path, self._token)
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
