"""Every managed-database operation through the typed ApiClient.call, against the simulator."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from cryptography import x509

from tui.api.client import ApiClient
from tui.models.databases import (
    Database,
    DatabaseCreate,
    DatabaseUpdate,
    MaintenanceWindowRequest,
    SnapshotCreate,
)
from tui.simulator import Simulator, VirtualClock

REGIONS = ("us-east", "us-west", "eu-central", "eu-west")
TYPES = ("std-1", "std-2", "std-4", "ded-4")


@pytest.fixture(autouse=True)
def catalog(sim: Simulator) -> None:
    """The region and type ids used here, in case the compute area has not seeded its catalog."""
    for rid in REGIONS:
        sim.store.table("compute.regions").setdefault(
            rid, {"id": rid, "label": rid, "country": "us", "status": "ok", "capabilities": []}
        )
    for tid in TYPES:
        sim.store.table("compute.types").setdefault(tid, {"id": tid, "label": tid})


def _by_label(sim: Simulator, label: str) -> int:
    return next(d["id"] for d in sim.store.rows("databases.instances") if d["label"] == label)


@pytest.fixture
def mysql_id(sim: Simulator) -> int:
    return _by_label(sim, "orders-[prod]")


@pytest.fixture
def mongo_id(sim: Simulator) -> int:
    return _by_label(sim, "café-sessions")


async def test_engines_list_iter_and_view_without_token(
    client_for: Callable[..., ApiClient],
) -> None:
    client = client_for("anonymous")
    page = await client.fetch_page("databases.engines.list")
    ids = [e.id for e in page.data]
    assert {"mysql_8.0.30", "mysql_5.7.39", "mongodb_6.0", "mongodb_5.0"} <= set(ids)
    pages = [p async for p in client.iter_all("databases.engines.list")]
    assert [e.id for p in pages for e in p.data] == ids
    engine = await client.call("databases.engines.view", {"engineId": "mysql_8.0.30"})
    assert (engine.engine, engine.version, engine.create_value) == (
        "mysql",
        "8.0.30",
        "mysql/8.0.30",
    )
    # The engine/version text used on create is accepted too (sent percent-encoded).
    assert (
        await client.call("databases.engines.view", {"engineId": "mongodb/6.0"})
    ).id == "mongodb_6.0"


async def test_list_all_engines_with_instance_uri(client: ApiClient) -> None:
    page = await client.fetch_page("databases.instances.list")
    engines = {d.engine for d in page.data}
    assert engines == {"mysql", "mongodb"}
    for db in page.data:
        assert db.instance_uri == f"/databases/{db.engine}/instances/{db.id}"
    pages = [p async for p in client.iter_all("databases.instances.list")]
    assert sum(len(p.data) for p in pages) == page.results


async def test_list_per_engine(client: ApiClient) -> None:
    mysql = await client.fetch_page("databases.mysql.list")
    mongo = await client.fetch_page("databases.mongodb.list")
    assert mysql.data and all(d.engine == "mysql" for d in mysql.data)
    assert mongo.data and all(d.engine == "mongodb" for d in mongo.data)
    pages = [p async for p in client.iter_all("databases.mongodb.list")]
    assert [d.id for p in pages for d in p.data] == [d.id for d in mongo.data]
    with pytest.raises(KeyError):  # no such engine, so no such operation
        await client.fetch_page("databases.postgres.list")


async def test_create_mysql_provisions_then_active(client: ApiClient, clock: VirtualClock) -> None:
    db = await client.call(
        "databases.mysql.create",
        body=DatabaseCreate(
            engine="mysql/8.0.30",
            label="billing-db",
            region="us-west",
            type="std-2",
            allow_list=["203.0.113.9", "198.51.100.0/24"],
        ),
    )
    assert isinstance(db, Database)
    assert db.status == "provisioning"
    assert (db.engine, db.version, db.cluster_size, db.replication_type) == (
        "mysql",
        "8.0.30",
        1,
        "none",
    )
    assert db.allow_list == ["203.0.113.9", "198.51.100.0/24"]
    assert db.ssl_connection is True and db.encrypted is False
    assert db.port == 3306 and db.hosts is not None and db.hosts.secondary is None
    assert db.id is not None
    clock.advance(20)
    assert (await client.call("databases.mysql.view", {"instanceId": db.id})).status == "active"


async def test_create_with_keyword_fields(client: ApiClient) -> None:
    db = await client.call(
        "databases.mysql.create",
        body=DatabaseCreate(
            engine="mysql/5.7.39",
            label="ha-cluster",
            region="eu-west",
            type="std-4",
            cluster_size=3,
        ),
    )
    assert db.cluster_size == 3 and db.replication_type == "semi_synch"
    assert db.hosts is not None and db.hosts.secondary


async def test_view(client: ApiClient, mysql_id: int, mongo_id: int) -> None:
    mysql = await client.call("databases.mysql.view", {"instanceId": mysql_id})
    assert mysql.label == "orders-[prod]" and mysql.status == "active" and mysql.cluster_size == 3
    mongo = await client.call("databases.mongodb.view", {"instanceId": mongo_id})
    assert mongo.label == "café-sessions" and mongo.port == 27017


async def test_update(client: ApiClient, mongo_id: int) -> None:
    db = await client.call(
        "databases.mongodb.update",
        {"instanceId": mongo_id},
        body=DatabaseUpdate(
            label="sessions-eu",
            allow_list=["10.0.0.0/8"],
            updates=MaintenanceWindowRequest(
                day_of_week=3, duration=2, frequency="monthly", hour_of_day=4, week_of_month=2
            ),
        ),
    )
    assert db.label == "sessions-eu"
    assert db.allow_list == ["10.0.0.0/8"]
    assert db.updates is not None
    assert (db.updates.day_of_week, db.updates.frequency, db.updates.week_of_month) == (
        3,
        "monthly",
        2,
    )
    again = await client.call(
        "databases.mongodb.update", {"instanceId": mongo_id}, body=DatabaseUpdate(allow_list=[])
    )
    assert again.allow_list == [] and again.label == "sessions-eu"


async def test_delete(client: ApiClient, sim: Simulator, mongo_id: int) -> None:
    await client.call("databases.mongodb.delete", {"instanceId": mongo_id})
    assert sim.store.get("databases.instances", mongo_id) is None
    assert not [b for b in sim.store.rows("databases.backups") if b["_db_id"] == mongo_id]


async def test_backups_list_iter_view_delete(client: ApiClient, mysql_id: int) -> None:
    page = await client.fetch_page("databases.mysql.backups.list", {"instanceId": mysql_id})
    kinds = {b.type for b in page.data}
    assert kinds == {"auto", "snapshot"}
    pages = [
        p async for p in client.iter_all("databases.mysql.backups.list", {"instanceId": mysql_id})
    ]
    assert [b.id for p in pages for b in p.data] == [b.id for b in page.data]
    first = page.data[0]
    assert first.id is not None
    viewed = await client.call(
        "databases.mysql.backups.view", {"instanceId": mysql_id, "backupId": first.id}
    )
    assert viewed.label == first.label
    await client.call(
        "databases.mysql.backups.delete", {"instanceId": mysql_id, "backupId": first.id}
    )
    after = await client.fetch_page("databases.mysql.backups.list", {"instanceId": mysql_id})
    assert first.id not in [b.id for b in after.data]


async def test_create_snapshot(client: ApiClient, mysql_id: int) -> None:
    await client.call(
        "databases.mysql.backups.create",
        {"instanceId": mysql_id},
        body=SnapshotCreate(label="pre-upgrade_1.2"),
    )
    await client.call(
        "databases.mysql.backups.create",
        {"instanceId": mysql_id},
        body=SnapshotCreate(label="replica-copy", target="secondary"),
    )
    page = await client.fetch_page("databases.mysql.backups.list", {"instanceId": mysql_id})
    snaps = {b.label: b for b in page.data if b.type == "snapshot"}
    assert snaps["pre-upgrade_1.2"].target == "primary"
    assert snaps["replica-copy"].target == "secondary"


async def test_restore_backup(client: ApiClient, mysql_id: int, clock: VirtualClock) -> None:
    backup = (
        await client.fetch_page("databases.mysql.backups.list", {"instanceId": mysql_id})
    ).data[0]
    assert backup.id is not None
    await client.call(
        "databases.mysql.backups.restore", {"instanceId": mysql_id, "backupId": backup.id}
    )
    assert (
        await client.call("databases.mysql.view", {"instanceId": mysql_id})
    ).status == "restoring"
    clock.advance(6)
    assert (await client.call("databases.mysql.view", {"instanceId": mysql_id})).status == "active"


async def test_credentials_view_and_reset(
    client: ApiClient, mongo_id: int, clock: VirtualClock
) -> None:
    creds = await client.call("databases.mongodb.credentials.view", {"instanceId": mongo_id})
    assert creds.username == "root" and creds.password
    assert creds.password not in repr(creds)
    await client.call("databases.mongodb.credentials.reset", {"instanceId": mongo_id})
    assert (
        await client.call("databases.mongodb.credentials.view", {"instanceId": mongo_id})
    ).password == creds.password
    clock.advance(3)
    new = await client.call("databases.mongodb.credentials.view", {"instanceId": mongo_id})
    assert new.password and new.password != creds.password


async def test_patch(client: ApiClient, mongo_id: int, clock: VirtualClock) -> None:
    await client.call("databases.mongodb.patch", {"instanceId": mongo_id})
    assert (
        await client.call("databases.mongodb.view", {"instanceId": mongo_id})
    ).status == "updating"
    clock.advance(5)
    assert (
        await client.call("databases.mongodb.view", {"instanceId": mongo_id})
    ).status == "active"


async def test_ssl_certificate(client: ApiClient, mongo_id: int) -> None:
    ssl = await client.call("databases.mongodb.ssl", {"instanceId": mongo_id})
    assert ssl.ca_certificate is not None
    cert = x509.load_pem_x509_certificate(ssl.ca_certificate.encode())
    assert "CA" in cert.subject.rfc4514_string()
    assert (
        await client.call("databases.mongodb.ssl", {"instanceId": mongo_id})
    ).ca_certificate == ssl.ca_certificate
