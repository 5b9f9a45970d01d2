"""Compute instances: lifecycle (create, boot, reboot, shut down, resize, rescue, delete),
configuration profiles, disks, backups, statistics, transfer and attached volumes; kernels,
regions and instance types."""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from typing import Any

from tui.api.pagination import Page
from tui.api.services.base import Service, operation
from tui.models.compute import (
    BackupsListing,
    BootRequest,
    ConfigCreate,
    ConfigUpdate,
    Disk,
    DiskCreate,
    Instance,
    InstanceConfig,
    InstanceCreate,
    InstanceType,
    InstanceUpdate,
    Kernel,
    Region,
    RescueRequest,
    ResizeRequest,
    Stats,
    Transfer,
    TransferMonth,
)
from tui.models.volumes import Volume


def _instance(instance_id: int) -> dict[str, Any]:
    return {"computeId": instance_id}


def _config(instance_id: int, config_id: int) -> dict[str, Any]:
    return {"computeId": instance_id, "configId": config_id}


class ComputeService(Service):
    """Typed access to the compute endpoints."""

    # -- instances --------------------------------------------------------------------------

    @operation("compute.instances.list")
    async def list_instances(self, page: int = 1, page_size: int | None = None) -> Page[Instance]:
        """GET /compute/instances

        Restricted users see only the instances they hold a grant on.

        Args:
            page: Page number, 1-based.
            page_size: Items per page (25..500).
        """
        return await self._page("compute.instances.list", page=page, page_size=page_size)

    @operation("compute.instances.list")
    def iter_instances(self) -> AsyncIterator[Page[Instance]]:
        """GET /compute/instances

        Every page, fetched concurrently, yielded in order.
        """
        return self._iter("compute.instances.list")

    @operation("compute.instances.list")
    async def all_instances(self) -> list[Instance]:
        """GET /compute/instances

        Every instance, all pages.
        """
        return await self._all("compute.instances.list")

    @operation("compute.instances.create")
    async def create_instance(self, body: InstanceCreate | None = None, **fields: Any) -> Instance:
        """POST /compute/instances

        From an image or backup the instance is ``provisioning``, then ``running`` (or
        ``offline`` with ``booted`` false); without either it is created empty and ``offline``.
        Charges apply.

        Args:
            body: The request; or pass its fields as keyword arguments.
            **fields: Fields of :class:`InstanceCreate` when ``body`` is None.
        """
        request = body if body is not None else InstanceCreate(**fields)
        return await self._one("compute.instances.create", Instance, body=request)

    @operation("compute.instances.view")
    async def get_instance(self, instance_id: int) -> Instance:
        """GET /compute/instances/{computeId}

        Args:
            instance_id: Instance id.
        """
        return await self._one("compute.instances.view", Instance, _instance(instance_id))

    @operation("compute.instances.update")
    async def update_instance(
        self, instance_id: int, body: InstanceUpdate | None = None, **fields: Any
    ) -> Instance:
        """PUT /compute/instances/{computeId}

        Args:
            instance_id: Instance id.
            body: The changes; or pass them as keyword arguments (``label``, ``tags``,
                ``alerts``, ``backups``, ``group``, ``watchdog_enabled``).
            **fields: Fields of :class:`InstanceUpdate` when ``body`` is None.
        """
        request = body if body is not None else InstanceUpdate(**fields)
        return await self._one(
            "compute.instances.update", Instance, _instance(instance_id), body=request
        )

    @operation("compute.instances.delete")
    async def delete_instance(self, instance_id: int) -> None:
        """DELETE /compute/instances/{computeId}

        Irreversible: deletes disks, configs and backups; attached volumes become free.
        Refused while the instance is cloning or restoring a backup.

        Args:
            instance_id: Instance id.
        """
        await self._call("compute.instances.delete", _instance(instance_id))

    @operation("compute.instances.boot")
    async def boot(self, instance_id: int, config_id: int | None = None) -> None:
        """POST /compute/instances/{computeId}/boot

        ``offline`` (or ``stopped``) -> ``booting`` -> ``running``.

        Args:
            instance_id: Instance id.
            config_id: Configuration profile to boot (default: the last booted one).
        """
        body = BootRequest(config_id=config_id) if config_id is not None else BootRequest()
        await self._call("compute.instances.boot", _instance(instance_id), body=body)

    @operation("compute.instances.reboot")
    async def reboot(self, instance_id: int, config_id: int | None = None) -> None:
        """POST /compute/instances/{computeId}/reboot

        ``running`` -> ``rebooting`` -> ``running``.

        Args:
            instance_id: Instance id.
            config_id: Configuration profile to boot (default: the last booted one).
        """
        body = BootRequest(config_id=config_id) if config_id is not None else BootRequest()
        await self._call("compute.instances.reboot", _instance(instance_id), body=body)

    @operation("compute.instances.shutdown")
    async def shutdown(self, instance_id: int) -> None:
        """POST /compute/instances/{computeId}/shutdown

        ``running`` -> ``shutting_down`` -> ``offline``; queued actions must complete first.

        Args:
            instance_id: Instance id.
        """
        await self._call("compute.instances.shutdown", _instance(instance_id))

    @operation("compute.instances.resize")
    async def resize(
        self, instance_id: int, type: str, allow_auto_disk_resize: bool | None = None
    ) -> None:
        """POST /compute/instances/{computeId}/resize

        The instance is ``resizing``, then has the new type. Refused while actions are running,
        with a pending migration or an outstanding balance, or when the disks do not fit.

        Args:
            instance_id: Instance id.
            type: New instance type id.
            allow_auto_disk_resize: Grow the main disk into the extra space (server default on).
        """
        request = (
            ResizeRequest(type=type)
            if allow_auto_disk_resize is None
            else ResizeRequest(type=type, allow_auto_disk_resize=allow_auto_disk_resize)
        )
        await self._call("compute.instances.resize", _instance(instance_id), body=request)

    @operation("compute.instances.rescue")
    async def rescue(
        self,
        instance_id: int,
        body: RescueRequest | None = None,
        devices: Mapping[str, Any] | None = None,
    ) -> None:
        """POST /compute/instances/{computeId}/rescue

        Boots the rescue system with the given devices in ``sda`` .. ``sdg`` (``sdh`` is
        reserved).

        Args:
            instance_id: Instance id.
            body: The request; or pass ``devices``.
            devices: Slot -> ``{"disk_id": ...}`` or ``{"volume_id": ...}``.
        """
        if body is not None:
            request = body
        elif devices is not None:
            request = RescueRequest.model_validate({"devices": dict(devices)})
        else:
            request = RescueRequest()
        await self._call("compute.instances.rescue", _instance(instance_id), body=request)

    # -- backups ----------------------------------------------------------------------------

    @operation("compute.backups.list")
    async def list_backups(self, instance_id: int) -> BackupsListing:
        """GET /compute/instances/{computeId}/backups

        Automatic backups and the two snapshot slots.

        Args:
            instance_id: Instance id.
        """
        return await self._one("compute.backups.list", BackupsListing, _instance(instance_id))

    # -- configuration profiles -------------------------------------------------------------

    @operation("compute.configs.list")
    async def list_configs(
        self, instance_id: int, page: int = 1, page_size: int | None = None
    ) -> Page[InstanceConfig]:
        """GET /compute/instances/{computeId}/configs

        Args:
            instance_id: Instance id.
            page: Page number, 1-based.
            page_size: Items per page (25..500).
        """
        return await self._page(
            "compute.configs.list", _instance(instance_id), page=page, page_size=page_size
        )

    @operation("compute.configs.list")
    def iter_configs(self, instance_id: int) -> AsyncIterator[Page[InstanceConfig]]:
        """GET /compute/instances/{computeId}/configs

        Every page, fetched concurrently, yielded in order.

        Args:
            instance_id: Instance id.
        """
        return self._iter("compute.configs.list", _instance(instance_id))

    @operation("compute.configs.list")
    async def all_configs(self, instance_id: int) -> list[InstanceConfig]:
        """GET /compute/instances/{computeId}/configs

        Every configuration profile of the instance.

        Args:
            instance_id: Instance id.
        """
        return await self._all("compute.configs.list", _instance(instance_id))

    @operation("compute.configs.create")
    async def create_config(
        self, instance_id: int, body: ConfigCreate | None = None, **fields: Any
    ) -> InstanceConfig:
        """POST /compute/instances/{computeId}/configs

        Args:
            instance_id: Instance id.
            body: The request; or pass its fields as keyword arguments (``label`` and
                ``devices`` are required).
            **fields: Fields of :class:`ConfigCreate` when ``body`` is None.
        """
        request = body if body is not None else ConfigCreate(**fields)
        return await self._one(
            "compute.configs.create", InstanceConfig, _instance(instance_id), body=request
        )

    @operation("compute.configs.view")
    async def get_config(self, instance_id: int, config_id: int) -> InstanceConfig:
        """GET /compute/instances/{computeId}/configs/{configId}

        Args:
            instance_id: Instance id.
            config_id: Configuration profile id.
        """
        return await self._one(
            "compute.configs.view", InstanceConfig, _config(instance_id, config_id)
        )

    @operation("compute.configs.update")
    async def update_config(
        self,
        instance_id: int,
        config_id: int,
        body: ConfigUpdate | None = None,
        **fields: Any,
    ) -> InstanceConfig:
        """PUT /compute/instances/{computeId}/configs/{configId}

        Args:
            instance_id: Instance id.
            config_id: Configuration profile id.
            body: The changes; or pass them as keyword arguments.
            **fields: Fields of :class:`ConfigUpdate` when ``body`` is None.
        """
        request = body if body is not None else ConfigUpdate(**fields)
        return await self._one(
            "compute.configs.update", InstanceConfig, _config(instance_id, config_id), body=request
        )

    @operation("compute.configs.delete")
    async def delete_config(self, instance_id: int, config_id: int) -> None:
        """DELETE /compute/instances/{computeId}/configs/{configId}

        Args:
            instance_id: Instance id.
            config_id: Configuration profile id.
        """
        await self._call("compute.configs.delete", _config(instance_id, config_id))

    # -- disks ------------------------------------------------------------------------------

    @operation("compute.disks.list")
    async def list_disks(
        self, instance_id: int, page: int = 1, page_size: int | None = None
    ) -> Page[Disk]:
        """GET /compute/instances/{computeId}/disks

        Args:
            instance_id: Instance id.
            page: Page number, 1-based.
            page_size: Items per page (25..500).
        """
        return await self._page(
            "compute.disks.list", _instance(instance_id), page=page, page_size=page_size
        )

    @operation("compute.disks.list")
    def iter_disks(self, instance_id: int) -> AsyncIterator[Page[Disk]]:
        """GET /compute/instances/{computeId}/disks

        Every page, fetched concurrently, yielded in order.

        Args:
            instance_id: Instance id.
        """
        return self._iter("compute.disks.list", _instance(instance_id))

    @operation("compute.disks.list")
    async def all_disks(self, instance_id: int) -> list[Disk]:
        """GET /compute/instances/{computeId}/disks

        Every disk of the instance.

        Args:
            instance_id: Instance id.
        """
        return await self._all("compute.disks.list", _instance(instance_id))

    @operation("compute.disks.create")
    async def create_disk(
        self, instance_id: int, body: DiskCreate | None = None, **fields: Any
    ) -> Disk:
        """POST /compute/instances/{computeId}/disks

        The disk is ``not ready`` for a moment, then ``ready``.

        Args:
            instance_id: Instance id.
            body: The request; or pass its fields as keyword arguments.
            **fields: Fields of :class:`DiskCreate` when ``body`` is None.
        """
        request = body if body is not None else DiskCreate(**fields)
        return await self._one("compute.disks.create", Disk, _instance(instance_id), body=request)

    # -- statistics and transfer ------------------------------------------------------------

    @operation("compute.stats.view")
    async def get_stats(self, instance_id: int) -> Stats:
        """GET /compute/instances/{computeId}/stats

        The last 24 hours.

        Args:
            instance_id: Instance id.
        """
        return await self._one("compute.stats.view", Stats, _instance(instance_id))

    @operation("compute.stats.month")
    async def get_stats_month(self, instance_id: int, year: int, month: int) -> Stats:
        """GET /compute/instances/{computeId}/stats/{year}/{month}

        The current month covers the past 30 days.

        Args:
            instance_id: Instance id.
            year: Year, for example 2026.
            month: Month, 1..12.
        """
        return await self._one(
            "compute.stats.month",
            Stats,
            {"computeId": instance_id, "year": year, "month": month},
        )

    @operation("compute.transfer.view")
    async def get_transfer(self, instance_id: int) -> Transfer:
        """GET /compute/instances/{computeId}/transfer

        This month's usage, quota and billable overage.

        Args:
            instance_id: Instance id.
        """
        return await self._one("compute.transfer.view", Transfer, _instance(instance_id))

    @operation("compute.transfer.month")
    async def get_transfer_month(self, instance_id: int, year: int, month: int) -> TransferMonth:
        """GET /compute/instances/{computeId}/transfer/{year}/{month}

        Args:
            instance_id: Instance id.
            year: Year, 2000..2037.
            month: Month, 1..12.
        """
        return await self._one(
            "compute.transfer.month",
            TransferMonth,
            {"computeId": instance_id, "year": year, "month": month},
        )

    # -- attached volumes -------------------------------------------------------------------

    @operation("compute.volumes.list")
    async def list_instance_volumes(
        self, instance_id: int, page: int = 1, page_size: int | None = None
    ) -> Page[Volume]:
        """GET /compute/instances/{computeId}/volumes

        Args:
            instance_id: Instance id.
            page: Page number, 1-based.
            page_size: Items per page (25..500).
        """
        return await self._page(
            "compute.volumes.list", _instance(instance_id), page=page, page_size=page_size
        )

    @operation("compute.volumes.list")
    def iter_instance_volumes(self, instance_id: int) -> AsyncIterator[Page[Volume]]:
        """GET /compute/instances/{computeId}/volumes

        Every page, fetched concurrently, yielded in order.

        Args:
            instance_id: Instance id.
        """
        return self._iter("compute.volumes.list", _instance(instance_id))

    @operation("compute.volumes.list")
    async def all_instance_volumes(self, instance_id: int) -> list[Volume]:
        """GET /compute/instances/{computeId}/volumes

        Every volume attached to the instance.

        Args:
            instance_id: Instance id.
        """
        return await self._all("compute.volumes.list", _instance(instance_id))

    # -- kernels ----------------------------------------------------------------------------

    @operation("compute.kernels.list")
    async def list_kernels(self, page: int = 1, page_size: int | None = None) -> Page[Kernel]:
        """GET /compute/kernels

        No token needed.

        Args:
            page: Page number, 1-based.
            page_size: Items per page (25..500).
        """
        return await self._page("compute.kernels.list", page=page, page_size=page_size)

    @operation("compute.kernels.list")
    def iter_kernels(self) -> AsyncIterator[Page[Kernel]]:
        """GET /compute/kernels

        Every page, fetched concurrently, yielded in order.
        """
        return self._iter("compute.kernels.list")

    @operation("compute.kernels.list")
    async def all_kernels(self) -> list[Kernel]:
        """GET /compute/kernels

        Every kernel.
        """
        return await self._all("compute.kernels.list")

    @operation("compute.kernels.view")
    async def get_kernel(self, kernel_id: str) -> Kernel:
        """GET /compute/kernels/{kernelId}

        Args:
            kernel_id: Kernel id with its slash, for example ``compute/latest-64bit``.
        """
        return await self._one("compute.kernels.view", Kernel, {"kernelId": kernel_id})

    # -- regions and types ------------------------------------------------------------------

    @operation("compute.regions.list")
    async def list_regions(self, page: int = 1, page_size: int | None = None) -> Page[Region]:
        """GET /regions

        No token needed.

        Args:
            page: Page number, 1-based.
            page_size: Items per page (25..500).
        """
        return await self._page("compute.regions.list", page=page, page_size=page_size)

    @operation("compute.regions.list")
    def iter_regions(self) -> AsyncIterator[Page[Region]]:
        """GET /regions

        Every page, fetched concurrently, yielded in order.
        """
        return self._iter("compute.regions.list")

    @operation("compute.regions.list")
    async def all_regions(self) -> list[Region]:
        """GET /regions

        Every region.
        """
        return await self._all("compute.regions.list")

    @operation("compute.types.list")
    async def list_types(self, page: int = 1, page_size: int | None = None) -> Page[InstanceType]:
        """GET /compute/types

        No token needed.

        Args:
            page: Page number, 1-based.
            page_size: Items per page (25..500).
        """
        return await self._page("compute.types.list", page=page, page_size=page_size)

    @operation("compute.types.list")
    def iter_types(self) -> AsyncIterator[Page[InstanceType]]:
        """GET /compute/types

        Every page, fetched concurrently, yielded in order.
        """
        return self._iter("compute.types.list")

    @operation("compute.types.list")
    async def all_types(self) -> list[InstanceType]:
        """GET /compute/types

        Every instance type.
        """
        return await self._all("compute.types.list")
