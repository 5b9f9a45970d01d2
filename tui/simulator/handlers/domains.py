"""DNS domains: zones, their records, clones, imports by zone transfer, rendered zone files.

Tables: ``domains.domains`` (zones, keyed by id; the tags area reads their ``tags``) and
``domains.records`` (records keyed by id, internal ``_domain_id`` naming their zone). A zone keeps
its SOA serial in ``_serial`` and its last rendered zone file in ``_zone_file``.

Choices where the reference is silent:

* Zone names are lower-cased and one trailing period is dropped; they need at least two labels.
  Non-ASCII names must be sent in punycode (``xn--``). Uniqueness is platform-wide and
  case-insensitive: besides the account's own zones, the names in :data:`FOREIGN_DOMAINS` are
  hosted by other accounts (400, field ``domain``).
* ``master_ips`` and ``axfr_ips`` must hold IP addresses; "combined length" is the characters of
  all addresses added up (at most 1000 per list).
* ``expire_sec``, ``refresh_sec``, ``retry_sec``, ``ttl_sec`` of a zone: negative values and
  values above 2419200 are refused (400); others are rounded up to the next valid value; 0 stays
  0 (the reference's default applies when rendering).
* ``description`` and ``group`` may be set to null to clear them. Only unrestricted users may set
  or change tags (403, field ``tags``); each tag is 3..50 characters.
* Record names are stored relative to the zone: ``www.example.com`` and ``www.example.com.``
  become ``www``, the zone's own name becomes the empty name (the apex). An omitted or empty
  name means the apex for every type except CNAME (required) and SRV (its name is made of
  ``service`` and ``protocol``, e.g. ``_sip._tcp``; a ``name`` sent for SRV is ignored). A name
  with a trailing period outside the zone is refused. Labels allow ``_`` and a leading ``*``.
* Targets keep no trailing period (it is accepted and dropped where the reference accepts it);
  NS, MX and CNAME targets need at least two labels. An SRV target without any period is a
  subdomain and completed with the zone (``sip`` -> ``sip.example.com``); one ending in a period
  is absolute. ``[remote_addr]`` works for A records only (an AAAA record needs IPv6).
* SRV ``protocol`` defaults to ``tcp`` (stored ``_tcp``). A record ``ttl_sec`` left out takes the
  zone's default TTL; other values go to the nearest valid value (ties go up), negative values
  are refused. Fields that belong to other types (``priority`` outside MX/SRV, ``weight``,
  ``port``, ``service``, ``protocol`` outside SRV, ``tag`` outside CAA) are refused when set:
  null, and for the three numbers also 0, count as unset. Records answer ``priority``,
  ``weight`` and ``port`` as integers whatever their type (the reference types them integer,
  not nullable): 0 where the type has no use for them, so a record read and sent back stays
  valid. A record's ``type`` cannot change on update.
* CNAME: its name may carry no other record of any type, and no record may be added under a
  CNAME's name (400, field ``name``).
* Null MX (empty name and target, priority 0; the target may also be written ``.``, the empty
  name with the accepted trailing period, which lets forms that drop empty inputs send one):
  refused while the zone has other MX records, and once it exists no other MX can be created
  (409, fields ``target`` and ``type``). The rule is per zone, as the reference words it, not
  per owner name.
* Zone files: ``$ORIGIN``, ``$TTL``, a one-line SOA (primary nameserver, SOA address, serial,
  refresh, retry, expire, minimum = the zone TTL), the service's NS records, then the records
  grouped by type. The serial is ``YYYYMMDDnn`` and increases with every change of the zone or
  its records. A disabled zone renders only a comment saying so. A slave zone renders the same
  way, with a comment naming its masters.
* Import: the simulated nameservers ``ns1.allows-axfr.example`` and ``ns2.allows-axfr.example``
  answer any zone with a small believable record set; ``ns1.refuses-axfr.example`` refuses the
  transfer; any other name or address does not answer. All three failures are 400 on
  ``remote_nameserver``. Imported zones are ``master`` with ``soa_email`` ``hostmaster@<zone>``;
  the remote NS records at the apex are replaced by the service's own.
* Clone copies the zone's settings (not its tags) and all its records; restricted users need
  ``add_domains`` and read access to the source.
* Uniqueness and clash rules are 400 with the other field errors; the Null MX rules are state
  refusals (409).
"""

from __future__ import annotations

import ipaddress
import re
import time
from typing import Any
from urllib.parse import urlparse

from tui.simulator.context import Collection, Ctx, public
from tui.simulator.errors import SimError, conflict, not_found
from tui.simulator.handlers.images import drop_grants
from tui.simulator.registry import demo_note, handles
from tui.simulator.store import Store
from tui.simulator.validate import EMAIL, Check, is_ip

DOMAINS = "domains.domains"
RECORDS = "domains.records"
DOMAIN_ID_START = 128400
RECORD_ID_START = 8630000

DOMAIN_MAX = 255
LABEL_MAX = 63
RECORD_NAME_MAX = 100
IP_LIST_CHARS_MAX = 1000
TAG_MIN, TAG_MAX = 3, 50

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
"""Valid zone timings; other values are rounded up to the next one."""
RECORD_TTLS = ZONE_SECONDS[1:]
"""Valid record TTLs; other values are rounded to the nearest one."""
SECONDS_FIELDS = ("expire_sec", "refresh_sec", "retry_sec", "ttl_sec")
SECONDS_DEFAULTS = {
    "expire_sec": 1209600,
    "refresh_sec": 14400,
    "retry_sec": 14400,
    "ttl_sec": 86400,
}
"""What 0 means for each zone timing."""

DOMAIN_FIELDS = (
    "domain",
    "type",
    "status",
    "description",
    "group",
    "soa_email",
    "master_ips",
    "axfr_ips",
    *SECONDS_FIELDS,
    "tags",
)
RECORD_TYPES = ("A", "AAAA", "NS", "MX", "CNAME", "TXT", "SRV", "PTR", "CAA")
RECORD_FIELDS = (
    "type",
    "name",
    "target",
    "ttl_sec",
    "priority",
    "weight",
    "port",
    "protocol",
    "service",
    "tag",
)
SRV_STRINGS = ("service", "protocol")
SRV_ONLY = ("weight", "port", *SRV_STRINGS)
RECORD_NULLABLE = ("name", "target", "ttl_sec", "priority", "weight", "port", *SRV_STRINGS, "tag")
"""Record fields for which an update's null is a value, meaning what it means on create (the
apex, the zone's TTL, unset); the reference marks ``protocol``, ``service`` and ``tag``
nullable."""
NUMBERS = ("priority", "weight", "port")
"""Integer record fields: 0 (never null) where a record's type has no use for them."""
CAA_TAGS = ("issue", "issuewild", "iodef")
REMOTE_ADDR = "[remote_addr]"

NAMESERVERS = tuple(f"ns{n}.cloud-dns.example" for n in range(1, 6))
"""The service's own authoritative nameservers (NS records of every rendered zone)."""
ZONE_TRANSFER_SOURCES = ("203.0.113.11", "203.0.113.12", "2001:db8:53::11", "2001:db8:53::12")
"""The four addresses the service makes zone transfers (imports) from."""
FOREIGN_DOMAINS = ("example.org", "example.net", "registered-elsewhere.example")
"""Zones hosted by other accounts of the platform: taken for everyone here."""
AXFR_ALLOWS = ("ns1.allows-axfr.example", "ns2.allows-axfr.example")
"""Simulated remote nameservers that allow the service to transfer any zone."""
AXFR_REFUSES = ("ns1.refuses-axfr.example",)
"""Simulated remote nameservers that answer but refuse zone transfers."""

demo_note(
    "domains.import",
    f"Demo: {AXFR_ALLOWS[0]} and {AXFR_ALLOWS[1]} allow zone transfers (any zone); "
    f"{AXFR_REFUSES[0]} refuses them.",
)

_DNS_LABEL = re.compile(r"(?!-)[a-z0-9-]{1,63}(?<!-)")
_HOST_LABEL = re.compile(r"(?!-)[A-Za-z0-9_-]{1,63}(?<!-)")
_SERVICE = re.compile(r"_?[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.?")
_PROTOCOL = re.compile(r"_?[A-Za-z0-9]{1,15}")
_TYPE_ORDER = {t: n for n, t in enumerate(RECORD_TYPES)}


# -- pure helpers ---------------------------------------------------------------------------


def domain_name_problem(name: str) -> str | None:
    """Why a (lower-cased, period-stripped) zone name breaks RFC 1035 rules, or None."""
    if not name or len(name) > DOMAIN_MAX:
        return f"domain must be 1 to {DOMAIN_MAX} characters"
    labels = name.split(".")
    if len(labels) < 2:
        return "domain must have at least two labels, such as example.com"
    for label in labels:
        if len(label) > LABEL_MAX:
            return f"domain labels must be at most {LABEL_MAX} characters"
        if not _DNS_LABEL.fullmatch(label):
            return (
                "domain labels may contain only letters, digits and hyphens and may not begin or "
                "end with a hyphen (write non-ASCII names in punycode, xn--...)"
            )
    return None


def hostname_ok(name: str, *, min_labels: int = 2) -> bool:
    """True for a host or domain name (no trailing period) of ``min_labels`` labels or more."""
    if not name or len(name) > DOMAIN_MAX:
        return False
    labels = name.split(".")
    return len(labels) >= min_labels and all(_HOST_LABEL.fullmatch(x) for x in labels)


def round_zone_seconds(value: int) -> int:
    """Round a zone timing up to the next valid value (``value`` within 0..2419200)."""
    return next(s for s in ZONE_SECONDS if s >= value)


def round_record_ttl(value: int) -> int:
    """Round a record TTL to the nearest valid value; ties go to the larger one."""
    return min(RECORD_TTLS, key=lambda s: (abs(s - value), -s))


def effective_seconds(domain: dict[str, Any], field: str) -> int:
    """A zone timing with 0 (or absence) replaced by the reference's default."""
    value = domain.get(field)
    return value if isinstance(value, int) and value > 0 else SECONDS_DEFAULTS[field]


def next_serial(old: Any, now: float) -> int:
    """The next ``YYYYMMDDnn`` serial: today's first, or one more than ``old``."""
    today = int(time.strftime("%Y%m%d", time.gmtime(now))) * 100
    previous = old if isinstance(old, int) else 0
    return max(today + 1, previous + 1)


def _fqdn(name: str) -> str:
    return name if name.endswith(".") else name + "."


def _soa_rname(domain: dict[str, Any]) -> str:
    """The SOA mailbox: ``first.last@example.com`` -> ``first\\.last.example.com.``."""
    email = domain.get("soa_email")
    if not isinstance(email, str) or "@" not in email:
        return f"hostmaster.{domain.get('domain')}."
    local, _, host = email.rpartition("@")
    return f"{local.replace('.', chr(92) + '.')}.{host}."


def _zone_byte(byte: int) -> str:
    """One byte of a TXT character-string in zone-file syntax (RFC 1035 escapes)."""
    if byte in (0x22, 0x5C):  # " and \\ are escaped with a backslash
        return "\\" + chr(byte)
    if 0x20 <= byte < 0x7F:
        return chr(byte)
    return f"\\{byte:03d}"  # control characters and UTF-8 bytes of non-ASCII text


def _txt(value: str) -> str:
    """A TXT value as quoted character-strings of at most 255 bytes each."""
    data = value.encode("utf-8")
    chunks = [data[start : start + 255] for start in range(0, max(len(data), 1), 255)]
    return " ".join('"' + "".join(_zone_byte(b) for b in chunk) + '"' for chunk in chunks)


def _rdata(record: dict[str, Any]) -> str:
    kind = record.get("type")
    target = str(record.get("target") or "")
    if kind in ("A", "AAAA"):
        return target
    if kind in ("NS", "CNAME"):
        return _fqdn(target)
    if kind == "PTR":
        return _fqdn(target) if hostname_ok(target.rstrip("."), min_labels=1) else target
    if kind == "MX":
        return f"{record.get('priority') or 0} {_fqdn(target) if target else '.'}"
    if kind == "SRV":
        return (
            f"{record.get('priority') or 0} {record.get('weight') or 0} "
            f"{record.get('port') or 0} {_fqdn(target)}"
        )
    if kind == "CAA":
        return f'0 {record.get("tag")} "{target}"'
    return _txt(target)


def render_zone(store: Store, domain: dict[str, Any]) -> list[str]:
    """The zone file of a domain, one line per entry."""
    name = str(domain.get("domain") or "")
    if domain.get("status") == "disabled":
        return [
            f"; {name} is disabled: its zone is not rendered or served.",
            "; Set its status to active to publish it again.",
        ]
    ttl = effective_seconds(domain, "ttl_sec")
    records = sorted(
        records_of(store, domain["id"]),
        key=lambda r: (_TYPE_ORDER.get(str(r.get("type")), 99), str(r.get("name")), r["id"]),
    )
    # Owner names in one column (up to a point) keep the file readable.
    width = min(max([len(str(r.get("name") or "@")) for r in records] + [1]), 24)

    def line(owner: str, rr_ttl: object, kind: str, data: str) -> str:
        return f"{owner:<{width}} {rr_ttl!s:<7} IN {kind:<5} {data}"

    lines = [f"; Zone file of {name}"]
    if domain.get("type") == "slave":
        masters = ", ".join(domain.get("master_ips") or []) or "(none)"
        lines.append(f"; Slave zone: transferred from the masters {masters}")
    soa = (
        f"{NAMESERVERS[0]}. {_soa_rname(domain)} {domain.get('_serial') or 1} "
        f"{effective_seconds(domain, 'refresh_sec')} {effective_seconds(domain, 'retry_sec')} "
        f"{effective_seconds(domain, 'expire_sec')} {ttl}"
    )
    lines += [f"$ORIGIN {name}.", f"$TTL {ttl}", line("@", ttl, "SOA", soa)]
    lines += [line("@", ttl, "NS", f"{ns}.") for ns in NAMESERVERS]
    for rec in records:
        lines.append(
            line(
                str(rec.get("name") or "@"),
                rec.get("ttl_sec") or ttl,
                str(rec.get("type")),
                _rdata(rec),
            )
        )
    return lines


# -- records --------------------------------------------------------------------------------


def records_of(store: Store, domain_id: object) -> list[dict[str, Any]]:
    """Every record of a zone, in id order."""
    return store.group(RECORDS, "_domain_id", domain_id)


def zone_changed(store: Store, domain: dict[str, Any], now: float, now_iso: str) -> None:
    """Bump the serial, re-render the zone file and save the zone."""
    domain["_serial"] = next_serial(domain.get("_serial"), now)
    domain["updated"] = now_iso
    domain["_zone_file"] = render_zone(store, domain)
    store.put(DOMAINS, domain["id"], domain)


def new_domain(
    store: Store,
    *,
    domain: str,
    type: str,
    now: float,
    now_iso: str,
    soa_email: str | None = None,
    status: str = "active",
    description: str | None = None,
    group: str | None = None,
    master_ips: list[str] | None = None,
    axfr_ips: list[str] | None = None,
    seconds: dict[str, int] | None = None,
    tags: list[str] | None = None,
) -> dict[str, Any]:
    """Build, render and store a zone (no validation: handlers and seeders check first)."""
    domain_id = store.next_id("domains.domain", start=DOMAIN_ID_START)
    record: dict[str, Any] = {
        "id": domain_id,
        "domain": domain,
        "type": type,
        "status": status,
        "description": description,
        "group": group,
        "soa_email": soa_email,
        "master_ips": list(master_ips or []),
        "axfr_ips": list(axfr_ips or []),
        **{f: (seconds or {}).get(f, 0) for f in SECONDS_FIELDS},
        "tags": list(tags or []),
        "created": now_iso,
        "updated": now_iso,
        "_serial": 0,
    }
    store.put(DOMAINS, domain_id, record)
    zone_changed(store, record, now, now_iso)
    return record


def new_record(
    store: Store,
    domain: dict[str, Any],
    *,
    type: str,
    now_iso: str,
    name: str = "",
    target: str = "",
    ttl_sec: int | None = None,
    priority: int | None = None,
    weight: int | None = None,
    port: int | None = None,
    service: str | None = None,
    protocol: str | None = None,
    tag: str | None = None,
) -> dict[str, Any]:
    """Store a record of ``domain`` (already normalised; the caller re-renders the zone)."""
    record_id = store.next_id("domains.record", start=RECORD_ID_START)
    if type == "SRV":
        name = f"{service or ''}{protocol or ''}"
    record = {
        "id": record_id,
        "type": type,
        "name": name,
        "target": target,
        "ttl_sec": ttl_sec
        if ttl_sec is not None
        else round_record_ttl(effective_seconds(domain, "ttl_sec")),
        "priority": priority or 0,
        "weight": weight or 0,
        "port": port or 0,
        "service": service,
        "protocol": protocol,
        "tag": tag,
        "created": now_iso,
        "updated": now_iso,
        "_domain_id": domain["id"],
    }
    return store.put(RECORDS, record_id, record)


def record_view(record: dict[str, Any]) -> dict[str, Any]:
    """The API representation of a record: numbers as integers (state saved by older versions
    may hold null)."""
    out = public(record)
    for field in NUMBERS:
        if out.get(field) is None:
            out[field] = 0
    return out


def domain_view(record: dict[str, Any]) -> dict[str, Any]:
    """The API representation of a zone."""
    out = public(record)
    for field in ("master_ips", "axfr_ips", "tags"):
        out[field] = list(out.get(field) or [])
    return out


def axfr_records(domain: str) -> list[dict[str, Any]]:
    """What a cooperating remote nameserver transfers for ``domain`` (apex NS left out)."""
    return [
        {"type": "A", "name": "", "target": "198.51.100.20", "ttl_sec": 3600},
        {"type": "A", "name": "www", "target": "198.51.100.20", "ttl_sec": 3600},
        {"type": "AAAA", "name": "www", "target": "2001:db8:100::20", "ttl_sec": 3600},
        {"type": "A", "name": "mail", "target": "198.51.100.25", "ttl_sec": 3600},
        {"type": "MX", "name": "", "target": f"mail.{domain}", "priority": 10, "ttl_sec": 3600},
        {"type": "TXT", "name": "", "target": "v=spf1 mx -all", "ttl_sec": 3600},
        {"type": "CNAME", "name": "ftp", "target": f"www.{domain}", "ttl_sec": 3600},
        {"type": "CAA", "name": "", "tag": "issue", "target": "letsencrypt.org", "ttl_sec": 86400},
    ]


# -- validation: zones ----------------------------------------------------------------------


def _failed(v: Check, field: str) -> bool:
    return any(e.get("field") == field for e in v.errors)


def _check_domain_name(ctx: Ctx, v: Check, *, required: bool, exclude: object = None) -> Any:
    """The body's ``domain``: valid, normalised, and free on the whole platform."""
    raw = v.string("domain", required=required)
    if not isinstance(raw, str):
        return None
    name = raw.lower()
    if name.endswith("."):
        name = name[:-1]
    problem = domain_name_problem(name)
    if problem:
        v.fail("domain", problem)
        return None
    if name in FOREIGN_DOMAINS:
        v.fail("domain", f"{name} is already hosted by another account on the platform")
        return None
    for other in ctx.store.rows(DOMAINS):
        if str(other.get("domain", "")).lower() == name and str(other["id"]) != str(exclude):
            v.fail("domain", f"{name} already exists in this account")
            return None
    return name


def _check_ip_list(v: Check, field: str) -> Any:
    values = v.string_list(field)
    if not isinstance(values, list):
        return None
    bad = [ip for ip in values if not is_ip(ip)]
    total = sum(len(ip) for ip in values)
    if bad:
        v.fail(field, f"{field} must hold IP addresses; not valid: {', '.join(bad[:3])}")
    elif total > IP_LIST_CHARS_MAX:
        v.fail(
            field,
            f"{field} addresses may add up to at most {IP_LIST_CHARS_MAX} characters "
            f"(these have {total})",
        )
    return values


def _check_seconds(v: Check, field: str) -> Any:
    value = v.integer(field, lo=0, hi=ZONE_SECONDS[-1])
    if isinstance(value, int) and not _failed(v, field):
        return round_zone_seconds(value)
    return None


def _check_tags(ctx: Ctx, v: Check, current: list[str]) -> Any:
    tags = v.string_list("tags")
    if not isinstance(tags, list):
        return None
    if ctx.principal.restricted and sorted(tags) != sorted(current):
        raise SimError(403, "Only unrestricted users may add or change tags", "tags")
    bad = [t for t in tags if not TAG_MIN <= len(t) <= TAG_MAX]
    if bad:
        v.fail("tags", f"tags must be {TAG_MIN} to {TAG_MAX} characters each")
    return tags


def _check_type_needs(v: Check, kind: Any, soa_email: Any, master_ips: Any) -> None:
    """A master zone needs ``soa_email``, a slave zone at least one master address."""
    if kind == "master" and not soa_email and not _failed(v, "soa_email"):
        v.fail("soa_email", "soa_email is required for a master zone")
    if kind == "slave" and not master_ips and not _failed(v, "master_ips"):
        v.fail("master_ips", "a slave zone needs at least one address in master_ips")


# -- validation: records --------------------------------------------------------------------


def _relative_name(v: Check, zone: str, raw: str) -> str | None:
    """A record name made relative to the zone ("" for the apex), or None after an error."""
    if len(raw) > RECORD_NAME_MAX:
        v.fail("name", f"name must be at most {RECORD_NAME_MAX} characters")
        return None
    absolute = raw.endswith(".")
    name = raw[:-1] if absolute else raw
    lowered = name.lower()
    if lowered == zone:
        return ""
    if lowered.endswith("." + zone):
        name = name[: -(len(zone) + 1)]
    elif absolute and name:
        v.fail("name", f"name {raw} ends with a period but is not within {zone}")
        return None
    labels = name.split(".") if name else []
    if labels and labels[0] == "*":
        labels = labels[1:]
    if not all(_HOST_LABEL.fullmatch(label) for label in labels):
        v.fail(
            "name",
            "name must be a host name: letters, digits, hyphens or underscores, labels up to 63",
        )
        return None
    return name


def _remote_ipv4(ctx: Ctx, v: Check) -> str | None:
    """The caller's IPv4 address for ``[remote_addr]``."""
    try:
        addr = ipaddress.ip_address(ctx.client_ip)
    except ValueError:
        addr = None
    if isinstance(addr, ipaddress.IPv6Address) and addr.ipv4_mapped is not None:
        addr = addr.ipv4_mapped
    if isinstance(addr, ipaddress.IPv4Address):
        return str(addr)
    v.fail("target", f"{REMOTE_ADDR} needs an IPv4 caller; your address is {ctx.client_ip}")
    return None


def _check_target(ctx: Ctx, v: Check, zone: str, kind: str, out: dict[str, Any]) -> None:
    """Validate and normalise ``target`` (and the CAA ``tag``) by record type into ``out``."""
    target = v.string("target", nullable=True)
    if _failed(v, "target"):
        return
    if kind == "CAA":
        tag = v.string("tag", nullable=True, choices=CAA_TAGS)
        if tag is None and not _failed(v, "tag"):
            v.fail("tag", "tag is required for CAA records: issue, issuewild or iodef")
        out["tag"] = tag
    if target is None or (target == "" and kind != "MX"):
        v.fail("target", f"target is required for {kind} records")
        return
    if kind in ("A", "AAAA", "CAA") and target.endswith("."):
        v.fail("target", f"a trailing period is not accepted for {kind} records")
        return
    if kind == "A":
        value = _remote_ipv4(ctx, v) if target == REMOTE_ADDR else target
        if value is not None and not is_ip(value, 4):
            v.fail("target", f"target must be an IPv4 address or {REMOTE_ADDR}")
        out["target"] = value
        return
    if kind == "AAAA":
        if target == REMOTE_ADDR:
            v.fail("target", f"{REMOTE_ADDR} stands for your IPv4 address: use an A record")
        elif not is_ip(target, 6):
            v.fail("target", "target must be an IPv6 address")
        out["target"] = target
        return
    if kind == "TXT":
        out["target"] = target
        return
    if kind == "CAA":
        tag = out.get("tag")
        if isinstance(tag, str):
            problem = _caa_problem(tag, target)
            if problem:
                v.fail("target", problem)
        out["target"] = target
        return
    absolute = target.endswith(".")
    host = target[:-1] if absolute else target
    if kind == "MX" and host == "":
        out["target"] = ""  # a Null MX; "." is the same empty name with its trailing period
        return
    if kind == "PTR":
        if not host:
            v.fail("target", "target is required for PTR records")
        out["target"] = host
        return
    if kind == "SRV" and not absolute and host and "." not in host:
        host = f"{host}.{zone}"  # a subdomain of the zone
    if not hostname_ok(host, min_labels=2):
        v.fail("target", f"target must be a valid domain name for {kind} records")
    out["target"] = host


def _caa_problem(tag: str, value: str) -> str | None:
    if tag == "issue":
        if not hostname_ok(value):
            return "target must be the issuer's domain for issue, such as letsencrypt.org"
        return None
    if tag == "issuewild":
        if not value.startswith("*.") or not hostname_ok(value[2:]):
            return "target must begin with *. for issuewild, such as *.letsencrypt.org"
        return None
    if value.startswith("mailto:"):
        if EMAIL.match(value[7:]):
            return None
        return "target must be mailto: followed by an email address for iodef"
    parsed = urlparse(value)
    if parsed.scheme in ("http", "https") and parsed.netloc:
        return None
    if hostname_ok(value):
        return None
    return "target must be a domain, an http or https URL, or a mailto: address for iodef"


def _unset(value: Any) -> bool:
    """True for a value that sets nothing: null, or the integer 0 records answer for unused
    numbers (``False`` and ``0.0`` are values, and wrong ones)."""
    return value is None or (type(value) is int and value == 0)


def _check_record(
    ctx: Ctx,
    v: Check,
    domain: dict[str, Any],
    kind: str,
    *,
    creating: bool,
    record_id: object = None,
) -> dict[str, Any]:
    """Validate a record body (``v`` holds current values merged with the request)."""
    zone = str(domain.get("domain") or "").lower()
    out: dict[str, Any] = {"type": kind}
    # Fields that belong to other types are refused rather than silently dropped; the 0 that
    # records answer for unused numbers counts as unset.
    if not _unset(v.raw("priority")) and kind not in ("MX", "SRV"):
        v.fail("priority", "priority is only for MX and SRV records")
    for field in SRV_ONLY:
        if not _unset(v.raw(field)) and kind != "SRV":
            v.fail(field, f"{field} is only for SRV records")
    if v.raw("tag") is not None and kind != "CAA":
        v.fail("tag", "tag is only for CAA records")

    if kind == "SRV":
        v.string("name", nullable=True)  # unused for SRV, but must still be a string
        service = v.string("service", nullable=True)
        protocol = v.string("protocol", nullable=True)
        if isinstance(service, str) and not _SERVICE.fullmatch(service):
            v.fail("service", "service must be a service name such as sip or xmpp-server")
        if isinstance(protocol, str) and not _PROTOCOL.fullmatch(protocol):
            v.fail("protocol", "protocol must be a protocol name such as tcp or udp")
        if service is None and not _failed(v, "service"):
            v.fail("service", "service is required for SRV records, such as sip")
        for field, lo, hi in (("priority", 0, 255), ("weight", 0, 65535), ("port", 0, 65535)):
            value = v.integer(field, nullable=True, lo=lo, hi=hi)
            if value is None and not _failed(v, field):
                v.fail(field, f"{field} is required for SRV records")
            out[field] = value
        if isinstance(service, str) and not _failed(v, "service"):
            service = service if service.startswith("_") else "_" + service
            out["service"] = service if service.endswith(".") else service + "."
        protocol = protocol if isinstance(protocol, str) and not _failed(v, "protocol") else "tcp"
        out["protocol"] = protocol if protocol.startswith("_") else "_" + protocol
        out["name"] = f"{out.get('service') or ''}{out['protocol']}"
    else:
        raw_name = v.string("name", nullable=True)
        name = _relative_name(v, zone, raw_name) if isinstance(raw_name, str) else ""
        if kind == "CNAME" and name == "" and not _failed(v, "name"):
            v.fail("name", "name is required for CNAME records")
        out["name"] = name
    if kind == "MX":
        priority = v.integer("priority", nullable=True, lo=0, hi=255)
        out["priority"] = priority if priority is not None else 0

    _check_target(ctx, v, zone, kind, out)

    if kind == "MX" and out.get("target") == "":
        if out.get("name"):
            v.fail("name", "a Null MX (empty target) must have an empty name")
        if out.get("priority") not in (0, None) and not _failed(v, "priority"):
            v.fail("priority", "priority must be 0 for a Null MX")

    ttl = v.integer("ttl_sec", nullable=True, lo=0)
    if isinstance(ttl, int) and not _failed(v, "ttl_sec"):
        out["ttl_sec"] = round_record_ttl(ttl)
    elif creating or ttl is None:
        out["ttl_sec"] = round_record_ttl(effective_seconds(domain, "ttl_sec"))

    _check_cname_clash(ctx, v, domain, kind, out.get("name"), record_id)
    return out


def _check_cname_clash(
    ctx: Ctx, v: Check, domain: dict[str, Any], kind: str, name: Any, record_id: object
) -> None:
    """A CNAME's name carries no other record; nothing is added under a CNAME's name."""
    if not isinstance(name, str) or _failed(v, "name"):
        return
    key = name.lower()
    same = [
        r
        for r in records_of(ctx.store, domain["id"])
        if str(r.get("name") or "").lower() == key and str(r["id"]) != str(record_id)
    ]
    label = name or "@"
    if kind == "CNAME" and any(r.get("type") == "CNAME" for r in same):
        v.fail("name", f"another CNAME record already uses the name {label}")
    elif kind == "CNAME" and same:
        types = ", ".join(sorted({str(r.get("type")) for r in same}))
        v.fail("name", f"{label} already has {types} records: a CNAME name must be unique")
    elif kind != "CNAME" and any(r.get("type") == "CNAME" for r in same):
        v.fail("name", f"{label} is a CNAME: no other record may use its name")


def _check_null_mx(
    ctx: Ctx, domain: dict[str, Any], out: dict[str, Any], record_id: object
) -> None:
    """The Null MX rules (state refusals, after the field checks passed)."""
    if out["type"] != "MX":
        return
    others = [
        r
        for r in records_of(ctx.store, domain["id"])
        if r.get("type") == "MX" and str(r["id"]) != str(record_id)
    ]
    if out.get("target") == "" and others:
        raise conflict(
            f"A Null MX needs a zone without other MX records: remove the {len(others)} other "
            "MX records first",
            "target",
        )
    if out.get("target") != "" and any(r.get("target") == "" for r in others):
        raise conflict(
            "The zone has a Null MX record (it accepts no mail): no other MX record can be created",
            "type",
        )


# -- lookups --------------------------------------------------------------------------------


def _domain(ctx: Ctx, *, write: bool = False) -> dict[str, Any]:
    record = ctx.store.get(DOMAINS, ctx.param_int("domainId"))
    if record is None or not ctx.principal.can_read("domain", record["id"]):
        raise not_found("Domain not found")
    if write:
        ctx.principal.require_write("domain", record["id"])
    return record


def _record(ctx: Ctx, domain: dict[str, Any]) -> dict[str, Any]:
    record = ctx.store.get(RECORDS, ctx.param_int("recordId"))
    if record is None or str(record.get("_domain_id")) != str(domain["id"]):
        raise not_found("Record not found")
    return record


def _changed(ctx: Ctx, domain: dict[str, Any]) -> None:
    zone_changed(ctx.store, domain, ctx.now, ctx.now_iso)


# -- handlers: zones ------------------------------------------------------------------------


@handles("domains.list")
def domains_list(ctx: Ctx) -> Collection:
    """Every zone the caller may see."""
    return Collection(
        [
            domain_view(r)
            for r in ctx.store.rows(DOMAINS)
            if ctx.principal.can_read("domain", r["id"])
        ]
    )


@handles("domains.create")
def domains_create(ctx: Ctx) -> dict[str, Any]:
    """Create a master or slave zone."""
    p = ctx.principal
    p.require_global("add_domains")
    v = Check(ctx.body)
    v.unknown(DOMAIN_FIELDS)
    name = _check_domain_name(ctx, v, required=True)
    kind = v.string("type", required=True, choices=("master", "slave"))
    status = v.string("status", choices=("active", "disabled"), default="active")
    description = v.string("description", min_len=1, max_len=255, nullable=True)
    group = v.string("group", min_len=1, max_len=50, nullable=True)
    soa_email = v.email("soa_email", nullable=True)
    master_ips = _check_ip_list(v, "master_ips")
    axfr_ips = _check_ip_list(v, "axfr_ips")
    seconds = {f: _check_seconds(v, f) for f in SECONDS_FIELDS}
    tags = _check_tags(ctx, v, [])
    _check_type_needs(v, kind, soa_email, master_ips)
    v.done()
    record = new_domain(
        ctx.store,
        domain=name,
        type=kind,
        now=ctx.now,
        now_iso=ctx.now_iso,
        soa_email=soa_email,
        status=status,
        description=description,
        group=group,
        master_ips=master_ips,
        axfr_ips=axfr_ips,
        seconds={f: s for f, s in seconds.items() if s is not None},
        tags=tags,
    )
    p.add_grant("domain", record["id"], name)
    return domain_view(record)


@handles("domains.import")
def domains_import(ctx: Ctx) -> dict[str, Any]:
    """Import a zone by transfer (AXFR) from a remote nameserver that allows it."""
    p = ctx.principal
    p.require_global("add_domains")
    v = Check(ctx.body)
    v.unknown(("domain", "remote_nameserver"))
    name = _check_domain_name(ctx, v, required=True)
    remote = v.string("remote_nameserver", required=True, min_len=1, max_len=DOMAIN_MAX)
    if isinstance(remote, str) and not _failed(v, "remote_nameserver"):
        host = remote.lower().rstrip(".")
        zone = name or "the zone"
        if not is_ip(host) and not hostname_ok(host):
            v.fail("remote_nameserver", "remote_nameserver must be a host name or an IP address")
        elif host in AXFR_REFUSES:
            v.fail(
                "remote_nameserver",
                f"{host} refused the zone transfer (AXFR) of {zone}: allow transfers from "
                f"{', '.join(ZONE_TRANSFER_SOURCES)} on that nameserver and try again",
            )
        elif host not in AXFR_ALLOWS:
            v.fail(
                "remote_nameserver",
                f"no answer from {host}: the nameserver could not be reached on port 53",
            )
    v.done()
    record = new_domain(
        ctx.store,
        domain=name,
        type="master",
        now=ctx.now,
        now_iso=ctx.now_iso,
        soa_email=f"hostmaster@{name}",
        description=f"Imported from {str(remote).lower().rstrip('.')}",
    )
    for fields in axfr_records(name):
        new_record(ctx.store, record, now_iso=ctx.now_iso, **fields)
    _changed(ctx, record)
    p.add_grant("domain", record["id"], name)
    return domain_view(record)


@handles("domains.view")
def domains_view(ctx: Ctx) -> dict[str, Any]:
    """One zone."""
    return domain_view(_domain(ctx))


@handles("domains.update")
def domains_update(ctx: Ctx) -> dict[str, Any]:
    """Change a zone's settings; the zone file is rendered again."""
    record = _domain(ctx, write=True)
    v = ctx.check()
    v.unknown(DOMAIN_FIELDS, nullable=("description", "group", "soa_email"))
    name = _check_domain_name(ctx, v, required=False, exclude=record["id"])
    kind = v.string("type", choices=("master", "slave"))
    status = v.string("status", choices=("active", "disabled"))
    description = v.string("description", min_len=1, max_len=255, nullable=True)
    group = v.string("group", min_len=1, max_len=50, nullable=True)
    soa_email = v.email("soa_email", nullable=True)
    master_ips = _check_ip_list(v, "master_ips")
    axfr_ips = _check_ip_list(v, "axfr_ips")
    seconds = {f: _check_seconds(v, f) for f in SECONDS_FIELDS}
    tags = _check_tags(ctx, v, list(record.get("tags") or []))
    _check_type_needs(
        v,
        kind or record.get("type"),
        soa_email if v.has("soa_email") else record.get("soa_email"),
        master_ips if v.has("master_ips") else record.get("master_ips"),
    )
    v.done()
    before = domain_view(record)
    changes: dict[str, Any] = {
        "domain": name,
        "type": kind,
        "status": status,
        "master_ips": master_ips,
        "axfr_ips": axfr_ips,
        "tags": tags,
        **seconds,
    }
    record.update({k: val for k, val in changes.items() if val is not None})
    for field, value in (
        ("description", description),
        ("group", group),
        ("soa_email", soa_email),
    ):
        if v.has(field):
            record[field] = value
    if domain_view(record) != before:  # an update that changes nothing keeps the serial
        _changed(ctx, record)
    return domain_view(record)


@handles("domains.delete")
def domains_delete(ctx: Ctx) -> None:
    """Delete a zone and all its records (irreversible)."""
    record = _domain(ctx, write=True)
    for rec in records_of(ctx.store, record["id"]):
        ctx.store.delete(RECORDS, rec["id"])
    ctx.store.delete(DOMAINS, record["id"])
    drop_grants(ctx.store, "domain", record["id"])


@handles("domains.clone")
def domains_clone(ctx: Ctx) -> dict[str, Any]:
    """Copy a zone's settings and records to a new zone."""
    source = _domain(ctx)
    p = ctx.principal
    p.require_global("add_domains")
    v = Check(ctx.body)
    v.unknown(("domain",))
    name = _check_domain_name(ctx, v, required=True)
    v.done()
    clone = new_domain(
        ctx.store,
        domain=name,
        type=str(source.get("type") or "master"),
        now=ctx.now,
        now_iso=ctx.now_iso,
        soa_email=source.get("soa_email"),
        status=str(source.get("status") or "active"),
        description=source.get("description"),
        group=source.get("group"),
        master_ips=source.get("master_ips"),
        axfr_ips=source.get("axfr_ips"),
        seconds={f: int(source.get(f) or 0) for f in SECONDS_FIELDS},
    )
    for rec in records_of(ctx.store, source["id"]):
        fields = {k: val for k, val in public(rec).items() if k in RECORD_FIELDS}
        new_record(ctx.store, clone, now_iso=ctx.now_iso, **fields)
    _changed(ctx, clone)
    p.add_grant("domain", clone["id"], name)
    return domain_view(clone)


# -- handlers: records ----------------------------------------------------------------------


@handles("domains.records.list")
def records_list(ctx: Ctx) -> Collection:
    """Every record of a zone."""
    domain = _domain(ctx)
    return Collection([record_view(r) for r in records_of(ctx.store, domain["id"])])


@handles("domains.records.create")
def records_create(ctx: Ctx) -> dict[str, Any]:
    """Add a record; the zone file is rendered again."""
    domain = _domain(ctx, write=True)
    body = ctx.require_body_object()
    v = Check(body)
    v.unknown(RECORD_FIELDS)
    kind = v.string("type", required=True, choices=RECORD_TYPES)
    if not isinstance(kind, str) or _failed(v, "type"):
        v.done()
    out = _check_record(ctx, v, domain, str(kind), creating=True)
    v.done()
    _check_null_mx(ctx, domain, out, None)
    record = new_record(ctx.store, domain, now_iso=ctx.now_iso, **out)
    _changed(ctx, domain)
    return record_view(record)


@handles("domains.records.view")
def records_view(ctx: Ctx) -> dict[str, Any]:
    """One record."""
    domain = _domain(ctx)
    return record_view(_record(ctx, domain))


@handles("domains.records.update")
def records_update(ctx: Ctx) -> dict[str, Any]:
    """Change a record (not its type); the zone file is rendered again."""
    domain = _domain(ctx, write=True)
    record = _record(ctx, domain)
    ctx.require_body_object()
    unknown = ctx.check()
    unknown.unknown(RECORD_FIELDS, nullable=RECORD_NULLABLE)
    body = unknown.body
    if "type" in body and body["type"] != record.get("type"):
        unknown.fail("type", "a record's type cannot change: delete it and create a new one")
    unknown.done()
    kind = str(record.get("type"))
    current = {k: record.get(k) for k in RECORD_FIELDS if k != "type"}
    # Validate the record as it would be: the stored values (already normal) with the changes.
    v = Check({**current, **{k: val for k, val in body.items() if k != "type"}})
    out = _check_record(ctx, v, domain, kind, creating=False, record_id=record["id"])
    v.done()
    _check_null_mx(ctx, domain, out, record["id"])
    changed = {f: out[f] for f in RECORD_FIELDS if f in out and out[f] != record.get(f)}
    if changed:  # an update that changes nothing keeps the serial
        record.update(changed, updated=ctx.now_iso)
        ctx.store.put(RECORDS, record["id"], record)
        _changed(ctx, domain)
    return record_view(record)


@handles("domains.records.delete")
def records_delete(ctx: Ctx) -> None:
    """Delete a record; the zone file is rendered again."""
    domain = _domain(ctx, write=True)
    record = _record(ctx, domain)
    ctx.store.delete(RECORDS, record["id"])
    _changed(ctx, domain)


@handles("domains.zone_file")
def zone_file(ctx: Ctx) -> dict[str, Any]:
    """The last rendered zone file."""
    domain = _domain(ctx)
    lines = domain.get("_zone_file")
    if not isinstance(lines, list):
        # A zone stored by other means (another area's test) is rendered on demand.
        lines = render_zone(ctx.store, domain)
    return {"zone_file": list(lines)}
