"""DNS domains (zones), their records and rendered zone files.

The response models (:class:`Domain`, :class:`DomainRecord`, :class:`ZoneFile`) are tolerant. The
request models carry the reference's limits and the rules a form can judge before sending:
:class:`DomainCreate` (a ``master`` zone needs ``soa_email``, a ``slave`` zone ``master_ips``),
:class:`DomainImport`, :class:`DomainUpdate`, :class:`DomainClone`, and :class:`RecordCreate`
with its per-type rules. Rules that need the zone's current state (unique names, the Null MX
rule, CNAME clashes) are the server's; its errors name the same fields.

Cross-field problems are reported on the field concerned (``loc == (field,)``), so a form can show
them next to the right input.
"""

from __future__ import annotations

import ipaddress
import re
import typing
from collections.abc import Mapping
from typing import Annotated, Any, ClassVar, Literal
from urllib.parse import urlparse

from pydantic import Field, StringConstraints, ValidationError, field_validator, model_validator
from pydantic_core import InitErrorDetails, PydanticCustomError

from tui.models.base import ApiModel, RequestModel
from tui.models.rules import When, offered, suggested

DOMAIN_MAX = 255
LABEL_MAX = 63
DESCRIPTION_MAX = 255
GROUP_MAX = 50
RECORD_NAME_MAX = 100
IP_LIST_CHARS_MAX = 1000
"""Longest combined length of ``master_ips`` (and, separately, ``axfr_ips``): the characters of
all addresses added up."""

ZONE_SECONDS = (
    0,
    300,
    3600,
    7200,
    14400,
    28800,
    57600,
    86400,
    172800,
    345600,
    604800,
    1209600,
    2419200,
)
"""Valid ``expire_sec``, ``refresh_sec``, ``retry_sec`` and ``ttl_sec`` of a domain; the server
rounds any other value up to the next one."""
RECORD_TTLS = ZONE_SECONDS[1:]
"""Valid record ``ttl_sec`` values; the server rounds any other value to the nearest one."""
ZONE_SECONDS_MAX = ZONE_SECONDS[-1]

_SPANS = (("week", 604800), ("day", 86400), ("hour", 3600), ("minute", 60))


def span_text(seconds: int) -> str:
    """``seconds`` in the largest unit that divides it: ``2 hours``, ``1 week``."""
    for unit, size in _SPANS:
        if seconds and seconds % size == 0:
            count = seconds // size
            return f"{count} {unit}{'s' if count != 1 else ''}"
    return f"{seconds} seconds"


def seconds_choices(values: tuple[int, ...], default: int | None = None) -> list[tuple[str, int]]:
    """The drop-down of valid seconds: ``3600 (1 hour)``; 0 reads as the ``default`` it means.

    Args:
        values: The valid values, 0 first if it is one.
        default: What 0 stands for (the server's default of the field).
    """
    return [
        (
            f"0: default, {default} ({span_text(default)})"
            if v == 0 and default
            else f"{v} ({span_text(v)})",
            v,
        )
        for v in values
    ]


def zone_seconds(default: int) -> Any:
    """A zone's seconds field (``ttl_sec`` ...): any value up to the largest valid one is
    taken (the server rounds it up), the form offers the valid ones, 0 meaning ``default``."""
    return Field(None, json_schema_extra=offered(seconds_choices(ZONE_SECONDS, default)))


RECORD_TTL_CHOICES = seconds_choices(RECORD_TTLS)
"""A record's TTL drop-down; left unset, the record takes the zone's TTL."""

DomainType = Literal["master", "slave"]
DomainStatus = Literal["active", "disabled"]
RecordType = Literal["A", "AAAA", "NS", "MX", "CNAME", "TXT", "SRV", "PTR", "CAA"]
CaaTag = Literal["issue", "issuewild", "iodef"]

REMOTE_ADDR = "[remote_addr]"
"""Target token of an A record that stands for the caller's own IPv4 address."""

_DNS_LABEL = re.compile(r"(?!-)[A-Za-z0-9-]{1,63}(?<!-)")
"""An RFC 1035 label: letters, digits and hyphens, not beginning or ending with a hyphen."""
_HOST_LABEL = re.compile(r"(?!-)[A-Za-z0-9_-]{1,63}(?<!-)")
"""A label of a record name or target: as RFC 1035, plus ``_`` (``_dmarc``, ``_sip``)."""
_SERVICE = re.compile(r"^_?[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.?$")
"""An SRV service such as ``sip`` or ``xmpp-server``; the leading ``_`` and trailing ``.`` that the
service adds may already be there."""
_PROTOCOL = re.compile(r"^_?[A-Za-z0-9]{1,15}$")
"""An SRV protocol such as ``tcp``, ``udp`` or ``tls``; the leading ``_`` may already be there."""
_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")

DomainName = Annotated[str, StringConstraints(min_length=1, max_length=DOMAIN_MAX)]
Description = Annotated[str, StringConstraints(min_length=1, max_length=DESCRIPTION_MAX)]
Group = Annotated[str, StringConstraints(min_length=1, max_length=GROUP_MAX)]
Email = Annotated[str, StringConstraints(pattern=_EMAIL.pattern)]
ZoneSeconds = Annotated[int, Field(ge=0, le=ZONE_SECONDS_MAX)]
RecordName = Annotated[str, StringConstraints(max_length=RECORD_NAME_MAX)]
Priority = Annotated[int, Field(ge=0, le=255)]
Port = Annotated[int, Field(ge=0, le=65535)]


# -- pure checks (shared by the validators below) -------------------------------------------


def domain_name_problem(value: str) -> str | None:
    """Why ``value`` is not a valid zone name (None when it is).

    A zone name is two or more RFC 1035 labels of at most 63 characters each, 255 in all; one
    trailing period is accepted. Non-ASCII names are written in punycode (``xn--...``).
    """
    name = value[:-1] if value.endswith(".") else value
    if not name or len(name) > DOMAIN_MAX:
        return f"must be 1 to {DOMAIN_MAX} characters"
    labels = name.split(".")
    if len(labels) < 2:
        return "must have at least two labels, such as example.com"
    for label in labels:
        if len(label) > LABEL_MAX:
            return f"labels must be at most {LABEL_MAX} characters ({label[:20]}...)"
        if not _DNS_LABEL.fullmatch(label):
            return (
                "labels may contain only letters, digits and hyphens, and may not begin or end "
                "with a hyphen (write non-ASCII names in punycode, xn--...)"
            )
    return None


def hostname_problem(value: str, *, min_labels: int = 2) -> str | None:
    """Why ``value`` is not a valid host or domain name for a record target (None when it is).

    One trailing period is accepted. Labels may also hold ``_``.
    """
    name = value[:-1] if value.endswith(".") else value
    if not name or len(name) > DOMAIN_MAX:
        return f"must be a domain name of 1 to {DOMAIN_MAX} characters"
    labels = name.split(".")
    if len(labels) < min_labels:
        return "must be a fully qualified domain name, such as mail.example.com"
    if not all(_HOST_LABEL.fullmatch(label) for label in labels):
        return "must be a valid domain name (letters, digits, hyphens; labels up to 63)"
    return None


def record_name_problem(value: str) -> str | None:
    """Why ``value`` is not a valid record name (None when it is; empty means the zone apex)."""
    if value == "":
        return None
    name = value[:-1] if value.endswith(".") else value
    labels = name.split(".")
    if labels and labels[0] == "*":
        labels = labels[1:]  # a wildcard record
    if not all(_HOST_LABEL.fullmatch(label) for label in labels):
        return "must be a host name: letters, digits, hyphens or underscores, labels up to 63"
    return None


def is_ip(value: str, version: int | None = None) -> bool:
    """True when ``value`` is an IP address (of ``version`` 4 or 6 when given)."""
    try:
        addr = ipaddress.ip_address(value)
    except ValueError:
        return False
    return version is None or addr.version == version


def ip_list_problem(values: list[str]) -> str | None:
    """Why an IP address list is refused (None when fine): bad addresses or too long."""
    bad = [v for v in values if not is_ip(v)]
    if bad:
        return f"must hold only IP addresses (not {', '.join(bad[:3])})"
    total = sum(len(v) for v in values)
    if total > IP_LIST_CHARS_MAX:
        return (
            f"addresses may add up to at most {IP_LIST_CHARS_MAX} characters (these have {total})"
        )
    return None


def caa_value_problem(tag: str, value: str) -> str | None:
    """Why ``value`` is not a valid CAA value for ``tag`` (None when it is)."""
    if value.endswith("."):
        return "a trailing period is not accepted for CAA records"
    if tag == "issue":
        problem = hostname_problem(value)
        return (
            f"must be the issuer's domain, such as letsencrypt.org ({problem})" if problem else None
        )
    if tag == "issuewild":
        if not value.startswith("*.") or hostname_problem(value[2:]):
            return "must begin with *. followed by the issuer's domain, such as *.letsencrypt.org"
        return None
    # iodef: where violation reports go.
    if value.startswith("mailto:"):
        return (
            None if _EMAIL.fullmatch(value[7:]) else "mailto: must be followed by an email address"
        )
    parsed = urlparse(value)
    if parsed.scheme in ("http", "https"):
        return None if parsed.netloc else "must be a complete http or https URL"
    if hostname_problem(value) is None:
        return None
    return "must be a domain, an http or https URL, or a mailto: address"


def _raise(title: str, problems: dict[str, str]) -> None:
    """Raise one ValidationError with each problem located at its field."""
    if problems:
        raise ValidationError.from_exception_data(
            title,
            [
                InitErrorDetails(
                    type=PydanticCustomError("value_error", "{reason}", {"reason": reason}),
                    loc=(field,),
                    input=None,
                )
                for field, reason in problems.items()
            ],
        )


# -- responses ------------------------------------------------------------------------------


class Domain(ApiModel):
    """A DNS zone hosted by the service."""

    id: int | None = None
    """Domain id."""
    domain: str | None = None
    """The zone's name, for example ``example.com``; unique across the whole platform."""
    type: str | None = None
    """``master`` (records kept here) or ``slave`` (copied from master_ips)."""
    status: str | None = None
    """``active`` or ``disabled`` (a disabled zone is not rendered)."""
    description: str | None = None
    """Description."""
    group: str | None = None
    """Group, for display only."""
    soa_email: str | None = None
    """Start-of-authority contact address (required for master zones)."""
    master_ips: list[str] = Field(default_factory=list)
    """Master nameservers a slave zone is copied from."""
    axfr_ips: list[str] = Field(default_factory=list)
    """Addresses allowed to transfer the zone (AXFR)."""
    expire_sec: int | None = None
    """SOA expire time; 0 means 1209600."""
    refresh_sec: int | None = None
    """SOA refresh time; 0 means 14400."""
    retry_sec: int | None = None
    """SOA retry time; 0 means 14400."""
    ttl_sec: int | None = None
    """Default time to live; 0 means 86400."""
    tags: list[str] = Field(default_factory=list)
    """Tags."""
    created: str | None = None
    """Creation time (UTC)."""
    updated: str | None = None
    """Last change (UTC)."""


class DomainRecord(ApiModel):
    """One DNS record of a zone."""

    id: int | None = None
    """Record id."""
    type: str | None = None
    """``A``, ``AAAA``, ``NS``, ``MX``, ``CNAME``, ``TXT``, ``SRV``, ``PTR`` or ``CAA``."""
    name: str | None = None
    """Host name relative to the zone; empty for the zone itself."""
    target: str | None = None
    """Address, host name or value, by type."""
    ttl_sec: int | None = None
    """Time to live in seconds."""
    priority: int | None = None
    """Priority (MX and SRV)."""
    weight: int | None = None
    """Weight (SRV)."""
    port: int | None = None
    """Port (SRV)."""
    service: str | None = None
    """Service, such as ``_sip.`` (SRV)."""
    protocol: str | None = None
    """Protocol, such as ``_tcp`` (SRV)."""
    tag: str | None = None
    """``issue``, ``issuewild`` or ``iodef`` (CAA)."""
    created: str | None = None
    """Creation time (UTC)."""
    updated: str | None = None
    """Last change (UTC)."""


class ZoneFile(ApiModel):
    """The last rendered zone file of a domain."""

    zone_file: list[str] = Field(default_factory=list)
    """The zone file, one line per entry."""


# -- domain requests ------------------------------------------------------------------------


def _check_domain(value: str | None) -> str | None:
    if value is not None:
        problem = domain_name_problem(value)
        if problem:
            raise ValueError(f"domain {problem}")
    return value


def _check_ips(value: list[str] | None) -> list[str] | None:
    if value is not None:
        problem = ip_list_problem(value)
        if problem:
            raise ValueError(problem)
    return value


_ZONE_RULES: Mapping[str, When] = {
    # Spec, Domain: soa_email "required for master"; master_ips "at least one for slave".
    "soa_email": When("type", ("master",), required=True),
    "master_ips": When("type", ("slave",), required=True),
}


class DomainCreate(RequestModel):
    """A new zone: a master zone whose records you keep here, or a slave copied from masters."""

    shown_when: ClassVar[Mapping[str, When]] = _ZONE_RULES

    required_when: ClassVar[Mapping[str, str]] = {
        "soa_email": "required for a master zone",
        "master_ips": "required for a slave zone",
    }

    domain: DomainName
    """The zone's name, such as example.com: labels of letters, digits and hyphens, up to 63
    characters each, 255 in all. Must not exist anywhere on the platform."""
    type: DomainType
    """master: you manage the records here. slave: the zone is copied from master_ips."""
    status: DomainStatus | None = None
    """active (default) or disabled: a disabled zone is not rendered or served."""
    description: Description | None = None
    """Free text, 1 to 255 characters."""
    group: Group | None = None
    """Group name for display, 1 to 50 characters."""
    soa_email: Email | None = None
    """Contact address of the zone's start of authority; required for a master zone."""
    master_ips: list[str] | None = None
    """IP addresses of the master nameservers; at least one for a slave zone (1000 characters
    in all)."""
    axfr_ips: list[str] | None = None
    """IP addresses allowed to copy the zone by AXFR; keep empty unless needed (1000 characters
    in all)."""
    expire_sec: ZoneSeconds | None = zone_seconds(1209600)
    """Seconds a secondary keeps serving without reaching the master; 0 means 1209600. Rounded
    up to 300, 3600, 7200, 14400, 28800, 57600, 86400, 172800, 345600, 604800, 1209600 or
    2419200."""
    refresh_sec: ZoneSeconds | None = zone_seconds(14400)
    """Seconds between secondaries' checks for changes; 0 means 14400. Rounded up to a valid
    value (see expire)."""
    retry_sec: ZoneSeconds | None = zone_seconds(14400)
    """Seconds before a failed refresh is retried; 0 means 14400. Rounded up to a valid value."""
    ttl_sec: ZoneSeconds | None = zone_seconds(86400)
    """Default time to live of the records; 0 means 86400. Rounded up to a valid value."""
    tags: list[str] | None = None
    """Tags (only unrestricted users may set them)."""

    @field_validator("domain")
    @classmethod
    def _domain(cls, value: str | None) -> str | None:
        return _check_domain(value)

    @field_validator("master_ips", "axfr_ips")
    @classmethod
    def _ips(cls, value: list[str] | None) -> list[str] | None:
        return _check_ips(value)

    @model_validator(mode="after")
    def _type_needs(self) -> DomainCreate:
        problems: dict[str, str] = {}
        if self.type == "master" and not self.soa_email:
            problems["soa_email"] = "soa_email is required for a master zone"
        if self.type == "slave" and not self.master_ips:
            problems["master_ips"] = "a slave zone needs at least one master IP address"
        _raise(type(self).__name__, problems)
        return self


class DomainImport(RequestModel):
    """Import a zone by transfer (AXFR) from a nameserver that allows it."""

    domain: DomainName
    """The zone to import, such as example.com; must not exist anywhere on the platform."""
    remote_nameserver: Annotated[str, StringConstraints(min_length=1, max_length=DOMAIN_MAX)]
    """Host name or IP address of the nameserver to copy from. It must allow zone transfers
    from the service's four zone-transfer addresses."""

    @field_validator("domain")
    @classmethod
    def _domain(cls, value: str) -> str:
        return _check_domain(value) or value

    @field_validator("remote_nameserver")
    @classmethod
    def _nameserver(cls, value: str) -> str:
        if not is_ip(value) and hostname_problem(value):
            raise ValueError("remote_nameserver must be a host name or an IP address")
        return value


class DomainUpdate(RequestModel):
    """Changes to a zone; only the fields you set are sent."""

    # The stored zone may already have what its type needs: shown, not required, here.
    shown_when: ClassVar[Mapping[str, When]] = {
        name: When(rule.field, rule.values) for name, rule in _ZONE_RULES.items()
    }

    domain: DomainName | None = None
    """New zone name (must not exist anywhere on the platform)."""
    type: DomainType | None = None
    """master or slave; a master zone needs soa_email, a slave zone master_ips."""
    status: DomainStatus | None = None
    """active or disabled (a disabled zone is not rendered or served)."""
    description: Description | None = None
    """Free text, 1 to 255 characters."""
    group: Group | None = None
    """Group name for display, 1 to 50 characters."""
    soa_email: Email | None = None
    """Contact address of the zone's start of authority."""
    master_ips: list[str] | None = None
    """IP addresses of the master nameservers (1000 characters in all)."""
    axfr_ips: list[str] | None = None
    """IP addresses allowed to copy the zone by AXFR (1000 characters in all)."""
    expire_sec: ZoneSeconds | None = zone_seconds(1209600)
    """0 means 1209600; other values are rounded up to a valid one."""
    refresh_sec: ZoneSeconds | None = zone_seconds(14400)
    """0 means 14400; other values are rounded up to a valid one."""
    retry_sec: ZoneSeconds | None = zone_seconds(14400)
    """0 means 14400; other values are rounded up to a valid one."""
    ttl_sec: ZoneSeconds | None = zone_seconds(86400)
    """0 means 86400; other values are rounded up to a valid one."""
    tags: list[str] | None = None
    """Tags; replaces the whole list (only unrestricted users may change them)."""

    @field_validator("domain")
    @classmethod
    def _domain(cls, value: str | None) -> str | None:
        return _check_domain(value)

    @field_validator("master_ips", "axfr_ips")
    @classmethod
    def _ips(cls, value: list[str] | None) -> list[str] | None:
        return _check_ips(value)

    @model_validator(mode="after")
    def _type_needs(self) -> DomainUpdate:
        # Only what this request alone shows; the server judges against the stored zone.
        problems: dict[str, str] = {}
        if self.type == "slave" and self.master_ips == []:
            problems["master_ips"] = "a slave zone needs at least one master IP address"
        _raise(type(self).__name__, problems)
        return self


class DomainClone(RequestModel):
    """Copy a zone and its records to a new zone."""

    domain: DomainName
    """Name of the new zone, such as example.net; must not exist anywhere on the platform."""

    @field_validator("domain")
    @classmethod
    def _domain(cls, value: str) -> str:
        return _check_domain(value) or value


# -- record requests ------------------------------------------------------------------------


_SRV_ONLY = ("weight", "port", "service", "protocol")
_ALL_TYPES: tuple[str, ...] = typing.get_args(RecordType)
_NAMED_TYPES = tuple(t for t in _ALL_TYPES if t != "SRV")

RECORD_RULES: Mapping[str, When] = {
    # Spec, Domain record: name "SRV unused (use service)"; "CNAME ... unique, required".
    "name": When(
        "type",
        _NAMED_TYPES,
        required=("CNAME",),
        notes={
            "A": "host name or FQDN; empty for the zone itself",
            "AAAA": "host name or FQDN; empty for the zone itself",
            "NS": "subdomain; empty for the zone itself",
            "MX": "mail subdomain; empty for the zone itself and for a Null MX",
            "CNAME": "host name (unique in the zone)",
            "TXT": "host name, such as _dmarc; empty for the zone itself",
            "PTR": "as your reverse-DNS setup needs",
            "CAA": "subdomain; empty for the whole domain",
        },
    ),
    # target: required for every type; MX "valid domain unless Null MX" (empty name and
    # target): a blank MX target is sent as "" and makes the Null MX.
    "target": When(
        "type",
        _ALL_TYPES,
        required=tuple(t for t in _ALL_TYPES if t != "MX"),
        blank={"MX": ""},
        notes={
            "A": f"IPv4 address, or {REMOTE_ADDR} for your own",
            "AAAA": "IPv6 address",
            "NS": "name server host name",
            "MX": "mail server host name; empty for a Null MX",
            "CNAME": "host name it points to",
            "TXT": "the text",
            "SRV": "target host; a subdomain is completed with the domain",
            "PTR": "host name",
            "CAA": "issue: issuer domain; issuewild: *.issuer; iodef: URL or mailto:",
        },
    ),
    "ttl_sec": When("type", _ALL_TYPES),
    # priority "MX and SRV only; required for SRV; MX default 0; must be 0 for a Null MX".
    "priority": When("type", ("MX", "SRV"), required=("SRV",)),
    "weight": When("type", ("SRV",), required=True),
    "port": When("type", ("SRV",), required=True),
    "protocol": When("type", ("SRV",)),
    "service": When("type", ("SRV",), required=True),
    "tag": When("type", ("CAA",), required=True),
}
"""Which record fields each type asks for (the spec's Domain record table)."""


class _RecordFields(RequestModel):
    """Fields shared by record creation and update."""

    shown_when: ClassVar[Mapping[str, When]] = RECORD_RULES

    name: RecordName | None = None
    """Host name in the zone (www, mail, _dmarc ...); empty or omitted for the zone itself.
    Required for CNAME; unused for SRV (service and protocol name it)."""
    # Service and protocol come next: they name an SRV record, as name names the others.
    service: Annotated[str, StringConstraints(pattern=_SERVICE.pattern)] | None = None
    """SRV only: service such as sip or xmpp-server (an underscore is prepended and a period
    appended)."""
    protocol: Annotated[str, StringConstraints(pattern=_PROTOCOL.pattern)] | None = None
    """SRV only: protocol such as tcp or udp (an underscore is prepended)."""
    target: str | None = Field(None, json_schema_extra=suggested("record_address"))
    """A: IPv4 address or [remote_addr] (your address). AAAA: IPv6 address. NS, MX, CNAME:
    a domain name (MX: empty, with an empty name, makes a Null MX: no mail). TXT: the
    text. SRV: target host, or a subdomain completed with the domain. CAA: issuer domain,
    *.issuer for issuewild, or URL/mailto: for iodef. PTR: host name."""
    ttl_sec: Annotated[int, Field(ge=0)] | None = Field(
        None, json_schema_extra=offered(RECORD_TTL_CHOICES)
    )
    """Time to live in seconds; rounded to the nearest of 300, 3600, 7200, 14400, 28800,
    57600, 86400, 172800, 345600, 604800, 1209600, 2419200."""
    priority: Priority | None = None
    """MX and SRV only, 0 to 255 (lower is preferred); MX defaults to 0."""
    weight: Port | None = None
    """SRV only, 0 to 65535: share among records of equal priority."""
    port: Port | None = None
    """SRV only, 0 to 65535: port of the service."""
    tag: CaaTag | None = None
    """CAA only: issue, issuewild or iodef."""

    @field_validator("name")
    @classmethod
    def _name(cls, value: str | None) -> str | None:
        if value is not None:
            problem = record_name_problem(value)
            if problem:
                raise ValueError(f"name {problem}")
        return value


class _RecordType(RequestModel):
    """The type of a new record (a base of its own so that forms ask for it first)."""

    type: RecordType
    """A, AAAA, NS, MX, CNAME, TXT, SRV, PTR or CAA."""


class RecordCreate(_RecordFields, _RecordType):
    """A new DNS record; which fields are needed depends on the type."""

    required_when: ClassVar[Mapping[str, str]] = {
        "target": "required for every type (MX: . for a Null MX)",
        "name": "required for CNAME",
        "service": "required for SRV",
        "priority": "required for SRV; MX only",
        "weight": "required for SRV",
        "port": "required for SRV",
        "tag": "required for CAA",
    }

    @model_validator(mode="after")
    def _per_type(self) -> RecordCreate:
        _raise(type(self).__name__, record_problems(self.type, self))
        return self


def record_problems(kind: str, rec: _RecordFields) -> dict[str, str]:
    """The per-type rules a client can judge without the zone, keyed by field."""
    problems: dict[str, str] = {}
    target = rec.target

    def need(field: str, value: Any) -> bool:
        if value is None or value == "":
            problems[field] = f"{field} is required for {kind} records"
            return False
        return True

    # Records answer 0 for the numbers their type does not use: 0 sent back sets nothing.
    if rec.priority not in (None, 0) and kind not in ("MX", "SRV"):
        problems["priority"] = "priority is only for MX and SRV records"
    for field in _SRV_ONLY:
        if getattr(rec, field) not in (None, 0) and kind != "SRV":
            problems[field] = f"{field} is only for SRV records"
    if rec.tag is not None and kind != "CAA":
        problems["tag"] = "tag is only for CAA records"

    if kind in ("A", "AAAA"):
        version = 4 if kind == "A" else 6
        remote = kind == "A" and target == REMOTE_ADDR
        if need("target", target) and not remote and not is_ip(str(target), version):
            hint = f" or {REMOTE_ADDR} for your own address" if kind == "A" else ""
            problems["target"] = f"target must be an IPv{version} address{hint}"
    elif kind in ("NS", "CNAME"):
        if need("target", target):
            problem = hostname_problem(str(target))
            if problem:
                problems["target"] = f"target {problem}"
        if kind == "CNAME" and not rec.name:
            problems["name"] = "name is required for CNAME records"
    elif kind == "MX":
        if target is None:
            problems["target"] = "target is required for MX records (. for a Null MX)"
        elif target in ("", "."):
            if rec.name:
                problems["name"] = "a Null MX (empty target) must have an empty name"
            if rec.priority not in (None, 0):
                problems["priority"] = "priority must be 0 for a Null MX"
        else:
            problem = hostname_problem(target)
            if problem:
                problems["target"] = f"target {problem}"
    elif kind in ("TXT", "PTR"):
        need("target", target)
    elif kind == "SRV":
        for field in ("service", "priority", "weight", "port"):
            need(field, getattr(rec, field))
        if need("target", target):
            problem = hostname_problem(str(target), min_labels=1)
            if problem:
                problems["target"] = f"target {problem}"
    elif kind == "CAA" and need("tag", rec.tag) and need("target", target):
        problem = caa_value_problem(str(rec.tag), str(target))
        if problem:
            problems["target"] = f"target {problem}"
    return problems


class RecordUpdate(_RecordFields):
    """Changes to a record (its type cannot change); only the fields you set are sent."""
