"""Demo managed support: contacts (one non-ASCII), credentials, services in several states, issues
about the failing one, and customised SSH settings on the first instance (when there is one)."""

from __future__ import annotations

from typing import Any

from tui.simulator.context import SeedContext
from tui.simulator.handlers.managed import (
    CHECK_TRANSITION,
    DEFAULT_SSH,
    SETTINGS,
    new_contact,
    new_credential,
    new_issue,
    new_service,
)
from tui.simulator.registry import seeder

DAY = 86400
HOUR = 3600


def _service(
    label: str, service_type: str, address: str, timeout: int, **extra: Any
) -> dict[str, Any]:
    return {
        "label": label,
        "service_type": service_type,
        "address": address,
        "timeout": timeout,
        **extra,
    }


@seeder("managed", order=40)
def seed_managed(ctx: SeedContext) -> None:
    """Three contacts, three credentials, five services, two issues."""
    store = ctx.store
    new_contact(
        store,
        name="Ada Okafor",
        email="ada.okafor@example.com",
        group="on-call",
        primary="+1 215-555-0142",
        secondary="+1 215-555-0199",
        now_iso=ctx.iso(-30 * DAY),
    )
    new_contact(
        store,
        name="Zoë Brückner-Ødegård",
        email="zoe@example.de",
        group="on-call",
        primary="+49 30 901820",
        now_iso=ctx.iso(-12 * DAY),
    )
    new_contact(
        store,
        name="Ops desk",
        email="ops-desk@example.com",
        now_iso=ctx.iso(-200 * DAY),
    )

    db_login = new_credential(store, label="mysql-monitor", username="monitor", password="s3cr3t!")
    # Credential labels are ASCII letters, digits, -, _, spaces and periods (the reference's
    # pattern): no markup or non-ASCII demo text here.
    web_login = new_credential(store, label="web-prod basic auth", password="hunter2-demo")
    new_credential(store, label="cafe-ssh", username="deploy", password="correct-horse-battery")
    db_login["last_decrypted"] = ctx.iso(-2 * DAY)

    shop = new_service(
        store,
        _service(
            "shop-frontend",
            "url",
            "https://shop.example.com/health?deep=1",
            30,
            body="OK",
            consultation_group="on-call",
            credentials=[web_login["id"]],
            notes="Checkout behind the load balancer.",
        ),
        status="ok",
        now_iso=ctx.iso(-60 * DAY),
    )
    mysql = new_service(
        store,
        _service(
            "café-db replica",
            "tcp",
            "192.168.128.12:3306",
            10,
            consultation_group="on-call",
            credentials=[db_login["id"]],
            region="eu-west",
        ),
        status="problem",
        now_iso=ctx.iso(-45 * DAY),
    )
    new_service(
        store,
        _service("legacy-api", "url", "http://api-v1.example.net/ping", 15),
        status="disabled",
        now_iso=ctx.iso(-120 * DAY),
    )
    new_service(
        store,
        _service("blog [staging]", "url", "https://staging.example.org/", 60),
        status="ok",
        now_iso=ctx.iso(-20 * DAY),
    )
    fresh = new_service(
        store,
        _service("mail relay", "tcp", "mail.example.com:587", 20),
        status="pending",
        now_iso=ctx.iso(-60),
    )
    # The fresh service's first check completes shortly after start-up.
    store.schedule(ctx.now + 30, CHECK_TRANSITION, id=fresh["id"])

    new_issue(
        store,
        created=ctx.iso(-3 * HOUR),
        summary="café-db replica: connection refused on port 3306",
        services=[mysql["id"]],
        ticket_id=11250031,
    )
    new_issue(
        store,
        created=ctx.iso(-9 * DAY),
        summary="shop-frontend answered 502 for 4 minutes",
        services=[shop["id"]],
        ticket_id=11249877,
    )

    instances = sorted(
        store.rows("compute.instances"),
        key=lambda r: r["id"] if isinstance(r.get("id"), int) else 0,
    )
    if instances:
        first = instances[0]
        store.put(
            SETTINGS,
            first["id"],
            {"id": first["id"], "ssh": {**DEFAULT_SSH, "port": 2222, "user": "support"}},
        )
