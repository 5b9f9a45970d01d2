"""Managed databases: engines, MySQL and MongoDB instances, backups, credentials, certificates.

Choices where the reference is silent:

* Engine ids carry no slash (``mysql_8.0.30``) because the engine view takes one path segment;
  the view also accepts the ``engine/version`` form (``mysql/8.0.30``, which the client sends
  percent-encoded). Create takes ``engine/version``, the format the reference gives, and as
  well the id the engines listing gives (the reference: "ids are used on create").
* The reference has no per-database grant kind, so restricted users see every database; creation
  needs the ``add_databases`` global grant; delete and credentials reset need an unrestricted user.
* State refusals answer 409. Besides the named statuses (``provisioning``, ``active``,
  ``failed``, ``degraded``) a database passes through ``restoring`` while a backup is restored
  and ``updating`` while security patches are applied; both end in ``active`` on the clock.
  Restoring a backup taken before the last credentials reset ends in ``failed``.
* Automatic backups are derived from the clock: one at every 00:00 UTC since the database became
  active, each kept 7 days (so at most seven). They appear when backups are next looked at.
"""

from __future__ import annotations

import datetime as dt
import ipaddress
import re
import secrets
from typing import Any

from tui.simulator.clock import iso
from tui.simulator.context import Collection, Ctx, public
from tui.simulator.errors import conflict, not_found
from tui.simulator.registry import handles, transition
from tui.simulator.store import Store
from tui.simulator.validate import Check

DATABASES = "databases.instances"
BACKUPS = "databases.backups"

ENGINES: list[dict[str, str]] = [
    {"id": "mysql_8.0.30", "engine": "mysql", "version": "8.0.30"},
    {"id": "mysql_5.7.39", "engine": "mysql", "version": "5.7.39"},
    {"id": "mongodb_6.0", "engine": "mongodb", "version": "6.0"},
    {"id": "mongodb_5.0", "engine": "mongodb", "version": "5.0"},
]
"""Engines and versions on offer (a fixed catalogue of the service)."""

PORTS = {"mysql": 3306, "mongodb": 27017}
REPLICATION_TYPES = ("none", "asynch", "semi_synch")
DELETABLE = ("active", "failed", "degraded")
DAY = 86400
AUTO_BACKUP_KEEP_DAYS = 7
TRANSITION_NAMES = (
    "databases.provisioned",
    "databases.restored",
    "databases.credentials_reset",
    "databases.patched",
)
SNAPSHOT_LABEL = re.compile(r"[A-Za-z0-9]+(?:[-_.][A-Za-z0-9]+)*")

CREATE_FIELDS = (
    "engine",
    "label",
    "region",
    "type",
    "allow_list",
    "cluster_size",
    "encrypted",
    "replication_type",
    "ssl_connection",
)
UPDATE_FIELDS = ("allow_list", "label", "updates")
WINDOW_FIELDS = ("day_of_week", "duration", "frequency", "hour_of_day", "week_of_month")


# -- records --------------------------------------------------------------------------------


def engine_by_value(value: str) -> dict[str, str] | None:
    """The engine whose id (``mysql_8.0.30``) or ``engine/version`` text matches ``value``."""
    for entry in ENGINES:
        if value in (entry["id"], f"{entry['engine']}/{entry['version']}"):
            return entry
    return None


def new_database(
    store: Store,
    *,
    engine: str,
    version: str,
    label: str,
    region: str,
    type_: str,
    now: float,
    password: str,
    cluster_size: int = 1,
    replication_type: str = "none",
    allow_list: list[str] | None = None,
    encrypted: bool = False,
    ssl_connection: bool = True,
    status: str = "provisioning",
) -> dict[str, Any]:
    """Build and store a database record (handlers and the demo seeder share it).

    Args:
        store: Simulator state.
        engine: ``mysql`` or ``mongodb``.
        version: Engine version.
        label: Unique label.
        region: Region id.
        type_: Instance type id.
        now: Creation time, epoch seconds.
        password: Initial root password.
        cluster_size: 1 or 3.
        replication_type: ``none``, ``asynch`` or ``semi_synch``.
        allow_list: Allowed addresses.
        encrypted: Encryption at rest.
        ssl_connection: SSL required.
        status: Initial status; ``active`` databases start their backup schedule now.

    Returns:
        The stored record.
    """
    db_id = store.next_id("databases.instance", start=4100)
    record: dict[str, Any] = {
        "id": db_id,
        "label": label,
        "engine": engine,
        "version": version,
        "region": region,
        "type": type_,
        "status": status,
        "cluster_size": cluster_size,
        "replication_type": replication_type,
        "allow_list": list(allow_list or []),
        "encrypted": encrypted,
        "ssl_connection": ssl_connection,
        "hosts": {
            "primary": f"{engine}-{db_id}-primary.{region}.db.example.net",
            "secondary": (
                f"{engine}-{db_id}-replica.{region}.db.example.net" if cluster_size == 3 else None
            ),
        },
        "port": PORTS[engine],
        # A spread of default windows, as if the service picked quiet hours per database.
        "updates": {
            "day_of_week": db_id % 7 + 1,
            "duration": 3,
            "frequency": "weekly",
            "hour_of_day": db_id * 5 % 24,
            "week_of_month": None,
        },
        "created": iso(now),
        "updated": iso(now),
        "_password": password,
        "_active_since": now if status == "active" else None,
        "_auto_until": None,
        "_reset_at": None,
    }
    return store.put(DATABASES, db_id, record)


def new_backup(
    store: Store, db: dict[str, Any], *, label: str, kind: str, target: str, at: float
) -> dict[str, Any]:
    """Build and store a backup record of ``db`` taken at ``at``."""
    backup_id = store.next_id("databases.backup", start=7000)
    record = {
        "id": backup_id,
        "label": label,
        "type": kind,
        "target": target,
        "created": iso(at),
        "_db_id": db["id"],
        "_at": at,
    }
    return store.put(BACKUPS, backup_id, record)


def sync_auto_backups(store: Store, db: dict[str, Any], now: float) -> None:
    """Bring ``db``'s automatic backups up to ``now``.

    One backup at every 00:00 UTC since the database became active, each kept 7 days. Midnights
    already handled are remembered, so an automatic backup the user deleted stays deleted.
    """
    since = db.get("_active_since")
    if since is None:
        return
    first = -(-since // DAY) * DAY  # the first midnight at or after activation
    done = db.get("_auto_until")
    start = first if done is None else done + DAY
    # Midnights older than the retention window would be pruned at once: skip them.
    start = max(start, (now // DAY) * DAY - (AUTO_BACKUP_KEEP_DAYS - 1) * DAY)
    midnight = start
    changed = False
    while midnight <= now:
        day = dt.datetime.fromtimestamp(midnight, dt.UTC).strftime("%Y-%m-%d")
        new_backup(store, db, label=f"auto-{day}", kind="auto", target="primary", at=midnight)
        db["_auto_until"] = midnight
        midnight += DAY
        changed = True
    autos = sorted(
        (b for b in store.rows(BACKUPS) if b["_db_id"] == db["id"] and b["type"] == "auto"),
        key=lambda b: (b["_at"], b["id"]),
    )
    expired = [b for b in autos if b["_at"] <= now - AUTO_BACKUP_KEEP_DAYS * DAY]
    kept = [b for b in autos if b not in expired]
    expired += kept[:-AUTO_BACKUP_KEEP_DAYS]
    for backup in expired:
        store.delete(BACKUPS, backup["id"])
    if changed:
        store.put(DATABASES, db["id"], db)


def _save(ctx: Ctx, db: dict[str, Any]) -> dict[str, Any]:
    db["updated"] = ctx.now_iso
    return ctx.store.put(DATABASES, db["id"], db)


def _listing(db: dict[str, Any]) -> dict[str, Any]:
    return {**public(db), "instance_uri": f"/databases/{db['engine']}/instances/{db['id']}"}


def _engine_of(ctx: Ctx) -> str:
    # Endpoint names are databases.<engine>.<operation>.
    return ctx.endpoint.name.split(".")[1]


def _load(ctx: Ctx) -> dict[str, Any]:
    db = ctx.store.get(DATABASES, ctx.param_int("instanceId"))
    if db is None or db["engine"] != _engine_of(ctx):
        raise not_found("Database not found")
    return db


def _require_status(db: dict[str, Any], allowed: tuple[str, ...], action: str) -> None:
    if db["status"] not in allowed:
        raise conflict(
            f"{action} needs the database to be {' or '.join(allowed)}; it is {db['status']}",
            "status",
        )


def _refuse_provisioning(db: dict[str, Any], action: str) -> None:
    if db["status"] == "provisioning":
        raise conflict(f"{action} is not available while the database is provisioning", "status")


def _label_taken(store: Store, label: str, exclude: int | None = None) -> bool:
    return any(d["label"] == label and d["id"] != exclude for d in store.rows(DATABASES))


def _check_allow_list(v: Check) -> list[str] | None:
    entries = v.string_list("allow_list")
    if entries is None:
        return None
    for entry in entries:
        try:
            ipaddress.ip_network(entry, strict=False)
        except ValueError:
            v.fail("allow_list", f"{entry!r} is not an IP address or CIDR range")
    return list(entries)


def _check_window(v: Check) -> dict[str, Any] | None:
    raw = v.obj("updates")
    if raw is None:
        return None
    w = Check(raw)
    w.unknown(WINDOW_FIELDS, nullable=("week_of_month",))
    window = {
        "day_of_week": w.integer("day_of_week", required=True, lo=1, hi=7),
        "duration": w.integer("duration", required=True, lo=1, hi=3),
        "frequency": w.string("frequency", choices=("weekly", "monthly"), default="weekly"),
        "hour_of_day": w.integer("hour_of_day", required=True, lo=0, hi=23),
        "week_of_month": w.integer("week_of_month", lo=1, hi=4, nullable=True),
    }
    if window["frequency"] == "monthly" and window["week_of_month"] is None:
        w.fail("week_of_month", "week_of_month is required for a monthly window")
    if window["frequency"] == "weekly" and window["week_of_month"] is not None:
        w.fail("week_of_month", "week_of_month must be null for a weekly window")
    for err in w.errors:
        v.fail(f"updates.{err['field']}" if err.get("field") else "updates", err["reason"])
    return window


# -- engines and the list across engines ----------------------------------------------------


@handles("databases.engines.list")
def engines_list(ctx: Ctx) -> Collection:
    """Every engine and version on offer (no token needed)."""
    return Collection([dict(e) for e in ENGINES])


@handles("databases.engines.view")
def engines_view(ctx: Ctx) -> dict[str, Any]:
    """One engine by id (``mysql_8.0.30``) or by ``engine/version``."""
    entry = engine_by_value(str(ctx.params.get("engineId", "")))
    if entry is None:
        raise not_found("Engine not found")
    return dict(entry)


@handles("databases.instances.list")
def instances_list(ctx: Ctx) -> Collection:
    """Databases of every engine, each with ``instance_uri``."""
    return Collection([_listing(db) for db in ctx.store.rows(DATABASES)])


# -- per-engine instances -------------------------------------------------------------------


def _per_engine(operation: str) -> Any:
    """Register one handler for ``databases.<engine>.<operation>`` of both engines."""

    def register(fn: Any) -> Any:
        for engine in ("mysql", "mongodb"):
            handles(f"databases.{engine}.{operation}")(fn)
        return fn

    return register


@_per_engine("list")
def instances_of_engine(ctx: Ctx) -> Collection:
    """Databases of the path's engine."""
    engine = _engine_of(ctx)
    return Collection([public(db) for db in ctx.store.rows(DATABASES) if db["engine"] == engine])


@handles("databases.mysql.create")
def mysql_create(ctx: Ctx) -> dict[str, Any]:
    """Create a MySQL database; it provisions, then becomes ``active`` on the clock."""
    ctx.principal.require_global("add_databases")
    v = Check(ctx.body)
    v.unknown(CREATE_FIELDS)
    engine_text = v.string("engine", required=True)
    engine: dict[str, str] | None = None
    if isinstance(engine_text, str):
        engine = engine_by_value(engine_text)
        if engine is None:
            v.fail(
                "engine",
                "engine must be a known engine/version (mysql/8.0.30) or an id of the engines "
                "listing (mysql_8.0.30)",
            )
        elif engine["engine"] != "mysql":
            v.fail("engine", "only MySQL databases can be created (MongoDB creation is closed)")
    label = v.string("label", required=True, min_len=3, max_len=32)
    if isinstance(label, str) and 3 <= len(label) <= 32 and _label_taken(ctx.store, label):
        v.fail("label", "label is already used by another database")
    region = v.string("region", required=True)
    if isinstance(region, str) and ctx.store.get("compute.regions", region) is None:
        v.fail("region", "region is not valid")
    type_ = v.string("type", required=True)
    if isinstance(type_, str) and ctx.store.get("compute.types", type_) is None:
        v.fail("type", "type is not valid")
    cluster_size = v.integer("cluster_size", default=1)
    if cluster_size not in (1, 3):
        v.fail("cluster_size", "cluster_size must be 1 or 3")
    replication = v.string("replication_type", choices=REPLICATION_TYPES)
    if replication is None:
        replication = "semi_synch" if cluster_size == 3 else "none"
    elif cluster_size == 1 and replication != "none":
        v.fail("replication_type", "replication_type must be none for a single-node cluster")
    elif cluster_size == 3 and replication == "none":
        v.fail("replication_type", "replication_type must be asynch or semi_synch for 3 nodes")
    allow_list = _check_allow_list(v)
    encrypted = v.boolean("encrypted", default=False)
    ssl_connection = v.boolean("ssl_connection", default=True)
    v.done()
    assert engine is not None  # v.done() raised otherwise
    db = new_database(
        ctx.store,
        engine="mysql",
        version=engine["version"],
        label=label,
        region=region,
        type_=type_,
        now=ctx.now,
        password=secrets.token_urlsafe(18),
        cluster_size=cluster_size,
        replication_type=replication,
        allow_list=allow_list,
        encrypted=encrypted,
        ssl_connection=ssl_connection,
    )
    ctx.schedule("databases.provisioned", after=ctx.delay("databases.provision"), id=db["id"])
    return public(db)


@transition("databases.provisioned")
def provisioned(store: Store, now: float, id: int) -> None:
    """A new database finishes provisioning and starts its backup schedule."""
    db = store.get(DATABASES, id)
    if db is None or db["status"] != "provisioning":
        return
    db.update(status="active", updated=iso(now), _active_since=now)
    store.put(DATABASES, id, db)


@_per_engine("view")
def instance_view(ctx: Ctx) -> dict[str, Any]:
    """One database."""
    return public(_load(ctx))


@_per_engine("update")
def instance_update(ctx: Ctx) -> dict[str, Any]:
    """Change the allow list (replaced whole), label or maintenance window of an active database."""
    db = _load(ctx)
    _require_status(db, ("active",), "Updating a database")
    v = ctx.check()
    v.unknown(UPDATE_FIELDS)
    label = v.string("label", min_len=3, max_len=32)
    if (
        isinstance(label, str)
        and 3 <= len(label) <= 32
        and _label_taken(ctx.store, label, exclude=db["id"])
    ):
        v.fail("label", "label is already used by another database")
    allow_list = _check_allow_list(v)
    window = _check_window(v)
    v.done()
    if label is not None:
        db["label"] = label
    if allow_list is not None:
        db["allow_list"] = allow_list
    if window is not None:
        db["updates"] = window
    return public(_save(ctx, db))


@_per_engine("delete")
def instance_delete(ctx: Ctx) -> None:
    """Delete a database and its backups (unrestricted users; active, failed or degraded)."""
    db = _load(ctx)
    ctx.principal.require_unrestricted()
    _require_status(db, DELETABLE, "Deleting a database")
    for backup in [b for b in ctx.store.rows(BACKUPS) if b["_db_id"] == db["id"]]:
        ctx.store.delete(BACKUPS, backup["id"])
    ctx.store.delete(DATABASES, db["id"])
    for name in TRANSITION_NAMES:
        ctx.store.cancel_events(name, id=db["id"])


# -- backups --------------------------------------------------------------------------------


def _backup(ctx: Ctx, db: dict[str, Any]) -> dict[str, Any]:
    backup = ctx.store.get(BACKUPS, ctx.param_int("backupId"))
    if backup is None or backup["_db_id"] != db["id"]:
        raise not_found("Backup not found")
    return backup


@_per_engine("backups.list")
def backups_list(ctx: Ctx) -> Collection:
    """Automatic backups and snapshots, newest first (not while provisioning)."""
    db = _load(ctx)
    _refuse_provisioning(db, "Listing backups")
    sync_auto_backups(ctx.store, db, ctx.now)
    rows = [b for b in ctx.store.rows(BACKUPS) if b["_db_id"] == db["id"]]
    rows.sort(key=lambda b: (b["_at"], b["id"]), reverse=True)
    return Collection([public(b) for b in rows])


@_per_engine("backups.create")
def snapshot_create(ctx: Ctx) -> None:
    """Take a snapshot of an active database."""
    db = _load(ctx)
    _require_status(db, ("active",), "Taking a snapshot")
    v = Check(ctx.body)
    v.unknown(("label", "target"))
    label = v.string("label", required=True, min_len=3, max_len=64)
    if isinstance(label, str) and 3 <= len(label) <= 64 and not SNAPSHOT_LABEL.fullmatch(label):
        v.fail(
            "label",
            "label may hold letters, digits, _ - . only, must begin and end with a letter or "
            "digit, and may not have two of _ - . in a row",
        )
    target = v.string("target", choices=("primary", "secondary"), default="primary")
    if target == "secondary" and db["cluster_size"] != 3:
        v.fail("target", "secondary snapshots need a three-node (high-availability) cluster")
    v.done()
    sync_auto_backups(ctx.store, db, ctx.now)
    new_backup(ctx.store, db, label=label, kind="snapshot", target=target, at=ctx.now)


@_per_engine("backups.view")
def backup_view(ctx: Ctx) -> dict[str, Any]:
    """One backup (not while provisioning)."""
    db = _load(ctx)
    _refuse_provisioning(db, "Viewing a backup")
    sync_auto_backups(ctx.store, db, ctx.now)
    return public(_backup(ctx, db))


@_per_engine("backups.delete")
def backup_delete(ctx: Ctx) -> None:
    """Delete a backup (not while provisioning)."""
    db = _load(ctx)
    _refuse_provisioning(db, "Deleting a backup")
    sync_auto_backups(ctx.store, db, ctx.now)
    ctx.store.delete(BACKUPS, _backup(ctx, db)["id"])


@_per_engine("backups.restore")
def backup_restore(ctx: Ctx) -> None:
    """Replace all data with a backup: ``restoring``, then ``active`` (or ``failed``)."""
    db = _load(ctx)
    _require_status(db, ("active",), "Restoring a backup")
    sync_auto_backups(ctx.store, db, ctx.now)
    backup = _backup(ctx, db)
    # The reference: restoring after a credentials reset produces a failed cluster. A backup
    # taken before the reset carries the old credentials, which no longer match.
    reset_at = db.get("_reset_at")
    fails = reset_at is not None and backup["_at"] < reset_at
    db["status"] = "restoring"
    _save(ctx, db)
    ctx.schedule(
        "databases.restored", after=ctx.delay("databases.restore"), id=db["id"], failed=fails
    )


@transition("databases.restored")
def restored(store: Store, now: float, id: int, failed: bool) -> None:
    """A restore finishes."""
    db = store.get(DATABASES, id)
    if db is None or db["status"] != "restoring":
        return
    db.update(status="failed" if failed else "active", updated=iso(now))
    store.put(DATABASES, id, db)


# -- credentials, patch, certificate --------------------------------------------------------


@_per_engine("credentials.view")
def credentials_view(ctx: Ctx) -> dict[str, Any]:
    """Root user name and password of an active database."""
    db = _load(ctx)
    _require_status(db, ("active",), "Viewing credentials")
    return {"username": "root", "password": db["_password"]}


@handles("databases.mongodb.credentials.reset")
def credentials_reset(ctx: Ctx) -> None:
    """Ask for a new random root password; it takes effect a few seconds later."""
    db = _load(ctx)
    ctx.principal.require_unrestricted()
    db["_reset_at"] = ctx.now
    _save(ctx, db)
    ctx.schedule(
        "databases.credentials_reset", after=ctx.delay("databases.credentials_reset"), id=db["id"]
    )


@transition("databases.credentials_reset")
def credentials_changed(store: Store, now: float, id: int) -> None:
    """The new root password takes effect."""
    db = store.get(DATABASES, id)
    if db is None:
        return
    db.update(_password=secrets.token_urlsafe(18), updated=iso(now))
    store.put(DATABASES, id, db)


@handles("databases.mongodb.patch")
def patch(ctx: Ctx) -> None:
    """Apply operating-system security patches: ``updating``, then ``active``."""
    db = _load(ctx)
    _require_status(db, ("active",), "Patching a database")
    db["status"] = "updating"
    _save(ctx, db)
    ctx.schedule("databases.patched", after=ctx.delay("databases.patch"), id=db["id"])


@transition("databases.patched")
def patched(store: Store, now: float, id: int) -> None:
    """Patching finishes."""
    db = store.get(DATABASES, id)
    if db is None or db["status"] != "updating":
        return
    db.update(status="active", updated=iso(now))
    store.put(DATABASES, id, db)


@handles("databases.mongodb.ssl")
def ssl_view(ctx: Ctx) -> dict[str, Any]:
    """The CA certificate (PEM) of an active database, made on first request and kept."""
    db = _load(ctx)
    _require_status(db, ("active",), "Viewing the CA certificate")
    if not db.get("_ca_pem"):
        db["_ca_pem"] = _make_ca_pem(db)
        ctx.store.put(DATABASES, db["id"], db)
    return {"ca_certificate": db["_ca_pem"]}


def _make_ca_pem(db: dict[str, Any]) -> str:
    """A real self-signed CA certificate, so clients can parse what they download."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name(
        [
            x509.NameAttribute(NameOID.ORGANIZATION_NAME, "cloudtui simulator"),
            x509.NameAttribute(NameOID.COMMON_NAME, f"{db['engine']}-{db['id']} CA"),
        ]
    )
    start = dt.datetime(2024, 1, 1, tzinfo=dt.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(int(db["id"]))
        .not_valid_before(start)
        .not_valid_after(start + dt.timedelta(days=3650))
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    return cert.public_bytes(serialization.Encoding.PEM).decode("ascii")
