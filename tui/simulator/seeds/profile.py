"""Demo profiles: settings of both demo users, authorized apps, trusted devices, logins spanning
more than the 90-day window, referral figures and preferences."""

from __future__ import annotations

from typing import Any

from tui.simulator.context import SeedContext
from tui.simulator.handlers.profile import (
    APPS,
    DEVICES,
    LOGINS,
    PAYMENTS_META,
    PREFERENCES,
    PROFILES,
    REFERRALS_META,
    default_profile,
)
from tui.simulator.registry import seeder

DAY = 86400
DEVICE_SESSION = 30 * DAY

DEMO_KEYS = [
    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHc2vYl1dZcB0c8kq4nqVvRzJ7kH3bTtq5m0pQm8h1Xy demo@laptop",
    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIPq0Zb3xJt7mWm9cT2y5F1lq0cY3c9hJ8yQm2mN4b7Kd "
    "café-build@ci",
]

APPS_SEED: list[dict[str, Any]] = [
    {
        "_user": "demo",
        "label": "Backup Monitor [beta]",
        "scopes": "computes:read_only volumes:read_only",
        "website": "https://backup-monitor.example.org",
        "thumbnail_url": "https://backup-monitor.example.org/icon.png",
        "created_days": -200,
        "expiry_days": None,
    },
    {
        "_user": "demo",
        "label": "Café Status Board",
        "scopes": "computes:read_only domains:read_only loadbalancers:read_only",
        "website": "https://status.café.example",
        "thumbnail_url": None,
        "created_days": -45,
        "expiry_days": 320,
    },
    {
        "_user": "demo",
        "label": "Terraform Cloud",
        "scopes": "*",
        "website": "https://terraform.example.com",
        "thumbnail_url": "https://terraform.example.com/logo.svg",
        "created_days": -12,
        "expiry_days": 353,
    },
    {
        "_user": "ops-restricted",
        "label": "Pager Bridge",
        "scopes": "computes:read_only",
        "website": "https://pager.example.net",
        "thumbnail_url": None,
        "created_days": -30,
        "expiry_days": None,
    },
]

USER_AGENTS = [
    "Mozilla/5.0 (X11; Linux x86_64; rv:131.0) Gecko/20100101 Firefox/131.0",
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_6) AppleWebKit/605.1.15 Safari/605.1.15",
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/130.0 Safari/537.36",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148",
]

# (user, session started this many days ago); the 41-day-old session has already ended.
DEVICES_SEED = [("demo", 2), ("demo", 11), ("demo", 27), ("demo", 41), ("ops-restricted", 5)]


def _address(ctx: SeedContext) -> str:
    # Documentation ranges only (RFC 5737), so no real host is named.
    net = ctx.rng.choice(["192.0.2", "198.51.100", "203.0.113"])
    return f"{net}.{ctx.rng.randint(2, 254)}"


@seeder("profile", order=1)
def seed_profile(ctx: SeedContext) -> None:
    """Both demo users' profiles and account-level referral figures."""
    demo = default_profile("demo")
    demo.update(
        {
            "authorized_keys": list(DEMO_KEYS),
            "ip_whitelist_enabled": True,  # a legacy setting, so disabling it can be shown
            "timezone": "Europe/Berlin",
            "two_factor_auth": True,
            "verified_phone_number": "+15555550123",
        }
    )
    ctx.store.put(PROFILES, "demo", demo)
    ops = default_profile("ops-restricted")
    ops.update(
        {
            "authentication_type": "github",
            "email_notifications": False,
            "shell_auth_method": "keys_only",
            "timezone": "America/New_York",
        }
    )
    ctx.store.put(PROFILES, "ops-restricted", ops)

    # 187.50 USD paid so far: above the 25.00 USD threshold, so referrals are shown.
    ctx.store.meta[PAYMENTS_META] = 18750
    ctx.store.meta[REFERRALS_META] = {
        "code": "demo4101x",
        "completed": 3,
        "credit": 60,
        "pending": 1,
        "total": 4,
        "url": "https://cloud.example.com/signup?r=demo4101x",
    }

    for spec in APPS_SEED:
        app_id = ctx.store.next_id("profile.app", start=3100)
        expiry_days = spec["expiry_days"]
        ctx.store.put(
            APPS,
            app_id,
            {
                "id": app_id,
                "label": spec["label"],
                "scopes": spec["scopes"],
                "website": spec["website"],
                "thumbnail_url": spec["thumbnail_url"],
                "created": ctx.iso(spec["created_days"] * DAY),
                "expiry": ctx.iso(expiry_days * DAY) if expiry_days is not None else None,
                "_user": spec["_user"],
            },
        )

    for user, age_days in DEVICES_SEED:
        device_id = ctx.store.next_id("profile.device", start=5200)
        started = -age_days * DAY
        ctx.store.put(
            DEVICES,
            device_id,
            {
                "id": device_id,
                "created": ctx.iso(started),
                "expiry": ctx.iso(started + DEVICE_SESSION),
                "last_authenticated": ctx.iso(started + ctx.rng.randint(0, age_days) * DAY // 2),
                "last_remote_addr": _address(ctx),
                "user_agent": ctx.rng.choice(USER_AGENTS),
                "_user": user,
            },
        )

    # Logins every few days over 130 days: the oldest fall outside the 90-day window.
    for user, restricted, step in (("demo", False, 4), ("ops-restricted", True, 9)):
        age = 130 * DAY
        while age > 0:
            login_id = ctx.store.next_id("profile.login", start=90000)
            ctx.store.put(
                LOGINS,
                login_id,
                {
                    "id": login_id,
                    "datetime": ctx.iso(-age),
                    "ip": _address(ctx),
                    "restricted": restricted,
                    "username": user,
                },
            )
            age -= step * DAY + ctx.rng.randint(0, 6 * 3600)

    ctx.store.put(
        PREFERENCES,
        "demo|personal",
        {"_user": "demo", "_client": "personal", "value": {"theme": "textual-dark"}},
    )
    ctx.store.put(
        PREFERENCES,
        "demo|readonly-dashboard",
        {
            "_user": "demo",
            "_client": "readonly-dashboard",
            "value": {"refresh_seconds": 30, "columns": ["label", "status", "region"]},
        },
    )
