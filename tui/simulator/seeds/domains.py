"""Demo domains: a main zone with records of every type, its staging copy, a slave zone, a
disabled zone with a non-ASCII description, a punycode zone and an empty one; grants for the
restricted user."""

from __future__ import annotations

from typing import Any

from tui.simulator.context import SeedContext
from tui.simulator.handlers.domains import new_domain, new_record, zone_changed
from tui.simulator.registry import seeder

DAY = 86400

MAIN_RECORDS: tuple[dict[str, Any], ...] = (
    {"type": "A", "name": "", "target": "203.0.113.10", "ttl_sec": 3600},
    {"type": "AAAA", "name": "", "target": "2001:db8:10::10", "ttl_sec": 3600},
    {"type": "A", "name": "www", "target": "203.0.113.10", "ttl_sec": 3600},
    {"type": "AAAA", "name": "www", "target": "2001:db8:10::10", "ttl_sec": 3600},
    {"type": "A", "name": "mail", "target": "203.0.113.25", "ttl_sec": 3600},
    {"type": "A", "name": "sip", "target": "203.0.113.40", "ttl_sec": 3600},
    {"type": "NS", "name": "eu", "target": "ns1.eu-dns.example.net", "ttl_sec": 86400},
    {"type": "NS", "name": "eu", "target": "ns2.eu-dns.example.net", "ttl_sec": 86400},
    {"type": "MX", "name": "", "target": "mail.example.com", "priority": 10, "ttl_sec": 3600},
    {"type": "MX", "name": "", "target": "mx2.mailhost.example", "priority": 20, "ttl_sec": 3600},
    {"type": "CNAME", "name": "shop", "target": "shops.storefront.example", "ttl_sec": 300},
    {"type": "CNAME", "name": "status", "target": "example.statuspage.example", "ttl_sec": 300},
    {"type": "TXT", "name": "", "target": "v=spf1 mx ip4:203.0.113.25 -all", "ttl_sec": 3600},
    {
        "type": "TXT",
        "name": "_dmarc",
        "target": "v=DMARC1; p=quarantine; rua=mailto:dmarc@example.com",
        "ttl_sec": 3600,
    },
    {
        "type": "SRV",
        "service": "_sip.",
        "protocol": "_tcp",
        "priority": 10,
        "weight": 5,
        "port": 5060,
        "target": "sip.example.com",
        "ttl_sec": 3600,
    },
    {
        "type": "SRV",
        "service": "_xmpp-server.",
        "protocol": "_tcp",
        "priority": 5,
        "weight": 0,
        "port": 5269,
        "target": "xmpp.example.com",
        "ttl_sec": 3600,
    },
    {"type": "PTR", "name": "10", "target": "www.example.com", "ttl_sec": 86400},
    {"type": "CAA", "name": "", "tag": "issue", "target": "letsencrypt.org", "ttl_sec": 86400},
    {
        "type": "CAA",
        "name": "",
        "tag": "issuewild",
        "target": "*.letsencrypt.org",
        "ttl_sec": 86400,
    },
    {
        "type": "CAA",
        "name": "",
        "tag": "iodef",
        "target": "mailto:security@example.com",
        "ttl_sec": 86400,
    },
)
"""Records of example.com: every type, including the SRV and CAA forms the UI must show."""


def _records(ctx: SeedContext, domain: dict[str, Any], rows: Any, offset: float) -> None:
    for fields in rows:
        new_record(ctx.store, domain, now_iso=ctx.iso(offset), **fields)
    zone_changed(ctx.store, domain, ctx.now + offset, ctx.iso(offset))


@seeder("domains", order=25)
def seed_domains(ctx: SeedContext) -> None:
    """Six zones (plus ``scale // 8`` small ones) and the restricted user's grants."""
    main = new_domain(
        ctx.store,
        domain="example.com",
        type="master",
        now=ctx.now - 400 * DAY,
        now_iso=ctx.iso(-400 * DAY),
        soa_email="hostmaster@example.com",
        description="Main website, shop and mail",
        group="web",
        axfr_ips=["198.51.100.53"],
        seconds={"ttl_sec": 3600, "refresh_sec": 7200},
        tags=["web"],
    )
    _records(ctx, main, MAIN_RECORDS, -2 * DAY)

    staging = new_domain(
        ctx.store,
        domain="staging.example.com",
        type="master",
        now=ctx.now - 90 * DAY,
        now_iso=ctx.iso(-90 * DAY),
        soa_email="ops@example.com",
        description="[staging] copy of example.com for release checks",
        group="[staging]",
    )
    _records(
        ctx,
        staging,
        (
            {"type": "A", "name": "", "target": "198.51.100.70", "ttl_sec": 300},
            {"type": "A", "name": "www", "target": "198.51.100.70", "ttl_sec": 300},
            {"type": "CNAME", "name": "shop", "target": "staging.storefront.example"},
            {"type": "TXT", "name": "", "target": "staging [do not index]", "ttl_sec": 300},
        ),
        -5 * DAY,
    )

    new_domain(
        ctx.store,
        domain="partner-mirror.example",
        type="slave",
        now=ctx.now - 200 * DAY,
        now_iso=ctx.iso(-200 * DAY),
        description="Secondary for our partner's zone",
        group="partners",
        master_ips=["192.0.2.53", "2001:db8:53::1"],
    )

    legacy = new_domain(
        ctx.store,
        domain="legacy-shop.example",
        type="master",
        now=ctx.now - 900 * DAY,
        now_iso=ctx.iso(-900 * DAY),
        soa_email="hostmaster@legacy-shop.example",
        status="disabled",
        description="Alter Shop – stillgelegt, Weiterleitung nach Zürich geplant",
        group="archive",
    )
    _records(
        ctx,
        legacy,
        ({"type": "A", "name": "www", "target": "192.0.2.80", "ttl_sec": 86400},),
        -600 * DAY,
    )

    books = new_domain(
        ctx.store,
        domain="xn--bcher-kva.example",
        type="master",
        now=ctx.now - 30 * DAY,
        now_iso=ctx.iso(-30 * DAY),
        soa_email="hostmaster@xn--bcher-kva.example",
        description="bücher.example – Buchhandlung Müller",
        tags=["shop"],
    )
    _records(
        ctx,
        books,
        (
            {"type": "A", "name": "", "target": "203.0.113.90", "ttl_sec": 3600},
            {"type": "MX", "name": "", "target": "", "priority": 0, "ttl_sec": 3600},
            {"type": "TXT", "name": "", "target": "v=spf1 -all", "ttl_sec": 3600},
        ),
        -30 * DAY,
    )

    # Registered for a campaign that never started: a master zone without a single record.
    new_domain(
        ctx.store,
        domain="spring-sale.example",
        type="master",
        now=ctx.now - 60 * DAY,
        now_iso=ctx.iso(-60 * DAY),
        soa_email="hostmaster@example.com",
        description="Campaign site (not set up yet)",
    )

    for n in range(ctx.scale // 8):
        bulk = new_domain(
            ctx.store,
            domain=f"bulk-{n:05d}.example",
            type="master",
            now=ctx.now - ctx.rng.randrange(300) * DAY,
            now_iso=ctx.iso(-ctx.rng.randrange(300) * DAY),
            soa_email=f"hostmaster@bulk-{n:05d}.example",
        )
        address = f"198.51.100.{1 + ctx.rng.randrange(250)}"
        _records(ctx, bulk, ({"type": "A", "name": "www", "target": address},), 0)

    ctx.grant("domain", staging["id"], staging["domain"], "read_write")
    ctx.grant("domain", main["id"], main["domain"], "read_only")


def _owned_targets(ctx: SeedContext) -> list[dict[str, Any]]:
    """Records pointing at objects of the account: ``app`` at the instance ``web-prod-1``,
    ``lb`` and the alias ``edge`` at the balancer ``web-frontend``, the alias ``static`` at the
    bucket ``cloudtui-site`` (each left out when its object is not seeded)."""
    store = ctx.store
    web = next((r for r in store.rows("compute.instances") if r["label"] == "web-prod-1"), None)
    lb = next(
        (r for r in store.rows("loadbalancers.balancers") if r["label"] == "web-frontend"), None
    )
    site = next(
        (r for r in store.rows("object_storage.buckets") if r["label"] == "cloudtui-site"), None
    )
    rows: list[dict[str, Any]] = []
    if web is not None:
        rows.append({"type": "A", "name": "app", "target": web["ipv4"][0], "ttl_sec": 300})
        if web.get("ipv6"):
            ipv6 = str(web["ipv6"]).split("/")[0]
            rows.append({"type": "AAAA", "name": "app", "target": ipv6, "ttl_sec": 300})
    if lb is not None:
        rows.append({"type": "A", "name": "lb", "target": lb["ipv4"], "ttl_sec": 300})
        rows.append({"type": "CNAME", "name": "edge", "target": lb["hostname"], "ttl_sec": 300})
    if site is not None:
        rows.append({"type": "CNAME", "name": "static", "target": site["hostname"], "ttl_sec": 300})
    return rows


@seeder("domains", order=35)
def seed_records_at_objects(ctx: SeedContext) -> None:
    """Records of example.com that point at the account's own instance, balancer and bucket, so
    every relation a record has is in the demo (after those areas have seeded)."""
    main = next(
        (d for d in ctx.store.rows("domains.domains") if d["domain"] == "example.com"), None
    )
    rows = _owned_targets(ctx) if main is not None else []
    if main is not None and rows:
        _records(ctx, main, rows, -DAY)
