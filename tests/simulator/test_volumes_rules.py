"""Volume rules: validation, placement, attach rules, lifecycles on the clock, permissions."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from tests.simulator.rules import refusal_check
from tests.simulator.rules import refused as _refused
from tui.api.client import ApiClient
from tui.api.errors import ApiError
from tui.simulator import Simulator, VirtualClock
from tui.simulator.handlers.volumes import PATH_PREFIX
from tui.simulator.seed import grant_restricted

REGIONS = ("us-east", "us-west", "eu-central", "eu-west", "ap-northeast")
CREATE_DELAY = 3.0
RESIZE_DELAY = 4.0


@pytest.fixture(autouse=True)
def catalog(sim: Simulator) -> None:
    """The region ids used here, in case the compute area has not seeded its catalog."""
    for rid in REGIONS:
        sim.store.table("compute.regions").setdefault(
            rid, {"id": rid, "label": rid, "country": "us", "status": "ok", "capabilities": []}
        )


_next_config = [880000]


def add_instance(
    sim: Simulator,
    instance_id: int,
    *,
    label: str = "",
    region: str = "us-east",
    status: str = "running",
    memory: int = 4096,
    configs: int = 1,
    last_booted: int | None = None,
) -> tuple[dict[str, Any], list[int]]:
    """Insert an instance and its profiles with the contract's shapes (independent of compute)."""
    inst = {
        "id": instance_id,
        "label": label or f"test-{instance_id}",
        "status": status,
        "region": region,
        "type": "std-2",
        "specs": {"disk": 81920, "memory": memory, "vcpus": 2, "transfer": 4000},
        "tags": [],
        "ipv4": ["192.0.2.10"],
    }
    if last_booted is not None:
        inst["_last_booted_config"] = last_booted
    sim.store.put("compute.instances", instance_id, inst)
    ids = []
    for n in range(configs):
        _next_config[0] += 1
        cid = _next_config[0]
        sim.store.put(
            "compute.configs",
            cid,
            {
                "id": cid,
                "label": f"cfg-{n}",
                "devices": {},
                "created": f"2026-10-0{n + 1}T00:00:00",
                "updated": f"2026-10-0{n + 1}T00:00:00",
                "_compute_id": instance_id,
            },
        )
        ids.append(cid)
    return inst, ids


def vol_id(sim: Simulator, label: str) -> int:
    return int(next(v["id"] for v in sim.store.rows("volumes.volumes") if v["label"] == label))


def vol(sim: Simulator, label: str) -> dict[str, Any]:
    return next(v for v in sim.store.rows("volumes.volumes") if v["label"] == label)


def _rec(sim: Simulator, table: str, key: object) -> dict[str, Any]:
    """A record that must exist."""
    record = sim.store.get(table, key)
    assert record is not None, (table, key)
    return record


def _state(sim: Simulator) -> dict[str, Any]:
    return copy.deepcopy(
        {
            "tables": {k: v for k, v in sim.store.tables.items() if k.startswith("volumes.")},
            "users": sim.store.tables.get("users"),
            "events": sim.store.events,
        }
    )


_bad = refusal_check(_state)
"""The call is refused with ``status``, names ``field``, and changes nothing."""


# -- authentication and scopes --------------------------------------------------------------


async def test_anonymous_and_unscoped_tokens_refused(
    client_for: Callable[..., ApiClient], sim: Simulator
) -> None:
    await _refused(client_for("anonymous"), "volumes.list", status=401)
    readonly = client_for("readonly")
    assert (await readonly.call("volumes.list", model=dict))["results"] == len(
        sim.store.rows("volumes.volumes")
    )
    before = _state(sim)
    await _refused(readonly, "volumes.create", body={"label": "x", "region": "us-east"}, status=403)
    assert _state(sim) == before


async def test_page_size_bounds(client: ApiClient) -> None:
    for size in (24, 101):
        with pytest.raises(ApiError) as info:
            await client.call("volumes.list", query={"page_size": size}, model=dict)
        assert info.value.status == 400 and "page_size" in info.value.field_errors()
    ok = await client.call("volumes.list", query={"page_size": 25}, model=dict)
    assert ok["page"] == 1


# -- create ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "label",
    [None, "", "x" * 33, "has space", "semi;colon", "web-[prod]", "a/b"],
)
async def test_create_label_rules(client: ApiClient, sim: Simulator, label: str | None) -> None:
    body: dict[str, Any] = {"region": "us-east"}
    if label is not None:
        body["label"] = label
    await _bad(client, sim, "volumes.create", None, body, "label")


async def test_create_label_is_ascii_and_becomes_the_device_path(
    client: ApiClient, sim: Simulator
) -> None:
    made = await client.call(
        "volumes.create", body={"label": "Zurich_data-1", "region": "us-east"}, model=dict
    )
    assert made["filesystem_path"] == PATH_PREFIX + "Zurich_data-1"
    await _bad(
        client, sim, "volumes.create", None, {"label": "Zürich", "region": "us-east"}, "label"
    )


@pytest.mark.parametrize("label", ["cafe-media", "CAFE-MEDIA"])
async def test_labels_are_unique_on_create_rename_and_clone(
    client: ApiClient, sim: Simulator, label: str
) -> None:
    src = vol(sim, "cafe-media")
    other = next(v for v in sim.store.rows("volumes.volumes") if v["id"] != src["id"])
    await _bad(client, sim, "volumes.create", None, {"label": label, "region": "us-east"}, "label")
    await _bad(client, sim, "volumes.update", {"volumeId": other["id"]}, {"label": label}, "label")
    await _bad(client, sim, "volumes.clone", {"volumeId": src["id"]}, {"label": label}, "label")
    # A volume may keep its own label when it is sent back unchanged.
    same = await client.call(
        "volumes.update", {"volumeId": src["id"]}, body={"label": "cafe-media"}, model=dict
    )
    assert same["label"] == "cafe-media"


@pytest.mark.parametrize("size", [9, 10241, "20", 1.5, True])
async def test_create_size_bounds(client: ApiClient, sim: Simulator, size: Any) -> None:
    await _bad(
        client,
        sim,
        "volumes.create",
        None,
        {"label": "v", "region": "us-east", "size": size},
        "size",
    )


async def test_create_size_defaults_to_20(client: ApiClient) -> None:
    made = await client.call(
        "volumes.create", body={"label": "dflt", "region": "us-east"}, model=dict
    )
    assert made["size"] == 20
    edge = await client.call(
        "volumes.create", body={"label": "big", "region": "us-east", "size": 10240}, model=dict
    )
    assert edge["size"] == 10240


async def test_create_region_required_without_compute_id(client: ApiClient, sim: Simulator) -> None:
    err = await _bad(client, sim, "volumes.create", None, {"label": "v"}, "region")
    assert "compute_id" in err.field_errors()["region"]
    await _bad(client, sim, "volumes.create", None, {"label": "v", "region": "mars-1"}, "region")


async def test_create_with_compute_id_takes_instance_region(
    client: ApiClient, sim: Simulator
) -> None:
    add_instance(sim, 990001, region="eu-west")
    made = await client.call(
        "volumes.create", body={"label": "att", "compute_id": 990001}, model=dict
    )
    assert made["region"] == "eu-west"
    assert made["compute_id"] == 990001 and made["compute_label"] == "test-990001"
    await _bad(
        client,
        sim,
        "volumes.create",
        None,
        {"label": "att2", "compute_id": 990001, "region": "us-east"},
        "region",
    )
    await _bad(client, sim, "volumes.create", None, {"label": "x", "compute_id": 123}, "compute_id")


async def test_create_config_id_only_with_compute_id_and_of_that_instance(
    client: ApiClient, sim: Simulator
) -> None:
    _, mine = add_instance(sim, 990002, configs=2)
    _, other = add_instance(sim, 990003)
    await _bad(
        client,
        sim,
        "volumes.create",
        None,
        {"label": "v", "region": "us-east", "config_id": mine[0]},
        "config_id",
    )
    await _bad(
        client,
        sim,
        "volumes.create",
        None,
        {"label": "v", "compute_id": 990002, "config_id": other[0]},
        "config_id",
    )
    made = await client.call(
        "volumes.create",
        body={"label": "v", "compute_id": 990002, "config_id": mine[0]},
        model=dict,
    )
    assert _rec(sim, "volumes.volumes", made["id"])["_config_id"] == mine[0]


async def test_create_joins_only_config_then_last_used_then_errors(
    client: ApiClient, sim: Simulator
) -> None:
    _, only = add_instance(sim, 990004, configs=1)
    made = await client.call(
        "volumes.create", body={"label": "one", "compute_id": 990004}, model=dict
    )
    assert _rec(sim, "volumes.volumes", made["id"])["_config_id"] == only[0]

    _, several = add_instance(sim, 990005, configs=3)
    _rec(sim, "compute.instances", 990005)["_last_booted_config"] = several[0]
    made = await client.call(
        "volumes.create", body={"label": "booted", "compute_id": 990005}, model=dict
    )
    assert _rec(sim, "volumes.volumes", made["id"])["_config_id"] == several[0]

    _, newest = add_instance(sim, 990006, configs=3)
    made = await client.call(
        "volumes.create", body={"label": "recent", "compute_id": 990006}, model=dict
    )
    # No boot recorded: the most recently updated profile is the last used one.
    assert _rec(sim, "volumes.volumes", made["id"])["_config_id"] == newest[2]

    add_instance(sim, 990007, configs=0)
    await _bad(
        client, sim, "volumes.create", None, {"label": "none", "compute_id": 990007}, "config_id"
    )


async def test_create_is_creating_then_active(
    client: ApiClient, sim: Simulator, clock: VirtualClock
) -> None:
    made = await client.call(
        "volumes.create", body={"label": "fresh", "region": "us-west"}, model=dict
    )
    assert made["status"] == "creating"
    assert made["hardware_type"] == "nvme" and made["created"] and made["updated"]
    clock.advance(CREATE_DELAY - 1)
    assert (await client.call("volumes.view", {"volumeId": made["id"]}, model=dict))[
        "status"
    ] == "creating"
    clock.advance(1)
    assert (await client.call("volumes.view", {"volumeId": made["id"]}, model=dict))[
        "status"
    ] == "active"


async def test_create_restricted_needs_add_volumes_and_no_tags(
    client_for: Callable[..., ApiClient], sim: Simulator
) -> None:
    restricted = client_for("restricted")
    await _bad(
        restricted,
        sim,
        "volumes.create",
        None,
        {"label": "t", "region": "us-east", "tags": ["x"]},
        "tags",
        status=403,
    )
    made = await restricted.call(
        "volumes.create", body={"label": "mine", "region": "us-east"}, model=dict
    )
    grants = _rec(sim, "users", "ops-restricted")["grants"]["volume"]
    assert {"id": made["id"], "label": "mine", "permissions": "read_write"} in grants
    assert (await restricted.call("volumes.view", {"volumeId": made["id"]}, model=dict))[
        "label"
    ] == "mine"
    _rec(sim, "users", "ops-restricted")["grants"]["global"]["add_volumes"] = False
    before = _state(sim)
    await _refused(
        restricted, "volumes.create", body={"label": "no", "region": "us-east"}, status=403
    )
    assert _state(sim) == before


async def test_create_attached_needs_read_write_on_instance(
    client_for: Callable[..., ApiClient], sim: Simulator
) -> None:
    add_instance(sim, 990008)
    restricted = client_for("restricted")
    # Invisible instance: a body error.
    await _bad(
        restricted, sim, "volumes.create", None, {"label": "v", "compute_id": 990008}, "compute_id"
    )
    grant_restricted(sim.store, "compute", 990008, "test-990008", "read_only")
    before = _state(sim)
    await _refused(
        restricted, "volumes.create", body={"label": "v", "compute_id": 990008}, status=403
    )
    assert _state(sim) == before


async def test_create_refuses_unknown_fields(client: ApiClient, sim: Simulator) -> None:
    await _bad(
        client, sim, "volumes.create", None, {"label": "v", "region": "us-east", "x": 1}, "x"
    )


# -- view, list, visibility -----------------------------------------------------------------


async def test_restricted_sees_only_granted_volumes(
    client_for: Callable[..., ApiClient], sim: Simulator
) -> None:
    restricted = client_for("restricted")
    labels = {v["label"] for v in (await restricted.call("volumes.list", model=dict))["data"]}
    assert labels == {"backup-scratch", "pg-data"}
    await _refused(restricted, "volumes.view", {"volumeId": vol_id(sim, "cafe-media")}, status=404)


async def test_view_unknown_and_non_integer_ids(client: ApiClient) -> None:
    await _refused(client, "volumes.view", {"volumeId": 1}, status=404)
    await _refused(client, "volumes.view", {"volumeId": "abc"}, status=404)


async def test_volume_of_deleted_instance_shows_free(client: ApiClient, sim: Simulator) -> None:
    add_instance(sim, 990009)
    made = await client.call(
        "volumes.create", body={"label": "orphan", "compute_id": 990009}, model=dict
    )
    sim.store.delete("compute.instances", 990009)
    view = await client.call("volumes.view", {"volumeId": made["id"]}, model=dict)
    assert view["compute_id"] is None and view["compute_label"] is None


# -- update ---------------------------------------------------------------------------------


async def test_update_label_and_tags(client: ApiClient, sim: Simulator) -> None:
    vid = vol_id(sim, "backup-scratch")
    out = await client.call(
        "volumes.update",
        {"volumeId": vid},
        body={"label": "scratch_2", "tags": ["b", "a"]},
        model=dict,
    )
    assert out["label"] == "scratch_2" and out["tags"] == ["b", "a"]
    assert out["filesystem_path"] == PATH_PREFIX + "scratch_2"
    await _bad(client, sim, "volumes.update", {"volumeId": vid}, {"label": "bad label"}, "label")
    await _bad(client, sim, "volumes.update", {"volumeId": vid}, {"tags": "x"}, "tags")
    await _bad(client, sim, "volumes.update", {"volumeId": vid}, {"size": 30}, "size")


async def test_update_restricted_rules(
    client_for: Callable[..., ApiClient], sim: Simulator
) -> None:
    restricted = client_for("restricted")
    rw, ro = vol_id(sim, "backup-scratch"), vol_id(sim, "pg-data")
    before = _state(sim)
    await _refused(restricted, "volumes.update", {"volumeId": ro}, body={"label": "x"}, status=403)
    await _bad(
        restricted, sim, "volumes.update", {"volumeId": rw}, {"tags": ["new"]}, "tags", status=403
    )
    assert _state(sim) == before
    out = await restricted.call(
        "volumes.update", {"volumeId": rw}, body={"label": "renamed"}, model=dict
    )
    assert out["label"] == "renamed"


# -- delete ---------------------------------------------------------------------------------


async def test_delete_is_irreversible_and_drops_grants(client: ApiClient, sim: Simulator) -> None:
    vid = vol_id(sim, "backup-scratch")
    await client.call("volumes.delete", {"volumeId": vid}, model=dict)
    await _refused(client, "volumes.view", {"volumeId": vid}, status=404)
    grants = _rec(sim, "users", "ops-restricted")["grants"]["volume"]
    assert all(g["id"] != vid for g in grants)


async def test_delete_refused_while_migrating(client: ApiClient, sim: Simulator) -> None:
    migrating = next(v for v in sim.store.rows("volumes.volumes") if v["status"] == "migrating")
    before = _state(sim)
    await _refused(client, "volumes.delete", {"volumeId": migrating["id"]}, status=409)
    assert _state(sim) == before


async def test_delete_restricted_read_only_refused(
    client_for: Callable[..., ApiClient], sim: Simulator
) -> None:
    restricted = client_for("restricted")
    before = _state(sim)
    await _refused(restricted, "volumes.delete", {"volumeId": vol_id(sim, "pg-data")}, status=403)
    await _refused(
        restricted, "volumes.delete", {"volumeId": vol_id(sim, "cafe-media")}, status=404
    )
    assert _state(sim) == before


# -- attach and detach ----------------------------------------------------------------------


async def test_attach_requires_compute_id(client: ApiClient, sim: Simulator) -> None:
    vid = vol_id(sim, "backup-scratch")
    await _bad(client, sim, "volumes.attach", {"volumeId": vid}, {}, "compute_id")
    await _bad(client, sim, "volumes.attach", {"volumeId": vid}, {"compute_id": "1"}, "compute_id")
    await _bad(client, sim, "volumes.attach", {"volumeId": vid}, {"compute_id": 5}, "compute_id")


async def test_attach_same_region_required(client: ApiClient, sim: Simulator) -> None:
    add_instance(sim, 990010, region="eu-west")
    vid = vol_id(sim, "backup-scratch")
    assert vol(sim, "backup-scratch")["region"] != "eu-west"
    await _bad(
        client, sim, "volumes.attach", {"volumeId": vid}, {"compute_id": 990010}, "compute_id"
    )


async def test_attach_defaults_to_last_booted_config_and_persists(
    client: ApiClient, sim: Simulator
) -> None:
    region = vol(sim, "backup-scratch")["region"]
    _, configs = add_instance(sim, 990011, region=region, configs=2)
    _rec(sim, "compute.instances", 990011)["_last_booted_config"] = configs[1]
    vid = vol_id(sim, "backup-scratch")
    out = await client.call(
        "volumes.attach", {"volumeId": vid}, body={"compute_id": 990011}, model=dict
    )
    assert out["compute_id"] == 990011 and out["compute_label"] == "test-990011"
    record = _rec(sim, "volumes.volumes", vid)
    assert record["_config_id"] == configs[1] and record["_persist"] is True


async def test_attach_config_id_must_belong_to_instance(client: ApiClient, sim: Simulator) -> None:
    region = vol(sim, "backup-scratch")["region"]
    add_instance(sim, 990012, region=region)
    _, foreign = add_instance(sim, 990013, region=region)
    vid = vol_id(sim, "backup-scratch")
    await _bad(
        client,
        sim,
        "volumes.attach",
        {"volumeId": vid},
        {"compute_id": 990012, "config_id": foreign[0]},
        "config_id",
    )
    add_instance(sim, 990014, region=region, configs=0)
    await _bad(
        client, sim, "volumes.attach", {"volumeId": vid}, {"compute_id": 990014}, "config_id"
    )


async def test_attach_already_attached_refused(client: ApiClient, sim: Simulator) -> None:
    region = vol(sim, "backup-scratch")["region"]
    add_instance(sim, 990015, region=region)
    add_instance(sim, 990016, region=region)
    vid = vol_id(sim, "backup-scratch")
    await client.call("volumes.attach", {"volumeId": vid}, body={"compute_id": 990015}, model=dict)
    before = _state(sim)
    err = await _refused(
        client, "volumes.attach", {"volumeId": vid}, body={"compute_id": 990016}, status=409
    )
    assert "compute_id" in err.field_errors()
    assert _state(sim) == before


async def test_attach_without_persistence_rules(client: ApiClient, sim: Simulator) -> None:
    region = vol(sim, "backup-scratch")["region"]
    add_instance(sim, 990017, region=region, status="offline")
    _, cfg = add_instance(sim, 990018, region=region)
    vid = vol_id(sim, "backup-scratch")
    await _bad(
        client,
        sim,
        "volumes.attach",
        {"volumeId": vid},
        {"compute_id": 990017, "persist_across_boots": False},
        "persist_across_boots",
    )
    await _bad(
        client,
        sim,
        "volumes.attach",
        {"volumeId": vid},
        {"compute_id": 990018, "persist_across_boots": False, "config_id": cfg[0]},
        "config_id",
    )
    await _bad(
        client,
        sim,
        "volumes.attach",
        {"volumeId": vid},
        {"compute_id": 990018, "persist_across_boots": "no"},
        "persist_across_boots",
    )
    out = await client.call(
        "volumes.attach",
        {"volumeId": vid},
        body={"compute_id": 990018, "persist_across_boots": False},
        model=dict,
    )
    assert out["compute_id"] == 990018
    record = _rec(sim, "volumes.volumes", vid)
    assert record["_persist"] is False and record["_config_id"] is None


def _fill_transient(sim: Simulator, instance_id: int, region: str, count: int) -> None:
    for n in range(count):
        vid = sim.store.next_id("volumes.volume")
        sim.store.put(
            "volumes.volumes",
            vid,
            {
                "id": vid,
                "label": f"t{instance_id}-{n}",
                "status": "active",
                "size": 10,
                "region": region,
                "compute_id": instance_id,
                "compute_label": "x",
                "hardware_type": "nvme",
                "filesystem_path": PATH_PREFIX + f"t{instance_id}-{n}",
                "tags": [],
                "created": "2026-11-01T00:00:00",
                "updated": "2026-11-01T00:00:00",
                "_config_id": None,
                "_persist": False,
            },
        )


@pytest.mark.parametrize(
    ("memory_gb", "limit"),
    [(4, 8), (8, 8), (16, 16), (24, 24), (96, 64)],
)
async def test_attach_without_persistence_count_limit(
    client: ApiClient, sim: Simulator, memory_gb: int, limit: int
) -> None:
    region = vol(sim, "backup-scratch")["region"]
    iid = 990100 + memory_gb
    add_instance(sim, iid, region=region, memory=memory_gb * 1024)
    _fill_transient(sim, iid, region, limit - 1)
    body = {"compute_id": iid, "persist_across_boots": False}
    await client.call(
        "volumes.attach", {"volumeId": vol_id(sim, "backup-scratch")}, body=body, model=dict
    )
    made = await client.call(
        "volumes.create", body={"label": "one-more", "region": region}, model=dict
    )
    await _bad(
        client, sim, "volumes.attach", {"volumeId": made["id"]}, body, "persist_across_boots"
    )
    # Persistent attachments do not count against the limit.
    ok = await client.call(
        "volumes.attach", {"volumeId": made["id"]}, body={"compute_id": iid}, model=dict
    )
    assert ok["compute_id"] == iid


async def test_attach_permissions(client_for: Callable[..., ApiClient], sim: Simulator) -> None:
    restricted = client_for("restricted")
    region = vol(sim, "pg-data")["region"]
    add_instance(sim, 990020, region=region)
    add_instance(sim, 990021, region=region)
    add_instance(sim, 990024, region=region)
    grant_restricted(sim.store, "compute", 990020, "rw", "read_write")
    grant_restricted(sim.store, "compute", 990021, "ro", "read_only")
    _rec(sim, "volumes.volumes", vol_id(sim, "pg-data")).update(compute_id=None)
    ro_volume = vol_id(sim, "pg-data")
    before = _state(sim)
    await _refused(
        restricted,
        "volumes.attach",
        {"volumeId": ro_volume},
        body={"compute_id": 990021},
        status=403,
    )
    await _bad(
        restricted,
        sim,
        "volumes.attach",
        {"volumeId": ro_volume},
        {"compute_id": 990024},
        "compute_id",
    )
    assert _state(sim) == before
    # Read permission on the volume suffices; read_write is needed on the instance.
    out = await restricted.call(
        "volumes.attach", {"volumeId": ro_volume}, body={"compute_id": 990020}, model=dict
    )
    assert out["compute_id"] == 990020


async def test_detach_clears_compute_id(client: ApiClient, sim: Simulator) -> None:
    region = vol(sim, "backup-scratch")["region"]
    add_instance(sim, 990022, region=region)
    vid = vol_id(sim, "backup-scratch")
    await client.call("volumes.attach", {"volumeId": vid}, body={"compute_id": 990022}, model=dict)
    assert await client.call("volumes.detach", {"volumeId": vid}, model=dict) == {}
    view = await client.call("volumes.view", {"volumeId": vid}, model=dict)
    assert view["compute_id"] is None and view["compute_label"] is None
    before = _state(sim)
    await _refused(client, "volumes.detach", {"volumeId": vid}, status=409)
    assert _state(sim) == before


async def test_detach_needs_write_on_instance(
    client_for: Callable[..., ApiClient], sim: Simulator
) -> None:
    region = vol(sim, "backup-scratch")["region"]
    add_instance(sim, 990023, region=region)
    grant_restricted(sim.store, "compute", 990023, "ro", "read_only")
    _rec(sim, "volumes.volumes", vol_id(sim, "backup-scratch")).update(compute_id=990023)
    before = _state(sim)
    await _refused(
        client_for("restricted"),
        "volumes.detach",
        {"volumeId": vol_id(sim, "backup-scratch")},
        status=403,
    )
    assert _state(sim) == before


# -- clone ----------------------------------------------------------------------------------


async def test_clone_label_required(client: ApiClient, sim: Simulator) -> None:
    vid = vol_id(sim, "backup-scratch")
    await _bad(client, sim, "volumes.clone", {"volumeId": vid}, {}, "label")
    await _bad(client, sim, "volumes.clone", {"volumeId": vid}, {"label": "x" * 33}, "label")


async def test_clone_copies_size_and_region_then_active(
    client: ApiClient, sim: Simulator, clock: VirtualClock
) -> None:
    src = vol(sim, "cafe-media")
    out = await client.call(
        "volumes.clone", {"volumeId": src["id"]}, body={"label": "cafe-copy"}, model=dict
    )
    assert out["status"] == "creating" and out["id"] != src["id"]
    assert (out["size"], out["region"]) == (src["size"], src["region"])
    assert out["compute_id"] is None
    assert _rec(sim, "volumes.volumes", src["id"])["status"] == "active"
    clock.advance(CREATE_DELAY)
    assert (await client.call("volumes.view", {"volumeId": out["id"]}, model=dict))[
        "status"
    ] == "active"


async def test_clone_source_must_be_active(client: ApiClient, sim: Simulator) -> None:
    migrating = next(v for v in sim.store.rows("volumes.volumes") if v["status"] == "migrating")
    before = _state(sim)
    await _refused(
        client, "volumes.clone", {"volumeId": migrating["id"]}, body={"label": "c"}, status=409
    )
    assert _state(sim) == before


async def test_clone_needs_add_volumes(
    client_for: Callable[..., ApiClient], sim: Simulator
) -> None:
    restricted = client_for("restricted")
    vid = vol_id(sim, "backup-scratch")
    out = await restricted.call(
        "volumes.clone", {"volumeId": vid}, body={"label": "mycopy"}, model=dict
    )
    assert (await restricted.call("volumes.view", {"volumeId": out["id"]}, model=dict))[
        "label"
    ] == "mycopy"
    _rec(sim, "users", "ops-restricted")["grants"]["global"]["add_volumes"] = False
    before = _state(sim)
    await _refused(
        restricted, "volumes.clone", {"volumeId": vid}, body={"label": "again"}, status=403
    )
    assert _state(sim) == before


# -- resize ---------------------------------------------------------------------------------


async def test_resize_rules(client: ApiClient, sim: Simulator) -> None:
    src = vol(sim, "cafe-media")
    params = {"volumeId": src["id"]}
    await _bad(client, sim, "volumes.resize", params, {}, "size")
    await _bad(client, sim, "volumes.resize", params, {"size": src["size"]}, "size")
    await _bad(client, sim, "volumes.resize", params, {"size": src["size"] - 10}, "size")
    await _bad(client, sim, "volumes.resize", params, {"size": 10241}, "size")


async def test_resize_grows_with_resizing_status(
    client: ApiClient, sim: Simulator, clock: VirtualClock
) -> None:
    src = vol(sim, "cafe-media")
    out = await client.call(
        "volumes.resize", {"volumeId": src["id"]}, body={"size": 100}, model=dict
    )
    assert out["size"] == 100 and out["status"] == "resizing"
    before = _state(sim)
    await _refused(
        client, "volumes.resize", {"volumeId": src["id"]}, body={"size": 200}, status=409
    )
    assert _state(sim) == before
    clock.advance(RESIZE_DELAY)
    view = await client.call("volumes.view", {"volumeId": src["id"]}, model=dict)
    assert view["status"] == "active" and view["size"] == 100


async def test_resize_restricted_read_only_refused(
    client_for: Callable[..., ApiClient], sim: Simulator
) -> None:
    before = _state(sim)
    await _refused(
        client_for("restricted"),
        "volumes.resize",
        {"volumeId": vol_id(sim, "pg-data")},
        body={"size": 500},
        status=403,
    )
    assert _state(sim) == before


# -- demo data ------------------------------------------------------------------------------


def test_seeded_volumes_cover_the_demo_cases(sim: Simulator) -> None:
    rows = sim.store.rows("volumes.volumes")
    assert any(v["status"] == "migrating" for v in rows)
    # Non-ASCII text stays in the demo, in a field whose rules allow it (tags).
    assert any(not tag.isascii() for v in rows for tag in v["tags"])
    assert any(v["compute_id"] is None for v in rows)
    instance_regions = {i.get("region") for i in sim.store.rows("compute.instances")}
    assert any(v["region"] not in instance_regions for v in rows)
    if sim.store.rows("compute.instances"):
        assert any(v["compute_id"] is not None for v in rows)
    grants = {
        g["label"]: g["permissions"]
        for g in _rec(sim, "users", "ops-restricted")["grants"]["volume"]
    }
    assert grants == {"backup-scratch": "read_write", "pg-data": "read_only"}
    for v in rows:
        assert v["filesystem_path"] == PATH_PREFIX + v["label"]
        assert v["hardware_type"] == "nvme"
