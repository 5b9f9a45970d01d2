"""How two objects are matched: small named functions the relations table refers to (headless).

A :class:`Matcher` turns a value read on each side of a relation into a *key*; two objects are
related when a key of one equals a key of the other, or, for a matcher with ``covers``, when
one side's key covers the other's (an allow-list range covers an address). Keys are plain
hashable values, so the index finds partners with dictionary lookups and updates one object
without touching the others.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

Key = Hashable
KeyFunction = Callable[[Any], Key | None]


def same_id(value: Any) -> Key | None:
    """An id: integers and integer text are one key (``51200`` and ``"51200"``)."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int):
        return value
    text = str(value).strip()
    if not text:
        return None
    return int(text) if text.isdigit() else text


def same_text(value: Any) -> Key | None:
    """Text compared exactly (a tag's label)."""
    return value if isinstance(value, str) and value else None


@lru_cache(maxsize=1 << 16)
def _address(text: str) -> tuple[int, int] | None:
    if "/" in text:
        # An instance's IPv6 comes as ``address/128``: a host prefix names the address itself.
        text, _, prefix = text.partition("/")
        if not prefix.isdigit() or int(prefix) not in (32, 128):
            return None
    text = text.strip()
    family, version = (socket.AF_INET6, 6) if ":" in text else (socket.AF_INET, 4)
    try:
        packed = socket.inet_pton(family, text)  # strict, and ten times ipaddress's speed
    except (OSError, ValueError):
        return None
    return version, int.from_bytes(packed, "big")


def address(value: Any) -> Key | None:
    """An IP address as ``(version, number)``: every spelling of one address is one key.

    ``2001:db8::1``, ``2001:0db8:0:0::1`` and ``2001:db8::1/128`` are the same address.
    """
    return _address(value) if isinstance(value, str) else None


def address_of_host_port(value: Any) -> Key | None:
    """The address of a balancer node's ``ip:port`` (``[v6]:port`` too; a bare address as is)."""
    if not isinstance(value, str):
        return None
    text = value.strip()
    if text.startswith("["):
        host, _, _rest = text[1:].partition("]")
        return _address(host)
    if text.count(":") == 1:
        text = text.partition(":")[0]
    return _address(text)


def dns_name(value: Any) -> Key | None:
    """A host name compared as DNS does: case-insensitive, the final dot optional."""
    if not isinstance(value, str):
        return None
    name = value.strip().rstrip(".").lower()
    return name or None


@lru_cache(maxsize=4096)
def _network(text: str) -> tuple[int, int, int] | None:
    try:
        net = ipaddress.ip_network(text.strip(), strict=False)
    except ValueError:
        return None
    return net.version, int(net.network_address), net.prefixlen


def network(value: Any) -> Key | None:
    """An allow-list entry (an address or a CIDR range) as ``(version, first, prefix)``.

    ``0.0.0.0/0`` and ``::/0`` are None: a range open to every address is no link to any one
    instance (the account check reports it as a risk of its own); a delete never breaks it.
    """
    net = _network(value) if isinstance(value, str) else None
    return None if net is not None and net[2] == 0 else net


def network_covers(net: Key, addr: Key) -> bool:
    """Whether the range ``net`` (from :func:`network`) holds the address ``addr``."""
    if not (isinstance(net, tuple) and isinstance(addr, tuple)):
        return False
    version, first, prefix = net
    addr_version, number = addr
    if version != addr_version:
        return False
    bits = 32 if version == 4 else 128
    shift = bits - prefix
    return bool(first >> shift == number >> shift)


def host_of_network(net: Key) -> Key | None:
    """The one address of a single-host range (``/32``, ``/128``), for a direct lookup."""
    if not isinstance(net, tuple):
        return None
    version, first, prefix = net
    return (version, first) if prefix == (32 if version == 4 else 128) else None


def bucket_grant(value: Any) -> Key | None:
    """An access key's ``bucket_access`` item as ``(cluster, bucket name)``."""
    if not isinstance(value, Mapping):
        return None
    cluster, name = value.get("cluster"), value.get("bucket_name")
    return (cluster, name) if cluster and name else None


def bucket_itself(value: Any) -> Key | None:
    """A bucket row as ``(cluster, label)``: its id among all clusters."""
    if not isinstance(value, Mapping):
        return None
    cluster, name = value.get("cluster"), value.get("label")
    return (cluster, name) if cluster and name else None


@dataclass(frozen=True)
class Matcher:
    """How the values of a relation's two sides are compared.

    Attributes:
        source_key: Key of a value read on the source side.
        target_key: Key of a value read on the target side.
        covers: ``covers(source key, target key)`` for matchers whose keys are not compared
            for equality (a range and an address); None: equal keys match.
        exact: For ``covers`` matchers, the one target key a source key can match when it is
            that narrow (a ``/32`` range is one address), so it is looked up directly.
        structural: The sides are a parent and its child, related by how they were listed,
            not by any value (an instance and its configs).
    """

    source_key: KeyFunction
    target_key: KeyFunction
    covers: Callable[[Key, Key], bool] | None = None
    exact: Callable[[Key], Key | None] | None = None
    structural: bool = False


MATCHERS: dict[str, Matcher] = {
    "parent": Matcher(same_id, same_id, structural=True),
    "same_id": Matcher(same_id, same_id),
    "same_text": Matcher(same_text, same_text),
    "address": Matcher(address, address),
    "host_port": Matcher(address_of_host_port, address),
    "dns_name": Matcher(dns_name, dns_name),
    "cidr": Matcher(network, address, covers=network_covers, exact=host_of_network),
    "bucket": Matcher(bucket_grant, bucket_itself),
}
"""Every matcher by the name the relations table uses."""
