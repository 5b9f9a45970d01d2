"""Requests to addresses the API hands out (pre-signed upload and download URLs): no bearer
token, no retries, the address checked first and its secret part kept out of messages
(headless)."""

from __future__ import annotations

from collections.abc import AsyncIterable, AsyncIterator, Mapping
from contextlib import asynccontextmanager

import httpx

from tui.api.base_url import external_path
from tui.api.calls import CallingClient
from tui.api.changes import ReadOnlySession, change_event, status_event
from tui.api.errors import CloudError
from tui.api.transport import send


class PresignedClient(CallingClient):
    """:meth:`stream_url` to pre-signed addresses (object and image transfers)."""

    def external_path(self, url: str) -> str:
        """Check an absolute address the API handed out; the part of it safe to show.

        Raises:
            InsecureBaseUrl: The URL is not http(s) or uses plain http to a remote host.
        """
        return external_path(url, self.base_url)

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

        No bearer token (such addresses authorise by themselves and may belong to another
        host), no retries (a streamed body cannot be replayed), the URL checked first. The
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
            response = await send(
                self._http, request, shown, self._token, bearer=False, stream=True
            )
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
