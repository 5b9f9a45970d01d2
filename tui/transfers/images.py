"""Sending a local image file to the ``upload_to`` address of ``images.upload``, with progress.

The file is checked against the spec's rules before anything is sent (a gzip-compressed raw disk
image, at most 5 GB compressed) and streamed from disk. The address stays valid until the data
arrives (24 hours), so a failed upload may be tried again with the same address.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from tui.api.client import ApiClient
from tui.models.images import UPLOAD_MAX_BYTES
from tui.transfers.progress import FileProgress
from tui.transfers.stream import upload_from

IMAGE_CONTENT_TYPE = "application/octet-stream"
GZIP_MAGIC = b"\x1f\x8b"
"""The first two bytes of a gzip file (images are uploaded gzip-compressed)."""


def image_file_problem(path: Path) -> str | None:
    """Why ``path`` cannot be uploaded as an image, or None when it can."""
    try:
        if not path.is_file():
            return f"{path} is not a file."
        with path.open("rb") as handle:
            head = handle.read(2)
        size = path.stat().st_size
    except OSError as error:
        return f"{path} cannot be read: {error.strerror or error}."
    if head != GZIP_MAGIC:
        return (
            "The file is not gzip-compressed. Images are uploaded as a gzip-compressed raw "
            "disk image (for example: gzip -k disk.img, then upload disk.img.gz)."
        )
    if size > UPLOAD_MAX_BYTES:
        return f"The file is {size} bytes; the compressed image may be at most 5 GB."
    return None


async def upload_image_file(
    client: ApiClient, upload_to: str, path: Path, progress: FileProgress
) -> None:
    """Check and stream ``path`` to ``upload_to`` (retrying dropped connections).

    Raises:
        ValueError: The file breaks the spec's rules (nothing was sent).
        TransferFailed: The upload failed after its retries.
    """
    problem = await asyncio.to_thread(image_file_problem, path)
    if problem is not None:
        raise ValueError(problem)

    async def same_address() -> str:
        return upload_to

    await upload_from(client, same_address, path, progress, content_type=IMAGE_CONTENT_TYPE)
