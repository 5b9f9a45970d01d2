"""Managed support: contacts, credentials, SSH key, issues, compute settings, services, stats.

Every operation requires an unrestricted user; a restricted one gets 403 (:class:`Forbidden`).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from tui.api.pagination import Page
from tui.api.services.base import Service, operation
from tui.models.managed import (
    ComputeSettings,
    ComputeSettingsUpdate,
    Contact,
    ContactCreate,
    ContactUpdate,
    CredentialCreate,
    CredentialSecretUpdate,
    CredentialUpdate,
    ManagedCredential,
    ManagedIssue,
    ManagedStats,
    ServiceCreate,
    ServiceUpdate,
    SshKey,
    SshSettingsUpdate,
)
from tui.models.managed import ManagedService as MonitoredService


class ManagedService(Service):
    """Typed access to the managed-support endpoints."""

    # -- contacts ---------------------------------------------------------------------------

    @operation("managed.contacts.list")
    async def list_contacts(self, page: int = 1, page_size: int | None = None) -> Page[Contact]:
        """GET /managed/contacts

        Args:
            page: Page number, 1-based.
            page_size: Items per page (25..100).
        """
        return await self._page("managed.contacts.list", page=page, page_size=page_size)

    @operation("managed.contacts.list")
    def iter_contacts(self) -> AsyncIterator[Page[Contact]]:
        """GET /managed/contacts

        Every page, fetched concurrently, yielded in order.
        """
        return self._iter("managed.contacts.list")

    @operation("managed.contacts.list")
    async def all_contacts(self) -> list[Contact]:
        """GET /managed/contacts

        Every contact, all pages.
        """
        return await self._all("managed.contacts.list")

    @operation("managed.contacts.create")
    async def create_contact(self, body: ContactCreate | None = None, **fields: Any) -> Contact:
        """POST /managed/contacts

        Args:
            body: The contact; or pass its fields as keyword arguments.
            **fields: Fields of :class:`ContactCreate` when ``body`` is None.
        """
        request = body if body is not None else ContactCreate(**fields)
        return await self._one("managed.contacts.create", Contact, body=request)

    @operation("managed.contacts.view")
    async def get_contact(self, contact_id: int) -> Contact:
        """GET /managed/contacts/{contactId}

        Args:
            contact_id: Contact id.
        """
        return await self._one("managed.contacts.view", Contact, {"contactId": contact_id})

    @operation("managed.contacts.update")
    async def update_contact(
        self, contact_id: int, body: ContactUpdate | None = None, **fields: Any
    ) -> Contact:
        """PUT /managed/contacts/{contactId}

        Args:
            contact_id: Contact id.
            body: The changes; or pass them as keyword arguments.
            **fields: Fields of :class:`ContactUpdate` when ``body`` is None.
        """
        request = body if body is not None else ContactUpdate(**fields)
        return await self._one(
            "managed.contacts.update", Contact, {"contactId": contact_id}, body=request
        )

    @operation("managed.contacts.delete")
    async def delete_contact(self, contact_id: int) -> None:
        """DELETE /managed/contacts/{contactId}

        Args:
            contact_id: Contact id.
        """
        await self._call("managed.contacts.delete", {"contactId": contact_id})

    # -- credentials ------------------------------------------------------------------------

    @operation("managed.credentials.list")
    async def list_credentials(
        self, page: int = 1, page_size: int | None = None
    ) -> Page[ManagedCredential]:
        """GET /managed/credentials

        Args:
            page: Page number, 1-based.
            page_size: Items per page (25..100).
        """
        return await self._page("managed.credentials.list", page=page, page_size=page_size)

    @operation("managed.credentials.list")
    def iter_credentials(self) -> AsyncIterator[Page[ManagedCredential]]:
        """GET /managed/credentials

        Every page, fetched concurrently, yielded in order.
        """
        return self._iter("managed.credentials.list")

    @operation("managed.credentials.list")
    async def all_credentials(self) -> list[ManagedCredential]:
        """GET /managed/credentials

        Every credential, all pages.
        """
        return await self._all("managed.credentials.list")

    @operation("managed.credentials.create")
    async def create_credential(
        self, body: CredentialCreate | None = None, **fields: Any
    ) -> ManagedCredential:
        """POST /managed/credentials

        The password is sent once and never returned.

        Args:
            body: The credential; or pass ``label``, ``password``, ``username``.
            **fields: Fields of :class:`CredentialCreate` when ``body`` is None.
        """
        request = body if body is not None else CredentialCreate(**fields)
        return await self._one("managed.credentials.create", ManagedCredential, body=request)

    @operation("managed.credentials.sshkey")
    async def get_ssh_key(self) -> SshKey:
        """GET /managed/credentials/sshkey

        The public key support uses to log in to your instances.
        """
        return await self._one("managed.credentials.sshkey", SshKey)

    @operation("managed.credentials.view")
    async def get_credential(self, credential_id: int) -> ManagedCredential:
        """GET /managed/credentials/{credentialId}

        Args:
            credential_id: Credential id.
        """
        return await self._one(
            "managed.credentials.view", ManagedCredential, {"credentialId": credential_id}
        )

    @operation("managed.credentials.update")
    async def update_credential(self, credential_id: int, label: str) -> ManagedCredential:
        """PUT /managed/credentials/{credentialId}

        Only the label changes here; see :meth:`update_credential_secret`.

        Args:
            credential_id: Credential id.
            label: New label.
        """
        return await self._one(
            "managed.credentials.update",
            ManagedCredential,
            {"credentialId": credential_id},
            body=CredentialUpdate(label=label),
        )

    @operation("managed.credentials.revoke")
    async def revoke_credential(self, credential_id: int) -> None:
        """POST /managed/credentials/{credentialId}/revoke

        Deletes the credential.

        Args:
            credential_id: Credential id.
        """
        await self._call("managed.credentials.revoke", {"credentialId": credential_id})

    @operation("managed.credentials.update_secret")
    async def update_credential_secret(
        self, credential_id: int, body: CredentialSecretUpdate | None = None, **fields: Any
    ) -> None:
        """POST /managed/credentials/{credentialId}/update

        Args:
            credential_id: Credential id.
            body: The new secret; or pass ``password`` (and ``username``).
            **fields: Fields of :class:`CredentialSecretUpdate` when ``body`` is None.
        """
        request = body if body is not None else CredentialSecretUpdate(**fields)
        await self._call(
            "managed.credentials.update_secret", {"credentialId": credential_id}, body=request
        )

    # -- issues -----------------------------------------------------------------------------

    @operation("managed.issues.list")
    async def list_issues(self, page: int = 1, page_size: int | None = None) -> Page[ManagedIssue]:
        """GET /managed/issues

        Args:
            page: Page number, 1-based.
            page_size: Items per page (25..100).
        """
        return await self._page("managed.issues.list", page=page, page_size=page_size)

    @operation("managed.issues.list")
    def iter_issues(self) -> AsyncIterator[Page[ManagedIssue]]:
        """GET /managed/issues

        Every page, fetched concurrently, yielded in order.
        """
        return self._iter("managed.issues.list")

    @operation("managed.issues.view")
    async def get_issue(self, issue_id: int) -> ManagedIssue:
        """GET /managed/issues/{issueId}

        Args:
            issue_id: Issue id.
        """
        return await self._one("managed.issues.view", ManagedIssue, {"issueId": issue_id})

    # -- compute settings -------------------------------------------------------------------

    @operation("managed.compute_settings.list")
    async def list_compute_settings(
        self, page: int = 1, page_size: int | None = None
    ) -> Page[ComputeSettings]:
        """GET /managed/compute-settings

        One entry per instance.

        Args:
            page: Page number, 1-based.
            page_size: Items per page (25..100).
        """
        return await self._page("managed.compute_settings.list", page=page, page_size=page_size)

    @operation("managed.compute_settings.list")
    def iter_compute_settings(self) -> AsyncIterator[Page[ComputeSettings]]:
        """GET /managed/compute-settings

        Every page, fetched concurrently, yielded in order.
        """
        return self._iter("managed.compute_settings.list")

    @operation("managed.compute_settings.view")
    async def get_compute_settings(self, compute_id: int) -> ComputeSettings:
        """GET /managed/compute-settings/{computeId}

        Args:
            compute_id: Instance id.
        """
        return await self._one(
            "managed.compute_settings.view", ComputeSettings, {"computeId": compute_id}
        )

    @operation("managed.compute_settings.update")
    async def update_compute_settings(
        self,
        compute_id: int,
        body: ComputeSettingsUpdate | None = None,
        **ssh: Any,
    ) -> ComputeSettings:
        """PUT /managed/compute-settings/{computeId}

        Args:
            compute_id: Instance id.
            body: The request; or pass the ``ssh`` fields (``access``, ``ip``, ``port``,
                ``user``) as keyword arguments.
            **ssh: Fields of :class:`SshSettingsUpdate` when ``body`` is None.
        """
        request = body if body is not None else ComputeSettingsUpdate(ssh=SshSettingsUpdate(**ssh))
        return await self._one(
            "managed.compute_settings.update",
            ComputeSettings,
            {"computeId": compute_id},
            body=request,
        )

    # -- services ---------------------------------------------------------------------------

    @operation("managed.services.list")
    async def list_services(
        self, page: int = 1, page_size: int | None = None
    ) -> Page[MonitoredService]:
        """GET /managed/services

        Args:
            page: Page number, 1-based.
            page_size: Items per page (25..100).
        """
        return await self._page("managed.services.list", page=page, page_size=page_size)

    @operation("managed.services.list")
    def iter_services(self) -> AsyncIterator[Page[MonitoredService]]:
        """GET /managed/services

        Every page, fetched concurrently, yielded in order.
        """
        return self._iter("managed.services.list")

    @operation("managed.services.list")
    async def all_services(self) -> list[MonitoredService]:
        """GET /managed/services

        Every monitored service, all pages.
        """
        return await self._all("managed.services.list")

    @operation("managed.services.create")
    async def create_service(
        self, body: ServiceCreate | None = None, **fields: Any
    ) -> MonitoredService:
        """POST /managed/services

        Monitoring begins: the service is ``pending`` until its first check.

        Args:
            body: The service; or pass its fields as keyword arguments.
            **fields: Fields of :class:`ServiceCreate` when ``body`` is None.
        """
        request = body if body is not None else ServiceCreate(**fields)
        return await self._one("managed.services.create", MonitoredService, body=request)

    @operation("managed.services.view")
    async def get_service(self, service_id: int) -> MonitoredService:
        """GET /managed/services/{serviceId}

        Args:
            service_id: Service id.
        """
        return await self._one("managed.services.view", MonitoredService, {"serviceId": service_id})

    @operation("managed.services.update")
    async def update_service(
        self, service_id: int, body: ServiceUpdate | None = None, **fields: Any
    ) -> MonitoredService:
        """PUT /managed/services/{serviceId}

        Args:
            service_id: Service id.
            body: The changes; or pass them as keyword arguments.
            **fields: Fields of :class:`ServiceUpdate` when ``body`` is None.
        """
        request = body if body is not None else ServiceUpdate(**fields)
        return await self._one(
            "managed.services.update", MonitoredService, {"serviceId": service_id}, body=request
        )

    @operation("managed.services.delete")
    async def delete_service(self, service_id: int) -> None:
        """DELETE /managed/services/{serviceId}

        Monitoring stops.

        Args:
            service_id: Service id.
        """
        await self._call("managed.services.delete", {"serviceId": service_id})

    @operation("managed.services.disable")
    async def disable_service(self, service_id: int) -> MonitoredService:
        """POST /managed/services/{serviceId}/disable

        Args:
            service_id: Service id.
        """
        return await self._one(
            "managed.services.disable", MonitoredService, {"serviceId": service_id}
        )

    @operation("managed.services.enable")
    async def enable_service(self, service_id: int) -> MonitoredService:
        """POST /managed/services/{serviceId}/enable

        Args:
            service_id: Service id.
        """
        return await self._one(
            "managed.services.enable", MonitoredService, {"serviceId": service_id}
        )

    # -- stats ------------------------------------------------------------------------------

    @operation("managed.stats")
    async def get_stats(self) -> ManagedStats:
        """GET /managed/stats

        The last 24 hours of combined usage as x (epoch ms) / y points.
        """
        return await self._one("managed.stats", ManagedStats)
