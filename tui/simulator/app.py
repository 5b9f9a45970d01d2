"""The simulator: a stateful, validating implementation of the whole API as an ASGI app.

The same object serves three uses: in-process through :meth:`Simulator.transport` (demo mode and
tests), over real HTTP with uvicorn (``cloudtui sim``), and as a programmatic fake whose clock
and faults tests control.
"""

from __future__ import annotations

import asyncio
import dataclasses
import inspect
import json
import logging
import time
from collections.abc import MutableMapping
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

import httpx
from pydantic_core import PydanticSerializationError, to_json
from starlette.requests import Request
from starlette.responses import Response

from tui.api.client import ApiClient
from tui.api.endpoints import DEFAULT_PAGE_SIZE, PAGE_SIZE_MIN, REGISTRY, Endpoint
from tui.api.retry import RetryPolicy
from tui.simulator import registry
from tui.simulator.auth import DEMO_TOKENS, READONLY_SCOPES, Principal, TokenInfo
from tui.simulator.clock import Clock, RealClock
from tui.simulator.context import Collection, Ctx
from tui.simulator.errors import SimError
from tui.simulator.faults import Faults
from tui.simulator.filterable import filterable
from tui.simulator.filtering import HEADER as FILTER_HEADER
from tui.simulator.filtering import RowFilter, parse_filter
from tui.simulator.lazy import IN_PROCESS_BASE
from tui.simulator.router import Router
from tui.simulator.store import Store
from tui.simulator.validate import query_int

log = logging.getLogger("cloudtui.simulator")

DEFAULT_TIMINGS: dict[str, float] = {
    "compute.provision": 6.0,
    "compute.boot": 4.0,
    "compute.reboot": 5.0,
    "compute.shutdown": 3.0,
    "compute.resize": 8.0,
    "compute.disk": 3.0,
    "images.create": 6.0,
    "images.process": 4.0,
    "images.upload_window": 24 * 3600.0,
    "databases.provision": 20.0,
    "databases.credentials_reset": 3.0,
    "databases.restore": 6.0,
    "databases.patch": 5.0,
    "k8s.ready": 20.0,
    "k8s.recycle": 8.0,
    "k8s.node_ready": 8.0,
    "volumes.create": 3.0,
    "volumes.resize": 4.0,
}
"""Seconds each asynchronous step takes (short, so the demo shows the transitions).

Virtual seconds: on a :class:`RealClock` running ``speed`` times faster a step takes
``seconds / speed`` of real time; on a :class:`VirtualClock` it ends when the clock is advanced
past it. ``images.upload_window`` is a time limit, not a step. With ``instant`` every step ends
at the next request instead."""


BODY_REQUIRED = frozenset({"PUT"})
"""Methods that always take a body: every update of the reference sends its fields (or, for
preferences, an object), so an update without one is refused (400) rather than read as
"change nothing". A POST may go without a body where all its fields are optional (a key, a
shutdown); its handler names the missing fields otherwise."""


class DroppedConnection(Exception):
    """Raised by the app to break the connection without an answer."""


def _encode(data: Any) -> bytes:
    """Compact JSON with non-ASCII as ``\\u`` escapes, as the API sends it.

    pydantic-core's encoder is about four times faster than ``json.dumps`` on a page of
    instances (the served simulator's main cost); the result is the same JSON text but for
    exponent spelling (``1e-7`` for ``1e-07``). Older pydantic-core releases without
    ``ensure_ascii``, and values it cannot encode, take the standard library's path.
    """
    try:
        raw = to_json(data)
        # Escaping costs as much again as encoding: only answers that need it pay for it.
        return raw if raw.isascii() else to_json(data, ensure_ascii=True)
    except (TypeError, PydanticSerializationError):
        return json.dumps(data, separators=(",", ":")).encode()


def _json(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    return Response(
        _encode(data),
        status_code=status,
        headers=headers,
        media_type="application/json",
    )


def _error(status: int, reason: str, field: str | None = None, **headers: str) -> Response:
    entry: dict[str, Any] = {"reason": reason}
    if field:
        entry["field"] = field
    return _json({"errors": [entry]}, status, headers or None)


class SimulatorTransport(httpx.AsyncBaseTransport):
    """``httpx.ASGITransport`` around the simulator that turns dropped connections into
    ``httpx.ReadError`` and enforces the request's read timeout (``httpx.ReadTimeout``), as a
    real socket would; ``ASGITransport`` by itself waits for ever."""

    def __init__(self, sim: Simulator) -> None:
        self._inner = httpx.ASGITransport(app=sim, client=("127.0.0.1", 40000))

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        timeouts = request.extensions.get("timeout") or {}
        read = timeouts.get("read")
        try:
            return await asyncio.wait_for(self._inner.handle_async_request(request), read)
        except DroppedConnection:
            raise httpx.ReadError("connection dropped by the server", request=request) from None
        except TimeoutError:
            raise httpx.ReadTimeout("the server did not answer in time", request=request) from None


class Simulator:
    """The simulated API.

    Args:
        clock: Time source; defaults to real time.
        store: Existing state; when None, a new one is seeded with demo data.
        faults: Fault settings (none by default).
        seed: Seed demo data into a new store.
        scale: Extra instances to seed (other resources proportionally).
        state_path: Save the state to this file after every change.
        timings: Overrides of :data:`DEFAULT_TIMINGS`.
        upload_limit: Largest accepted image upload, bytes.
        hostile: Seed the hostile data set (see :mod:`tui.simulator.hostile`).
        instant: Every transition in progress (provisioning, booting, resizing ...) ends at the
            next request, whatever the clock says: a client that polls sees the end state on
            its first poll. Time limits (an upload window, an image's expiry) keep their time.
    """

    def __init__(
        self,
        *,
        clock: Clock | None = None,
        store: Store | None = None,
        faults: Faults | None = None,
        seed: bool = True,
        scale: int = 0,
        state_path: Path | None = None,
        timings: dict[str, float] | None = None,
        upload_limit: int = 5 * 1024**3,
        hostile: bool = False,
        instant: bool = False,
    ) -> None:
        from tui.simulator import handlers as _handlers  # noqa: F401  (registers handlers)
        from tui.simulator.seed import ensure_users, seed_demo

        self.clock: Clock = clock or RealClock()
        self.faults = faults or Faults()
        self.timings = {**DEFAULT_TIMINGS, **(timings or {})}
        self.upload_limit = upload_limit
        self.instant = instant
        self.state_path = Path(state_path) if state_path else None
        self.router = Router(list(REGISTRY.values()))
        self._turns = asyncio.Lock()
        """Answers whose latency ends together are served one per event-loop turn (see _api)."""
        self.tokens: dict[str, TokenInfo] = {
            DEMO_TOKENS["unrestricted"]: TokenInfo("demo"),
            DEMO_TOKENS["readonly"]: TokenInfo(
                "demo", frozenset(READONLY_SCOPES), client_id="readonly-dashboard"
            ),
            DEMO_TOKENS["restricted"]: TokenInfo("ops-restricted"),
        }
        if store is None:
            store = Store()
            if seed:
                seed_demo(store, self.clock.now(), scale=scale)
                if hostile:
                    from tui.simulator.hostile import make_hostile

                    make_hostile(store)
        ensure_users(store)
        self.store = store
        self.request_log: list[str] = []
        """Endpoint names of handled API requests, in order (tests and benchmarks read it)."""

    # -- programmatic helpers ---------------------------------------------------------------

    def transport(self) -> SimulatorTransport:
        """An in-process httpx transport: no socket, no port."""
        return SimulatorTransport(self)

    def client(self, user: str = "unrestricted", **kwargs: Any) -> ApiClient:
        """An :class:`ApiClient` wired to this simulator in-process.

        Args:
            user: ``unrestricted``, ``readonly``, ``restricted``, or ``anonymous`` (no token).
            **kwargs: Passed to :class:`ApiClient` (retry, page_size ...).
        """
        token = None if user == "anonymous" else DEMO_TOKENS[user]
        kwargs.setdefault("retry", RetryPolicy(sleep=_no_sleep))
        return ApiClient(
            IN_PROCESS_BASE, token, transport=self.transport(), allow_insecure=True, **kwargs
        )

    def add_token(self, token: str, info: TokenInfo) -> None:
        """Register an extra bearer token."""
        self.tokens[token] = info

    def advance(self) -> int:
        """Run every timed transition now due (in instant mode: every one but time limits);
        returns how many ran."""
        ran = 0
        early = self._not_a_deadline if self.instant else None
        # Transitions may schedule follow-ups that are already due; loop until quiet.
        while True:
            now = self.clock.now()
            due = self.store.pop_due(now, early=early)
            if not due:
                return ran
            for event in due:
                fn = registry.TRANSITIONS.get(event["name"])
                if fn is None:
                    log.warning("no transition named %s", event["name"])
                    continue
                # A transition brought forward happens now, not at its planned time.
                fn(self.store, min(event["at"], now), **event["args"])
                ran += 1

    @staticmethod
    def _not_a_deadline(name: str) -> bool:
        return name not in registry.DEADLINES

    # -- ASGI -------------------------------------------------------------------------------

    async def __call__(self, scope: MutableMapping[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            while True:
                message = await receive()
                if message["type"] == "lifespan.startup":
                    await send({"type": "lifespan.startup.complete"})
                elif message["type"] == "lifespan.shutdown":
                    await send({"type": "lifespan.shutdown.complete"})
                    return
        if scope["type"] != "http":
            return
        request = Request(scope, receive)
        path: str = scope.get("raw_path", scope["path"].encode()).decode("latin-1").split("?")[0]
        for route in registry.RAW_ROUTES:
            if path.startswith(route.prefix):
                self.advance()
                try:
                    await self._raw(route, request, scope, receive, send)
                finally:
                    self._persist()
                return
        if path == "/v4" or path.startswith("/v4/"):
            try:
                response = await self._api(request, path[3:] or "/")
            except DroppedConnection:
                await self._drop(send)
                raise
        else:
            response = _error(404, f"Unknown route: {request.method} {path}")
        await response(scope, receive, send)

    async def _raw(
        self, route: registry.RawRoute, request: Request, scope: Any, receive: Any, send: Any
    ) -> None:
        """Answer a non-API route (pre-signed URL, upload address), faults applied.

        Routes with a fault name get the same latency, scripted failures, rate limit, errors
        and drops as API operations. A dropped download sends half of the body and stops, so
        clients meet a connection that breaks mid-transfer (and may resume with ``Range``).
        """
        decision = None
        if route.operation:
            wait = self.faults.delay()
            if wait > 0:
                await asyncio.sleep(wait)
            decision = self.faults.decide(route.operation, time.monotonic())
        if decision is not None and not decision.drop:
            headers = {"Retry-After": str(decision.retry_after)} if decision.retry_after else {}
            await _error(decision.status or 500, decision.reason, **headers)(scope, receive, send)
            return
        if decision is not None and request.method.upper() != "GET":
            await self._drop(send)
            raise DroppedConnection()
        response = await route.handler(request, self)
        if decision is None:
            await response(scope, receive, send)
            return
        await self._cut_short(response, send)

    @staticmethod
    async def _cut_short(response: Response, send: Any) -> None:
        """Send the head and half of the body of ``response``, then stop.

        In-process the client sees a body shorter than its ``Content-Length``; over a socket the
        server closes the connection (uvicorn refuses to end a short answer), as a dropped
        connection would.
        """
        body = bytes(response.body)
        try:
            await send(
                {
                    "type": "http.response.start",
                    "status": response.status_code,
                    "headers": response.raw_headers,
                }
            )
            await send({"type": "http.response.body", "body": body[: len(body) // 2]})
        except Exception as exc:
            raise DroppedConnection() from exc

    async def _drop(self, send: Any) -> None:
        # Start an answer and break off: over a socket the client sees an incomplete response.
        await send(
            {
                "type": "http.response.start",
                "status": 200,
                "headers": [(b"content-length", b"64"), (b"content-type", b"application/json")],
            }
        )
        await send({"type": "http.response.body", "body": b"{", "more_body": True})

    async def _api(self, request: Request, path: str) -> Response:
        method = request.method.upper()
        ep, params, known = self.router.match(method, path)
        if ep is None:
            if known:
                allow = ", ".join(self.router.allowed(path))
                return _error(405, f"Method {method} not allowed on {path}", Allow=allow)
            return _error(404, f"Unknown route: {method} {path}")
        wait = self.faults.delay()
        if wait > 0:
            await asyncio.sleep(wait)
            # Requests sent together (a listing's pages) end their latency together; served
            # in one turn of the event loop they would hold it for all of them (24 pages:
            # ~150 ms in-process, where the app's keys wait behind them). One per turn, as a
            # real server's answers arrive one by one.
            async with self._turns:
                await asyncio.sleep(0)
        decision = self.faults.decide(ep.name, time.monotonic())
        if decision is not None:
            if decision.drop:
                raise DroppedConnection()
            if decision.stall > 0:
                await asyncio.sleep(decision.stall)
            elif not decision.lose:
                headers = {"Retry-After": str(decision.retry_after)} if decision.retry_after else {}
                return _error(decision.status or 500, decision.reason, **headers)
        response = await self._handle(request, method, ep, params, path)
        if decision is not None and decision.lose:
            # The change is made (and saved); only the answer is lost on the way back.
            raise DroppedConnection()
        return response

    async def _handle(
        self, request: Request, method: str, ep: Endpoint, params: dict[str, str], path: str
    ) -> Response:
        """Authenticate, validate and run the endpoint's handler; the answer to send."""
        self.advance()
        try:
            principal = self._authenticate(request, ep)
            body = await self._read_body(request, method)
            query = dict(parse_qsl(request.url.query, keep_blank_values=True))
            # One filter mechanism for every listing, read before any work is done.
            row_filter = (
                parse_filter(request.headers.get(FILTER_HEADER), filterable(ep.name))
                if ep.paged
                else None
            )
            handler = registry.HANDLERS.get(ep.name)
            if handler is None:
                return _error(501, f"{ep.key} is not implemented by the simulator")
            ctx = Ctx(
                sim=self,
                endpoint=ep,
                params=params,
                query=query,
                body=body,
                principal=principal,
                base_url=str(request.base_url).rstrip("/"),
                client_ip=request.client.host if request.client else "127.0.0.1",
            )
            if method == "PUT":
                ctx.current = await self._current(ctx, path)
            self.request_log.append(ep.name)
            result = handler(ctx)
            if inspect.isawaitable(result):
                result = await result
            response = self._render(ep, result, query, row_filter)
        except SimError as err:
            payload = err.payload()
            if self.store.meta.get("hostile"):
                from tui.simulator.hostile import hostile_errors

                payload = {"errors": hostile_errors(err.errors)}
            response = _json(payload, err.status, err.headers or None)
        self._persist()
        return response

    async def _current(self, ctx: Ctx, path: str) -> dict[str, Any] | None:
        """What a read of ``path`` answers now (of the path above it when ``path`` has no read),
        for the caller of the update ``ctx``: the representation an update may echo.

        None when there is no such read or it is refused (the update's handler then answers
        for itself: 404, 403 ...).
        """
        for candidate in (path, path.rstrip("/").rsplit("/", 1)[0]):
            view, params, _known = self.router.match("GET", candidate)
            handler = registry.HANDLERS.get(view.name) if view is not None else None
            if view is None or handler is None:
                continue
            read = dataclasses.replace(ctx, endpoint=view, params=params, body={}, current=None)
            try:
                result = handler(read)
                if inspect.isawaitable(result):
                    result = await result
            except SimError:
                return None
            return result if isinstance(result, dict) else None
        return None

    def _persist(self) -> None:
        if self.state_path is not None and self.store.dirty:
            self.store.save(self.state_path)

    def _authenticate(self, request: Request, ep: Endpoint) -> Principal:
        header = request.headers.get("authorization", "")
        info: TokenInfo | None = None
        if header:
            scheme, _, token = header.partition(" ")
            info = self.tokens.get(token.strip()) if scheme.lower() == "bearer" else None
            if info is None:
                raise SimError(401, "Invalid Token")
        if info is None:
            if ep.auth in ("none", "optional"):
                return Principal(None)
            raise SimError(401, "Authentication required: send Authorization: Bearer <token>")
        user = self.store.get("users", info.username)
        principal = Principal(info, user)
        if ep.auth in ("scope", "optional"):
            missing = [s for s in ep.scopes if not principal.has_scope(s)]
            if missing and ep.auth == "scope":
                needed = ", ".join(missing)
                raise SimError(403, f"Your OAuth token is not authorized for this ({needed})")
            if missing:
                # Optional-auth listings fall back to the public view for under-scoped tokens.
                return Principal(None)
        return principal

    @staticmethod
    async def _read_body(request: Request, method: str) -> Any:
        if method in ("GET", "DELETE", "HEAD"):
            return {}
        raw = await request.body()
        if not raw.strip():
            if method in BODY_REQUIRED:
                raise SimError(400, f"Request body is required: {method} takes a JSON object")
            return {}
        try:
            return json.loads(raw)
        except ValueError:
            raise SimError(400, "Request body is not valid JSON") from None

    def _render(
        self, ep: Endpoint, result: Any, query: dict[str, str], row_filter: RowFilter | None
    ) -> Response:
        if isinstance(result, Response):
            return result
        if isinstance(result, Collection):
            items = row_filter.apply(result.items) if row_filter else result.items
            return _json(self._paginate(ep, items, query))
        if result is None:
            return _json({})
        return _json(result)

    @staticmethod
    def _paginate(
        ep: Endpoint, items: list[dict[str, Any]], query: dict[str, str]
    ) -> dict[str, Any]:
        page = query_int(query, "page", 1)
        size = query_int(query, "page_size", DEFAULT_PAGE_SIZE)
        if page < 1:
            raise SimError(400, "page must be at least 1", "page")
        if not PAGE_SIZE_MIN <= size <= ep.page_size_max:
            raise SimError(
                400,
                f"page_size must be between {PAGE_SIZE_MIN} and {ep.page_size_max}",
                "page_size",
            )
        results = len(items)
        pages = max(1, -(-results // size))
        start = (page - 1) * size
        return {
            "data": items[start : start + size],
            "page": page,
            "pages": pages,
            "results": results,
        }


async def _no_sleep(_seconds: float) -> None:
    """In-process clients do not wait between retries (the simulator has no real backlog)."""
    await asyncio.sleep(0)
