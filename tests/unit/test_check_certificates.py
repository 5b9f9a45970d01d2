"""Certificates of balancer ports: read from a PEM, from a TLS handshake on 127.0.0.1, and a
port whose handshake fails is noted, not fatal."""

from __future__ import annotations

import asyncio
import ssl
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from tests.unit.tls_certs import self_signed
from tui.check.certificates import network_source, not_after, pem_in_config, probe_certificate

ENDS = 1_900_000_000.0


@pytest.fixture
async def tls_port(tmp_path: Path) -> AsyncIterator[int]:
    """A TLS server on 127.0.0.1 serving a certificate that ends at :data:`ENDS`."""
    cert, key = self_signed(ENDS, name="lb.example")
    (tmp_path / "cert.pem").write_text(cert)
    (tmp_path / "key.pem").write_text(key)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(tmp_path / "cert.pem", tmp_path / "key.pem")

    async def answer(_reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writer.close()

    server = await asyncio.start_server(answer, "127.0.0.1", 0, ssl=context)
    try:
        yield server.sockets[0].getsockname()[1]
    finally:
        server.close()
        await server.wait_closed()


def test_not_after_reads_the_first_certificate_of_a_chain() -> None:
    first, _ = self_signed(ENDS)
    second, _ = self_signed(ENDS + 86400 * 365)
    assert not_after(first + second) == ENDS
    assert not_after(first.replace("\n", "\\n")) == ENDS  # kept on one line, as in bodies
    with pytest.raises(ValueError):
        not_after("<REDACTED>")


def test_a_config_answer_gives_its_pem_only_when_it_carries_one() -> None:
    pem, _ = self_signed(ENDS)
    assert pem_in_config({"ssl_cert": pem}) == pem
    assert pem_in_config({"ssl_cert": "<REDACTED>"}) is None
    assert pem_in_config({"ssl_cert": None}) is None


async def test_the_handshake_gives_the_served_certificate(tls_port: int) -> None:
    pem = await probe_certificate("127.0.0.1", tls_port, server_name="lb.example")
    assert pem is not None and not_after(pem) == ENDS
    source = network_source(5.0)
    balancer: dict[str, Any] = {"ipv4": "127.0.0.1"}
    served = await source(balancer, {"port": tls_port, "ssl_commonname": "lb.example"})
    assert served is not None and not_after(served) == ENDS


async def test_a_port_without_tls_fails_with_an_os_error(tls_port: int) -> None:
    server = await asyncio.start_server(lambda _r, w: w.close(), "127.0.0.1", 0)
    plain = server.sockets[0].getsockname()[1]
    try:
        with pytest.raises(OSError):
            await probe_certificate("127.0.0.1", plain, seconds=5.0)
    finally:
        server.close()
        await server.wait_closed()


async def test_a_failed_handshake_is_noted_and_the_check_goes_on() -> None:
    from tui.check.gather import gather
    from tui.check.rules import BY_ID
    from tui.simulator import Simulator, VirtualClock

    async def refused(_balancer: Any, _config: Any) -> str | None:
        raise ConnectionRefusedError("connection refused")

    sim = Simulator(clock=VirtualClock())
    client = sim.client("unrestricted")
    try:
        got = await gather(client, [BY_ID["lb-certificate-expiry"]], certificates=refused)
    finally:
        await client.aclose()
    assert got.errors == {} and got.listings["lb_certificates"] == []
    assert any("web-frontend:443" in note and "refused" in note for note in got.notes)
