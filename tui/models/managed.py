"""Managed support: contacts, credentials, issues, compute settings, monitored services, stats.

Every managed-support operation requires an unrestricted user. Response models are tolerant;
request models carry the reference's limits. Passwords are :class:`~pydantic.SecretStr` and are
never part of any response.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Mapping
from typing import Annotated, Any, ClassVar, Literal
from urllib.parse import urlsplit

from pydantic import Field, StringConstraints, field_validator, model_validator

from tui.models.base import ApiModel, Password, RequestModel
from tui.models.rules import When, suggested

EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
"""Minimal email shape (something@host.tld); the server has the final word."""

PHONE = re.compile(r"^\+?[0-9 ().\-]{7,25}$")
"""An optional ``+``, then digits, spaces, dots, dashes and parentheses."""

PHONE_DIGITS_MIN, PHONE_DIGITS_MAX = 7, 15
"""A phone number carries 7 to 15 digits (E.164 allows at most 15)."""

SERVICE_TYPES = ("url", "tcp")
"""How a monitored service is checked: an HTTP(S) request or a TCP connection."""

PRIVATE_NETWORKS = tuple(
    ipaddress.ip_network(n) for n in ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7")
)
"""Private address space (RFC 1918 and IPv6 unique local)."""


def is_phone(text: str) -> bool:
    """True when ``text`` looks like a phone number (see :data:`PHONE`)."""
    digits = sum(ch.isdigit() for ch in text)
    return bool(PHONE.match(text)) and PHONE_DIGITS_MIN <= digits <= PHONE_DIGITS_MAX


def address_host(address: str) -> str | None:
    """The host of a service address: of the URL, or of ``host:port`` for ``tcp``.

    Args:
        address: The service address.

    Returns:
        The host (IPv6 without brackets), or None when it cannot be found.
    """
    text = address.strip()
    if "://" not in text:
        # ``host:port`` (tcp services); a url without a scheme is refused elsewhere anyway.
        text = "tcp://" + text
    try:
        return urlsplit(text).hostname
    except ValueError:
        return None


def is_private_address(address: str) -> bool:
    """True when the address's host is a private IP (the service then needs a region)."""
    host = address_host(address)
    if host is None:
        return False
    try:
        addr = ipaddress.ip_address(host)
    except ValueError:
        return False
    return any(addr in net for net in PRIVATE_NETWORKS if net.version == addr.version)


def service_address_problem(service_type: str, address: str) -> str:
    """What is wrong with ``address`` for a ``url`` or ``tcp`` service ('' when nothing).

    Spec, Service: ``address`` is a URL (``service_type`` url: an HTTP(S) request); a tcp
    service is checked by a connection, so its address is ``host:port``.
    """
    text = address.strip()
    if service_type == "url":
        if not text.lower().startswith(("http://", "https://")):
            return "a url service's address starts with http:// or https://"
        try:
            host = urlsplit(text).hostname
        except ValueError:
            host = None
        return "" if host else "the URL has no host"
    if service_type == "tcp":
        if "://" in text:
            return "a tcp service's address is host:port, without a scheme"
        try:
            parts = urlsplit("tcp://" + text)
            port = parts.port
        except ValueError:
            return "a tcp service's address is host:port with a port 1 to 65535"
        if not parts.hostname or port is None or not 1 <= port <= 65535:
            return "a tcp service's address is host:port with a port 1 to 65535"
    return ""


SERVICE_RULES: Mapping[str, When] = {
    "address": When(
        "service_type",
        ("url", "tcp"),
        notes={
            "url": "http(s):// URL, such as https://shop.example.com/health",
            "tcp": "host:port, such as db.example.com:5432",
        },
    ),
    "expected_body": When(
        "service_type",
        ("url", "tcp"),
        notes={"url": "text expected in the page", "tcp": "text expected in the answer"},
    ),
}
"""Hints that follow the service type (the address's format differs)."""


# -- responses ------------------------------------------------------------------------------


class ContactPhone(ApiModel):
    """A contact's phone numbers."""

    primary: str | None = None
    """Primary phone number."""
    secondary: str | None = None
    """Secondary phone number."""


class Contact(ApiModel):
    """Someone support contacts when a monitored service fails."""

    id: int | None = None
    """Contact id."""
    name: str | None = None
    """Name, 2..64 characters."""
    email: str | None = None
    """Email address."""
    group: str | None = None
    """Contact group, 2..50 characters (services name a consultation group)."""
    phone: ContactPhone | None = None
    """Phone numbers."""
    updated: str | None = None
    """Last change (UTC)."""


class ManagedCredential(ApiModel):
    """A login support may use; its username and password are never shown."""

    id: int | None = None
    """Credential id."""
    label: str | None = None
    """Label, 2..75 characters, unique."""
    last_decrypted: str | None = None
    """When support last used it (UTC), or None."""


class SshKey(ApiModel):
    """The public key support logs in with (add it to ``authorized_keys``)."""

    ssh_key: str | None = None
    """OpenSSH public key line."""


class IssueEntity(ApiModel):
    """What an issue is about (a support ticket)."""

    id: int | None = None
    """Entity id."""
    label: str | None = None
    """Entity label."""
    type: str | None = None
    """Entity kind, for example ``ticket``."""
    url: str | None = None
    """API path of the entity."""


class IssueTicket(ApiModel):
    """The support ticket opened for an issue."""

    id: int | None = None
    """Ticket id."""
    opened: str | None = None
    """When the ticket was opened (UTC)."""
    summary: str | None = None
    """Ticket summary."""


class ManagedIssue(ApiModel):
    """A problem support detected on monitored services (read-only)."""

    id: int | None = None
    """Issue id."""
    created: str | None = None
    """When the issue was detected (UTC)."""
    entity: IssueEntity | None = None
    """What the issue is about."""
    services: list[int] = Field(default_factory=list)
    """Ids of the monitored services involved."""
    ticket: IssueTicket | None = None
    """The support ticket."""


class SshSettings(ApiModel):
    """How support reaches an instance over SSH."""

    access: bool | None = None
    """Whether support may log in."""
    ip: str | None = None
    """Address to connect to, or ``any``."""
    port: int | None = None
    """Port; None means 22."""
    user: str | None = None
    """User; None means root."""


class ComputeSettings(ApiModel):
    """Managed-support settings of one instance (id = instance id)."""

    id: int | None = None
    """Instance id."""
    label: str | None = None
    """Instance label."""
    group: str | None = None
    """Instance group."""
    ssh: SshSettings | None = None
    """SSH access for support."""


class ManagedService(ApiModel):
    """A monitored service."""

    id: int | None = None
    """Service id."""
    label: str | None = None
    """Label, 3..64 characters."""
    status: str | None = None
    """``pending``, ``ok``, ``problem``, ``disabled`` (open set)."""
    service_type: str | None = None
    """``url`` or ``tcp``."""
    address: str | None = None
    """URL (query kept, fragment dropped) or ``host:port``."""
    body: str | None = None
    """Text expected in the response."""
    timeout: int | None = None
    """Seconds to wait for an answer."""
    region: str | None = None
    """Region of a private-IP address."""
    consultation_group: str | None = None
    """Contact group to consult."""
    credentials: list[int] = Field(default_factory=list)
    """Ids of credentials support may use."""
    notes: str | None = None
    """Notes for support."""
    created: str | None = None
    """Creation time (UTC)."""
    updated: str | None = None
    """Last change (UTC)."""


class StatsPoint(ApiModel):
    """One point of a statistics series."""

    x: float | None = None
    """Time, epoch milliseconds."""
    y: float | None = None
    """Value."""


class StatsData(ApiModel):
    """Combined usage of managed instances over the last 24 hours."""

    cpu: list[StatsPoint] = Field(default_factory=list)
    """CPU use, percent."""
    disk: list[StatsPoint] = Field(default_factory=list)
    """Disk I/O, blocks per second."""
    swap: list[StatsPoint] = Field(default_factory=list)
    """Swap I/O, blocks per second."""
    net_in: list[StatsPoint] = Field(default_factory=list)
    """Inbound traffic, bits per second."""
    net_out: list[StatsPoint] = Field(default_factory=list)
    """Outbound traffic, bits per second."""


class ManagedStats(ApiModel):
    """Managed statistics."""

    data: StatsData | None = None
    """The series."""


# -- requests -------------------------------------------------------------------------------

ContactName = Annotated[str, StringConstraints(min_length=2, max_length=64)]
ContactGroup = Annotated[str, StringConstraints(min_length=2, max_length=50)]
Email = Annotated[str, StringConstraints(max_length=128, pattern=EMAIL.pattern)]
CredentialLabel = Annotated[
    str, StringConstraints(min_length=2, max_length=75, pattern=r"^[A-Za-z0-9_ .-]{2,75}$")
]
"""The reference's pattern: ASCII letters, digits, ``-``, ``_``, spaces and periods."""
CredentialPassword = Annotated[Password, Field(min_length=1)]
CredentialUsername = Annotated[str, StringConstraints(max_length=5000)]
ServiceLabel = Annotated[str, StringConstraints(min_length=3, max_length=64)]
ServiceAddress = Annotated[str, StringConstraints(min_length=3, max_length=100)]
ServiceTimeout = Annotated[int, Field(ge=1, le=255)]
ExpectedBody = Annotated[str, StringConstraints(max_length=100)]
"""Named ``expected_body`` in the request models (``body`` is their JSON method), sent as
``body``."""


class PhoneUpdate(RequestModel):
    """A contact's phone numbers."""

    primary: str | None = None
    """Primary phone number, for example ``+1 215-555-0123`` (7 to 15 digits)."""
    secondary: str | None = None
    """Secondary phone number (7 to 15 digits)."""

    @field_validator("primary", "secondary")
    @classmethod
    def _phone_shape(cls, value: str | None) -> str | None:
        if value is not None and not is_phone(value):
            raise ValueError("not a valid phone number")
        return value


class ContactCreate(RequestModel):
    """A new contact."""

    never_null: ClassVar[frozenset[str]] = frozenset({"phone"})

    name: ContactName
    """Name, 2 to 64 characters."""
    email: Email
    """Email address."""
    group: ContactGroup | None = Field(None, json_schema_extra=suggested("contact_group"))
    """Contact group, 2 to 50 characters (services name it as consultation group)."""
    phone: PhoneUpdate | None = None
    """Phone numbers."""


class ContactUpdate(RequestModel):
    """Changes to a contact (only the fields you set are sent)."""

    name: ContactName | None = None
    """Name, 2 to 64 characters."""
    email: Email | None = None
    """Email address."""
    group: ContactGroup | None = Field(None, json_schema_extra=suggested("contact_group"))
    """Contact group, 2 to 50 characters; null removes it."""
    phone: PhoneUpdate | None = None
    """Phone numbers to change; null removes both."""

    @model_validator(mode="after")
    def _required_stay_set(self) -> ContactUpdate:
        for name in ("name", "email"):
            if name in self.model_fields_set and getattr(self, name) is None:
                raise ValueError(f"{name} cannot be removed")
        return self


class CredentialCreate(RequestModel):
    """A new credential for support."""

    never_null: ClassVar[frozenset[str]] = frozenset({"username"})

    label: CredentialLabel
    """Label, 2 to 75 ASCII letters, digits, dashes, underscores, spaces or periods, unique
    among your credentials."""
    password: CredentialPassword
    """Password (or passphrase); stored encrypted and never shown again."""
    username: CredentialUsername | None = None
    """Username, at most 5000 characters."""


class CredentialUpdate(RequestModel):
    """Rename a credential (username and password change through their own operation)."""

    label: CredentialLabel
    """New label, 2 to 75 ASCII letters, digits, dashes, underscores, spaces or periods,
    unique among your credentials."""


class CredentialSecretUpdate(RequestModel):
    """Replace a credential's username and password."""

    never_null: ClassVar[frozenset[str]] = frozenset({"username"})

    password: CredentialPassword
    """New password; never shown again."""
    username: CredentialUsername | None = None
    """New username, at most 5000 characters."""


class SshSettingsUpdate(RequestModel):
    """How support reaches an instance over SSH (fields not set stay as they are)."""

    access: bool | None = None
    """Whether support may log in over SSH (default on)."""
    ip: str | None = Field(None, json_schema_extra=suggested("instance_address"))
    """Address support connects to: ``any`` (default) or one of the instance's IPs."""
    port: Annotated[int, Field(ge=1, le=65535)] | None = None
    """Port, 1 to 65535; empty means 22."""
    user: Annotated[str, StringConstraints(max_length=32)] | None = None
    """User to log in as, at most 32 characters; empty means root."""

    @field_validator("ip")
    @classmethod
    def _ip_shape(cls, value: str | None) -> str | None:
        if value is None or value == "any":
            return value
        try:
            ipaddress.ip_address(value)
        except ValueError:
            raise ValueError("must be 'any' or an IP address") from None
        return value


class ComputeSettingsUpdate(RequestModel):
    """Change support's SSH access to an instance."""

    ssh: SshSettingsUpdate
    """SSH access settings."""


def _check_region_rule(address: str | None, region: Any) -> None:
    if address is None:
        return
    private = is_private_address(address)
    if private and region is None:
        raise ValueError("region is required when the address is a private IP")
    if not private and region is not None:
        raise ValueError("region is only allowed when the address is a private IP")


SERVICE_CHOICES: Mapping[str, str] = {
    "credentials": "managed_credentials",
    "consultation_group": "consultation_group",
}
"""A service's credentials and contact group are chosen among the account's, never typed."""


class ServiceCreate(RequestModel):
    """A new monitored service; monitoring begins at once."""

    choices_from: ClassVar[Mapping[str, str]] = SERVICE_CHOICES
    required_when: ClassVar[Mapping[str, str]] = {"region": "required for a private address"}
    shown_when: ClassVar[Mapping[str, When]] = SERVICE_RULES

    label: ServiceLabel
    """Label, 3 to 64 characters."""
    service_type: Literal["url", "tcp"]
    """``url``: an HTTP(S) request to the address; ``tcp``: a connection to ``host:port``."""
    address: ServiceAddress
    """URL (query parameters kept, fragment dropped) or ``host:port`` for tcp; 3 to 100
    characters."""
    timeout: ServiceTimeout
    """Seconds to wait for an answer, 1 to 255."""
    expected_body: ExpectedBody | None = Field(default=None, alias="body")
    """Text expected in the response, at most 100 characters (sent as ``body``)."""
    consultation_group: Annotated[str, StringConstraints(max_length=50)] | None = None
    """Contact group support consults, at most 50 characters."""
    credentials: list[int] | None = None
    """Credentials support may use for this service (sent as their ids)."""
    notes: str | None = None
    """Notes for support."""
    region: str | None = None
    """Region id; required when the address is a private IP, not allowed otherwise."""

    @model_validator(mode="after")
    def _region_for_private_ip(self) -> ServiceCreate:
        problem = service_address_problem(self.service_type, self.address)
        if problem:
            raise ValueError(f"address: {problem}")
        _check_region_rule(self.address, self.region)
        return self


class ServiceUpdate(RequestModel):
    """Changes to a monitored service (the server checks the merged result)."""

    choices_from: ClassVar[Mapping[str, str]] = SERVICE_CHOICES

    label: ServiceLabel | None = None
    """Label, 3 to 64 characters."""
    service_type: Literal["url", "tcp"] | None = None
    """``url`` or ``tcp``."""
    address: ServiceAddress | None = None
    """URL or ``host:port``; 3 to 100 characters."""
    timeout: ServiceTimeout | None = None
    """Seconds to wait for an answer, 1 to 255."""
    expected_body: ExpectedBody | None = Field(default=None, alias="body")
    """Text expected in the response, at most 100 characters (sent as ``body``); null removes
    it."""
    consultation_group: Annotated[str, StringConstraints(max_length=50)] | None = None
    """Contact group support consults, at most 50 characters."""
    credentials: list[int] | None = None
    """Credentials support may use (sent as their ids; replaces the list)."""
    notes: str | None = None
    """Notes for support; null removes them."""
    region: str | None = None
    """Region id; required when the address is a private IP, not allowed otherwise."""

    @model_validator(mode="after")
    def _region_for_private_ip(self) -> ServiceUpdate:
        # Only decidable here when both travel together; otherwise the server merges first.
        if "address" in self.model_fields_set and "region" in self.model_fields_set:
            _check_region_rule(self.address, self.region)
        return self
