"""The TLS certificates load balancer configs serve, and when they expire (headless).

The API never answers a config's certificate: ``ssl_cert`` reads ``<REDACTED>`` (only
``ssl_commonname`` and ``ssl_fingerprint`` are derived from it). The certificate is read where
it can be:

1. from the config itself, when an answer does carry the PEM;
2. else from the balancer: a TLS handshake with its address on the config's port
   (:func:`probe_certificate`), which is what its clients see;
3. in the demo, from the simulator, which stands in for the balancers too
   (:func:`simulator_source`).

The PEM is then read with ``cryptography`` (:func:`not_after`).
"""

from __future__ import annotations

import asyncio
import contextlib
import ssl
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from cryptography import x509

from tui.models.pem import certificate_blocks

CertificateSource = Callable[[Mapping[str, Any], Mapping[str, Any]], Awaitable[str | None]]
"""``(balancer, config) -> PEM`` of the certificate the config serves (None: none)."""

PROBE_TIMEOUT = 5.0
"""Seconds a handshake with a balancer may take."""


def not_after(pem: str) -> float:
    """Epoch seconds at which the first certificate of ``pem`` (the server's own) expires.

    Raises:
        ValueError: No readable certificate.
    """
    first = certificate_blocks(pem)[0]
    certificate = x509.load_pem_x509_certificate(first.encode("ascii", "replace"))
    return certificate.not_valid_after_utc.timestamp()


def pem_in_config(config: Mapping[str, Any]) -> str | None:
    """The certificate a config answer carries, when it is a PEM (not ``<REDACTED>``)."""
    value = config.get("ssl_cert")
    if isinstance(value, str) and "-----BEGIN CERTIFICATE-----" in value.replace("\\n", "\n"):
        return value
    return None


async def probe_certificate(
    host: str, port: int, *, server_name: str = "", seconds: float = PROBE_TIMEOUT
) -> str | None:
    """The certificate ``host:port`` presents in a TLS handshake, as PEM.

    Nothing is verified (an expired certificate is what is looked for) and nothing is sent
    after the handshake.

    Args:
        host: Address of the balancer.
        port: The config's port.
        server_name: Name sent in SNI ('' sends none).
        seconds: How long the connection and handshake may take.

    Raises:
        OSError: No connection or no handshake (``TimeoutError`` included).
    """
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    _reader, writer = await asyncio.wait_for(
        asyncio.open_connection(host, port, ssl=context, server_hostname=server_name),
        seconds,
    )
    try:
        tls = writer.get_extra_info("ssl_object")
        der = tls.getpeercert(binary_form=True) if tls is not None else None
    finally:
        writer.close()
        with contextlib.suppress(OSError, ssl.SSLError):
            await asyncio.wait_for(writer.wait_closed(), seconds)
    return ssl.DER_cert_to_PEM_cert(der) if der else None


def _hostname(name: Any) -> str:
    """``name`` when it can be sent in SNI (a host name, not an address or a wildcard)."""
    if not isinstance(name, str) or not name or "*" in name:
        return ""
    return "" if name.replace(".", "").isdigit() or ":" in name else name


def network_source(seconds: float = PROBE_TIMEOUT) -> CertificateSource:
    """Certificates read by a TLS handshake with each balancer's IPv4 address (else hostname)."""

    async def source(balancer: Mapping[str, Any], config: Mapping[str, Any]) -> str | None:
        host = balancer.get("ipv4") or balancer.get("hostname")
        if isinstance(host, list):
            host = host[0] if host else None
        port = config.get("port")
        if not isinstance(host, str) or not host or not isinstance(port, int):
            return None
        name = _hostname(config.get("ssl_commonname"))
        return await probe_certificate(host, port, server_name=name, seconds=seconds)

    return source


def simulator_source(simulator: Any) -> CertificateSource:
    """Certificates as the demo's balancers would present them: the simulator keeps each
    config's certificate (and answers ``<REDACTED>`` for it, as the API does)."""

    async def source(_balancer: Mapping[str, Any], config: Mapping[str, Any]) -> str | None:
        from tui.simulator.handlers.loadbalancers import CONFIGS

        stored = simulator.store.get(CONFIGS, config.get("id"))
        pem = stored.get("_ssl_cert") if isinstance(stored, Mapping) else None
        return pem if isinstance(pem, str) and pem else None

    return source
