"""Listing a collection: one page, or every page fetched concurrently and yielded in order
(headless)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, TypedDict, TypeVar, Unpack

import httpx

from tui.api import collector
from tui.api.calls import CallingClient
from tui.api.endpoints import Endpoint, endpoint
from tui.api.errors import error_for_status, malformed_answer
from tui.api.pagination import Page, PageFormatError, page_plan, parse_page, parse_page_json
from tui.api.paths import fill_path

T = TypeVar("T")

MAX_UNSURE_PAGES = 200
"""Most pages followed when an envelope's ``pages`` and ``results`` disagree."""

FILTER_HEADER = "X-Filter"
"""The header a listing reads its filter from: a JSON object over the fields the reference marks
filterable (``{"tags": "prod"}``: the items carrying that tag)."""


def filter_headers(where: Mapping[str, Any] | None) -> dict[str, str] | None:
    """The headers that ask a listing for the items matching ``where`` (None: all of them)."""
    if not where:
        return None
    return {FILTER_HEADER: json.dumps(dict(where), separators=(",", ":"))}


class ListingOptions(TypedDict, total=False):
    """Options of a listing that :meth:`ListingClient.fetch_all` passes on to ``iter_all``."""

    page_size: int | None
    query: Mapping[str, Any] | None
    max_concurrency: int | None
    where: Mapping[str, Any] | None
    slots: AbstractAsyncContextManager[Any] | None


class ListingClient(CallingClient):
    """Collections: :meth:`fetch_page`, :meth:`iter_all` (concurrent, in order) and
    :meth:`fetch_all`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        """As :class:`~tui.api.calls.CallingClient`; the listing memory starts empty."""
        super().__init__(*args, **kwargs)
        self.known_counts: dict[tuple[str, ...], int] = {}
        """Listing (endpoint, path, query, page sizes) -> items its last page 1 counted."""

    async def fetch_page(
        self,
        ep: Endpoint | str,
        path_params: Mapping[str, Any] | None = None,
        *,
        page: int = 1,
        page_size: int | None = None,
        model: type[T] | None = None,
        query: Mapping[str, Any] | None = None,
        where: Mapping[str, Any] | None = None,
    ) -> Page[T]:
        """Fetch one page of a collection.

        Args:
            ep: Collection endpoint or its name.
            path_params: Values for the path template.
            page: Page number, 1-based.
            page_size: Items per page (default: the client's, capped by the endpoint's bound).
            model: Item model (``dict`` keeps raw dicts); defaults to the endpoint's model.
            query: Extra query parameters.
            where: Only the items matching this filter (sent as :data:`FILTER_HEADER`; the
                fields it names must be filterable on this listing).

        Returns:
            The typed page.
        """
        e = endpoint(ep)
        item_model = model if model is not None else e.response_model()
        response, path = await self._page_response(e, path_params, page, page_size, query, where)
        return self._parse_page(e, path, response, item_model)

    async def _page_response(
        self,
        e: Endpoint,
        path_params: Mapping[str, Any] | None,
        page: int,
        page_size: int | None,
        query: Mapping[str, Any] | None,
        where: Mapping[str, Any] | None = None,
    ) -> tuple[httpx.Response, str]:
        """The raw answer for one page (retried like any request) and its concrete path."""
        size = min(page_size or self.page_size, e.page_size_max)
        path = fill_path(e.path, dict(path_params or {}))
        params = {k: v for k, v in (query or {}).items() if v is not None}
        params.update(page=page, page_size=size)
        headers = filter_headers(where)
        response = await self._with_retries(
            e.method, path, lambda: self._exchange(e.method, path, None, params, headers)
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
        except PageFormatError as error:
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
        where: Mapping[str, Any] | None = None,
        slots: AbstractAsyncContextManager[Any] | None = None,
    ) -> AsyncIterator[Page[T]]:
        """Yield every page of a collection, in order, as soon as each is ready.

        Page 1 tells how many items exist; the rest are fetched concurrently with at most
        ``max_concurrency`` requests in flight. Pages are still yielded in order, so a caller
        can render page 1 after one round trip and append the rest.

        A listing this client has made before (a refresh) does not wait for page 1: the pages
        its last count needs are asked for together with page 1, so the whole list takes one
        round trip instead of two. Page 1's count still decides: pages the list no longer has
        are cancelled, pages it gained are asked for when page 1 arrives.

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
            where: Only the items matching this filter (see :meth:`fetch_page`).
            slots: A bound shared with other listings (``async with`` around each page after
                page 1; see :class:`~tui.api.fair_share.FairShare`) instead of this listing's
                own ``max_concurrency``.

        Yields:
            Pages 1..N in order.
        """
        e = endpoint(ep)
        size = min(page_size or self.page_size, e.page_size_max)
        largest = e.page_size_max if page_size is None else size
        bound = slots or asyncio.Semaphore(max_concurrency or self.max_concurrency)
        item_model = model if model is not None else e.response_model()

        async def one(number: int, items: int) -> Page[T]:
            async with bound:
                response, path = await self._page_response(
                    e, path_params, number, items, query, where
                )
            # Parsed after the slot is released, after one turn of the event loop, while the
            # other pages are in flight. (Holding parses to one per turn kept keys flowing when
            # pages arrive together, but every page waiting for its turn keeps its bytes: +20
            # MB at the peak of a 10,000-instance refresh. In-process, the simulator spaces its
            # answers instead; see Simulator._api.)
            await asyncio.sleep(0)
            return self._parse_page(e, path, response, item_model)

        key = (
            e.name,
            fill_path(e.path, dict(path_params or {})),
            repr(sorted((query or {}).items())),
            json.dumps(where or {}, sort_keys=True, default=str),
            str(size),
            str(largest),
        )
        # The collector is held off until every page is parsed (see tui.api.collector): the
        # hold ends with the last page task, whatever the consumer of the pages does.
        release = collector.hold()
        tasks: list[asyncio.Future[Page[T]]] = []
        try:
            known = self.known_counts.get(key, 0)
            early = {
                request: asyncio.ensure_future(one(*request))
                for request in page_plan(known, size, largest)
            }
            try:
                first: Page[T] = await self.fetch_page(
                    e,
                    path_params,
                    page=1,
                    page_size=page_size,
                    model=model,
                    query=query,
                    where=where,
                )
            except BaseException:
                await _cancel(list(early.values()))
                raise
            self.known_counts[key] = first.results
            trusted = -(-first.results // size) == first.pages
            if first.pages <= 1:
                plan: list[tuple[int, int]] = []
            elif trusted:
                plan = page_plan(first.results, size, largest)
            else:
                # The envelope's counts disagree: follow "pages", all of page 1's size, but
                # never further than a bound (a page claiming a billion pages must not hang the
                # list) and only until a page comes back empty.
                plan = [(n, size) for n in range(2, min(first.pages, MAX_UNSURE_PAGES) + 1)]
            tasks = [
                early.pop(request) if request in early else asyncio.ensure_future(one(*request))
                for request in plan
            ]
            await _cancel(list(early.values()))  # pages the list no longer has
            # Released once the last page is parsed, in a turn of its own (a future's done
            # callbacks are scheduled), not inside the consumer's work on the pages (see
            # collector.release_and_sweep).
            parsed = asyncio.gather(*tasks, return_exceptions=True)
            parsed.add_done_callback(lambda _parsed: collector.release_and_sweep(release))
            yield first
            for task in tasks:
                page = await task
                yield page
                if not trusted and not page.data:
                    break
        finally:
            await _cancel(tasks)
            release()

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


async def _cancel(tasks: Sequence[asyncio.Future[Any]]) -> None:
    """Cancel ``tasks`` and collect them, so none logs "exception was never retrieved"."""
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
