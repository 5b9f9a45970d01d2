"""Load balancers, their port configs and backend nodes.

Tables: ``loadbalancers.balancers`` (read by the tags area for ``tags``),
``loadbalancers.configs`` (internal ``_balancer_id``; the certificate and key are kept in the
internal ``_ssl_cert`` and ``_ssl_key`` and never answered) and ``loadbalancers.nodes``
(internal ``_balancer_id`` and ``_config_id``).

Choices where the reference is silent:

* Balancer labels follow the public reference's pattern ``[a-zA-Z0-9-_]{3,32}`` on create and
  update alike, and are unique on the account ignoring case; a balancer created without a
  label gets ``lb-<id>``. Node labels (the reference gives only their 3..32 length) are
  3..32 characters of any script, brackets included, but no control characters, and need not
  be unique.
* ``tags`` are accepted on create as well as on update (the resource lists them); only
  unrestricted users may set or change them (403, field ``tags``), as for volumes.
* A new balancer gets one public IPv4 address (from the documentation ranges 203.0.113.0/24,
  198.51.100.0/24, 192.0.2.0/24, then 100.64.0.0/10), one IPv6 address under
  ``2001:db8:4c42::/48`` and the hostname ``lb-<a-b-c-d>.<region>.lb.cloud.example``.
  ``transfer`` ({in, out, total} in MB) starts at zero. An update may set ``transfer.in`` and
  ``transfer.out`` (non-negative numbers); ``total`` is always their sum and, when sent, must
  equal it (400, field ``transfer.total``).
* Creating a balancer with ``configs`` follows the reference: each config needs a unique port and
  at least one node (400, field ``configs[i].nodes``); errors inside name the nested field
  (``configs[0].nodes[1].address``) and nothing is created unless everything is valid. The
  config create endpoint accepts ``nodes`` too, optionally.
* ``check_interval`` is 2..3600 seconds. Checks ``http`` and ``http_body`` need ``check_path``
  (which must start with ``/``); ``http_body`` also needs ``check_body``. Stickiness
  ``http_cookie`` needs protocol ``http`` or ``https``. Port numbers enforce no protocol.
* A cross-field error names the field the request sent: ``check_timeout`` unless only
  ``check_interval`` was sent; ``proxy_protocol``/``stickiness`` unless only ``protocol`` was.
* TLS: ``ssl_cert`` holds one or more PEM certificates (the first is the balancer's, the rest its
  chain) and may hold Diffie-Hellman parameters; a private key in it is refused. ``ssl_key`` is
  an unencrypted PEM private key whose public key must match the certificate (400 on
  ``ssl_key``; on ``ssl_cert`` when only a new certificate was sent). Written ``\\n`` sequences
  count as line breaks. The literal ``<REDACTED>`` in a request means "keep the stored value",
  so a config read and sent back unchanged stays valid. An update switching away from https
  drops the stored certificate and key. ``ssl_commonname`` is the subject's CN (null without
  one); ``ssl_fingerprint`` the SHA-256 of the certificate as colon-separated upper-case hex.
* Node ``address`` is a private IP (10/8, 172.16/12, 192.168/16, or IPv6 fc00::/7; loopback,
  link-local and public addresses are refused), optionally with a port: ``192.168.1.5:8080`` or
  ``[fd00::5]:8080``. Without a port the backend is reached on the config's port. Two nodes of
  one config may not name the same backend (400, field ``address``). ``mode`` defaults to
  ``accept`` and ``weight`` to 50.
* Node ``status`` is derived when answering: ``UP`` when an instance in ``compute.instances``
  lists the address in ``ipv4`` and is running, ``DOWN`` when that instance is not running;
  otherwise the health the demo data recorded, or ``unknown`` for a backend the simulator
  knows nothing about. ``nodes_status`` counts ``UP`` as up and ``DOWN`` as down (``unknown``
  in neither).
* Restricted users need the global ``add_loadbalancers`` grant to create a balancer (403) and
  a ``loadbalancer`` grant to see one (404 otherwise) or, with ``read_write``, to change it, its
  configs or nodes (403 when read-only). Viewing a node needs only read access (the reference's
  ``read_write`` scope for node view is an OAuth scope, checked by the core).
* Answers: balancers carry ``id, label, region, hostname, ipv4, ipv6, client_conn_throttle,
  tags, transfer, created, updated``; configs add ``loadbalancer_id`` and ``nodes_status``;
  nodes add ``config_id``, ``loadbalancer_id`` and ``status``.
"""

from __future__ import annotations

import ipaddress
import math
import re
from typing import Any

from cryptography import x509
from cryptography.exceptions import UnsupportedAlgorithm
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.x509.oid import NameOID

from tui.models import pem
from tui.simulator.context import Collection, Ctx, public
from tui.simulator.errors import SimError, not_found
from tui.simulator.handlers.images import check_region, drop_grants
from tui.simulator.registry import handles
from tui.simulator.store import Store
from tui.simulator.validate import Check

BALANCERS = "loadbalancers.balancers"
CONFIGS = "loadbalancers.configs"
NODES = "loadbalancers.nodes"
INSTANCES = "compute.instances"
GRANT = "loadbalancer"

REDACTED = "<REDACTED>"
LABEL_MIN, LABEL_MAX = 3, 32
BALANCER_LABEL = re.compile(r"[A-Za-z0-9_-]{3,32}")
"""The reference's pattern for balancer labels (node labels have only a length)."""
THROTTLE_MAX = 20
WEIGHT_MAX, WEIGHT_DEFAULT = 255, 50
BALANCER_ID_START = 27000
CONFIG_ID_START = 41000
NODE_ID_START = 530000
HOST_SUFFIX = "lb.cloud.example"
IPV6_PREFIX = "2001:db8:4c42::"

CHOICES: dict[str, tuple[str, ...]] = {
    "protocol": ("http", "https", "tcp"),
    "algorithm": ("roundrobin", "leastconn", "source"),
    "stickiness": ("none", "table", "http_cookie"),
    "check": ("none", "connection", "http", "http_body"),
    "proxy_protocol": ("none", "v1", "v2"),
    "cipher_suite": ("recommended", "legacy"),
}
BOUNDS: dict[str, tuple[int, int]] = {
    "port": (1, 65535),
    "check_interval": (2, 3600),
    "check_timeout": (1, 30),
    "check_attempts": (1, 30),
}
TEXTS: dict[str, int] = {"check_path": 255, "check_body": 1024}
"""Free-text config fields and their maximum lengths."""
CONFIG_FIELDS = (
    *CHOICES,
    *BOUNDS,
    *TEXTS,
    "check_passive",
    "ssl_cert",
    "ssl_key",
)
CONFIG_NULLABLE = ("ssl_cert", "ssl_key", *TEXTS)
"""Config fields an update may set to null (to clear them)."""
CONFIG_DEFAULTS: dict[str, Any] = {
    "port": 80,
    "protocol": "http",
    "algorithm": "roundrobin",
    "stickiness": "none",
    "check": "none",
    "check_interval": 31,
    "check_timeout": 30,
    "check_attempts": 3,
    "check_path": None,
    "check_body": None,
    "check_passive": True,
    "proxy_protocol": "none",
    "cipher_suite": "recommended",
}
NODE_FIELDS = ("address", "label", "mode", "weight")
MODES = ("accept", "reject", "drain", "backup")
PRIVATE_NETWORKS = tuple(
    ipaddress.ip_network(n) for n in ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7")
)
PUBLIC_POOLS = tuple(
    ipaddress.ip_network(n)
    for n in ("203.0.113.0/24", "198.51.100.0/24", "192.0.2.0/24", "100.64.0.0/10")
)
"""Where balancer addresses come from: documentation ranges, then shared address space."""
_ABSENT = object()


# -- records --------------------------------------------------------------------------------


def _public_ipv4(store: Store) -> str:
    """The next unused public address of the pools."""
    n = store.next_id("loadbalancers.address", start=1)
    for net in PUBLIC_POOLS:
        usable = net.num_addresses - 2
        if n <= usable:
            return str(net.network_address + n)
        n -= usable
    raise SimError(503, "No public addresses left for load balancers")


def new_balancer(
    store: Store,
    *,
    region: str,
    now_iso: str,
    label: str | None = None,
    client_conn_throttle: int = 0,
    tags: list[str] | None = None,
    transfer: dict[str, float] | None = None,
) -> dict[str, Any]:
    """Build and store a balancer record with fresh addresses."""
    balancer_id = store.next_id("loadbalancers.balancer", start=BALANCER_ID_START)
    ipv4 = _public_ipv4(store)
    if label is None:
        label = _free_label(store, f"lb-{balancer_id}")
    traffic = dict(transfer or {"in": 0.0, "out": 0.0})
    traffic["total"] = round(float(traffic.get("in", 0)) + float(traffic.get("out", 0)), 3)
    record = {
        "id": balancer_id,
        "label": label,
        "region": region,
        "hostname": f"lb-{ipv4.replace('.', '-')}.{region}.{HOST_SUFFIX}",
        "ipv4": ipv4,
        "ipv6": f"{IPV6_PREFIX}{balancer_id - BALANCER_ID_START + 1:x}",
        "client_conn_throttle": client_conn_throttle,
        "tags": list(tags or []),
        "transfer": traffic,
        "created": now_iso,
        "updated": now_iso,
    }
    return store.put(BALANCERS, balancer_id, record)


def new_config(store: Store, balancer_id: int, **fields: Any) -> dict[str, Any]:
    """Build and store a config of ``balancer_id``.

    Args:
        store: The state.
        balancer_id: Owning balancer.
        **fields: Config fields (defaults fill the rest); ``_ssl_cert`` and ``_ssl_key`` hold the
            PEM texts, from which ``ssl_commonname`` and ``ssl_fingerprint`` are derived when
            not given.
    """
    config_id = store.next_id("loadbalancers.config", start=CONFIG_ID_START)
    record: dict[str, Any] = {"id": config_id, **CONFIG_DEFAULTS}
    record.update(fields)
    record["_balancer_id"] = balancer_id
    record.setdefault("_ssl_cert", None)
    record.setdefault("_ssl_key", None)
    if record["_ssl_cert"] and "ssl_fingerprint" not in fields:
        record.update(_tls_facts(parse_certificates(record["_ssl_cert"])[0]))
    record.setdefault("ssl_commonname", None)
    record.setdefault("ssl_fingerprint", None)
    return store.put(CONFIGS, config_id, record)


def new_node(
    store: Store, balancer_id: int, config_id: int, *, health: str | None = None, **fields: Any
) -> dict[str, Any]:
    """Build and store a node of config ``config_id``.

    Args:
        store: The state.
        balancer_id: Owning balancer.
        config_id: Owning config.
        health: ``UP`` or ``DOWN`` to show while no known instance owns the address.
        **fields: ``address``, ``label``, ``mode``, ``weight``.
    """
    node_id = store.next_id("loadbalancers.node", start=NODE_ID_START)
    record: dict[str, Any] = {
        "id": node_id,
        "label": None,
        "address": None,
        "mode": "accept",
        "weight": WEIGHT_DEFAULT,
    }
    record.update(fields)
    record.update(_balancer_id=balancer_id, _config_id=config_id, _health=health)
    return store.put(NODES, node_id, record)


def configs_of(store: Store, balancer_id: object) -> list[dict[str, Any]]:
    """Configs of a balancer, oldest first."""
    return [c for c in store.rows(CONFIGS) if str(c.get("_balancer_id")) == str(balancer_id)]


def nodes_of(store: Store, config_id: object) -> list[dict[str, Any]]:
    """Nodes of a config, oldest first."""
    return [n for n in store.rows(NODES) if str(n.get("_config_id")) == str(config_id)]


def address_owners(store: Store) -> dict[str, str]:
    """Instance addresses -> that instance's status (for node health)."""
    owners: dict[str, str] = {}
    for instance in store.rows(INSTANCES):
        addresses = instance.get("ipv4")
        for address in addresses if isinstance(addresses, list) else []:
            if isinstance(address, str):
                owners.setdefault(address, str(instance.get("status")))
    return owners


def node_status(record: dict[str, Any], owners: dict[str, str]) -> str:
    """``UP``, ``DOWN`` or ``unknown``: the backend's health as the balancer sees it."""
    split = split_address(str(record.get("address", "")))
    owner = owners.get(split[0]) if split else None
    if owner is not None:
        return "UP" if owner == "running" else "DOWN"
    health = record.get("_health")
    return health if health in ("UP", "DOWN") else "unknown"


def balancer_view(record: dict[str, Any]) -> dict[str, Any]:
    """The API representation of a balancer."""
    out = public(record)
    out.setdefault("tags", [])
    out.setdefault("transfer", {"in": 0.0, "out": 0.0, "total": 0.0})
    return out


def config_view(
    store: Store, record: dict[str, Any], owners: dict[str, str] | None = None
) -> dict[str, Any]:
    """The API representation of a config: secrets redacted, node health counted."""
    owners = address_owners(store) if owners is None else owners
    statuses = [node_status(n, owners) for n in nodes_of(store, record["id"])]
    out = public(record)
    out["loadbalancer_id"] = record.get("_balancer_id")
    # Never echo the certificate or key: only whether one is stored.
    out["ssl_cert"] = REDACTED if record.get("_ssl_cert") else None
    out["ssl_key"] = REDACTED if record.get("_ssl_key") else None
    out["nodes_status"] = {"up": statuses.count("UP"), "down": statuses.count("DOWN")}
    return out


def node_view(record: dict[str, Any], owners: dict[str, str]) -> dict[str, Any]:
    """The API representation of a node, with its derived health."""
    out = public(record)
    out["config_id"] = record.get("_config_id")
    out["loadbalancer_id"] = record.get("_balancer_id")
    out["status"] = node_status(record, owners)
    return out


# -- TLS ------------------------------------------------------------------------------------


def parse_certificates(text: str) -> list[x509.Certificate]:
    """The certificates of a PEM text, first (the balancer's own) to last.

    The shape is checked as a form checks it (:mod:`tui.models.pem`), so both say the same.

    Raises:
        ValueError: No certificate, an unreadable one, or a private key inside.
    """
    try:
        pems = pem.certificate_blocks(text)
    except ValueError as exc:
        raise ValueError(f"ssl_cert {exc}") from None
    certs = []
    for block in pems:
        try:
            certs.append(x509.load_pem_x509_certificate(block.encode()))
        except ValueError:
            raise ValueError("ssl_cert holds a certificate that cannot be read") from None
    return certs


def parse_private_key(text: str) -> Any:
    """The private key of a PEM text.

    Raises:
        ValueError: No readable, unencrypted private key.
    """
    try:
        block = pem.private_key_block(text)
    except ValueError as exc:
        raise ValueError(f"ssl_key {exc}") from None
    try:
        return serialization.load_pem_private_key(block.encode(), password=None)
    except TypeError:
        raise ValueError("ssl_key is encrypted: send it without a passphrase") from None
    except (ValueError, UnsupportedAlgorithm):
        raise ValueError("ssl_key holds a private key that cannot be read") from None


def _spki(public_key: Any) -> bytes:
    return bytes(
        public_key.public_bytes(
            serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo
        )
    )


def _tls_facts(cert: x509.Certificate) -> dict[str, Any]:
    """``ssl_commonname`` and ``ssl_fingerprint`` of a certificate."""
    names = cert.subject.get_attributes_for_oid(NameOID.COMMON_NAME)
    common = names[0].value if names else None
    if isinstance(common, bytes):
        common = common.decode("utf-8", "replace")
    digest = cert.fingerprint(hashes.SHA256())
    return {
        "ssl_commonname": common,
        "ssl_fingerprint": ":".join(f"{b:02X}" for b in digest),
    }


def _check_tls(v: Check, cert_text: str, key_text: str, key_sent: bool) -> dict[str, Any] | None:
    """Parse and match a certificate and key; derived facts, or None after recording errors."""
    cert: x509.Certificate | None = None
    key: Any = None
    try:
        cert = parse_certificates(cert_text)[0]
    except ValueError as exc:
        v.fail("ssl_cert", str(exc))
    try:
        key = parse_private_key(key_text)
    except ValueError as exc:
        v.fail("ssl_key", str(exc))
    if cert is None or key is None:
        return None
    if _spki(cert.public_key()) != _spki(key.public_key()):
        field = "ssl_key" if key_sent else "ssl_cert"
        v.fail(field, "ssl_key does not match the certificate in ssl_cert")
        return None
    return _tls_facts(cert)


# -- validation -----------------------------------------------------------------------------


def _merge(v: Check, sub: Check, prefix: str) -> None:
    """Copy ``sub``'s errors into ``v`` with field names under ``prefix``."""
    for err in sub.errors:
        field = err.get("field")
        v.fail(f"{prefix}.{field}" if field else prefix, err["reason"])


def _blame(v: Check, preferred: str, other: str) -> str:
    """The field a cross-field error names: ``preferred`` unless only ``other`` was sent."""
    return other if v.has(other) and not v.has(preferred) else preferred


def _label_text(v: Check, *, required: bool) -> Any:
    """A node's 3..32 character label on one line."""
    label = v.string("label", required=required, min_len=LABEL_MIN, max_len=LABEL_MAX)
    if isinstance(label, str) and any(ord(ch) < 32 or ord(ch) == 127 for ch in label):
        v.fail("label", "label must not contain control characters")
    return label


def _free_label(store: Store, wanted: str) -> str:
    """``wanted``, or ``wanted-2``, ``wanted-3`` ... when taken."""
    taken = {str(r.get("label", "")).casefold() for r in store.rows(BALANCERS)}
    label, n = wanted, 1
    while label.casefold() in taken:
        n += 1
        label = f"{wanted}-{n}"
    return label


def _check_balancer_label(ctx: Ctx, v: Check, *, exclude: object = None) -> Any:
    label = v.string(
        "label",
        min_len=LABEL_MIN,
        max_len=LABEL_MAX,
        pattern=BALANCER_LABEL,
        pattern_reason="label may hold only ASCII letters, digits, dashes and underscores",
    )
    if isinstance(label, str) and not any(e.get("field") == "label" for e in v.errors):
        for other in ctx.store.rows(BALANCERS):
            same = str(other.get("label", "")).casefold() == label.casefold()
            if same and str(other.get("id")) != str(exclude):
                v.fail("label", "label is already used by another load balancer on the account")
                break
    return label


def _check_tags(ctx: Ctx, v: Check, current: list[str]) -> Any:
    tags = v.string_list("tags")
    if isinstance(tags, list) and ctx.principal.restricted and sorted(tags) != sorted(current):
        raise SimError(403, "Only unrestricted users may add or change tags", "tags")
    return tags


def _check_transfer(v: Check, current: dict[str, Any]) -> dict[str, float] | None:
    """Validate ``transfer``; the new counters, or None when absent or invalid."""
    raw = v.obj("transfer")
    if raw is None:
        return None
    t = Check(raw)
    t.unknown(("in", "out", "total"))
    values: dict[str, float] = {}
    for key in ("in", "out", "total"):
        if key in raw:
            value = raw[key]
            number = isinstance(value, int | float) and not isinstance(value, bool)
            if not number or not math.isfinite(value) or value < 0:
                t.fail(key, f"{key} must be a non-negative number of MB")
            else:
                values[key] = float(value)
    incoming = values.get("in", float(current.get("in") or 0))
    outgoing = values.get("out", float(current.get("out") or 0))
    total = round(incoming + outgoing, 3)
    if "total" in values and abs(values["total"] - total) > 0.001:
        t.fail("total", f"total must equal in + out ({total:g})")
    _merge(v, t, "transfer")
    if t.errors:
        return None
    return {"in": incoming, "out": outgoing, "total": total}


def split_address(text: str) -> tuple[str, int | None] | None:
    """Host and optional port of a backend address, or None when malformed."""
    host, port = text, None
    if text.startswith("["):
        host, sep, rest = text[1:].partition("]")
        if not sep or not rest.startswith(":"):
            return None
        port = rest[1:]
    elif text.count(":") == 1:
        host, port = text.split(":")
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return None
    if port is None:
        return host, None
    if not (port.isascii() and port.isdigit()) or not 1 <= int(port) <= 65535:
        return None
    return host, int(port)


def _backend(address: str, config_port: int) -> tuple[str, int] | None:
    """The (host, port) a node address reaches, for duplicate detection."""
    split = split_address(address)
    if split is None:
        return None
    host, port = split
    return str(ipaddress.ip_address(host)), port if port is not None else config_port


def _check_node(
    v: Check,
    current: dict[str, Any] | None,
    config_port: int,
    taken: dict[tuple[str, int], str],
) -> dict[str, Any] | None:
    """Validate a node body (create when ``current`` is None); the fields to store, or None."""
    before = len(v.errors)
    creating = current is None
    fields: dict[str, Any] = {}
    label = _label_text(v, required=creating)
    if label is not None:
        fields["label"] = label
    address = v.string("address", required=creating)
    if isinstance(address, str):
        split = split_address(address)
        if split is None:
            v.fail(
                "address",
                "address must be a private IP address, optionally with :port "
                "(192.168.1.5 or 192.168.1.5:8080)",
            )
        elif not any(ipaddress.ip_address(split[0]) in n for n in PRIVATE_NETWORKS):
            v.fail(
                "address",
                "address must be a private address (10/8, 172.16/12, 192.168/16 or fc00::/7)",
            )
        else:
            backend = _backend(address, config_port)
            if backend in taken:
                v.fail("address", f"address is already used by node {taken[backend]!r}")
            fields["address"] = address
    if v.has("mode"):
        fields["mode"] = v.string("mode", choices=MODES)
    if v.has("weight"):
        fields["weight"] = v.integer("weight", lo=1, hi=WEIGHT_MAX)
    if len(v.errors) > before:
        return None
    return fields


def _check_new_nodes(
    v: Check, config_port: int, taken: dict[tuple[str, int], str], *, required: bool
) -> list[dict[str, Any]]:
    """Validate the ``nodes`` array of a config create; their fields (empty on errors)."""
    raw = v.raw("nodes")
    if raw is None:
        if required:
            v.fail("nodes", "each config of a new load balancer needs at least one node")
        return []
    if not isinstance(raw, list):
        v.fail("nodes", "nodes must be an array of objects")
        return []
    if required and not raw:
        v.fail("nodes", "each config of a new load balancer needs at least one node")
    planned: list[dict[str, Any]] = []
    for index, item in enumerate(raw):
        n = Check(item)
        n.unknown(NODE_FIELDS)
        fields = _check_node(n, None, config_port, taken)
        _merge(v, n, f"nodes[{index}]")
        if fields is not None:
            backend = _backend(fields["address"], config_port)
            if backend is not None:
                taken[backend] = fields["label"]
            planned.append(fields)
    return planned


def _check_config(
    v: Check, current: dict[str, Any] | None, other_ports: dict[int, str]
) -> dict[str, Any] | None:
    """Validate a config body (create when ``current`` is None).

    Returns:
        The complete config fields to store (including ``_ssl_cert``, ``_ssl_key`` and the
        derived TLS facts), or None when an error was recorded in ``v``.
    """
    before = len(v.errors)
    given: dict[str, Any] = {}
    for name, choices in CHOICES.items():
        if v.has(name):
            given[name] = v.string(name, choices=choices)
    for name, (lo, hi) in BOUNDS.items():
        if v.has(name):
            given[name] = v.integer(name, lo=lo, hi=hi)
    for name, max_len in TEXTS.items():
        if v.has(name):
            given[name] = v.string(name, nullable=True, max_len=max_len) or None
    if v.has("check_passive"):
        given["check_passive"] = v.boolean("check_passive")
    path = given.get("check_path")
    if isinstance(path, str) and not path.startswith("/"):
        v.fail("check_path", "check_path must start with /")
    cert_in = v.string("ssl_cert", nullable=True) if v.has("ssl_cert") else _ABSENT
    key_in = v.string("ssl_key", nullable=True) if v.has("ssl_key") else _ABSENT
    if len(v.errors) > before:
        return None

    merged: dict[str, Any] = dict(CONFIG_DEFAULTS)
    if current is not None:
        merged.update({k: current.get(k, merged[k]) for k in CONFIG_DEFAULTS})
    merged.update(given)
    protocol = merged["protocol"]

    port = merged["port"]
    if port in other_ports:
        v.fail("port", f"port {port} is already used by {other_ports[port]}")
    if merged["check_timeout"] >= merged["check_interval"]:
        v.fail(
            _blame(v, "check_timeout", "check_interval"),
            f"check_timeout ({merged['check_timeout']}) must be less than check_interval "
            f"({merged['check_interval']})",
        )
    if merged["check"] in ("http", "http_body") and not merged["check_path"]:
        v.fail("check_path", f"check {merged['check']} needs check_path")
    if merged["check"] == "http_body" and not merged["check_body"]:
        v.fail("check_body", "check http_body needs check_body")
    if merged["proxy_protocol"] in ("v1", "v2") and protocol != "tcp":
        v.fail(
            _blame(v, "proxy_protocol", "protocol"),
            f"proxy_protocol {merged['proxy_protocol']} needs protocol tcp (not {protocol})",
        )
    if merged["stickiness"] == "http_cookie" and protocol == "tcp":
        v.fail(
            _blame(v, "stickiness", "protocol"),
            "stickiness http_cookie needs protocol http or https",
        )

    # TLS: a sent value replaces the stored one; "<REDACTED>" (as answered) keeps it.
    cert = current.get("_ssl_cert") if current else None
    key = current.get("_ssl_key") if current else None
    if cert_in is not _ABSENT and cert_in != REDACTED:
        cert = cert_in or None
    if key_in is not _ABSENT and key_in != REDACTED:
        key = key_in or None
    tls: dict[str, Any] = {"ssl_commonname": None, "ssl_fingerprint": None}
    if protocol == "https":
        if not cert:
            v.fail("ssl_cert", "protocol https requires ssl_cert")
        if not key:
            v.fail("ssl_key", "protocol https requires ssl_key")
        if cert and key:
            key_sent = key_in is not _ABSENT and key_in != REDACTED
            facts = _check_tls(v, cert, key, key_sent)
            tls = facts or tls
    else:
        for name, value in (("ssl_cert", cert_in), ("ssl_key", key_in)):
            if value is not _ABSENT and value and value != REDACTED:
                v.fail(name, f"protocol {protocol} does not accept {name}")
        cert = key = None
    if len(v.errors) > before:
        return None
    merged.update(tls)
    merged["_ssl_cert"] = pem.unescape(cert) if cert else None
    merged["_ssl_key"] = pem.unescape(key) if key else None
    return merged


# -- lookups --------------------------------------------------------------------------------


def _balancer(ctx: Ctx) -> dict[str, Any]:
    record = ctx.store.get(BALANCERS, ctx.param_int("loadbalancerId"))
    if record is None or not ctx.principal.can_read(GRANT, record["id"]):
        raise not_found("Load balancer not found")
    return record


def _writable_balancer(ctx: Ctx) -> dict[str, Any]:
    record = _balancer(ctx)
    ctx.principal.require_write(GRANT, record["id"])
    return record


def _config(ctx: Ctx, balancer: dict[str, Any]) -> dict[str, Any]:
    record = ctx.store.get(CONFIGS, ctx.param_int("configId"))
    if record is None or str(record.get("_balancer_id")) != str(balancer["id"]):
        raise not_found("Config not found")
    return record


def _node(ctx: Ctx, config: dict[str, Any]) -> dict[str, Any]:
    record = ctx.store.get(NODES, ctx.param_int("nodeId"))
    if record is None or str(record.get("_config_id")) != str(config["id"]):
        raise not_found("Node not found")
    return record


def _ports(store: Store, balancer_id: object, exclude: object = None) -> dict[int, str]:
    """Ports in use on a balancer -> which config uses them."""
    return {
        int(c["port"]): f"config {c['id']}"
        for c in configs_of(store, balancer_id)
        if str(c["id"]) != str(exclude) and isinstance(c.get("port"), int)
    }


def _backends(
    store: Store, config: dict[str, Any], exclude: object = None
) -> dict[tuple[str, int], str]:
    """Backends already used by a config's nodes -> node label."""
    port = int(config.get("port") or 80)
    out: dict[tuple[str, int], str] = {}
    for node in nodes_of(store, config["id"]):
        backend = _backend(str(node.get("address", "")), port)
        if backend is not None and str(node["id"]) != str(exclude):
            out[backend] = str(node.get("label"))
    return out


def _touch(ctx: Ctx, balancer: dict[str, Any]) -> dict[str, Any]:
    balancer["updated"] = ctx.now_iso
    ctx.store.put(BALANCERS, balancer["id"], balancer)
    return balancer_view(balancer)


# -- balancers ------------------------------------------------------------------------------


@handles("loadbalancers.list")
def balancers_list(ctx: Ctx) -> Collection:
    """Every balancer the caller may see."""
    return Collection(
        [
            balancer_view(r)
            for r in ctx.store.rows(BALANCERS)
            if ctx.principal.can_read(GRANT, r["id"])
        ]
    )


@handles("loadbalancers.create")
def balancers_create(ctx: Ctx) -> dict[str, Any]:
    """Create a balancer, with its configs and their nodes all or nothing."""
    p = ctx.principal
    p.require_global("add_loadbalancers")
    v = Check(ctx.body)
    v.unknown(("region", "label", "client_conn_throttle", "configs", "tags"))
    region = check_region(ctx.store, v, required=True)
    label = _check_balancer_label(ctx, v)
    throttle = v.integer("client_conn_throttle", lo=0, hi=THROTTLE_MAX, default=0)
    tags = _check_tags(ctx, v, [])
    raw_configs = v.raw("configs")
    if raw_configs is None:
        raw_configs = []
    elif not isinstance(raw_configs, list):
        v.fail("configs", "configs must be an array of objects")
        raw_configs = []
    ports: dict[int, str] = {}
    plans: list[tuple[dict[str, Any], list[dict[str, Any]]]] = []
    for index, item in enumerate(raw_configs):
        sub = Check(item)
        sub.unknown((*CONFIG_FIELDS, "nodes"))
        fields = _check_config(sub, None, ports)
        port = fields["port"] if fields else CONFIG_DEFAULTS["port"]
        nodes = _check_new_nodes(sub, port, {}, required=True)
        _merge(v, sub, f"configs[{index}]")
        if fields is not None:
            ports[port] = f"configs[{index}]"
            plans.append((fields, nodes))
    v.done()
    record = new_balancer(
        ctx.store,
        region=str(region),
        now_iso=ctx.now_iso,
        label=label,
        client_conn_throttle=throttle,
        tags=tags,
    )
    for fields, nodes in plans:
        config = new_config(ctx.store, record["id"], **fields)
        for node in nodes:
            new_node(ctx.store, record["id"], config["id"], **node)
    p.add_grant(GRANT, record["id"], record["label"])
    return balancer_view(record)


@handles("loadbalancers.view")
def balancers_view(ctx: Ctx) -> dict[str, Any]:
    """One balancer."""
    return balancer_view(_balancer(ctx))


@handles("loadbalancers.update")
def balancers_update(ctx: Ctx) -> dict[str, Any]:
    """Change label, connection throttle, tags or the transfer counters."""
    record = _writable_balancer(ctx)
    v = ctx.check()
    v.unknown(("label", "client_conn_throttle", "tags", "transfer"))
    label = _check_balancer_label(ctx, v, exclude=record["id"])
    throttle = v.integer("client_conn_throttle", lo=0, hi=THROTTLE_MAX)
    tags = _check_tags(ctx, v, list(record.get("tags") or []))
    transfer = _check_transfer(v, dict(record.get("transfer") or {}))
    v.done()
    if label is not None:
        record["label"] = label
    if throttle is not None:
        record["client_conn_throttle"] = throttle
    if tags is not None:
        record["tags"] = list(tags)
    if transfer is not None:
        record["transfer"] = transfer
    return _touch(ctx, record)


@handles("loadbalancers.delete")
def balancers_delete(ctx: Ctx) -> None:
    """Delete a balancer with its configs and nodes (irreversible); its grants go too."""
    record = _writable_balancer(ctx)
    for node in [
        n for n in ctx.store.rows(NODES) if str(n.get("_balancer_id")) == str(record["id"])
    ]:
        ctx.store.delete(NODES, node["id"])
    for config in configs_of(ctx.store, record["id"]):
        ctx.store.delete(CONFIGS, config["id"])
    ctx.store.delete(BALANCERS, record["id"])
    drop_grants(ctx.store, GRANT, record["id"])


# -- configs --------------------------------------------------------------------------------


@handles("loadbalancers.configs.list")
def configs_list(ctx: Ctx) -> Collection:
    """The balancer's port configs."""
    balancer = _balancer(ctx)
    owners = address_owners(ctx.store)
    return Collection(
        [config_view(ctx.store, c, owners) for c in configs_of(ctx.store, balancer["id"])]
    )


@handles("loadbalancers.configs.create")
def configs_create(ctx: Ctx) -> dict[str, Any]:
    """Listen on another port, optionally with nodes (all or nothing)."""
    balancer = _writable_balancer(ctx)
    v = Check(ctx.body)
    v.unknown((*CONFIG_FIELDS, "nodes"))
    fields = _check_config(v, None, _ports(ctx.store, balancer["id"]))
    port = fields["port"] if fields else CONFIG_DEFAULTS["port"]
    nodes = _check_new_nodes(v, port, {}, required=False)
    v.done()
    assert fields is not None  # v.done() raised otherwise
    config = new_config(ctx.store, balancer["id"], **fields)
    for node in nodes:
        new_node(ctx.store, balancer["id"], config["id"], **node)
    return config_view(ctx.store, config)


@handles("loadbalancers.configs.view")
def configs_view(ctx: Ctx) -> dict[str, Any]:
    """One port config."""
    return config_view(ctx.store, _config(ctx, _balancer(ctx)))


@handles("loadbalancers.configs.update")
def configs_update(ctx: Ctx) -> dict[str, Any]:
    """Change a port config; every rule is checked on the result."""
    balancer = _writable_balancer(ctx)
    config = _config(ctx, balancer)
    v = ctx.check()
    v.unknown(CONFIG_FIELDS, nullable=CONFIG_NULLABLE)
    fields = _check_config(v, config, _ports(ctx.store, balancer["id"], exclude=config["id"]))
    v.done()
    assert fields is not None  # v.done() raised otherwise
    config.update(fields)
    ctx.store.put(CONFIGS, config["id"], config)
    return config_view(ctx.store, config)


@handles("loadbalancers.configs.delete")
def configs_delete(ctx: Ctx) -> None:
    """Delete a port config and its nodes."""
    balancer = _writable_balancer(ctx)
    config = _config(ctx, balancer)
    for node in nodes_of(ctx.store, config["id"]):
        ctx.store.delete(NODES, node["id"])
    ctx.store.delete(CONFIGS, config["id"])


# -- nodes ----------------------------------------------------------------------------------


@handles("loadbalancers.nodes.list")
def nodes_list(ctx: Ctx) -> Collection:
    """The config's backends."""
    config = _config(ctx, _balancer(ctx))
    owners = address_owners(ctx.store)
    return Collection([node_view(n, owners) for n in nodes_of(ctx.store, config["id"])])


@handles("loadbalancers.nodes.create")
def nodes_create(ctx: Ctx) -> dict[str, Any]:
    """Add a backend to a config."""
    balancer = _writable_balancer(ctx)
    config = _config(ctx, balancer)
    v = Check(ctx.body)
    v.unknown(NODE_FIELDS)
    fields = _check_node(v, None, int(config.get("port") or 80), _backends(ctx.store, config))
    v.done()
    assert fields is not None  # v.done() raised otherwise
    node = new_node(ctx.store, balancer["id"], config["id"], **fields)
    return node_view(node, address_owners(ctx.store))


@handles("loadbalancers.nodes.view")
def nodes_view(ctx: Ctx) -> dict[str, Any]:
    """One backend."""
    node = _node(ctx, _config(ctx, _balancer(ctx)))
    return node_view(node, address_owners(ctx.store))


@handles("loadbalancers.nodes.update")
def nodes_update(ctx: Ctx) -> dict[str, Any]:
    """Change a backend's label, address, mode or weight."""
    balancer = _writable_balancer(ctx)
    config = _config(ctx, balancer)
    node = _node(ctx, config)
    v = ctx.check()
    v.unknown(NODE_FIELDS)
    taken = _backends(ctx.store, config, exclude=node["id"])
    fields = _check_node(v, node, int(config.get("port") or 80), taken)
    v.done()
    assert fields is not None  # v.done() raised otherwise
    if "address" in fields and fields["address"] != node.get("address"):
        # Recorded demo health belonged to the old backend.
        node["_health"] = None
    node.update(fields)
    ctx.store.put(NODES, node["id"], node)
    return node_view(node, address_owners(ctx.store))


@handles("loadbalancers.nodes.delete")
def nodes_delete(ctx: Ctx) -> None:
    """Remove a backend (the instance itself is untouched)."""
    balancer = _writable_balancer(ctx)
    node = _node(ctx, _config(ctx, balancer))
    ctx.store.delete(NODES, node["id"])
