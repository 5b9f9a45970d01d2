"""Object operations built on pre-signed URLs: batches of downloads, uploads and deletes,
share links and text previews.

Each batch runs at most :data:`CONCURRENCY` files at once (429s wait inside each file), fills a
:class:`~tui.transfers.progress.Batch` as it goes and never raises for one file's failure: the
file's state says what happened. Cancelling the task cancels every file (downloads remove their
temporary files).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from tui.api.client import ApiClient
from tui.api.errors import ApiError, CloudError, RateLimited, TransportFailure
from tui.models.object_storage import URL_EXPIRES_MAX, URL_EXPIRES_MIN
from tui.transfers.plan import DownloadItem, UploadItem
from tui.transfers.progress import Batch, FileProgress, State
from tui.transfers.stream import (
    TransferFailed,
    UrlSource,
    download_to,
    reason_of,
    upload_from,
)

URL_ENDPOINT = "object_storage.objects.url"
CONCURRENCY = 4
"""Files moved at once: enough to hide per-request latency, few enough to stay under limits."""
URL_LIFETIME = 3600
"""Seconds a transfer URL stays valid (fresh ones are asked for on retries)."""
PREVIEW_LIMIT = 1024 * 1024
"""Largest object ``v`` shows inline."""
MAX_URL_WAITS = 20
MAX_URL_FAILURES = 4
"""Tries of one signing request that failed on the server side (dropped, 5xx)."""


def url_source(
    client: ApiClient,
    params: Mapping[str, Any],
    name: str,
    method: str,
    content_type: str = "",
) -> UrlSource:
    """A callback giving a fresh pre-signed URL for one object (waiting out 429s)."""

    async def fresh() -> str:
        body: dict[str, Any] = {"name": name, "method": method, "expires_in": URL_LIFETIME}
        if content_type:
            body["content_type"] = content_type
        waits = failures = 0
        while True:
            try:
                answer = await client.call(URL_ENDPOINT, dict(params), body=body, model=dict)
            except RateLimited as error:
                waits += 1
                if waits > MAX_URL_WAITS:
                    raise
                await client.retry.sleep(client.retry.delay(error, waits))
                continue
            except (TransportFailure, ApiError) as error:
                # Signing keeps no state, so unlike other POSTs it is safe to send again.
                server_side = isinstance(error, TransportFailure) or error.status >= 500
                failures += 1
                if not server_side or failures >= MAX_URL_FAILURES:
                    raise
                await client.retry.sleep(client.retry.delay(error, failures))
                continue
            return str(answer["url"])

    return fresh


async def _bounded(
    batch: Batch, work: list[tuple[FileProgress, Callable[[], Awaitable[None]]]], limit: int
) -> None:
    """Run ``work`` at most ``limit`` at a time; each file ends in a final state."""
    gate = asyncio.Semaphore(max(1, limit))

    async def one(progress: FileProgress, job: Callable[[], Awaitable[None]]) -> None:
        async with gate:
            if progress.state is State.CANCELLED:
                return
            try:
                await job()
            except TransferFailed as error:
                progress.finish(State.FAILED, str(error))
            except CloudError as error:
                progress.finish(State.FAILED, reason_of(error))
            except OSError as error:
                progress.finish(State.FAILED, error.strerror or str(error))
            except asyncio.CancelledError:
                progress.finish(State.CANCELLED, "cancelled")
                raise
            else:
                progress.finish(State.DONE)

    tasks = [asyncio.ensure_future(one(p, j)) for p, j in work]
    try:
        await asyncio.gather(*tasks)
    except asyncio.CancelledError:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for progress, _ in work:
            if progress.state not in (State.DONE, State.FAILED, State.SKIPPED):
                progress.finish(State.CANCELLED, "cancelled")
        raise


def download_batch(batch: Batch, items: list[DownloadItem]) -> list[FileProgress]:
    """Add ``items`` to ``batch`` (skipped ones already final); their progress in order."""
    out = []
    for item in items:
        progress = batch.add(item.entry.key, item.entry.size)
        if item.skip_reason:
            progress.finish(State.SKIPPED, item.skip_reason)
        out.append(progress)
    return out


T = TypeVar("T")


def _pending(items: Sequence[T], progresses: list[FileProgress]) -> list[tuple[T, FileProgress]]:
    """The items still to run, each with its progress marked waiting: a retry of a batch
    skips what is done or skipped."""
    out: list[tuple[T, FileProgress]] = []
    for item, progress in zip(items, progresses, strict=True):
        if progress.state in (State.DONE, State.SKIPPED):
            continue
        progress.finish(State.WAITING)
        out.append((item, progress))
    return out


async def run_downloads(
    client: ApiClient,
    params: Mapping[str, Any],
    items: list[DownloadItem],
    progresses: list[FileProgress],
    batch: Batch,
    *,
    concurrency: int = CONCURRENCY,
) -> None:
    """Download ``items`` (conflicts resolved) not yet done or skipped (a retry of the failed)."""
    work: list[tuple[FileProgress, Callable[[], Awaitable[None]]]] = []
    for item, progress in _pending(items, progresses):

        async def job(item: DownloadItem = item, progress: FileProgress = progress) -> None:
            await asyncio.to_thread(item.target.parent.mkdir, parents=True, exist_ok=True)
            source = url_source(client, params, item.entry.key, "GET")
            await download_to(
                client,
                source,
                item.target,
                progress,
                expected_size=item.entry.size,
                etag=item.entry.etag,
            )

        work.append((progress, job))
    await _bounded(batch, work, concurrency)


def upload_batch(batch: Batch, items: list[UploadItem]) -> list[FileProgress]:
    """Add ``items`` to ``batch``; their progress in order."""
    return [batch.add(item.key, item.size) for item in items]


async def run_uploads(
    client: ApiClient,
    params: Mapping[str, Any],
    items: list[UploadItem],
    progresses: list[FileProgress],
    batch: Batch,
    *,
    concurrency: int = CONCURRENCY,
) -> None:
    """Upload ``items``; only files still waiting or failed are sent (a retry of the failed)."""
    work: list[tuple[FileProgress, Callable[[], Awaitable[None]]]] = []
    for item, progress in _pending(items, progresses):

        async def job(item: UploadItem = item, progress: FileProgress = progress) -> None:
            source = url_source(client, params, item.key, "PUT", item.content_type)
            await upload_from(client, source, item.path, progress, content_type=item.content_type)

        work.append((progress, job))
    await _bounded(batch, work, concurrency)


async def run_deletes(
    client: ApiClient,
    params: Mapping[str, Any],
    names: list[str],
    batch: Batch,
    *,
    concurrency: int = CONCURRENCY,
) -> None:
    """Delete objects through pre-signed DELETE URLs; each name's result is in ``batch``."""
    work: list[tuple[FileProgress, Callable[[], Awaitable[None]]]] = []
    for name in names:
        progress = batch.add(name, None)

        async def job(name: str = name) -> None:
            url = await url_source(client, params, name, "DELETE")()
            async with client.stream_url("DELETE", url) as response:
                await response.aread()
                if not 200 <= response.status_code < 300:
                    raise TransferFailed(f"HTTP {response.status_code}")

        work.append((progress, job))
    await _bounded(batch, work, concurrency)


async def share_url(
    client: ApiClient, params: Mapping[str, Any], name: str, expires_in: int
) -> str:
    """A pre-signed GET URL for ``name`` valid ``expires_in`` seconds (the spec's bounds).

    Raises:
        ValueError: ``expires_in`` is outside 360..86400.
        CloudError: The API refused.
    """
    if not URL_EXPIRES_MIN <= expires_in <= URL_EXPIRES_MAX:
        raise ValueError(f"expiry must be between {URL_EXPIRES_MIN} and {URL_EXPIRES_MAX} seconds")
    body = {"name": name, "method": "GET", "expires_in": expires_in}
    answer = await client.call(URL_ENDPOINT, dict(params), body=body, model=dict)
    return str(answer["url"])


@dataclass(frozen=True)
class Preview:
    """What ``v`` shows: the text, or why there is none."""

    text: str | None
    reason: str = ""


async def preview_text(
    client: ApiClient, params: Mapping[str, Any], name: str, size: int
) -> Preview:
    """The object's text when it is UTF-8 text of at most :data:`PREVIEW_LIMIT` bytes."""
    if size > PREVIEW_LIMIT:
        return Preview(None, f"The object is {size} bytes; only objects up to 1 MB are shown.")
    url = await url_source(client, params, name, "GET")()
    async with client.stream_url("GET", url) as response:
        if response.status_code != 200:
            return Preview(None, f"The object could not be read (HTTP {response.status_code}).")
        data = bytearray()
        async for chunk in response.aiter_raw():
            data += chunk
            if len(data) > PREVIEW_LIMIT:
                return Preview(None, "The object is larger than 1 MB; it is not shown.")
    if b"\x00" in data:
        return Preview(None, "This is a binary object; download it to open it.")
    try:
        return Preview(bytes(data).decode("utf-8"))
    except UnicodeDecodeError:
        return Preview(None, "This is a binary object (not UTF-8 text); download it to open it.")
