"""Managed support: contacts, credentials, SSH key, issues, compute settings, services, stats.

Choices where the reference is silent:

* Every operation answers 403 to a restricted user, before ids or bodies are looked at.
* Field lists are closed: an unknown body field is refused (400 naming it).
* Contacts: ``PUT`` changes only the fields sent; ``phone`` merges ``primary``/``secondary``
  (null clears both on update; a new contact's ``phone`` is an object or left out, never
  null). A phone number is an optional ``+`` then digits, spaces, dots, dashes or
  parentheses, 7 to 15 digits in all. Errors on phone numbers name ``phone.primary`` or
  ``phone.secondary``.
* Credentials answer ``{id, label, last_decrypted}`` only: neither the password nor the username
  ever leaves the simulator. Labels follow the reference's pattern (2..75 ASCII letters,
  digits, dashes, underscores, spaces and periods) on create and rename, and are unique (exact
  match, 400 on ``label``). ``username`` is a string when sent (null refused). Revoking a
  credential also removes it from the services that listed it.
* Services: a ``url`` address is ``http(s)://host[:port][/path][?query][#fragment]``; a ``tcp``
  address is ``host:port``. The 3..100 length applies to the address as sent; the fragment is
  dropped before storing. A host in private address space (RFC 1918, IPv6 unique local) needs
  a ``region`` (validated against the region catalogue); any other host refuses one. An update
  is checked on the merged result; when it moves the address to a public host without
  mentioning ``region``, the old region is dropped rather than refused. A new or re-enabled
  service is ``pending`` for ``managed.check`` seconds (timing key; 5 s by default), then
  ``ok``; ``disable`` makes it ``disabled`` (idempotent) and enabling a service that is not
  disabled changes nothing.
* Compute settings exist for every instance of ``compute.instances`` (defaults until changed);
  only changed settings are stored, and settings of deleted instances are never shown.
* Stats are 5-minute points over the 24 hours before now, derived from the clock alone.
"""

from __future__ import annotations

import base64
import hashlib
import ipaddress
import math
import re
from typing import Any
from urllib.parse import urlsplit

from tui.simulator.context import Collection, Ctx, public
from tui.simulator.errors import not_found
from tui.simulator.handlers.images import region_exists
from tui.simulator.registry import handles, transition
from tui.simulator.store import Store
from tui.simulator.validate import Check, is_ip

CONTACTS = "managed.contacts"
CREDENTIALS = "managed.credentials"
ISSUES = "managed.issues"
SETTINGS = "managed.compute_settings"
SERVICES = "managed.services"
INSTANCES = "compute.instances"

CONTACT_ID_START = 7100
CREDENTIAL_ID_START = 9900
SERVICE_ID_START = 52000
ISSUE_ID_START = 823000

CHECK_TIMING = "managed.check"
CHECK_TRANSITION = "managed.service_checked"

CREDENTIAL_LABEL = re.compile(r"[A-Za-z0-9_ .-]{2,75}")
"""The reference's credential label pattern: ASCII letters, digits, ``-``, ``_``, space, ``.``."""
PHONE = re.compile(r"\+?[0-9 ().\-]{7,25}")
PHONE_DIGITS = (7, 15)
HOSTNAME = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9\-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9\-]{1,63})*")
EMAIL_MAX = 254
PRIVATE_NETWORKS = tuple(
    ipaddress.ip_network(n) for n in ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7")
)
"""Private address space (RFC 1918 and IPv6 unique local): such hosts need a ``region``."""

DEFAULT_SSH: dict[str, Any] = {"access": True, "ip": "any", "port": None, "user": None}
SSH_KEY_COMMENT = "managedservices@cloudtui"

SERVICE_FIELDS = (
    "label",
    "service_type",
    "address",
    "timeout",
    "body",
    "consultation_group",
    "credentials",
    "notes",
    "region",
)
SERVICE_TYPES = ("url", "tcp")

STATS_STEP = 300
STATS_SPAN = 24 * 3600
STATS_SERIES: dict[str, tuple[float, float, float, int]] = {
    # name: (base, daily swing, noise, decimals)
    "cpu": (14.0, 9.0, 6.0, 2),
    "disk": (120.0, 70.0, 40.0, 1),
    "swap": (2.0, 1.5, 1.5, 2),
    "net_in": (180_000.0, 120_000.0, 60_000.0, 0),
    "net_out": (420_000.0, 260_000.0, 120_000.0, 0),
}


# -- shared helpers -------------------------------------------------------------------------


def _guard(ctx: Ctx) -> None:
    """Managed support is for unrestricted users only."""
    ctx.principal.require_unrestricted()


def _int_key(record: dict[str, Any]) -> int:
    try:
        return int(record.get("id") or 0)
    except (TypeError, ValueError):
        return 0


def is_phone(text: str) -> bool:
    """True when ``text`` looks like a phone number."""
    digits = sum(ch.isdigit() for ch in text)
    return bool(PHONE.fullmatch(text)) and PHONE_DIGITS[0] <= digits <= PHONE_DIGITS[1]


# -- records (also used by the seeder) ------------------------------------------------------


def new_contact(
    store: Store,
    *,
    name: str,
    email: str,
    now_iso: str,
    group: str | None = None,
    primary: str | None = None,
    secondary: str | None = None,
) -> dict[str, Any]:
    """Build and store a contact."""
    contact_id = store.next_id("managed.contact", start=CONTACT_ID_START)
    record = {
        "id": contact_id,
        "name": name,
        "email": email,
        "group": group,
        "phone": {"primary": primary, "secondary": secondary},
        "updated": now_iso,
    }
    return store.put(CONTACTS, contact_id, record)


def new_credential(
    store: Store, *, label: str, password: str, username: str | None = None
) -> dict[str, Any]:
    """Build and store a credential; the secrets live only in ``_``-prefixed fields."""
    credential_id = store.next_id("managed.credential", start=CREDENTIAL_ID_START)
    record = {
        "id": credential_id,
        "label": label,
        "last_decrypted": None,
        "_username": username,
        "_password": password,
    }
    return store.put(CREDENTIALS, credential_id, record)


def new_service(
    store: Store, fields: dict[str, Any], *, status: str, now_iso: str
) -> dict[str, Any]:
    """Build and store a monitored service from validated ``fields``."""
    service_id = store.next_id("managed.service", start=SERVICE_ID_START)
    record = {
        "id": service_id,
        "label": fields["label"],
        "status": status,
        "service_type": fields["service_type"],
        "address": fields["address"],
        "timeout": fields["timeout"],
        "body": fields.get("body"),
        "consultation_group": fields.get("consultation_group") or "",
        "credentials": list(fields.get("credentials") or []),
        "notes": fields.get("notes"),
        "region": fields.get("region"),
        "created": now_iso,
        "updated": now_iso,
    }
    return store.put(SERVICES, service_id, record)


def new_issue(
    store: Store,
    *,
    created: str,
    summary: str,
    services: list[int],
    ticket_id: int,
) -> dict[str, Any]:
    """Build and store an issue with its support ticket."""
    issue_id = store.next_id("managed.issue", start=ISSUE_ID_START)
    record = {
        "id": issue_id,
        "created": created,
        "entity": {
            "id": ticket_id,
            "label": summary,
            "type": "ticket",
            "url": f"/support/tickets/{ticket_id}",
        },
        "services": list(services),
        "ticket": {"id": ticket_id, "opened": created, "summary": summary},
    }
    return store.put(ISSUES, issue_id, record)


def ssh_key_for(account: str) -> str:
    """The account's managed-support public key: a well-formed, deterministic ed25519 key."""
    seed = hashlib.sha256(f"cloudtui-managed-support:{account}".encode()).digest()
    kind = b"ssh-ed25519"
    blob = len(kind).to_bytes(4, "big") + kind + len(seed).to_bytes(4, "big") + seed
    return f"ssh-ed25519 {base64.b64encode(blob).decode()} {SSH_KEY_COMMENT}"


def stats_series(now: float) -> dict[str, list[dict[str, float]]]:
    """Five series of 5-minute points over the last 24 hours, a pure function of ``now``."""
    end = int(now // STATS_STEP) * STATS_STEP
    times = range(end - STATS_SPAN + STATS_STEP, end + 1, STATS_STEP)
    out: dict[str, list[dict[str, float]]] = {}
    for name, (base, swing, noise, decimals) in STATS_SERIES.items():
        points = []
        for t in times:
            # A daily rhythm peaking mid-afternoon UTC, plus repeatable jitter per timestamp.
            phase = 2 * math.pi * ((t % 86400) / 86400 - 0.4)
            digest = hashlib.sha256(f"{name}:{t}".encode()).digest()
            jitter = int.from_bytes(digest[:4], "big") / 2**32
            value = max(0.0, base + swing * math.cos(phase) + noise * (jitter - 0.5))
            if name == "cpu":
                value = min(value, 100.0)
            points.append({"x": t * 1000, "y": round(value, decimals)})
        out[name] = points
    return out


# -- transitions ----------------------------------------------------------------------------


@transition(CHECK_TRANSITION)
def service_checked(store: Store, now: float, id: int) -> None:
    """The first check of a new or re-enabled service succeeded."""
    record = store.get(SERVICES, id)
    if record is not None and record.get("status") == "pending":
        record["status"] = "ok"
        store.put(SERVICES, id, record)


# -- contacts -------------------------------------------------------------------------------


def _check_phone(v: Check, *, create: bool) -> tuple[bool, dict[str, Any] | None]:
    """``(present, numbers)``: ``numbers`` None means both cleared (updates only)."""
    if not v.has("phone"):
        return False, None
    raw = v.raw("phone")
    if raw is None and not create:
        return True, None
    if not isinstance(raw, dict):
        v.fail("phone", "phone must be an object with primary and secondary")
        return False, None
    out: dict[str, Any] = {}
    for key in raw:
        if key not in ("primary", "secondary"):
            v.fail(f"phone.{key}", f"phone.{key} is not a recognised field")
    for key in ("primary", "secondary"):
        if key not in raw:
            continue
        value = raw[key]
        if value is None:
            out[key] = None
        elif not isinstance(value, str) or not is_phone(value):
            v.fail(
                f"phone.{key}",
                f"phone.{key} must be a phone number (optional +, then 7 to 15 digits)",
            )
        else:
            out[key] = value
    return True, out


def _check_contact(v: Check, *, create: bool) -> dict[str, Any]:
    """Validated contact changes (only fields present in the body)."""
    # An update clears the group or both numbers with null; on create null is "not given".
    v.unknown(("name", "email", "group", "phone"), nullable=() if create else ("group", "phone"))
    changes: dict[str, Any] = {}
    name = v.string("name", required=create, min_len=2, max_len=64)
    email = v.email("email", required=create)
    if isinstance(email, str) and len(email) > EMAIL_MAX:
        v.fail("email", f"email must be at most {EMAIL_MAX} characters")
    group = v.string("group", min_len=2, max_len=50, nullable=True)
    has_phone, phone = _check_phone(v, create=create)
    for field, value in (("name", name), ("email", email), ("group", group)):
        if v.has(field):
            changes[field] = value
    if has_phone:
        changes["phone"] = phone
    return changes


def _apply_contact(record: dict[str, Any], changes: dict[str, Any]) -> None:
    for field in ("name", "email", "group"):
        if field in changes:
            record[field] = changes[field]
    if "phone" in changes:
        numbers = changes["phone"]
        phone = dict(record.get("phone") or {"primary": None, "secondary": None})
        if numbers is None:
            phone = {"primary": None, "secondary": None}
        else:
            phone.update(numbers)
        record["phone"] = phone


def _contact(ctx: Ctx) -> dict[str, Any]:
    record = ctx.store.get(CONTACTS, ctx.param_int("contactId"))
    if record is None:
        raise not_found("Contact not found")
    return record


@handles("managed.contacts.list")
def contacts_list(ctx: Ctx) -> Collection:
    """Every contact, by id."""
    _guard(ctx)
    return Collection([public(r) for r in sorted(ctx.store.rows(CONTACTS), key=_int_key)])


@handles("managed.contacts.create")
def contacts_create(ctx: Ctx) -> dict[str, Any]:
    """Add a contact."""
    _guard(ctx)
    v = Check(ctx.body)
    changes = _check_contact(v, create=True)
    v.done()
    record = new_contact(
        ctx.store, name=changes["name"], email=changes["email"], now_iso=ctx.now_iso
    )
    _apply_contact(record, changes)
    ctx.store.put(CONTACTS, record["id"], record)
    return public(record)


@handles("managed.contacts.view")
def contacts_view(ctx: Ctx) -> dict[str, Any]:
    """One contact."""
    _guard(ctx)
    return public(_contact(ctx))


@handles("managed.contacts.update")
def contacts_update(ctx: Ctx) -> dict[str, Any]:
    """Change the fields sent."""
    _guard(ctx)
    record = _contact(ctx)
    v = ctx.check()
    changes = _check_contact(v, create=False)
    v.done()
    _apply_contact(record, changes)
    record["updated"] = ctx.now_iso
    ctx.store.put(CONTACTS, record["id"], record)
    return public(record)


@handles("managed.contacts.delete")
def contacts_delete(ctx: Ctx) -> None:
    """Delete a contact."""
    _guard(ctx)
    record = _contact(ctx)
    ctx.store.delete(CONTACTS, record["id"])


# -- credentials ----------------------------------------------------------------------------


def _credential(ctx: Ctx) -> dict[str, Any]:
    record = ctx.store.get(CREDENTIALS, ctx.param_int("credentialId"))
    if record is None:
        raise not_found("Credential not found")
    return record


def _check_credential_label(ctx: Ctx, v: Check, *, exclude: object = None) -> Any:
    label = v.string(
        "label",
        required=True,
        min_len=2,
        max_len=75,
        pattern=CREDENTIAL_LABEL,
        pattern_reason="label may hold only ASCII letters, digits, -, _, spaces and periods",
    )
    if isinstance(label, str) and any(
        r.get("label") == label and str(r.get("id")) != str(exclude)
        for r in ctx.store.rows(CREDENTIALS)
    ):
        v.fail("label", "label must be unique: another credential already uses it")
    return label


@handles("managed.credentials.list")
def credentials_list(ctx: Ctx) -> Collection:
    """Every credential (no secrets), by id."""
    _guard(ctx)
    return Collection([public(r) for r in sorted(ctx.store.rows(CREDENTIALS), key=_int_key)])


@handles("managed.credentials.create")
def credentials_create(ctx: Ctx) -> dict[str, Any]:
    """Store a credential; the answer never carries the password."""
    _guard(ctx)
    v = Check(ctx.body)
    v.unknown(("label", "password", "username"))
    label = _check_credential_label(ctx, v)
    password = v.string("password", required=True, min_len=1)
    username = v.string("username", max_len=5000)
    v.done()
    record = new_credential(ctx.store, label=label, password=password, username=username)
    return public(record)


@handles("managed.credentials.sshkey")
def credentials_sshkey(ctx: Ctx) -> dict[str, Any]:
    """The account's managed-support public key."""
    _guard(ctx)
    return {"ssh_key": ssh_key_for(ctx.principal.username)}


@handles("managed.credentials.view")
def credentials_view(ctx: Ctx) -> dict[str, Any]:
    """One credential (no secrets)."""
    _guard(ctx)
    return public(_credential(ctx))


@handles("managed.credentials.update")
def credentials_update(ctx: Ctx) -> dict[str, Any]:
    """Rename a credential (the label is the only field this operation changes)."""
    _guard(ctx)
    record = _credential(ctx)
    v = ctx.check()
    v.unknown(("label",))
    label = _check_credential_label(ctx, v, exclude=record["id"])
    v.done()
    record["label"] = label
    ctx.store.put(CREDENTIALS, record["id"], record)
    return public(record)


@handles("managed.credentials.revoke")
def credentials_revoke(ctx: Ctx) -> None:
    """Delete a credential and drop it from every service that listed it."""
    _guard(ctx)
    record = _credential(ctx)
    ctx.store.delete(CREDENTIALS, record["id"])
    for service in ctx.store.rows(SERVICES):
        ids = service.get("credentials") or []
        if record["id"] in ids:
            service["credentials"] = [i for i in ids if i != record["id"]]
            ctx.store.put(SERVICES, service["id"], service)


@handles("managed.credentials.update_secret")
def credentials_update_secret(ctx: Ctx) -> None:
    """Replace the password (required) and the username (when sent)."""
    _guard(ctx)
    record = _credential(ctx)
    v = Check(ctx.body)
    v.unknown(("password", "username"))
    password = v.string("password", required=True, min_len=1)
    username = v.string("username", max_len=5000)
    v.done()
    record["_password"] = password
    if v.has("username"):
        record["_username"] = username
    ctx.store.put(CREDENTIALS, record["id"], record)


# -- issues ---------------------------------------------------------------------------------


@handles("managed.issues.list")
def issues_list(ctx: Ctx) -> Collection:
    """Every issue, newest first."""
    _guard(ctx)
    rows = sorted(ctx.store.rows(ISSUES), key=lambda r: (str(r.get("created")), _int_key(r)))
    return Collection([public(r) for r in reversed(rows)])


@handles("managed.issues.view")
def issues_view(ctx: Ctx) -> dict[str, Any]:
    """One issue."""
    _guard(ctx)
    record = ctx.store.get(ISSUES, ctx.param_int("issueId"))
    if record is None:
        raise not_found("Issue not found")
    return public(record)


# -- compute settings -----------------------------------------------------------------------


def settings_view(store: Store, instance: dict[str, Any]) -> dict[str, Any]:
    """The settings of one instance: stored changes over the defaults, live label and group."""
    stored = store.get(SETTINGS, instance["id"]) or {}
    return {
        "id": instance["id"],
        "label": instance.get("label"),
        "group": instance.get("group") or "",
        "ssh": {**DEFAULT_SSH, **(stored.get("ssh") or {})},
    }


def _instance(ctx: Ctx) -> dict[str, Any]:
    instance = ctx.store.get(INSTANCES, ctx.param_int("computeId"))
    if instance is None:
        raise not_found("Instance not found")
    return instance


def _check_ssh(v: Check) -> dict[str, Any]:
    """Validated ``ssh`` changes; errors name ``ssh.<field>``."""
    raw = v.obj("ssh", required=True)
    if raw is None:
        return {}
    sv = Check(raw)
    sv.unknown(("access", "ip", "port", "user"), nullable=("port", "user"))
    access = sv.boolean("access")
    ip = sv.string("ip")
    if isinstance(ip, str) and ip != "any" and not is_ip(ip):
        sv.fail("ip", "ip must be 'any' or a valid IP address")
    port = sv.integer("port", lo=1, hi=65535, nullable=True)
    user = sv.string("user", max_len=32, nullable=True)
    for error in sv.errors:
        field = error.get("field")
        v.fail(f"ssh.{field}" if field else "ssh", f"ssh.{error['reason']}")
    values = {"access": access, "ip": ip, "port": port, "user": user}
    return {k: val for k, val in values.items() if k in raw}


@handles("managed.compute_settings.list")
def compute_settings_list(ctx: Ctx) -> Collection:
    """One entry per existing instance, by instance id."""
    _guard(ctx)
    instances = sorted(ctx.store.rows(INSTANCES), key=_int_key)
    return Collection([settings_view(ctx.store, i) for i in instances])


@handles("managed.compute_settings.view")
def compute_settings_view(ctx: Ctx) -> dict[str, Any]:
    """The settings of one instance."""
    _guard(ctx)
    return settings_view(ctx.store, _instance(ctx))


@handles("managed.compute_settings.update")
def compute_settings_update(ctx: Ctx) -> dict[str, Any]:
    """Change support's SSH access to one instance."""
    _guard(ctx)
    instance = _instance(ctx)
    v = ctx.check()
    v.unknown(("ssh",))
    changes = _check_ssh(v)
    v.done()
    stored = ctx.store.get(SETTINGS, instance["id"]) or {"id": instance["id"], "ssh": {}}
    stored["ssh"] = {**DEFAULT_SSH, **(stored.get("ssh") or {}), **changes}
    ctx.store.put(SETTINGS, instance["id"], stored)
    return settings_view(ctx.store, instance)


# -- services -------------------------------------------------------------------------------


def _split_address(address: str, service_type: str) -> tuple[str | None, str]:
    """``(problem, stored address)``: why the address is unusable (None when fine), and the
    address without its fragment."""
    stored = address.split("#", 1)[0]
    if any(ch.isspace() for ch in address):
        return "address must not contain spaces", stored
    if service_type == "tcp":
        if "://" in address or "/" in stored or "?" in stored:
            return "a tcp address is host:port", stored
        text = "tcp://" + stored
    else:
        text = stored
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError:
        return "address has an invalid host or port", stored
    host = parts.hostname
    if service_type == "url":
        if parts.scheme not in ("http", "https"):
            return "a url address starts with http:// or https://", stored
    elif port is None:
        return "a tcp address needs a port (host:port)", stored
    if not host or not (is_ip(host) or HOSTNAME.fullmatch(host)):
        return "address has no valid host", stored
    if port is not None and port < 1:
        return "address port must be between 1 and 65535", stored
    return None, stored


def _is_private_host(address: str, service_type: str) -> bool:
    text = address if service_type == "url" else "tcp://" + address
    try:
        host = urlsplit(text).hostname
    except ValueError:
        return False
    if not host:
        return False
    try:
        addr = ipaddress.ip_address(host)
    except ValueError:
        return False
    return any(addr in net for net in PRIVATE_NETWORKS if net.version == addr.version)


def _check_service(
    ctx: Ctx, v: Check, current: dict[str, Any] | None
) -> tuple[Check, dict[str, Any]]:
    """Validate a create (``current`` None) or an update, on the merged result.

    Returns:
        The check (call ``done()``) and the merged service fields.
    """
    create = current is None
    v.unknown(SERVICE_FIELDS, nullable=("body", "consultation_group", "notes", "region"))
    v.string("label", required=create, min_len=3, max_len=64)
    v.string("service_type", required=create, choices=SERVICE_TYPES)
    v.string("address", required=create, min_len=3, max_len=100)
    v.integer("timeout", required=create, lo=1, hi=255)
    v.string("body", max_len=100, nullable=True)
    v.string("consultation_group", max_len=50, nullable=True)
    credentials = v.int_list("credentials")
    v.string("notes", nullable=True)
    v.string("region", nullable=True)
    if isinstance(credentials, list):
        unknown = [c for c in credentials if ctx.store.get(CREDENTIALS, c) is None]
        if unknown:
            v.fail("credentials", f"credentials must be existing credential ids (not {unknown})")
    failed = {e.get("field") for e in v.errors}

    merged: dict[str, Any] = dict(current) if current is not None else {}
    for field in SERVICE_FIELDS:
        if v.has(field) and field not in failed:
            merged[field] = v.raw(field)
    if isinstance(merged.get("credentials"), list):
        merged["credentials"] = list(dict.fromkeys(merged["credentials"]))

    service_type = merged.get("service_type")
    address = merged.get("address")
    if (
        isinstance(address, str)
        and service_type in SERVICE_TYPES
        and not failed & {"address", "service_type"}
    ):
        problem, stored = _split_address(address, service_type)
        if problem is not None:
            field = "address" if v.has("address") or create else "service_type"
            v.fail(field, f"{problem} (service_type {service_type})")
        else:
            merged["address"] = stored
            private = _is_private_host(stored, service_type)
            if not v.has("region") and not create and not private:
                # The update moved the service to a public host: its old region no longer applies.
                merged["region"] = None
            region = merged.get("region")
            if "region" not in failed:
                if private and region is None:
                    v.fail("region", "region is required when the address is a private IP")
                elif not private and region is not None:
                    v.fail("region", "region is allowed only when the address is a private IP")
    region = v.raw("region")
    if isinstance(region, str) and "region" not in failed and not region_exists(ctx.store, region):
        v.fail("region", "region is not valid")
    return v, merged


def _service(ctx: Ctx) -> dict[str, Any]:
    record = ctx.store.get(SERVICES, ctx.param_int("serviceId"))
    if record is None:
        raise not_found("Service not found")
    return record


def _start_checks(ctx: Ctx, record: dict[str, Any]) -> None:
    record["status"] = "pending"
    ctx.store.cancel_events(CHECK_TRANSITION, id=record["id"])
    ctx.schedule(CHECK_TRANSITION, after=ctx.delay(CHECK_TIMING), id=record["id"])


@handles("managed.services.list")
def services_list(ctx: Ctx) -> Collection:
    """Every monitored service, by id."""
    _guard(ctx)
    return Collection([public(r) for r in sorted(ctx.store.rows(SERVICES), key=_int_key)])


@handles("managed.services.create")
def services_create(ctx: Ctx) -> dict[str, Any]:
    """Add a service; monitoring begins (``pending``, then ``ok``)."""
    _guard(ctx)
    v, merged = _check_service(ctx, Check(ctx.body), None)
    v.done()
    record = new_service(ctx.store, merged, status="pending", now_iso=ctx.now_iso)
    _start_checks(ctx, record)
    return public(record)


@handles("managed.services.view")
def services_view(ctx: Ctx) -> dict[str, Any]:
    """One service."""
    _guard(ctx)
    return public(_service(ctx))


@handles("managed.services.update")
def services_update(ctx: Ctx) -> dict[str, Any]:
    """Change a service; the merged result must satisfy every rule."""
    _guard(ctx)
    record = _service(ctx)
    v, merged = _check_service(ctx, ctx.check(), record)
    v.done()
    for field in SERVICE_FIELDS:
        if field in merged:
            record[field] = merged[field]
    if record.get("consultation_group") is None:
        record["consultation_group"] = ""
    record["updated"] = ctx.now_iso
    ctx.store.put(SERVICES, record["id"], record)
    return public(record)


@handles("managed.services.delete")
def services_delete(ctx: Ctx) -> None:
    """Stop monitoring and delete the service."""
    _guard(ctx)
    record = _service(ctx)
    ctx.store.delete(SERVICES, record["id"])
    ctx.store.cancel_events(CHECK_TRANSITION, id=record["id"])


@handles("managed.services.disable")
def services_disable(ctx: Ctx) -> dict[str, Any]:
    """Pause monitoring."""
    _guard(ctx)
    record = _service(ctx)
    if record.get("status") != "disabled":
        record["status"] = "disabled"
        record["updated"] = ctx.now_iso
        ctx.store.cancel_events(CHECK_TRANSITION, id=record["id"])
        ctx.store.put(SERVICES, record["id"], record)
    return public(record)


@handles("managed.services.enable")
def services_enable(ctx: Ctx) -> dict[str, Any]:
    """Resume monitoring of a disabled service (``pending``, then ``ok``)."""
    _guard(ctx)
    record = _service(ctx)
    if record.get("status") == "disabled":
        _start_checks(ctx, record)
        record["updated"] = ctx.now_iso
        ctx.store.put(SERVICES, record["id"], record)
    return public(record)


# -- stats ----------------------------------------------------------------------------------


@handles("managed.stats")
def stats(ctx: Ctx) -> dict[str, Any]:
    """Combined usage over the last 24 hours."""
    _guard(ctx)
    return {"data": stats_series(ctx.now)}
