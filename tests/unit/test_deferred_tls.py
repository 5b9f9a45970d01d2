"""Certificates for TLS are loaded by a client's first https request, not when it is made."""

from __future__ import annotations

import ssl

import httpx

from tui.api.transport import DeferredTlsTransport

LIMITS = httpx.Limits(max_connections=4)


def _context(pool: httpx.AsyncHTTPTransport) -> ssl.SSLContext:
    context: ssl.SSLContext = pool._pool._ssl_context  # type: ignore[attr-defined]
    return context


def test_no_pool_and_no_certificates_before_a_request() -> None:
    transport = DeferredTlsTransport(LIMITS)
    assert transport._plain is None and transport._tls is None


def test_https_gets_a_verifying_pool_with_the_certificates_and_http_one_trusting_nothing() -> None:
    transport = DeferredTlsTransport(LIMITS)
    tls = transport._pool_for(httpx.Request("GET", "https://api.example.com/v4/profile"))
    plain = transport._pool_for(httpx.Request("GET", "http://127.0.0.1:8080/v4/profile"))
    assert tls is not plain
    assert _context(tls).verify_mode == ssl.CERT_REQUIRED and _context(tls).check_hostname
    assert _context(tls).cert_store_stats()["x509_ca"] > 0
    # Plain http never does TLS; if it ever did, nothing would be trusted (no silent bypass).
    assert _context(plain).verify_mode == ssl.CERT_REQUIRED and _context(plain).check_hostname
    assert _context(plain).cert_store_stats()["x509_ca"] == 0
    assert transport._pool_for(httpx.Request("GET", "https://other.example.com/")) is tls


async def test_a_plain_request_goes_out_and_closing_closes_the_pools() -> None:
    from tests.integration.test_bad_servers import Served
    from tui.simulator import Simulator

    served = Served(Simulator(seed=False))
    served.start()
    try:
        transport = DeferredTlsTransport(LIMITS)
        async with httpx.AsyncClient(transport=transport) as client:
            answer = await client.get(served.url + "/regions")
            assert answer.status_code == 200
            assert transport._tls is None, "an http request loaded the certificates"
            pool = transport._plain._pool  # type: ignore[union-attr]
            assert len(pool.connections) == 1  # kept alive for the next request
        assert pool.connections == []
    finally:
        served.stop()
