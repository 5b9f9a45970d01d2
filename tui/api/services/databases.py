"""Managed databases: engines, MySQL and MongoDB instances, backups, credentials, certificates.

Operations that exist for both engines take ``engine: "mysql" | "mongodb"``; MySQL creation and
the MongoDB-only operations (credentials reset, patch, SSL certificate) have their own methods.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any, get_args

from tui.api.pagination import Page
from tui.api.services.base import Service, operation
from tui.models.databases import (
    Database,
    DatabaseBackup,
    DatabaseCreate,
    DatabaseCredentials,
    DatabaseEngine,
    DatabaseSsl,
    DatabaseUpdate,
    Engine,
    SnapshotCreate,
)

ENGINES: tuple[str, ...] = get_args(DatabaseEngine)


def _name(engine: DatabaseEngine, operation_name: str) -> str:
    """Registry name of a per-engine operation (``databases.mysql.view``)."""
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {', '.join(ENGINES)}, not {engine!r}")
    return f"databases.{engine}.{operation_name}"


class DatabasesService(Service):
    """Typed access to the managed-database endpoints."""

    # -- engines ----------------------------------------------------------------------------

    @operation("databases.engines.list")
    async def list_engines(self, page: int = 1, page_size: int | None = None) -> Page[Engine]:
        """GET /databases/engines

        Args:
            page: Page number, 1-based.
            page_size: Items per page (25..100).
        """
        return await self._page("databases.engines.list", page=page, page_size=page_size)

    @operation("databases.engines.list")
    def iter_engines(self) -> AsyncIterator[Page[Engine]]:
        """GET /databases/engines

        Every page, fetched concurrently, yielded in order.
        """
        return self._iter("databases.engines.list")

    @operation("databases.engines.view")
    async def get_engine(self, engine_id: str) -> Engine:
        """GET /databases/engines/{engineId}

        Args:
            engine_id: Engine id such as ``mysql_8.0.30``.
        """
        return await self._one("databases.engines.view", Engine, {"engineId": engine_id})

    # -- databases --------------------------------------------------------------------------

    @operation("databases.instances.list")
    async def list_all(self, page: int = 1, page_size: int | None = None) -> Page[Database]:
        """GET /databases/instances

        Databases of every engine; each entry carries ``instance_uri``.

        Args:
            page: Page number, 1-based.
            page_size: Items per page (25..100).
        """
        return await self._page("databases.instances.list", page=page, page_size=page_size)

    @operation("databases.instances.list")
    def iter_all(self) -> AsyncIterator[Page[Database]]:
        """GET /databases/instances

        Every page of databases of every engine, yielded in order.
        """
        return self._iter("databases.instances.list")

    @operation("databases.mysql.list", "databases.mongodb.list")
    async def list_instances(
        self, engine: DatabaseEngine, page: int = 1, page_size: int | None = None
    ) -> Page[Database]:
        """GET /databases/mysql/instances

        Also ``GET /databases/mongodb/instances``.

        Args:
            engine: ``mysql`` or ``mongodb``.
            page: Page number, 1-based.
            page_size: Items per page (25..100).
        """
        return await self._page(_name(engine, "list"), page=page, page_size=page_size)

    @operation("databases.mysql.list", "databases.mongodb.list")
    def iter_instances(self, engine: DatabaseEngine) -> AsyncIterator[Page[Database]]:
        """GET /databases/mysql/instances

        Also ``GET /databases/mongodb/instances``; every page, yielded in order.

        Args:
            engine: ``mysql`` or ``mongodb``.
        """
        return self._iter(_name(engine, "list"))

    @operation("databases.mysql.create")
    async def create_mysql(self, body: DatabaseCreate | None = None, **fields: Any) -> Database:
        """POST /databases/mysql/instances

        The database starts ``provisioning`` and becomes ``active`` later.

        Args:
            body: The request; or pass its fields as keyword arguments.
            **fields: Fields of :class:`DatabaseCreate` when ``body`` is None.
        """
        request = body if body is not None else DatabaseCreate(**fields)
        return await self._one("databases.mysql.create", Database, body=request)

    @operation("databases.mysql.view", "databases.mongodb.view")
    async def get(self, engine: DatabaseEngine, instance_id: int) -> Database:
        """GET /databases/mysql/instances/{instanceId}

        Also ``GET /databases/mongodb/instances/{instanceId}``.

        Args:
            engine: ``mysql`` or ``mongodb``.
            instance_id: Database id.
        """
        return await self._one(_name(engine, "view"), Database, {"instanceId": instance_id})

    @operation("databases.mysql.update", "databases.mongodb.update")
    async def update(
        self,
        engine: DatabaseEngine,
        instance_id: int,
        body: DatabaseUpdate | None = None,
        **fields: Any,
    ) -> Database:
        """PUT /databases/mysql/instances/{instanceId}

        Also ``PUT /databases/mongodb/instances/{instanceId}``. The database must be active;
        ``allow_list`` replaces the whole list.

        Args:
            engine: ``mysql`` or ``mongodb``.
            instance_id: Database id.
            body: The changes; or pass them as keyword arguments.
            **fields: Fields of :class:`DatabaseUpdate` when ``body`` is None.
        """
        request = body if body is not None else DatabaseUpdate(**fields)
        return await self._one(
            _name(engine, "update"), Database, {"instanceId": instance_id}, body=request
        )

    @operation("databases.mysql.delete", "databases.mongodb.delete")
    async def delete(self, engine: DatabaseEngine, instance_id: int) -> None:
        """DELETE /databases/mysql/instances/{instanceId}

        Also ``DELETE /databases/mongodb/instances/{instanceId}``. Unrestricted users only;
        the database must be active, failed or degraded.

        Args:
            engine: ``mysql`` or ``mongodb``.
            instance_id: Database id.
        """
        await self._call(_name(engine, "delete"), {"instanceId": instance_id})

    # -- backups ----------------------------------------------------------------------------

    @operation("databases.mysql.backups.list", "databases.mongodb.backups.list")
    async def list_backups(
        self,
        engine: DatabaseEngine,
        instance_id: int,
        page: int = 1,
        page_size: int | None = None,
    ) -> Page[DatabaseBackup]:
        """GET /databases/mysql/instances/{instanceId}/backups

        Also ``GET /databases/mongodb/instances/{instanceId}/backups``; newest first.

        Args:
            engine: ``mysql`` or ``mongodb``.
            instance_id: Database id.
            page: Page number, 1-based.
            page_size: Items per page (25..100).
        """
        return await self._page(
            _name(engine, "backups.list"),
            {"instanceId": instance_id},
            page=page,
            page_size=page_size,
        )

    @operation("databases.mysql.backups.list", "databases.mongodb.backups.list")
    def iter_backups(
        self, engine: DatabaseEngine, instance_id: int
    ) -> AsyncIterator[Page[DatabaseBackup]]:
        """GET /databases/mysql/instances/{instanceId}/backups

        Also the ``mongodb`` path; every page, yielded in order.

        Args:
            engine: ``mysql`` or ``mongodb``.
            instance_id: Database id.
        """
        return self._iter(_name(engine, "backups.list"), {"instanceId": instance_id})

    @operation("databases.mysql.backups.create", "databases.mongodb.backups.create")
    async def create_snapshot(
        self,
        engine: DatabaseEngine,
        instance_id: int,
        body: SnapshotCreate | None = None,
        **fields: Any,
    ) -> None:
        """POST /databases/mysql/instances/{instanceId}/backups

        Also the ``mongodb`` path. The database must be active.

        Args:
            engine: ``mysql`` or ``mongodb``.
            instance_id: Database id.
            body: The snapshot request; or pass ``label`` and ``target`` as keywords.
            **fields: Fields of :class:`SnapshotCreate` when ``body`` is None.
        """
        request = body if body is not None else SnapshotCreate(**fields)
        await self._call(_name(engine, "backups.create"), {"instanceId": instance_id}, body=request)

    @operation("databases.mysql.backups.view", "databases.mongodb.backups.view")
    async def get_backup(
        self, engine: DatabaseEngine, instance_id: int, backup_id: int
    ) -> DatabaseBackup:
        """GET /databases/mysql/instances/{instanceId}/backups/{backupId}

        Also the ``mongodb`` path.

        Args:
            engine: ``mysql`` or ``mongodb``.
            instance_id: Database id.
            backup_id: Backup id.
        """
        return await self._one(
            _name(engine, "backups.view"),
            DatabaseBackup,
            {"instanceId": instance_id, "backupId": backup_id},
        )

    @operation("databases.mysql.backups.delete", "databases.mongodb.backups.delete")
    async def delete_backup(self, engine: DatabaseEngine, instance_id: int, backup_id: int) -> None:
        """DELETE /databases/mysql/instances/{instanceId}/backups/{backupId}

        Also the ``mongodb`` path.

        Args:
            engine: ``mysql`` or ``mongodb``.
            instance_id: Database id.
            backup_id: Backup id.
        """
        await self._call(
            _name(engine, "backups.delete"), {"instanceId": instance_id, "backupId": backup_id}
        )

    @operation("databases.mysql.backups.restore", "databases.mongodb.backups.restore")
    async def restore_backup(
        self, engine: DatabaseEngine, instance_id: int, backup_id: int
    ) -> None:
        """POST /databases/mysql/instances/{instanceId}/backups/{backupId}/restore

        Also the ``mongodb`` path. Replaces all data of an active database.

        Args:
            engine: ``mysql`` or ``mongodb``.
            instance_id: Database id.
            backup_id: Backup id.
        """
        await self._call(
            _name(engine, "backups.restore"), {"instanceId": instance_id, "backupId": backup_id}
        )

    # -- credentials, patch, certificate ----------------------------------------------------

    @operation("databases.mysql.credentials.view", "databases.mongodb.credentials.view")
    async def get_credentials(
        self, engine: DatabaseEngine, instance_id: int
    ) -> DatabaseCredentials:
        """GET /databases/mysql/instances/{instanceId}/credentials

        Also the ``mongodb`` path. The database must be active. Never log the result.

        Args:
            engine: ``mysql`` or ``mongodb``.
            instance_id: Database id.
        """
        return await self._one(
            _name(engine, "credentials.view"), DatabaseCredentials, {"instanceId": instance_id}
        )

    @operation("databases.mongodb.credentials.reset")
    async def reset_credentials(self, instance_id: int) -> None:
        """POST /databases/mongodb/instances/{instanceId}/credentials/reset

        A new random root password takes effect a few seconds later. Unrestricted users only.

        Args:
            instance_id: MongoDB database id.
        """
        await self._call("databases.mongodb.credentials.reset", {"instanceId": instance_id})

    @operation("databases.mongodb.patch")
    async def patch(self, instance_id: int) -> None:
        """POST /databases/mongodb/instances/{instanceId}/patch

        Applies operating-system security patches to an active database.

        Args:
            instance_id: MongoDB database id.
        """
        await self._call("databases.mongodb.patch", {"instanceId": instance_id})

    @operation("databases.mongodb.ssl")
    async def get_ssl(self, instance_id: int) -> DatabaseSsl:
        """GET /databases/mongodb/instances/{instanceId}/ssl

        The CA certificate (PEM) of an active database.

        Args:
            instance_id: MongoDB database id.
        """
        return await self._one("databases.mongodb.ssl", DatabaseSsl, {"instanceId": instance_id})
