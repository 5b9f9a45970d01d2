"""Tags: list, create (optionally on objects at once), delete, and the objects carrying one."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from tui.api.pagination import Page
from tui.api.services.base import Service, operation
from tui.models.tags import Tag, TagCreate, TaggedObject


class TagsService(Service):
    """Typed access to the tag endpoints."""

    @operation("tags.list")
    async def list_tags(self, page: int = 1, page_size: int | None = None) -> Page[Tag]:
        """GET /tags

        Args:
            page: Page number, 1-based.
            page_size: Items per page (25..100).
        """
        return await self._page("tags.list", page=page, page_size=page_size)

    @operation("tags.list")
    def iter_tags(self) -> AsyncIterator[Page[Tag]]:
        """GET /tags

        Every page, fetched concurrently, yielded in order.
        """
        return self._iter("tags.list")

    @operation("tags.list")
    async def all_tags(self) -> list[Tag]:
        """GET /tags

        Every tag, all pages.
        """
        return await self._all("tags.list")

    @operation("tags.create")
    async def create_tag(self, body: TagCreate | None = None, **fields: Any) -> Tag:
        """POST /tags

        Needs an unrestricted user and read_write access to every listed object; otherwise
        nothing is created.

        Args:
            body: The request; or pass ``label`` and the id lists (``computes``, ``domains``,
                ``volumes``, ``loadbalancers``) as keyword arguments.
            **fields: Fields of :class:`TagCreate` when ``body`` is None.
        """
        request = body if body is not None else TagCreate(**fields)
        return await self._one("tags.create", Tag, body=request)

    @operation("tags.delete")
    async def delete_tag(self, label: str) -> None:
        """DELETE /tags/{label}

        Removes the tag from every object.

        Args:
            label: The tag.
        """
        await self._call("tags.delete", {"label": label})

    @operation("tags.objects")
    async def list_tagged_objects(
        self, label: str, page: int = 1, page_size: int | None = None
    ) -> Page[TaggedObject]:
        """GET /tags/{label}

        Args:
            label: The tag.
            page: Page number, 1-based.
            page_size: Items per page (25..100).
        """
        return await self._page("tags.objects", {"label": label}, page=page, page_size=page_size)

    @operation("tags.objects")
    def iter_tagged_objects(self, label: str) -> AsyncIterator[Page[TaggedObject]]:
        """GET /tags/{label}

        Every page, fetched concurrently, yielded in order.

        Args:
            label: The tag.
        """
        return self._iter("tags.objects", {"label": label})

    @operation("tags.objects")
    async def all_tagged_objects(self, label: str) -> list[TaggedObject]:
        """GET /tags/{label}

        Every object carrying the tag, all pages.

        Args:
            label: The tag.
        """
        return await self._all("tags.objects", {"label": label})
