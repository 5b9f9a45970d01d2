"""Deployment scripts: public ones, and the account's own with a token."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from tui.api.pagination import Page
from tui.api.services.base import Service, operation
from tui.models.deployscripts import DeployScript, DeployScriptCreate, DeployScriptUpdate


class DeployScriptsService(Service):
    """Typed access to the deployment script endpoints."""

    @operation("deployscripts.list")
    async def list_scripts(self, page: int = 1, page_size: int | None = None) -> Page[DeployScript]:
        """GET /compute/deployscripts

        Without a token only public scripts are listed.

        Args:
            page: Page number, 1-based.
            page_size: Items per page (25..100).
        """
        return await self._page("deployscripts.list", page=page, page_size=page_size)

    @operation("deployscripts.list")
    def iter_scripts(self) -> AsyncIterator[Page[DeployScript]]:
        """GET /compute/deployscripts

        Every page, fetched concurrently, yielded in order.
        """
        return self._iter("deployscripts.list")

    @operation("deployscripts.list")
    async def all_scripts(self) -> list[DeployScript]:
        """GET /compute/deployscripts

        Every script visible to the caller.
        """
        return await self._all("deployscripts.list")

    @operation("deployscripts.create")
    async def create_script(
        self, body: DeployScriptCreate | None = None, **fields: Any
    ) -> DeployScript:
        """POST /compute/deployscripts

        Args:
            body: The request; or pass its fields as keyword arguments.
            **fields: Fields of :class:`DeployScriptCreate` when ``body`` is None.
        """
        request = body if body is not None else DeployScriptCreate(**fields)
        return await self._one("deployscripts.create", DeployScript, body=request)

    @operation("deployscripts.view")
    async def get_script(self, script_id: int | str) -> DeployScript:
        """GET /compute/deployscripts/{deployscriptId}

        Args:
            script_id: Script id (typed string in the path; integer ids are accepted).
        """
        return await self._one(
            "deployscripts.view", DeployScript, {"deployscriptId": str(script_id)}
        )

    @operation("deployscripts.update")
    async def update_script(
        self, script_id: int | str, body: DeployScriptUpdate | None = None, **fields: Any
    ) -> DeployScript:
        """PUT /compute/deployscripts/{deployscriptId}

        Making a script public cannot be undone.

        Args:
            script_id: Script id.
            body: The changes; or pass them as keyword arguments.
            **fields: Fields of :class:`DeployScriptUpdate` when ``body`` is None.
        """
        request = body if body is not None else DeployScriptUpdate(**fields)
        return await self._one(
            "deployscripts.update",
            DeployScript,
            {"deployscriptId": str(script_id)},
            body=request,
        )

    @operation("deployscripts.delete")
    async def delete_script(self, script_id: int | str) -> None:
        """DELETE /compute/deployscripts/{deployscriptId}

        Private scripts only: public scripts cannot be deleted.

        Args:
            script_id: Script id.
        """
        await self._call("deployscripts.delete", {"deployscriptId": str(script_id)})
