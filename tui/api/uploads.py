"""Sending an image's data to the ``upload_to`` address that ``images.upload`` hands out.

Headless: the image screens and the command line call it alike. Files are streamed in chunks
read off the event loop, so a 5 GB image never sits in memory.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator
from pathlib import Path

from tui.api.client import ApiClient
from tui.models.images import UPLOAD_MAX_BYTES

GZIP_MAGIC = b"\x1f\x8b"
UPLOAD_CHUNK = 1024 * 1024


async def _file_chunks(path: Path) -> AsyncIterator[bytes]:
    """The file's bytes in chunks, read off the event loop."""
    handle = await asyncio.to_thread(path.open, "rb")
    try:
        while True:
            chunk = await asyncio.to_thread(handle.read, UPLOAD_CHUNK)
            if not chunk:
                return
            yield chunk
    finally:
        await asyncio.to_thread(handle.close)


def _head_and_size(path: Path) -> tuple[bytes, int]:
    """The first two bytes and the size of a file."""
    with path.open("rb") as handle:
        return handle.read(2), os.fstat(handle.fileno()).st_size


async def upload_image_data(
    client: ApiClient, upload_to: str, data: bytes | str | os.PathLike[str]
) -> None:
    """Send an image's data to the ``upload_to`` address of an ``images.upload`` answer.

    ``PUT`` with ``Content-Type: application/octet-stream`` through the client's connection
    pool, without the bearer token. The data is checked before anything is sent, so a wrong
    file costs no request.

    Args:
        client: The API client (its pool carries the upload).
        upload_to: The address from :class:`~tui.models.images.ImageUploadStarted`.
        data: Gzip-compressed raw disk image: bytes, or the path of such a file.

    Raises:
        ValueError: The data is not gzip-compressed or exceeds 5 GB.
        OSError: The file cannot be read.
        ApiError: The upload address refused the data.
    """
    if isinstance(data, bytes):
        head, size = data[:2], len(data)
    else:
        path = Path(data)
        head, size = await asyncio.to_thread(_head_and_size, path)
    if head != GZIP_MAGIC:
        raise ValueError("image data must be a gzip-compressed raw disk image")
    if size > UPLOAD_MAX_BYTES:
        raise ValueError(f"image data is {size} bytes; at most {UPLOAD_MAX_BYTES} are allowed")
    if isinstance(data, bytes):
        await client.put_bytes(upload_to, data)
    else:
        await client.put_bytes(upload_to, _file_chunks(path), content_length=size)
