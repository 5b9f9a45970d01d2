"""Moving one file's bytes through a pre-signed URL, in constant memory, with retries.

* :func:`download_to` streams a GET into a temporary file beside the target, resumes with a
  ``Range`` request after a dropped connection (or starts over when the server ignores it),
  checks the size and the MD5 ETag, and only then renames the file to its final name. A failed
  or cancelled download leaves neither a final file nor a temporary one.
* :func:`upload_from` streams a file from disk through a PUT; a failed PUT asks for a fresh URL
  and sends the file again; 429s wait as long as the server asks.

The URL comes from a callback, so object transfers (``object_storage.objects.url``) and image
uploads (a fixed ``upload_to``) share the code.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import os
import re
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

import httpx

from tui.api.client import ApiClient
from tui.api.errors import ApiError, CloudError, RateLimited, TransportFailure, error_for_status
from tui.transfers.progress import FileProgress, State

CHUNK = 1024 * 1024
"""Bytes read from disk per step, and written to disk per step (network chunks are batched)."""
MAX_ATTEMPTS = 4
"""Tries of one file (dropped connections, 5xx, expired URLs); 429 waits do not count."""
MAX_RATE_WAITS = 20
"""429 answers one file waits out before it is reported failed."""
PART_SUFFIX = ".part"
RATE_LIMITED = "the server kept answering 429 (too many requests)"
MD5_ETAG = re.compile(r"^[0-9a-f]{32}$")

UrlSource = Callable[[], Awaitable[str]]
"""Returns a (fresh) URL for the transfer; called before each try."""


class TransferFailed(Exception):
    """A file could not be moved; the message says why (shown to the user)."""


@dataclass(frozen=True)
class Downloaded:
    """A finished download: where it is and what was checked."""

    path: Path
    size: int
    md5: str
    checked_etag: bool


def temp_path(target: Path) -> Path:
    """A hidden, unique temporary name beside ``target`` (same directory, so rename is atomic)."""
    return target.with_name(f".{target.name}.{secrets.token_hex(4)}{PART_SUFFIX}")


def _wait_for(error: CloudError, attempt: int, client: ApiClient) -> float:
    return client.retry.delay(error, attempt)


async def _pause(client: ApiClient, seconds: float) -> None:
    await client.retry.sleep(seconds)


def _status_error(response: httpx.Response, method: str, shown: str, body: bytes) -> ApiError:
    return error_for_status(
        response.status_code,
        method,
        shown,
        body,
        response.headers.get("content-type", ""),
        response.headers.get("retry-after"),
    )


def _etag_md5(etag: str | None) -> str | None:
    """The MD5 an ETag stands for, when it is one (multipart ETags are not)."""
    value = (etag or "").strip().strip('"').lower()
    return value if MD5_ETAG.match(value) else None


class _Sink:
    """Appends to the temporary file off the event loop, in batches of :data:`CHUNK`."""

    def __init__(self, handle: BinaryIO) -> None:
        self.handle = handle
        self.buffer: list[bytes] = []
        self.buffered = 0
        self.md5 = hashlib.md5(usedforsecurity=False)
        self.size = 0

    async def write(self, data: bytes) -> None:
        self.buffer.append(data)
        self.buffered += len(data)
        self.size += len(data)
        if self.buffered >= CHUNK:
            await self.flush()

    async def flush(self) -> None:
        if self.buffer:
            chunks = self.buffer
            self.buffer = []
            self.buffered = 0
            # Hashing and writing in the thread keep the event loop free to read the socket.
            await asyncio.to_thread(self._consume, chunks)

    def _consume(self, chunks: list[bytes]) -> None:
        for chunk in chunks:
            self.md5.update(chunk)
        self.handle.writelines(chunks)

    async def reset(self) -> None:
        """Start the file over (the server sent the whole object again)."""
        self.buffer.clear()
        self.buffered = 0
        self.md5 = hashlib.md5(usedforsecurity=False)
        self.size = 0
        await asyncio.to_thread(self.handle.seek, 0)
        await asyncio.to_thread(self.handle.truncate, 0)


async def download_to(
    client: ApiClient,
    url_source: UrlSource,
    target: Path,
    progress: FileProgress,
    *,
    expected_size: int | None = None,
    etag: str | None = None,
) -> Downloaded:
    """Download one object to ``target`` (replacing it only once complete and checked).

    Args:
        client: The API client (its connection pool and retry timing are used).
        url_source: Gives a pre-signed GET URL; called again when one expires.
        target: Final path. Its directory must exist.
        progress: Where bytes are counted.
        expected_size: Size from the listing; the download must match it.
        etag: ETag from the listing; checked when it is an MD5.

    Raises:
        TransferFailed: After the retries, or at once for errors a retry cannot fix.
        asyncio.CancelledError: Cancelled; nothing is left behind.
    """
    temp = temp_path(target)
    handle = await asyncio.to_thread(temp.open, "wb")
    sink = _Sink(handle)
    url: str | None = None
    attempt = rate_waits = 0
    renamed = False
    progress.state = State.RUNNING
    try:
        while True:
            if url is None:
                url = await _fresh_url(client, url_source)
            progress.attempts += 1
            try:
                complete, total = await _fetch(client, url, sink, progress)
            except RateLimited as error:
                rate_waits += 1
                if rate_waits > MAX_RATE_WAITS:
                    raise TransferFailed(RATE_LIMITED) from None
                await _retrying(client, progress, error, rate_waits, "rate limited")
                continue
            except (TransportFailure, ApiError) as error:
                attempt += 1
                if attempt >= MAX_ATTEMPTS or not _worth_retrying(error):
                    raise TransferFailed(reason_of(error)) from None
                if isinstance(error, ApiError) and error.status in (403, 404):
                    url = None  # expired or refused: ask for a new URL
                await _retrying(client, progress, error, attempt, "connection dropped")
                continue
            if not complete:
                attempt += 1
                if attempt >= MAX_ATTEMPTS:
                    raise TransferFailed(
                        f"the connection kept dropping ({sink.size} of {total} bytes arrived)"
                    )
                progress.state, progress.reason = State.RETRYING, "resuming after a drop"
                continue
            break
        await sink.flush()
        await asyncio.to_thread(handle.close)
        md5 = sink.md5.hexdigest()
        if expected_size is not None and sink.size != expected_size:
            raise TransferFailed(f"size mismatch: {sink.size} bytes, expected {expected_size}")
        wanted_md5 = _etag_md5(etag)
        if wanted_md5 is not None and md5 != wanted_md5:
            raise TransferFailed("checksum mismatch: the bytes differ from the object's ETag")
        await asyncio.to_thread(os.replace, temp, target)
        renamed = True
        progress.state = State.RUNNING
        return Downloaded(target, sink.size, md5, wanted_md5 is not None)
    finally:
        if not renamed:
            with contextlib.suppress(OSError):
                handle.close()
            with contextlib.suppress(OSError):
                temp.unlink()


async def _fetch(
    client: ApiClient, url: str, sink: _Sink, progress: FileProgress
) -> tuple[bool, int | None]:
    """One GET (ranged after a drop). Returns (complete, total size)."""
    headers = {"Range": f"bytes={sink.size}-"} if sink.size else {}
    shown = client.external_path(url)
    async with client.stream_url("GET", url, headers=headers) as response:
        if response.status_code == 416 and sink.size:
            # Asked beyond the end: the object changed; start over.
            await sink.reset()
            progress.restart()
            return False, None
        if response.status_code not in (200, 206):
            raise _status_error(response, "GET", shown, await response.aread())
        if response.status_code == 200 and sink.size:
            # The server ignored the range: take the whole object again.
            await sink.reset()
            progress.restart()
        total = _total_size(response, sink.size)
        if progress.size is None and total is not None:
            progress.size = total
        progress.state = State.RUNNING
        try:
            async for chunk in response.aiter_raw():
                await sink.write(chunk)
                progress.add(len(chunk))
        except (httpx.TransportError, httpx.StreamError):
            return False, total
    return total is None or sink.size >= total, total


def _total_size(response: httpx.Response, offset: int) -> int | None:
    """The whole object's size from ``Content-Range`` or ``Content-Length``."""
    if response.status_code == 206:
        whole = response.headers.get("content-range", "").rpartition("/")[2]
        if whole.isdigit():
            return int(whole)
    length = response.headers.get("content-length", "")
    if length.isdigit():
        return int(length) + (offset if response.status_code == 206 else 0)
    return None


async def _fresh_url(client: ApiClient, url_source: UrlSource) -> str:
    try:
        return await url_source()
    except CloudError as error:
        raise TransferFailed(f"no URL for the transfer: {reason_of(error)}") from None


async def _retrying(
    client: ApiClient, progress: FileProgress, error: CloudError, attempt: int, why: str
) -> None:
    progress.state = State.RETRYING
    seconds = _wait_for(error, attempt, client)
    progress.reason = f"{why}; retry {attempt} in {seconds:.0f} s"
    await _pause(client, seconds)


def _worth_retrying(error: CloudError) -> bool:
    if isinstance(error, TransportFailure):
        return True
    return isinstance(error, ApiError) and (error.status >= 500 or error.status in (403, 404, 408))


def reason_of(error: CloudError) -> str:
    """One line saying why a request failed."""
    if isinstance(error, ApiError):
        return f"HTTP {error.status}: {error.reasons}"
    if isinstance(error, TransportFailure):
        return error.reason
    return str(error) or type(error).__name__


async def file_chunks(path: Path, progress: FileProgress | None = None) -> AsyncIterator[bytes]:
    """The file's bytes in :data:`CHUNK` pieces, read off the event loop (constant memory)."""
    handle = await asyncio.to_thread(path.open, "rb")
    try:
        while True:
            chunk = await asyncio.to_thread(handle.read, CHUNK)
            if not chunk:
                return
            if progress is not None:
                progress.add(len(chunk))
            yield chunk
    finally:
        await asyncio.to_thread(handle.close)


async def upload_from(
    client: ApiClient,
    url_source: UrlSource,
    path: Path,
    progress: FileProgress,
    *,
    content_type: str,
) -> str | None:
    """Upload one local file through pre-signed PUTs (a fresh URL for each try).

    Args:
        client: The API client.
        url_source: Gives a PUT URL (bound to ``content_type`` where the API binds it).
        path: The local file.
        progress: Where bytes are counted.
        content_type: ``Content-Type`` header to send.

    Returns:
        The ETag the server answered with, if any.

    Raises:
        TransferFailed: After the retries (the file is never reported done).
        asyncio.CancelledError: Cancelled.
    """
    attempt = rate_waits = 0
    progress.state = State.RUNNING
    while True:
        try:
            size = (await asyncio.to_thread(path.stat)).st_size
        except OSError as error:
            raise TransferFailed(f"cannot read {path}: {error.strerror or error}") from None
        progress.size = size
        url = await _fresh_url(client, url_source)
        progress.attempts += 1
        progress.restart()
        headers = {"Content-Type": content_type, "Content-Length": str(size)}
        body: bytes | AsyncIterator[bytes]
        if size <= CHUNK:
            # A small file is read in one step (many small files: one thread hop, not four).
            try:
                body = await asyncio.to_thread(path.read_bytes)
            except OSError as error:
                raise TransferFailed(f"cannot read {path}: {error.strerror or error}") from None
            headers["Content-Length"] = str(len(body))
            progress.add(len(body))
        else:
            body = file_chunks(path, progress)
        try:
            async with client.stream_url("PUT", url, headers=headers, content=body) as response:
                body = await response.aread()
                if 200 <= response.status_code < 300:
                    progress.state = State.RUNNING
                    return response.headers.get("etag")
                raise _status_error(response, "PUT", client.external_path(url), body)
        except OSError as error:
            raise TransferFailed(f"cannot read {path}: {error.strerror or error}") from None
        except (httpx.TransportError, httpx.StreamError) as error:
            failure: CloudError = TransportFailure(
                "PUT", "upload", str(error) or "connection dropped", sent=True
            )
        except RateLimited as error:
            rate_waits += 1
            if rate_waits > MAX_RATE_WAITS:
                raise TransferFailed(RATE_LIMITED) from None
            await _retrying(client, progress, error, rate_waits, "rate limited")
            continue
        except (TransportFailure, ApiError) as error:
            failure = error
        attempt += 1
        if attempt >= MAX_ATTEMPTS or not _worth_retrying(failure):
            raise TransferFailed(reason_of(failure))
        await _retrying(client, progress, failure, attempt, "upload failed")
