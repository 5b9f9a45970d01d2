"""Demo load balancers: a production web front end with http and https ports (a real self-signed
certificate), a staging TCP balancer with the PROXY protocol, and one whose only port has no
backends yet. Balancer labels follow the reference's ASCII pattern, so markup and non-ASCII
demo text live in their tags. Nodes point at private addresses and use every mode. The staging
balancer also keeps a forgotten https port (no health check, an expired certificate, its only
backend down)."""

from __future__ import annotations

import ipaddress
from typing import Any

from tui.simulator.context import SeedContext
from tui.simulator.handlers.images import CONTRACT_REGIONS, region_exists
from tui.simulator.handlers.loadbalancers import (
    PRIVATE_NETWORKS,
    new_balancer,
    new_config,
    new_node,
)
from tui.simulator.registry import seeder

DAY = 86400

DEMO_CERT = """-----BEGIN CERTIFICATE-----
MIIBtzCCAV2gAwIBAgIEXu0AATAKBggqhkjOPQQDAjBBMQswCQYDVQQGEwJERTEX
MBUGA1UECgwORGVtbyBTaG9wIEdtYkgxGTAXBgNVBAMMEHNob3AuZXhhbXBsZS5u
ZXQwHhcNMjUwMTAxMDAwMDAwWhcNMzUwMTAxMDAwMDAwWjBBMQswCQYDVQQGEwJE
RTEXMBUGA1UECgwORGVtbyBTaG9wIEdtYkgxGTAXBgNVBAMMEHNob3AuZXhhbXBs
ZS5uZXQwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAAQ0EtqeCvUbaauZE67dNT+/
9CE4TgSNnjE85VK+y+fv14vWb2cH7cU/5Pgz5gPZCDbS3EObL5UgmfBoXnH/Yp7F
o0MwQTAxBgNVHREEKjAoghBzaG9wLmV4YW1wbGUubmV0ghR3d3cuc2hvcC5leGFt
cGxlLm5ldDAMBgNVHRMBAf8EAjAAMAoGCCqGSM49BAMCA0gAMEUCIQC9kOUXTj1F
4h/ccCzz7u34rTSBDLB/oqXjshzSnC/rBgIgIjPdjMn/Y9Y5WltbUh4SLGUOksef
a8Os0qanqF6c0K4=
-----END CERTIFICATE-----
"""
"""Self-signed EC P-256 certificate for ``shop.example.net`` (2025-01-01 to 2035-01-01),
generated once with ``cryptography`` so seeding is fast and deterministic."""

DEMO_KEY = """-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgrrLHKD3xEnKSKKKH
5bvfvu7h1f5dbtjw5dJqzSE9hNShRANCAAQ0EtqeCvUbaauZE67dNT+/9CE4TgSN
njE85VK+y+fv14vWb2cH7cU/5Pgz5gPZCDbS3EObL5UgmfBoXnH/Yp7F
-----END PRIVATE KEY-----
"""
"""The demo certificate's private key (a demo secret, used nowhere else)."""

EXPIRED_CERT = """-----BEGIN CERTIFICATE-----
MIIBtTCCAVygAwIBAgIEXu0AAjAKBggqhkjOPQQDAjBIMQswCQYDVQQGEwJERTEX
MBUGA1UECgwORGVtbyBTaG9wIEdtYkgxIDAeBgNVBAMMF2FwaS5zdGFnaW5nLmV4
YW1wbGUuY29tMB4XDTI0MDEwMTAwMDAwMFoXDTI1MDEwMTAwMDAwMFowSDELMAkG
A1UEBhMCREUxFzAVBgNVBAoMDkRlbW8gU2hvcCBHbWJIMSAwHgYDVQQDDBdhcGku
c3RhZ2luZy5leGFtcGxlLmNvbTBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABFe9
60FWnQxXYSAoYLQRuBIfFB8Crf4qJSWLhtLyM6m2GkhnxqIMPiradJFe7Mcsk1Jm
8+B8xnNDtHKhvCzpW7WjNDAyMCIGA1UdEQQbMBmCF2FwaS5zdGFnaW5nLmV4YW1w
bGUuY29tMAwGA1UdEwEB/wQCMAAwCgYIKoZIzj0EAwIDRwAwRAIgMKx6AkXpD8X5
z5X0x2fqsQT6e9kl/N2WjNH12vrhnl4CIDAOCb+Yy0SUsWW87r1TFctdOSNIjxX+
qKZmhYpE3YWG
-----END CERTIFICATE-----
"""
"""Self-signed EC P-256 certificate for ``api.staging.example.com`` that expired on
2025-01-01 (the account check's demo finding), generated once like :data:`DEMO_CERT`."""

EXPIRED_KEY = """-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgU1dBuWAJA/jQXC/x
NTfNip6C4PY/EdkibjuzOPMEbTKhRANCAARXvetBVp0MV2EgKGC0EbgSHxQfAq3+
KiUli4bS8jOpthpIZ8aiDD4q2nSRXuzHLJNSZvPgfMZzQ7Ryobws6Vu1
-----END PRIVATE KEY-----
"""
"""The expired certificate's private key (a demo secret, used nowhere else)."""

DEMO_CERT_COMMON_NAME = "shop.example.net"
DEMO_CERT_FINGERPRINT = (
    "E7:A4:70:10:E6:96:FE:2C:D8:AF:2F:0D:22:83:64:F0:"
    "24:1A:06:DE:42:2E:2F:5D:27:AD:5D:D4:E6:B9:E7:F7"
)


def _region(ctx: SeedContext, wanted: str) -> str:
    """``wanted`` when the catalogue has it, else the first region there is."""
    if region_exists(ctx.store, wanted):
        return wanted
    return next(iter(ctx.store.table("compute.regions")), CONTRACT_REGIONS[0])


def _private_addresses(ctx: SeedContext, region: str) -> list[str]:
    """Private IPv4 addresses of seeded instances in ``region``, by instance id."""
    rows = [r for r in ctx.store.rows("compute.instances") if r.get("region") == region]
    rows.sort(key=lambda r: int(r["id"]) if str(r.get("id", "")).isdigit() else 0)
    found = []
    for row in rows:
        for address in row.get("ipv4") or []:
            try:
                ip = ipaddress.ip_address(str(address))
            except ValueError:
                continue
            if ip.version == 4 and any(ip in net for net in PRIVATE_NETWORKS):
                found.append(str(ip))
    return found


def _addresses(ctx: SeedContext, region: str, fallback: list[str]) -> list[str]:
    """Backend addresses: instances' private ones first (their status decides health)."""
    owned = _private_addresses(ctx, region)
    return owned + [a for a in fallback if a not in owned]


@seeder("loadbalancers", order=25)
def seed_loadbalancers(ctx: SeedContext) -> None:
    """Three balancers with configs and nodes (plus ``scale // 25`` bare ones); grants."""
    web_region = _region(ctx, "us-east")
    web = new_balancer(
        ctx.store,
        region=web_region,
        now_iso=ctx.iso(-120 * DAY),
        label="web-frontend",
        client_conn_throttle=10,
        tags=["web"],
        transfer={"in": 48211.6, "out": 391877.25},
    )
    web["updated"] = ctx.iso(-9 * DAY)
    hosts = _addresses(ctx, web_region, ["192.168.130.11", "192.168.130.12", "192.168.130.13"])
    http = new_config(
        ctx.store,
        web["id"],
        port=80,
        protocol="http",
        algorithm="roundrobin",
        check="http",
        check_path="/healthz",
        check_interval=10,
        check_timeout=5,
        check_attempts=2,
    )
    https = new_config(
        ctx.store,
        web["id"],
        port=443,
        protocol="https",
        algorithm="leastconn",
        stickiness="http_cookie",
        check="http_body",
        check_path="/status",
        check_body="ok",
        check_interval=15,
        check_timeout=5,
        _ssl_cert=DEMO_CERT,
        _ssl_key=DEMO_KEY,
    )
    for config in (http, https):
        port = "" if config is http else ":8443"
        new_node(
            ctx.store,
            web["id"],
            config["id"],
            label="web-1",
            address=hosts[0] + port,
            weight=100,
            health="UP",
        )
        new_node(
            ctx.store,
            web["id"],
            config["id"],
            label="web-2",
            address=hosts[1] + port,
            weight=100,
            health="UP",
        )
        new_node(
            ctx.store,
            web["id"],
            config["id"],
            label="web-3 (old)",
            address=hosts[2] + port,
            mode="drain",
            weight=20,
            health="DOWN",
        )
    new_node(
        ctx.store,
        web["id"],
        https["id"],
        label="maintenance-page",
        address="192.168.130.50:8443",
        mode="backup",
        weight=1,
        health="UP",
    )

    staging_region = _region(ctx, "eu-west")
    staging = new_balancer(
        ctx.store,
        region=staging_region,
        now_iso=ctx.iso(-30 * DAY),
        label="staging-api",
        # Markup-like text lives in a tag: balancer labels are ASCII letters, digits, - and _.
        tags=["staging", "[staging]"],
        transfer={"in": 912.5, "out": 2210.0},
    )
    api = new_config(
        ctx.store,
        staging["id"],
        port=8080,
        protocol="tcp",
        algorithm="source",
        stickiness="table",
        proxy_protocol="v2",
        check="connection",
        check_interval=20,
        check_timeout=3,
        check_passive=False,
    )
    api_hosts = _addresses(ctx, staging_region, ["10.8.0.21", "10.8.0.22", "10.8.0.23"])
    for label, address, mode, weight, health in (
        ("api-a", api_hosts[0], "accept", 50, "UP"),
        ("api-b", api_hosts[1], "reject", 50, "UP"),
        ("api-canary", api_hosts[2], "backup", 10, "DOWN"),
    ):
        new_node(
            ctx.store,
            staging["id"],
            api["id"],
            label=label,
            address=address,
            mode=mode,
            weight=weight,
            health=health,
        )

    # A forgotten TLS port: no health check, an expired certificate, its only backend gone
    # (the account check finds each of these).
    legacy_tls = new_config(
        ctx.store,
        staging["id"],
        port=8443,
        protocol="https",
        check="none",
        _ssl_cert=EXPIRED_CERT,
        _ssl_key=EXPIRED_KEY,
    )
    new_node(
        ctx.store,
        staging["id"],
        legacy_tls["id"],
        label="api-old",
        address="10.8.0.40",
        health="DOWN",
    )

    zurich = new_balancer(
        ctx.store,
        region=_region(ctx, "eu-central"),
        now_iso=ctx.iso(-2 * DAY),
        label="zurich-intern",
        # Non-ASCII text lives in a tag, as for volumes.
        tags=["Zürich"],
        client_conn_throttle=5,
    )
    # A port without backends: the demo shows the empty node list and its hint.
    new_config(ctx.store, zurich["id"], port=5432, protocol="tcp", check="connection")

    regions: list[Any] = list(ctx.store.table("compute.regions")) or list(CONTRACT_REGIONS)
    for n in range(ctx.scale // 25):
        bulk = new_balancer(
            ctx.store,
            region=str(regions[ctx.rng.randrange(len(regions))]),
            now_iso=ctx.iso(-ctx.rng.randrange(300) * DAY),
            label=f"bulk-lb-{n:05d}",
        )
        new_config(ctx.store, bulk["id"], port=80)

    ctx.grant("loadbalancer", staging["id"], staging["label"], "read_write")
    ctx.grant("loadbalancer", web["id"], web["label"], "read_only")
