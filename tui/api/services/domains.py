"""DNS domains: zones, their records, clones, imports by zone transfer, rendered zone files."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from tui.api.pagination import Page
from tui.api.services.base import Service, operation
from tui.models.domains import (
    Domain,
    DomainClone,
    DomainCreate,
    DomainImport,
    DomainRecord,
    DomainUpdate,
    RecordCreate,
    RecordUpdate,
    ZoneFile,
)


class DomainsService(Service):
    """Typed access to the domain endpoints."""

    # -- domains ----------------------------------------------------------------------------

    @operation("domains.list")
    async def list_domains(self, page: int = 1, page_size: int | None = None) -> Page[Domain]:
        """GET /domains

        Args:
            page: Page number, 1-based.
            page_size: Items per page (25..100).
        """
        return await self._page("domains.list", page=page, page_size=page_size)

    @operation("domains.list")
    def iter_domains(self) -> AsyncIterator[Page[Domain]]:
        """GET /domains

        Every page, fetched concurrently, yielded in order.
        """
        return self._iter("domains.list")

    @operation("domains.list")
    async def all_domains(self) -> list[Domain]:
        """GET /domains

        Every domain, all pages.
        """
        return await self._all("domains.list")

    @operation("domains.create")
    async def create_domain(self, body: DomainCreate | None = None, **fields: Any) -> Domain:
        """POST /domains

        A ``master`` zone needs ``soa_email``; a ``slave`` zone needs ``master_ips``.

        Args:
            body: The request; or pass its fields as keyword arguments.
            **fields: Fields of :class:`DomainCreate` when ``body`` is None.
        """
        request = body if body is not None else DomainCreate(**fields)
        return await self._one("domains.create", Domain, body=request)

    @operation("domains.import")
    async def import_domain(self, body: DomainImport | None = None, **fields: Any) -> Domain:
        """POST /domains/import

        Copies a zone by transfer (AXFR) from a nameserver that allows it.

        Args:
            body: The request; or pass ``domain`` and ``remote_nameserver`` as keywords.
            **fields: Fields of :class:`DomainImport` when ``body`` is None.
        """
        request = body if body is not None else DomainImport(**fields)
        return await self._one("domains.import", Domain, body=request)

    @operation("domains.view")
    async def get_domain(self, domain_id: int) -> Domain:
        """GET /domains/{domainId}

        Args:
            domain_id: Domain id.
        """
        return await self._one("domains.view", Domain, {"domainId": domain_id})

    @operation("domains.update")
    async def update_domain(
        self, domain_id: int, body: DomainUpdate | None = None, **fields: Any
    ) -> Domain:
        """PUT /domains/{domainId}

        Args:
            domain_id: Domain id.
            body: The changes; or pass them as keyword arguments.
            **fields: Fields of :class:`DomainUpdate` when ``body`` is None.
        """
        request = body if body is not None else DomainUpdate(**fields)
        return await self._one("domains.update", Domain, {"domainId": domain_id}, body=request)

    @operation("domains.delete")
    async def delete_domain(self, domain_id: int) -> None:
        """DELETE /domains/{domainId}

        Removes the domain and all its records (irreversible).

        Args:
            domain_id: Domain id.
        """
        await self._call("domains.delete", {"domainId": domain_id})

    @operation("domains.clone")
    async def clone_domain(self, domain_id: int | str, domain: str) -> Domain:
        """POST /domains/{domainId}/clone

        Copies the zone's settings and records to a new zone.

        Args:
            domain_id: Source domain id.
            domain: Name of the new zone.
        """
        return await self._one(
            "domains.clone", Domain, {"domainId": domain_id}, body=DomainClone(domain=domain)
        )

    # -- records ----------------------------------------------------------------------------

    @operation("domains.records.list")
    async def list_records(
        self, domain_id: int, page: int = 1, page_size: int | None = None
    ) -> Page[DomainRecord]:
        """GET /domains/{domainId}/records

        Args:
            domain_id: Domain id.
            page: Page number, 1-based.
            page_size: Items per page (25..100).
        """
        return await self._page(
            "domains.records.list", {"domainId": domain_id}, page=page, page_size=page_size
        )

    @operation("domains.records.list")
    def iter_records(self, domain_id: int) -> AsyncIterator[Page[DomainRecord]]:
        """GET /domains/{domainId}/records

        Every page, fetched concurrently, yielded in order.

        Args:
            domain_id: Domain id.
        """
        return self._iter("domains.records.list", {"domainId": domain_id})

    @operation("domains.records.list")
    async def all_records(self, domain_id: int) -> list[DomainRecord]:
        """GET /domains/{domainId}/records

        Every record of the domain, all pages.

        Args:
            domain_id: Domain id.
        """
        return await self._all("domains.records.list", {"domainId": domain_id})

    @operation("domains.records.create")
    async def create_record(
        self, domain_id: int, body: RecordCreate | None = None, **fields: Any
    ) -> DomainRecord:
        """POST /domains/{domainId}/records

        Args:
            domain_id: Domain id.
            body: The request; or pass its fields as keyword arguments (``type`` required).
            **fields: Fields of :class:`RecordCreate` when ``body`` is None.
        """
        request = body if body is not None else RecordCreate(**fields)
        return await self._one(
            "domains.records.create", DomainRecord, {"domainId": domain_id}, body=request
        )

    @operation("domains.records.view")
    async def get_record(self, domain_id: int, record_id: int) -> DomainRecord:
        """GET /domains/{domainId}/records/{recordId}

        Args:
            domain_id: Domain id.
            record_id: Record id.
        """
        return await self._one(
            "domains.records.view",
            DomainRecord,
            {"domainId": domain_id, "recordId": record_id},
        )

    @operation("domains.records.update")
    async def update_record(
        self, domain_id: int, record_id: int, body: RecordUpdate | None = None, **fields: Any
    ) -> DomainRecord:
        """PUT /domains/{domainId}/records/{recordId}

        The record's type cannot change.

        Args:
            domain_id: Domain id.
            record_id: Record id.
            body: The changes; or pass them as keyword arguments.
            **fields: Fields of :class:`RecordUpdate` when ``body`` is None.
        """
        request = body if body is not None else RecordUpdate(**fields)
        return await self._one(
            "domains.records.update",
            DomainRecord,
            {"domainId": domain_id, "recordId": record_id},
            body=request,
        )

    @operation("domains.records.delete")
    async def delete_record(self, domain_id: int, record_id: int) -> None:
        """DELETE /domains/{domainId}/records/{recordId}

        Args:
            domain_id: Domain id.
            record_id: Record id.
        """
        await self._call("domains.records.delete", {"domainId": domain_id, "recordId": record_id})

    # -- zone file --------------------------------------------------------------------------

    @operation("domains.zone_file")
    async def get_zone_file(self, domain_id: int | str) -> ZoneFile:
        """GET /domains/{domainId}/zone-file

        The last rendered zone file, one line per entry.

        Args:
            domain_id: Domain id.
        """
        return await self._one("domains.zone_file", ZoneFile, {"domainId": domain_id})
