"""Demo object storage: both clusters, buckets with nested and non-ASCII object names, a bucket of
logs long enough to page through, an empty bucket, another account's bucket, and access keys."""

from __future__ import annotations

import gzip
import string

from tui.simulator.context import SeedContext
from tui.simulator.handlers.object_storage import (
    OBJECTS,
    SIGNING_META,
    clusters,
    new_bucket,
    new_key,
    object_key,
    put_object,
)
from tui.simulator.registry import seeder

DAY = 86400
LOG_OBJECTS = 140

SITE_FILES: dict[str, tuple[str, bytes]] = {
    "site/index.html": (
        "text/html",
        b'<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
        b'<link rel="stylesheet" href="css/app.css"><title>cloudtui demo</title></head>\n'
        b'<body><h1>Hello from object storage</h1><script src="js/app.js"></script></body>'
        b"</html>\n",
    ),
    "site/css/app.css": ("text/css", b"body { font-family: sans-serif; margin: 2rem; }\n"),
    "site/js/app.js": ("text/javascript", b"console.log('served from a bucket');\n"),
    "site/img/logo.svg": (
        "image/svg+xml",
        b'<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16">'
        b'<circle cx="8" cy="8" r="7" fill="teal"/></svg>\n',
    ),
    "site/menü/café-crème.html": (
        "text/html",
        "<p>Café crème: 3,20 €</p>\n".encode(),
    ),
    "docs/résumé été 2026.txt": ("text/plain", "Résumé de l'été.\n".encode()),
    "docs/報告書.txt": ("text/plain", "四半期報告書\n".encode()),
    "README.txt": ("text/plain", b"Static site of the demo account.\n"),
}


def _dump(month: str) -> bytes:
    # mtime=0 keeps the archive bytes (and so the etag) the same on every seed.
    sql = f"-- dump of {month}\nCREATE TABLE orders (id INT PRIMARY KEY);\n".encode()
    return gzip.compress(sql * 20, mtime=0)


@seeder("object_storage", order=30)
def seed_object_storage(ctx: SeedContext) -> None:
    """Clusters, four buckets of the account, one of another account, three keys."""
    store = ctx.store
    clusters(store)
    store.meta[SIGNING_META] = "".join(ctx.rng.choice("0123456789abcdef") for _ in range(64))

    site = new_bucket(
        store, cluster="us-east-1", label="cloudtui-site", now=ctx.now - 90 * DAY, acl="public-read"
    )
    for offset, (name, (ctype, data)) in enumerate(SITE_FILES.items()):
        put_object(store, site, name, data, ctype, ctx.now - (60 - offset) * DAY)
    store.table(OBJECTS)[object_key("us-east-1", "cloudtui-site", "site/index.html")]["_acl"] = (
        "public-read"
    )

    backups = new_bucket(store, cluster="us-east-1", label="db-backups", now=ctx.now - 200 * DAY)
    for month in ("2026/08", "2026/09", "2026/10", "2026/11"):
        put_object(
            store,
            backups,
            f"backups/{month}/db.sql.gz",
            _dump(month),
            "application/gzip",
            ctx.now - (11 - int(month[-2:])) * 30 * DAY - 3600,
        )

    logs = new_bucket(
        store, cluster="eu-central-1", label="eu-logs", now=ctx.now - 30 * DAY, cors_enabled=True
    )
    for n in range(LOG_OBJECTS):
        day = 1 + n // 5
        line = f"2026-10-{day:02d} worker-{n % 5} ok requests={ctx.rng.randint(100, 9999)}\n"
        put_object(
            store,
            logs,
            f"logs/2026/10/{day:02d}/worker-{n % 5}.log",
            line.encode() * 3,
            "text/plain",
            ctx.now - (31 - day) * DAY,
        )

    new_bucket(store, cluster="eu-central-1", label="scratch.eu", now=ctx.now - 2 * DAY)
    # Another account's bucket: invisible to the demo users, but its label is taken in us-east-1.
    new_bucket(
        store,
        cluster="us-east-1",
        label="public-assets",
        now=ctx.now - 400 * DAY,
        acl="public-read",
        account="acme-media",
    )

    upper = string.ascii_uppercase + string.digits
    alphabet = string.ascii_letters + string.digits
    for label, access in (
        (
            "backup-agent",
            [{"bucket_name": "db-backups", "cluster": "us-east-1", "permissions": "read_write"}],
        ),
        (
            "ci deploy [site]",
            [
                {
                    "bucket_name": "cloudtui-site",
                    "cluster": "us-east-1",
                    "permissions": "read_write",
                },
                {"bucket_name": "eu-logs", "cluster": "eu-central-1", "permissions": "read_only"},
            ],
        ),
        ("admin-laptop", None),
    ):
        new_key(
            store,
            label=label,
            bucket_access=access,
            access_key="".join(ctx.rng.choice(upper) for _ in range(20)),
            secret_key="".join(ctx.rng.choice(alphabet) for _ in range(40)),
        )
