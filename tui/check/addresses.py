"""Which IP addresses the account owns: its instances' and its load balancers' (headless).

The dangling-reference rules ask this: a DNS record or a balancer node naming an address no
object of the account holds points at something deleted (or at an address someone else will
get next). A relations index that knows every kind's addresses can later answer the same
question; the rules only call :func:`owned_addresses` and :func:`node_host`.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any

Address = ipaddress.IPv4Address | ipaddress.IPv6Address


def parse_address(value: Any) -> Address | None:
    """``value`` as an IP address: ``192.0.2.1``, ``2001:db8::1`` or ``2001:db8::1/128``
    (a SLAAC address is listed with its prefix length); None for anything else."""
    if not isinstance(value, str) or not value:
        return None
    text = value.strip()
    if "/" in text:
        text, _, length = text.partition("/")
        if length not in ("32", "128"):
            return None  # a range, not one address
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        return None


def _listed(value: str) -> str:
    """An address as the API lists it, in the form a parsed address's ``str`` has: its text,
    less a ``/32`` or ``/128``, in lower case. IPv4 is compared as listed (10,000 instances hold
    20,000 addresses: parsing them all costs a large share of the check); IPv6 is parsed, since
    one address has several spellings (``100::f03c`` and ``100:0:f03c`` are the same)."""
    text = value.strip().lower()
    text = text.partition("/")[0] if text.endswith(("/32", "/128")) else text
    return _canonical_v6(text) if ":" in text else text


@lru_cache(maxsize=65536)
def _canonical_v6(text: str) -> str:
    try:
        return str(ipaddress.ip_address(text))
    except ValueError:
        return text


def _addresses_of(item: Mapping[str, Any]) -> Iterable[str]:
    for name in ("ipv4", "ipv6"):
        value = item.get(name)
        for text in value if isinstance(value, list) else [value]:
            if isinstance(text, str) and text:
                yield _listed(text)


def owned_addresses(
    instances: Iterable[Mapping[str, Any]], balancers: Iterable[Mapping[str, Any]]
) -> frozenset[str]:
    """Every public and private address of the account's instances and load balancers, as
    listed (compare a parsed address's ``str`` with it: :func:`holds`)."""
    found: set[str] = set()
    for item in instances:
        found.update(_addresses_of(item))
    for item in balancers:
        found.update(_addresses_of(item))
    return frozenset(found)


def instance_addresses_by_region(
    instances: Iterable[Mapping[str, Any]],
) -> dict[str, frozenset[str]]:
    """Region -> the addresses of the instances there (private addresses are per region)."""
    found: dict[str, set[str]] = {}
    for item in instances:
        found.setdefault(str(item.get("region")), set()).update(_addresses_of(item))
    return {region: frozenset(addresses) for region, addresses in found.items()}


def holds(addresses: frozenset[str], address: Address) -> bool:
    """True when ``address`` is one of ``addresses`` (as :func:`owned_addresses` gives them)."""
    return str(address) in addresses


def node_host(address: Any) -> Address | None:
    """The backend a balancer node names: ``192.168.1.5``, ``192.168.1.5:8080`` or
    ``[fd00::5]:8080``; None when it is none of these."""
    if not isinstance(address, str):
        return None
    text = address.strip()
    if text.startswith("["):
        host, sep, _rest = text[1:].partition("]")
        return parse_address(host) if sep else None
    if text.count(":") == 1:
        text = text.partition(":")[0]
    return parse_address(text)
