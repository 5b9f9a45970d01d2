"""Block volumes: create, attach, detach, clone, resize, delete."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from tui.api.pagination import Page
from tui.api.services.base import Service, operation
from tui.models.volumes import (
    Volume,
    VolumeAttach,
    VolumeClone,
    VolumeCreate,
    VolumeResize,
    VolumeUpdate,
)


class VolumesService(Service):
    """Typed access to the volume endpoints."""

    @operation("volumes.list")
    async def list_volumes(self, page: int = 1, page_size: int | None = None) -> Page[Volume]:
        """GET /volumes

        Args:
            page: Page number, 1-based.
            page_size: Items per page (25..100).
        """
        return await self._page("volumes.list", page=page, page_size=page_size)

    @operation("volumes.list")
    def iter_volumes(self) -> AsyncIterator[Page[Volume]]:
        """GET /volumes

        Every page, fetched concurrently, yielded in order.
        """
        return self._iter("volumes.list")

    @operation("volumes.list")
    async def all_volumes(self) -> list[Volume]:
        """GET /volumes

        Every volume, all pages.
        """
        return await self._all("volumes.list")

    @operation("volumes.create")
    async def create_volume(self, body: VolumeCreate | None = None, **fields: Any) -> Volume:
        """POST /volumes

        The volume is ``creating`` for a moment, then ``active``. Charges apply.

        Args:
            body: The request; or pass its fields as keyword arguments.
            **fields: Fields of :class:`VolumeCreate` when ``body`` is None.
        """
        request = body if body is not None else VolumeCreate(**fields)
        return await self._one("volumes.create", Volume, body=request)

    @operation("volumes.view")
    async def get_volume(self, volume_id: int) -> Volume:
        """GET /volumes/{volumeId}

        Args:
            volume_id: Volume id.
        """
        return await self._one("volumes.view", Volume, {"volumeId": volume_id})

    @operation("volumes.update")
    async def update_volume(
        self, volume_id: int, body: VolumeUpdate | None = None, **fields: Any
    ) -> Volume:
        """PUT /volumes/{volumeId}

        Args:
            volume_id: Volume id.
            body: The changes; or pass them as keyword arguments (``label``, ``tags``).
            **fields: Fields of :class:`VolumeUpdate` when ``body`` is None.
        """
        request = body if body is not None else VolumeUpdate(**fields)
        return await self._one("volumes.update", Volume, {"volumeId": volume_id}, body=request)

    @operation("volumes.delete")
    async def delete_volume(self, volume_id: int) -> None:
        """DELETE /volumes/{volumeId}

        Irreversible; refused while the volume is migrating.

        Args:
            volume_id: Volume id.
        """
        await self._call("volumes.delete", {"volumeId": volume_id})

    @operation("volumes.attach")
    async def attach_volume(
        self, volume_id: int, body: VolumeAttach | None = None, **fields: Any
    ) -> Volume:
        """POST /volumes/{volumeId}/attach

        The instance must be in the volume's region.

        Args:
            volume_id: Volume id.
            body: The request; or pass ``compute_id``, ``config_id``, ``persist_across_boots``.
            **fields: Fields of :class:`VolumeAttach` when ``body`` is None.
        """
        request = body if body is not None else VolumeAttach(**fields)
        return await self._one("volumes.attach", Volume, {"volumeId": volume_id}, body=request)

    @operation("volumes.detach")
    async def detach_volume(self, volume_id: int) -> None:
        """POST /volumes/{volumeId}/detach

        Args:
            volume_id: Volume id.
        """
        await self._call("volumes.detach", {"volumeId": volume_id})

    @operation("volumes.clone")
    async def clone_volume(self, volume_id: int, label: str) -> Volume:
        """POST /volumes/{volumeId}/clone

        The source must be ``active``; the copy has its size and data and starts ``creating``.

        Args:
            volume_id: Source volume id.
            label: Label of the copy.
        """
        return await self._one(
            "volumes.clone", Volume, {"volumeId": volume_id}, body=VolumeClone(label=label)
        )

    @operation("volumes.resize")
    async def resize_volume(self, volume_id: int, size: int) -> Volume:
        """POST /volumes/{volumeId}/resize

        Growth only; the volume must be ``active`` and is ``resizing`` for a moment.

        Args:
            volume_id: Volume id.
            size: New size in GB.
        """
        return await self._one(
            "volumes.resize", Volume, {"volumeId": volume_id}, body=VolumeResize(size=size)
        )
