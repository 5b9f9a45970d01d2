"""Images: public and private ones, capture from a disk, uploads."""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from tui.api.pagination import Page
from tui.api.services.base import Service, operation
from tui.models.images import (
    UPLOAD_MAX_BYTES,
    Image,
    ImageCreate,
    ImageUpdate,
    ImageUpload,
    ImageUploadStarted,
)

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


class ImagesService(Service):
    """Typed access to the image endpoints, plus :meth:`upload_data` for upload addresses."""

    @operation("images.list")
    async def list_images(self, page: int = 1, page_size: int | None = None) -> Page[Image]:
        """GET /images

        Public images; with a token also the account's private ones.

        Args:
            page: Page number, 1-based.
            page_size: Items per page (25..100).
        """
        return await self._page("images.list", page=page, page_size=page_size)

    @operation("images.list")
    def iter_images(self) -> AsyncIterator[Page[Image]]:
        """GET /images

        Every page, fetched concurrently, yielded in order.
        """
        return self._iter("images.list")

    @operation("images.list")
    async def all_images(self) -> list[Image]:
        """GET /images

        Every image visible to the caller.
        """
        return await self._all("images.list")

    @operation("images.create")
    async def create_image(self, body: ImageCreate | None = None, **fields: Any) -> Image:
        """POST /images

        Captures a disk; the image is ``creating``, then ``available``.

        Args:
            body: The request; or pass ``disk_id``, ``label``, ``description``.
            **fields: Fields of :class:`ImageCreate` when ``body`` is None.
        """
        request = body if body is not None else ImageCreate(**fields)
        return await self._one("images.create", Image, body=request)

    @operation("images.upload")
    async def upload_image(
        self, body: ImageUpload | None = None, **fields: Any
    ) -> ImageUploadStarted:
        """POST /images/upload

        Returns the ``pending_upload`` image and the address to send its data to within 24
        hours (see :meth:`upload_data`).

        Args:
            body: The request; or pass ``label``, ``region``, ``description``.
            **fields: Fields of :class:`ImageUpload` when ``body`` is None.
        """
        request = body if body is not None else ImageUpload(**fields)
        return await self._one("images.upload", ImageUploadStarted, body=request)

    async def upload_data(self, upload_to: str, data: bytes | str | os.PathLike[str]) -> None:
        """Send an image's data to the ``upload_to`` address of :meth:`upload_image`.

        ``PUT`` with ``Content-Type: application/octet-stream`` through the client's connection
        pool, without the bearer token. Files are streamed in chunks.

        Args:
            upload_to: The address from :class:`ImageUploadStarted`.
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
            await self.client.put_bytes(upload_to, data)
        else:
            await self.client.put_bytes(upload_to, _file_chunks(path), content_length=size)

    @operation("images.view")
    async def get_image(self, image_id: str) -> Image:
        """GET /images/{imageId}

        Args:
            image_id: Image id such as ``compute/debian12`` or ``private/31000``.
        """
        return await self._one("images.view", Image, {"imageId": image_id})

    @operation("images.update")
    async def update_image(
        self, image_id: str, body: ImageUpdate | None = None, **fields: Any
    ) -> Image:
        """PUT /images/{imageId}

        Private images only. Pass ``description=None`` to remove the description.

        Args:
            image_id: Image id (``private/<n>``).
            body: The changes; or pass them as keyword arguments.
            **fields: Fields of :class:`ImageUpdate` when ``body`` is None.
        """
        request = body if body is not None else ImageUpdate(**fields)
        return await self._one("images.update", Image, {"imageId": image_id}, body=request)

    @operation("images.delete")
    async def delete_image(self, image_id: str) -> None:
        """DELETE /images/{imageId}

        Irreversible; private images only.

        Args:
            image_id: Image id (``private/<n>``).
        """
        await self._call("images.delete", {"imageId": image_id})
