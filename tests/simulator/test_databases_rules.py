"""Managed-database rules: validation, states, permissions, backups and lifecycles on the clock."""

from __future__ import annotations

import copy
import itertools
from collections.abc import Callable
from typing import Any

import pytest
from pydantic import ValidationError

from tests.simulator.rules import refused as _refused
from tui.api.client import ApiClient
from tui.api.errors import ApiError
from tui.models.databases import (
    DatabaseCreate,
    DatabaseCredentials,
    MaintenanceWindowRequest,
    SnapshotCreate,
)
from tui.simulator import Simulator, VirtualClock
from tui.simulator.clock import parse_iso

REGIONS = ("us-east", "us-west", "eu-central", "eu-west")
TYPES = ("std-1", "std-2", "std-4", "ded-4")
DAY = 86400
GOOD = {"engine": "mysql/8.0.30", "label": "new-db", "region": "us-east", "type": "std-2"}


@pytest.fixture(autouse=True)
def catalog(sim: Simulator) -> None:
    """The region and type ids used here, in case the compute area has not seeded its catalog."""
    for rid in REGIONS:
        sim.store.table("compute.regions").setdefault(
            rid, {"id": rid, "label": rid, "country": "us", "status": "ok", "capabilities": []}
        )
    for tid in TYPES:
        sim.store.table("compute.types").setdefault(tid, {"id": tid, "label": tid})


def _id(sim: Simulator, label: str) -> int:
    return next(d["id"] for d in sim.store.rows("databases.instances") if d["label"] == label)


@pytest.fixture
def mysql_id(sim: Simulator) -> int:
    return _id(sim, "orders-[prod]")


@pytest.fixture
def mongo_id(sim: Simulator) -> int:
    return _id(sim, "café-sessions")


@pytest.fixture
def provisioning_id(sim: Simulator) -> int:
    return _id(sim, "analytics-staging")


def _state(sim: Simulator) -> dict[str, Any]:
    return copy.deepcopy({k: v for k, v in sim.store.tables.items() if k.startswith("databases.")})


async def _bad_create(client: ApiClient, sim: Simulator, body: Any, field: str) -> None:
    before = _state(sim)
    err = await _refused(client, "databases.mysql.create", body=body)
    assert field in err.field_errors(), err
    assert _state(sim) == before


def _set_status(sim: Simulator, db_id: int, status: str) -> None:
    sim.store.get("databases.instances", db_id)["status"] = status  # type: ignore[index]


# -- authentication and scopes --------------------------------------------------------------


async def test_engines_need_no_token_but_instances_do(
    client_for: Callable[..., ApiClient],
) -> None:
    anon = client_for("anonymous")
    assert (await anon.call("databases.engines.list", model=dict))["results"] == 4
    await _refused(anon, "databases.instances.list", status=401)


async def test_token_without_databases_scope_is_refused(
    client_for: Callable[..., ApiClient], mysql_id: int
) -> None:
    readonly = client_for("readonly")
    await _refused(readonly, "databases.mysql.view", {"instanceId": mysql_id}, status=403)


async def test_unknown_engine_is_not_found(client: ApiClient) -> None:
    await _refused(client, "databases.engines.view", {"engineId": "postgres_16"}, status=404)


async def test_page_size_bounds(client: ApiClient) -> None:
    for size in (10, 101):
        with pytest.raises(ApiError) as info:
            await client.call("databases.instances.list", query={"page_size": size}, model=dict)
        assert info.value.status == 400 and "page_size" in info.value.field_errors()


async def test_engine_path_must_match_the_database(
    client: ApiClient, mysql_id: int, mongo_id: int
) -> None:
    await _refused(client, "databases.mongodb.view", {"instanceId": mysql_id}, status=404)
    await _refused(client, "databases.mysql.view", {"instanceId": mongo_id}, status=404)


async def test_mongodb_cannot_be_created(client: ApiClient, sim: Simulator) -> None:
    with pytest.raises(ApiError) as info:
        await client.request("POST", "/databases/mongodb/instances", json=GOOD)
    assert info.value.status == 405
    await _bad_create(client, sim, {**GOOD, "engine": "mongodb/6.0"}, "engine")


# -- create ---------------------------------------------------------------------------------


@pytest.mark.parametrize("field", ["engine", "label", "region", "type"])
async def test_create_required_fields(client: ApiClient, sim: Simulator, field: str) -> None:
    body = {k: v for k, v in GOOD.items() if k != field}
    await _bad_create(client, sim, body, field)


@pytest.mark.parametrize("engine", ["mysql/9.9", "mysql", "mysql_9.9", "oracle/19c"])
async def test_create_engine_must_be_a_known_mysql_engine_version(
    client: ApiClient, sim: Simulator, engine: str
) -> None:
    await _bad_create(client, sim, {**GOOD, "engine": engine}, "engine")


@pytest.mark.parametrize("label", ["ab", "x" * 33])
async def test_create_label_length(client: ApiClient, sim: Simulator, label: str) -> None:
    await _bad_create(client, sim, {**GOOD, "label": label}, "label")


async def test_create_label_unique(client: ApiClient, sim: Simulator) -> None:
    await _bad_create(client, sim, {**GOOD, "label": "café-sessions"}, "label")


async def test_create_region_and_type_must_be_valid(client: ApiClient, sim: Simulator) -> None:
    await _bad_create(client, sim, {**GOOD, "region": "mars-1"}, "region")
    await _bad_create(client, sim, {**GOOD, "type": "huge-99"}, "type")


@pytest.mark.parametrize("size", [0, 2, 5, "3"])
async def test_create_cluster_size_one_or_three(
    client: ApiClient, sim: Simulator, size: Any
) -> None:
    await _bad_create(client, sim, {**GOOD, "cluster_size": size}, "cluster_size")


@pytest.mark.parametrize(
    ("size", "replication"),
    [(1, "asynch"), (1, "semi_synch"), (3, "none"), (3, "sync")],
)
async def test_create_replication_must_match_cluster_size(
    client: ApiClient, sim: Simulator, size: int, replication: str
) -> None:
    body = {**GOOD, "cluster_size": size, "replication_type": replication}
    await _bad_create(client, sim, body, "replication_type")


async def test_create_defaults(client: ApiClient) -> None:
    single = await client.call("databases.mysql.create", body=GOOD, model=dict)
    assert single["replication_type"] == "none" and single["cluster_size"] == 1
    assert single["allow_list"] == [] and single["ssl_connection"] is True
    assert single["encrypted"] is False
    ha = await client.call(
        "databases.mysql.create", body={**GOOD, "label": "ha-db", "cluster_size": 3}, model=dict
    )
    assert ha["replication_type"] == "semi_synch"
    asynch = await client.call(
        "databases.mysql.create",
        body={**GOOD, "label": "ha-db-2", "cluster_size": 3, "replication_type": "asynch"},
        model=dict,
    )
    assert asynch["replication_type"] == "asynch"


@pytest.mark.parametrize("entry", ["300.1.1.1", "10.0.0.0/33", "example.com", ""])
async def test_create_allow_list_entries_must_be_ips_or_cidrs(
    client: ApiClient, sim: Simulator, entry: str
) -> None:
    await _bad_create(client, sim, {**GOOD, "allow_list": ["10.0.0.1", entry]}, "allow_list")


async def test_create_refuses_unknown_fields_and_bad_booleans(
    client: ApiClient, sim: Simulator
) -> None:
    await _bad_create(client, sim, {**GOOD, "updates": {}}, "updates")
    await _bad_create(client, sim, {**GOOD, "ssl_connection": "yes"}, "ssl_connection")
    await _bad_create(client, sim, {**GOOD, "encrypted": 1}, "encrypted")


async def test_restricted_user_without_add_databases_cannot_create(
    client_for: Callable[..., ApiClient], sim: Simulator
) -> None:
    before = _state(sim)
    await _refused(client_for("restricted"), "databases.mysql.create", body=GOOD, status=403)
    assert _state(sim) == before


async def test_restricted_user_with_add_databases_can_create(
    client_for: Callable[..., ApiClient], sim: Simulator
) -> None:
    sim.store.get("users", "ops-restricted")["grants"]["global"]["add_databases"] = True  # type: ignore[index]
    created = await client_for("restricted").call("databases.mysql.create", body=GOOD, model=dict)
    assert created["status"] == "provisioning"


async def test_provisioning_becomes_active_on_the_clock(
    client: ApiClient, clock: VirtualClock
) -> None:
    db = await client.call("databases.mysql.create", body=GOOD, model=dict)
    params = {"instanceId": db["id"]}
    clock.advance(19)
    assert (await client.call("databases.mysql.view", params, model=dict))[
        "status"
    ] == "provisioning"
    clock.advance(1)
    assert (await client.call("databases.mysql.view", params, model=dict))["status"] == "active"


# -- update ---------------------------------------------------------------------------------


async def test_update_needs_active(client: ApiClient, sim: Simulator, provisioning_id: int) -> None:
    before = _state(sim)
    await _refused(
        client,
        "databases.mysql.update",
        {"instanceId": provisioning_id},
        {"label": "renamed"},
        status=409,
    )
    assert _state(sim) == before


async def test_update_allow_list_overwrites(client: ApiClient, mysql_id: int) -> None:
    params = {"instanceId": mysql_id}
    await client.call(
        "databases.mysql.update", params, body={"allow_list": ["192.0.2.1"]}, model=dict
    )
    db = await client.call(
        "databases.mysql.update", params, body={"allow_list": ["192.0.2.2"]}, model=dict
    )
    assert db["allow_list"] == ["192.0.2.2"]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"label": "ab"}, "label"),
        ({"label": "café-sessions"}, "label"),
        ({"allow_list": ["nonsense"]}, "allow_list"),
        ({"allow_list": "10.0.0.1"}, "allow_list"),
        ({"engine": "mysql/5.7.39"}, "engine"),
        ({"updates": "sunday"}, "updates"),
        ({"updates": {"duration": 1, "hour_of_day": 2}}, "updates.day_of_week"),
        ({"updates": {"day_of_week": 0, "duration": 1, "hour_of_day": 2}}, "updates.day_of_week"),
        ({"updates": {"day_of_week": 8, "duration": 1, "hour_of_day": 2}}, "updates.day_of_week"),
        ({"updates": {"day_of_week": 1, "duration": 4, "hour_of_day": 2}}, "updates.duration"),
        ({"updates": {"day_of_week": 1, "duration": 0, "hour_of_day": 2}}, "updates.duration"),
        ({"updates": {"day_of_week": 1, "duration": 1, "hour_of_day": 24}}, "updates.hour_of_day"),
        (
            {"updates": {"day_of_week": 1, "duration": 1, "hour_of_day": 2, "frequency": "daily"}},
            "updates.frequency",
        ),
        (
            {
                "updates": {
                    "day_of_week": 1,
                    "duration": 1,
                    "hour_of_day": 2,
                    "frequency": "monthly",
                }
            },
            "updates.week_of_month",
        ),
        (
            {"updates": {"day_of_week": 1, "duration": 1, "hour_of_day": 2, "week_of_month": 2}},
            "updates.week_of_month",
        ),
        (
            {
                "updates": {
                    "day_of_week": 1,
                    "duration": 1,
                    "hour_of_day": 2,
                    "frequency": "monthly",
                    "week_of_month": 5,
                }
            },
            "updates.week_of_month",
        ),
    ],
)
async def test_update_validation(
    client: ApiClient, sim: Simulator, mysql_id: int, body: dict[str, Any], field: str
) -> None:
    before = _state(sim)
    err = await _refused(client, "databases.mysql.update", {"instanceId": mysql_id}, body)
    assert field in err.field_errors(), err
    assert _state(sim) == before


async def test_update_window_weekly_default(client: ApiClient, mysql_id: int) -> None:
    db = await client.call(
        "databases.mysql.update",
        {"instanceId": mysql_id},
        body={"updates": {"day_of_week": 7, "duration": 3, "hour_of_day": 23}},
        model=dict,
    )
    assert db["updates"] == {
        "day_of_week": 7,
        "duration": 3,
        "frequency": "weekly",
        "hour_of_day": 23,
        "week_of_month": None,
    }


# -- delete ---------------------------------------------------------------------------------


async def test_delete_unrestricted_only(
    client_for: Callable[..., ApiClient], sim: Simulator, mongo_id: int
) -> None:
    before = _state(sim)
    await _refused(
        client_for("restricted"), "databases.mongodb.delete", {"instanceId": mongo_id}, status=403
    )
    assert _state(sim) == before


@pytest.mark.parametrize(
    ("status", "allowed"),
    [("provisioning", False), ("restoring", False), ("failed", True), ("degraded", True)],
)
async def test_delete_needs_active_failed_or_degraded(
    client: ApiClient, sim: Simulator, mongo_id: int, status: str, allowed: bool
) -> None:
    _set_status(sim, mongo_id, status)
    params = {"instanceId": mongo_id}
    if allowed:
        await client.call("databases.mongodb.delete", params, model=dict)
        assert sim.store.get("databases.instances", mongo_id) is None
    else:
        await _refused(client, "databases.mongodb.delete", params, status=409)
        assert sim.store.get("databases.instances", mongo_id) is not None


# -- backups --------------------------------------------------------------------------------


async def test_backups_refused_while_provisioning(
    client: ApiClient, sim: Simulator, provisioning_id: int, mysql_id: int
) -> None:
    params = {"instanceId": provisioning_id}
    await _refused(client, "databases.mysql.backups.list", params, status=409)
    backup_id = next(
        b["id"] for b in sim.store.rows("databases.backups") if b["_db_id"] == mysql_id
    )
    # Even a backup id of another database: the state check comes first.
    await _refused(
        client, "databases.mysql.backups.view", {**params, "backupId": backup_id}, status=409
    )
    await _refused(
        client, "databases.mysql.backups.delete", {**params, "backupId": backup_id}, status=409
    )


async def test_backup_of_another_database_is_not_found(
    client: ApiClient, sim: Simulator, mysql_id: int, mongo_id: int
) -> None:
    backup_id = next(
        b["id"] for b in sim.store.rows("databases.backups") if b["_db_id"] == mysql_id
    )
    await _refused(
        client,
        "databases.mongodb.backups.view",
        {"instanceId": mongo_id, "backupId": backup_id},
        status=404,
    )


async def test_auto_backups_daily_at_midnight_at_most_seven(
    client: ApiClient, clock: VirtualClock, mysql_id: int
) -> None:
    params = {"instanceId": mysql_id}

    async def autos() -> list[dict[str, Any]]:
        page = await client.call("databases.mysql.backups.list", params, model=dict)
        return [b for b in page["data"] if b["type"] == "auto"]

    first = await autos()
    assert len(first) == 7
    assert all(b["created"].endswith("T00:00:00") for b in first)
    newest = max(parse_iso(b["created"]) for b in first)
    assert newest == clock.now() // DAY * DAY
    clock.advance(3 * DAY)
    later = await autos()
    assert len(later) == 7
    times = sorted(parse_iso(b["created"]) for b in later)
    assert times[-1] == clock.now() // DAY * DAY
    # Kept 7 days: nothing older than a week survives.
    assert times[0] > clock.now() - 7 * DAY
    assert [b2 - b1 for b1, b2 in itertools.pairwise(times)] == [DAY] * 6


async def test_deleted_auto_backup_stays_deleted(
    client: ApiClient, clock: VirtualClock, mysql_id: int
) -> None:
    params = {"instanceId": mysql_id}
    page = await client.call("databases.mysql.backups.list", params, model=dict)
    victim = next(b for b in page["data"] if b["type"] == "auto")
    await client.call(
        "databases.mysql.backups.delete", {**params, "backupId": victim["id"]}, model=dict
    )
    clock.advance(3600)
    page = await client.call("databases.mysql.backups.list", params, model=dict)
    assert victim["created"] not in [b["created"] for b in page["data"] if b["type"] == "auto"]


async def test_new_database_gets_first_auto_backup_at_next_midnight(
    client: ApiClient, clock: VirtualClock
) -> None:
    db = await client.call("databases.mysql.create", body=GOOD, model=dict)
    params = {"instanceId": db["id"]}
    clock.advance(60)
    assert (await client.call("databases.mysql.backups.list", params, model=dict))["results"] == 0
    clock.advance(DAY)
    page = await client.call("databases.mysql.backups.list", params, model=dict)
    assert page["results"] == 1 and page["data"][0]["created"].endswith("T00:00:00")


async def test_snapshot_needs_active(client: ApiClient, sim: Simulator, mysql_id: int) -> None:
    _set_status(sim, mysql_id, "degraded")
    before = _state(sim)
    await _refused(
        client,
        "databases.mysql.backups.create",
        {"instanceId": mysql_id},
        {"label": "snap-1"},
        status=409,
    )
    assert _state(sim) == before


@pytest.mark.parametrize(
    "label",
    [
        "ab",
        "x" * 65,
        "-abc",
        "abc-",
        ".abc",
        "abc_",
        "a--b",
        "a-_b",
        "a..b",
        "a b c",
        "abc!",
        "ünï",
    ],
)
async def test_snapshot_label_rules(
    client: ApiClient, sim: Simulator, mysql_id: int, label: str
) -> None:
    await client.call("databases.mysql.backups.list", {"instanceId": mysql_id}, model=dict)
    before = _state(sim)
    err = await _refused(
        client, "databases.mysql.backups.create", {"instanceId": mysql_id}, {"label": label}
    )
    assert "label" in err.field_errors()
    assert _state(sim) == before


async def test_snapshot_label_required_and_valid_labels_accepted(
    client: ApiClient, mysql_id: int
) -> None:
    params = {"instanceId": mysql_id}
    err = await _refused(client, "databases.mysql.backups.create", params, {})
    assert "label" in err.field_errors()
    for label in ("abc", "v1.2_pre-release", "X" * 64):
        await client.call(
            "databases.mysql.backups.create", params, body={"label": label}, model=dict
        )


async def test_snapshot_secondary_target_needs_three_nodes(
    client: ApiClient, sim: Simulator, mongo_id: int, mysql_id: int
) -> None:
    before = _state(sim)
    err = await _refused(
        client,
        "databases.mongodb.backups.create",
        {"instanceId": mongo_id},
        {"label": "replica", "target": "secondary"},
    )
    assert "target" in err.field_errors()
    assert _state(sim) == before
    err = await _refused(
        client,
        "databases.mysql.backups.create",
        {"instanceId": mysql_id},
        {"label": "replica", "target": "tertiary"},
    )
    assert "target" in err.field_errors()
    await client.call(
        "databases.mysql.backups.create",
        {"instanceId": mysql_id},
        body={"label": "replica", "target": "secondary"},
        model=dict,
    )


async def test_restore_needs_active(client: ApiClient, sim: Simulator, mysql_id: int) -> None:
    page = await client.call("databases.mysql.backups.list", {"instanceId": mysql_id}, model=dict)
    _set_status(sim, mysql_id, "failed")
    await _refused(
        client,
        "databases.mysql.backups.restore",
        {"instanceId": mysql_id, "backupId": page["data"][0]["id"]},
        status=409,
    )
    assert sim.store.get("databases.instances", mysql_id)["status"] == "failed"  # type: ignore[index]


async def test_restore_after_credentials_reset_fails_the_cluster(
    client: ApiClient, clock: VirtualClock, mongo_id: int
) -> None:
    params = {"instanceId": mongo_id}
    old = (await client.call("databases.mongodb.backups.list", params, model=dict))["data"][0]
    await client.call("databases.mongodb.credentials.reset", params, model=dict)
    clock.advance(3)
    await client.call(
        "databases.mongodb.backups.restore", {**params, "backupId": old["id"]}, model=dict
    )
    assert (await client.call("databases.mongodb.view", params, model=dict))[
        "status"
    ] == "restoring"
    clock.advance(6)
    assert (await client.call("databases.mongodb.view", params, model=dict))["status"] == "failed"


async def test_restore_of_backup_taken_after_reset_succeeds(
    client: ApiClient, clock: VirtualClock, mongo_id: int
) -> None:
    params = {"instanceId": mongo_id}
    await client.call("databases.mongodb.credentials.reset", params, model=dict)
    clock.advance(3)
    await client.call(
        "databases.mongodb.backups.create", params, body={"label": "after-reset"}, model=dict
    )
    page = await client.call("databases.mongodb.backups.list", params, model=dict)
    fresh = next(b for b in page["data"] if b["label"] == "after-reset")
    await client.call(
        "databases.mongodb.backups.restore", {**params, "backupId": fresh["id"]}, model=dict
    )
    clock.advance(6)
    assert (await client.call("databases.mongodb.view", params, model=dict))["status"] == "active"


# -- credentials, patch, certificate --------------------------------------------------------


async def test_credentials_need_active(
    client: ApiClient, provisioning_id: int, mysql_id: int
) -> None:
    await _refused(
        client, "databases.mysql.credentials.view", {"instanceId": provisioning_id}, status=409
    )
    creds = await client.call(
        "databases.mysql.credentials.view", {"instanceId": mysql_id}, model=dict
    )
    assert creds["username"] == "root" and len(creds["password"]) >= 16


async def test_credentials_reset_unrestricted_only(
    client_for: Callable[..., ApiClient], sim: Simulator, clock: VirtualClock, mongo_id: int
) -> None:
    params = {"instanceId": mongo_id}
    before = _state(sim)
    await _refused(
        client_for("restricted"), "databases.mongodb.credentials.reset", params, status=403
    )
    clock.advance(10)
    assert _state(sim) == before


async def test_credentials_reset_changes_password_after_a_delay(
    client: ApiClient, clock: VirtualClock, mongo_id: int
) -> None:
    params = {"instanceId": mongo_id}
    old = (await client.call("databases.mongodb.credentials.view", params, model=dict))["password"]
    await client.call("databases.mongodb.credentials.reset", params, model=dict)
    clock.advance(2)
    assert (await client.call("databases.mongodb.credentials.view", params, model=dict))[
        "password"
    ] == old
    clock.advance(1)
    assert (await client.call("databases.mongodb.credentials.view", params, model=dict))[
        "password"
    ] != old


async def test_patch_needs_active_and_returns_to_active(
    client: ApiClient, clock: VirtualClock, mongo_id: int
) -> None:
    params = {"instanceId": mongo_id}
    await client.call("databases.mongodb.patch", params, model=dict)
    # While patching the database is not active: a second patch and the certificate are refused.
    await _refused(client, "databases.mongodb.patch", params, status=409)
    await _refused(client, "databases.mongodb.ssl", params, status=409)
    clock.advance(5)
    assert (await client.call("databases.mongodb.view", params, model=dict))["status"] == "active"


async def test_ssl_certificate_is_pem(client: ApiClient, mongo_id: int) -> None:
    ssl = await client.call("databases.mongodb.ssl", {"instanceId": mongo_id}, model=dict)
    assert ssl["ca_certificate"].startswith("-----BEGIN CERTIFICATE-----\n")
    assert ssl["ca_certificate"].rstrip().endswith("-----END CERTIFICATE-----")


async def test_restricted_user_reads_databases(
    client_for: Callable[..., ApiClient], mysql_id: int
) -> None:
    restricted = client_for("restricted")
    assert (
        await restricted.call("databases.mysql.view", {"instanceId": mysql_id})
    ).label == "orders-[prod]"
    assert (await restricted.fetch_page("databases.instances.list")).results >= 3


# -- client-side request models -------------------------------------------------------------


def test_client_create_model_rules() -> None:
    DatabaseCreate(engine="mysql/8.0.30", label="abc", region="us-east", type="std-1")
    bad: list[dict[str, Any]] = [
        {"engine": "mongodb/6.0"},
        {"label": "ab"},
        {"cluster_size": 2},
        {"cluster_size": 1, "replication_type": "asynch"},
        {"cluster_size": 3, "replication_type": "none"},
        {"allow_list": ["10.0.0.300"]},
        {"unknown": True},
    ]
    for change in bad:
        with pytest.raises(ValidationError):
            DatabaseCreate(**{**GOOD, **change})
    assert DatabaseCreate(**GOOD).body() == GOOD


def test_client_window_and_snapshot_rules() -> None:
    with pytest.raises(ValidationError):
        MaintenanceWindowRequest(day_of_week=1, duration=1, hour_of_day=1, frequency="monthly")
    with pytest.raises(ValidationError):
        MaintenanceWindowRequest(day_of_week=1, duration=1, hour_of_day=1, week_of_month=1)
    with pytest.raises(ValidationError):
        MaintenanceWindowRequest(day_of_week=1, duration=4, hour_of_day=1)
    for label in ("ab", "a--b", "-ab", "ab.", "a_.b"):
        with pytest.raises(ValidationError):
            SnapshotCreate(label=label)
    assert SnapshotCreate(label="a.b-c_d").body() == {"label": "a.b-c_d"}


def test_credentials_repr_hides_password() -> None:
    creds = DatabaseCredentials(username="root", password="s3cr3t-value")
    assert "s3cr3t-value" not in repr(creds) and "s3cr3t-value" not in str(creds)
