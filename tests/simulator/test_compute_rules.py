"""Compute rules: every refusal names its field and changes nothing; lifecycles on the clock;
restricted users; statistics, transfer, kernels, regions, types; bulk seeding speed."""

from __future__ import annotations

import copy
import itertools
import random
from collections.abc import Callable
from typing import Any

import pytest

from tests.simulator.rules import refusal_check
from tests.simulator.rules import refused as _refused
from tui.api.client import ApiClient
from tui.api.errors import ApiError
from tui.simulator import Simulator, VirtualClock
from tui.simulator.app import DEFAULT_TIMINGS
from tui.simulator.context import SeedContext
from tui.simulator.handlers.compute import BALANCE_META, PublicRows
from tui.simulator.handlers.images import CONTRACT_REGIONS
from tui.simulator.seed import grant_restricted
from tui.simulator.seeds.compute import _catalogues, _seed_bulk
from tui.simulator.store import Store

PW = "correct-horse-9"
IMAGE = "compute/debian12"
T = DEFAULT_TIMINGS


# -- helpers --------------------------------------------------------------------------------


def iid(sim: Simulator, label: str) -> int:
    return int(next(r["id"] for r in sim.store.rows("compute.instances") if r["label"] == label))


def rec(sim: Simulator, table: str, key: object) -> dict[str, Any]:
    record = sim.store.get(table, key)
    assert record is not None, (table, key)
    return record


def inst(sim: Simulator, label: str) -> dict[str, Any]:
    return rec(sim, "compute.instances", iid(sim, label))


def owned(sim: Simulator, table: str, compute_id: int) -> list[dict[str, Any]]:
    return [r for r in sim.store.rows(table) if r.get("_compute_id") == compute_id]


def _state(sim: Simulator) -> dict[str, Any]:
    tables = {
        k: v
        for k, v in sim.store.tables.items()
        if k.startswith(("compute.", "volumes.", "deployscripts.")) or k == "users"
    }
    return copy.deepcopy(
        {"tables": tables, "events": sim.store.events, "counters": sim.store.counters}
    )


_bad = refusal_check(_state)
"""The call is refused with ``status``, names ``field``, and changes nothing."""


def create_body(**extra: Any) -> dict[str, Any]:
    return {"region": "us-east", "type": "std-2", "image": IMAGE, "root_pass": PW, **extra}


def on(sim: Simulator, label: str) -> dict[str, Any]:
    return {"computeId": iid(sim, label)}


def allow_restricted_creates(sim: Simulator) -> None:
    rec(sim, "users", "ops-restricted")["grants"]["global"]["add_computes"] = True


# -- scopes and visibility ------------------------------------------------------------------


async def test_anonymous_and_readonly_tokens(
    client_for: Callable[..., ApiClient], sim: Simulator
) -> None:
    await _refused(client_for("anonymous"), "compute.instances.list", status=401)
    readonly = client_for("readonly")
    listed = await readonly.call("compute.instances.list", model=dict)
    assert listed["results"] == len(sim.store.rows("compute.instances"))
    await _bad(readonly, sim, "compute.instances.create", None, create_body(), None, 403)
    await _bad(readonly, sim, "compute.instances.shutdown", on(sim, "db-primary"), {}, None, 403)


async def test_restricted_lists_only_granted_instances(
    client_for: Callable[..., ApiClient],
) -> None:
    restricted = client_for("restricted")
    labels = {
        i["label"] for i in (await restricted.call("compute.instances.list", model=dict))["data"]
    }
    assert labels == {"staging-api-1", "build-cache", "web-prod-2"}


async def test_restricted_view_needs_read_and_changes_need_read_write(
    client_for: Callable[..., ApiClient], sim: Simulator
) -> None:
    restricted = client_for("restricted")
    hidden, read_only = on(sim, "db-primary"), on(sim, "web-prod-2")
    for name in ("compute.instances.view", "compute.configs.list", "compute.stats.view"):
        await _refused(restricted, name, hidden, status=404)
    assert (await restricted.call("compute.instances.view", read_only, model=dict))[
        "label"
    ] == "web-prod-2"
    assert (await restricted.call("compute.disks.list", read_only, model=dict))["results"] == 2
    for name, body in (
        ("compute.instances.update", {"label": "mine"}),
        ("compute.instances.reboot", {}),
        ("compute.instances.shutdown", {}),
        ("compute.instances.delete", None),
        ("compute.instances.resize", {"type": "std-4"}),
        ("compute.disks.create", {"label": "d", "size": 10}),
    ):
        await _bad(restricted, sim, name, read_only, body, None, 403)
        await _bad(restricted, sim, name, hidden, body, None, 404)
    out = await restricted.call(
        "compute.instances.update",
        on(sim, "build-cache"),
        body={"label": "build-cache-2"},
        model=dict,
    )
    assert out["label"] == "build-cache-2"


async def test_view_unknown_and_non_integer_ids(client: ApiClient) -> None:
    await _refused(client, "compute.instances.view", {"computeId": 1}, status=404)
    await _refused(client, "compute.instances.view", {"computeId": "abc"}, status=404)


async def test_page_size_up_to_500(client: ApiClient) -> None:
    for size in (24, 501):
        with pytest.raises(ApiError) as info:
            await client.call("compute.instances.list", query={"page_size": size}, model=dict)
        assert info.value.status == 400 and "page_size" in info.value.field_errors()
    assert (await client.call("compute.instances.list", query={"page_size": 500}, model=dict))[
        "page"
    ] == 1


# -- create: validation ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"type": "std-2"}, "region"),
        ({"region": "mars-1", "type": "std-2"}, "region"),
        ({"region": "us-east"}, "type"),
        ({"region": "us-east", "type": "std-3000"}, "type"),
        ({"region": "us-east", "type": "std-2", "colour": "red"}, "colour"),
        ({"region": "us-east", "type": "std-2", "group": "g" * 51}, "group"),
        ({"region": "us-east", "type": "std-2", "booted": "yes"}, "booted"),
        ({"region": "us-east", "type": "std-2", "private_ip": 1}, "private_ip"),
    ],
)
async def test_create_region_type_and_field_rules(
    client: ApiClient, sim: Simulator, body: dict[str, Any], field: str
) -> None:
    await _bad(client, sim, "compute.instances.create", None, body, field)


@pytest.mark.parametrize(
    "label",
    ["ab", "x" * 65, "", 42, "cafe-web", "CAFE-WEB", "[qa] api-1", "café-2", "a--b", "-ab", "ab."],
)
async def test_create_label_length_and_uniqueness(
    client: ApiClient, sim: Simulator, label: Any
) -> None:
    await _bad(client, sim, "compute.instances.create", None, create_body(label=label), "label")


async def test_create_label_takes_ascii_names_with_single_punctuation(client: ApiClient) -> None:
    made = await client.call(
        "compute.instances.create", body=create_body(label="qa_api.v2-1"), model=dict
    )
    assert made["label"] == "qa_api.v2-1"
    edge = await client.call(
        "compute.instances.create", body=create_body(label="x" * 64), model=dict
    )
    assert edge["label"] == "x" * 64


async def test_create_default_label_is_unique(client: ApiClient) -> None:
    first = await client.call(
        "compute.instances.create", body={"region": "eu-west", "type": "std-4"}, model=dict
    )
    second = await client.call(
        "compute.instances.create", body={"region": "eu-west", "type": "std-4"}, model=dict
    )
    dedicated = await client.call(
        "compute.instances.create", body={"region": "eu-west", "type": "hi-mem-24"}, model=dict
    )
    assert (first["label"], second["label"]) == ("std-eu-west-1", "std-eu-west-2")
    assert dedicated["label"] == "hi-mem-eu-west-1"


@pytest.mark.parametrize("root_pass", ["short", "p" * 129, 1234567, None])
async def test_create_root_pass_bounds_and_required_with_image(
    client: ApiClient, sim: Simulator, root_pass: Any
) -> None:
    body = create_body()
    if root_pass is None:
        del body["root_pass"]
    else:
        body["root_pass"] = root_pass
    await _bad(client, sim, "compute.instances.create", None, body, "root_pass")


async def test_create_never_echoes_or_stores_the_root_password(
    client: ApiClient, sim: Simulator
) -> None:
    made = await client.call("compute.instances.create", body=create_body(root_pass=PW), model=dict)
    assert PW not in str(made)
    assert PW not in str(sim.store.to_json())


@pytest.mark.parametrize(
    ("interfaces", "field"),
    [
        ([{"purpose": "public"}] * 4, "interfaces"),
        ("public", "interfaces"),
        ([{"purpose": "bridge"}], "interfaces[0].purpose"),
        ([{"purpose": "public"}, {"purpose": "public"}], "interfaces[1].purpose"),
        ([{"purpose": "public", "label": "lan"}], "interfaces[0].label"),
        ([{"purpose": "public", "ipam_address": "10.0.0.1/24"}], "interfaces[0].ipam_address"),
        ([{"purpose": "vlan"}], "interfaces[0].label"),
        ([{"purpose": "vlan", "label": "bad label"}], "interfaces[0].label"),
        (
            [{"purpose": "vlan", "label": "lan", "ipam_address": "10.0.0.1"}],
            "interfaces[0].ipam_address",
        ),
        (
            [{"purpose": "vlan", "label": "lan", "ipam_address": "x/24"}],
            "interfaces[0].ipam_address",
        ),
        (
            [{"purpose": "vlan", "label": "a"}, {"purpose": "vlan", "label": "a"}],
            "interfaces[1].label",
        ),
        ([{"purpose": "vlan", "label": "lan", "mtu": 9000}], "interfaces[0].mtu"),
        (["eth0"], "interfaces[0]"),
    ],
)
async def test_create_interface_rules(
    client: ApiClient, sim: Simulator, interfaces: Any, field: str
) -> None:
    body = create_body(interfaces=interfaces)
    await _bad(client, sim, "compute.instances.create", None, body, field)


async def test_create_vlans_only_in_newer_regions(client: ApiClient, sim: Simulator) -> None:
    vlan = [
        {"purpose": "public"},
        {"purpose": "vlan", "label": "lan", "ipam_address": "10.0.0.5/24"},
    ]
    await _bad(
        client,
        sim,
        "compute.instances.create",
        None,
        create_body(region="us-west", interfaces=vlan),
        "interfaces[1].purpose",
    )
    made = await client.call(
        "compute.instances.create", body=create_body(interfaces=vlan), model=dict
    )
    config = owned(sim, "compute.configs", made["id"])[0]
    assert config["interfaces"][1] == {
        "purpose": "vlan",
        "label": "lan",
        "ipam_address": "10.0.0.5/24",
    }
    assert config["interfaces"][0]["purpose"] == "public"


async def test_create_interfaces_need_an_image_or_backup(client: ApiClient, sim: Simulator) -> None:
    await _bad(
        client,
        sim,
        "compute.instances.create",
        None,
        {"region": "us-east", "type": "std-2", "interfaces": [{"purpose": "public"}]},
        "interfaces",
    )


async def test_create_tags_only_by_unrestricted_users(
    client_for: Callable[..., ApiClient], sim: Simulator
) -> None:
    allow_restricted_creates(sim)
    restricted = client_for("restricted")
    await _bad(
        restricted, sim, "compute.instances.create", None, create_body(tags=["x"]), "tags", 403
    )
    made = await restricted.call("compute.instances.create", body=create_body(tags=[]), model=dict)
    assert made["tags"] == []


async def test_create_restricted_needs_add_computes_and_gets_a_grant(
    client_for: Callable[..., ApiClient], sim: Simulator
) -> None:
    restricted = client_for("restricted")
    await _bad(restricted, sim, "compute.instances.create", None, create_body(), None, 403)
    allow_restricted_creates(sim)
    made = await restricted.call(
        "compute.instances.create", body=create_body(label="ops-box"), model=dict
    )
    grants = rec(sim, "users", "ops-restricted")["grants"]["compute"]
    assert {"id": made["id"], "label": "ops-box", "permissions": "read_write"} in grants
    assert (await restricted.call("compute.instances.view", {"computeId": made["id"]}, model=dict))[
        "id"
    ]


@pytest.mark.parametrize("image", ["compute/nope", "private/1", "", 12])
async def test_create_image_must_exist(client: ApiClient, sim: Simulator, image: Any) -> None:
    await _bad(client, sim, "compute.instances.create", None, create_body(image=image), "image")


@pytest.mark.parametrize("status", ["creating", "pending_upload"])
async def test_create_image_must_be_available(
    client: ApiClient, sim: Simulator, status: str
) -> None:
    image = next(i for i in sim.store.rows("images.images") if i["status"] == status)
    body = create_body(image=image["id"])
    err = await _bad(client, sim, "compute.instances.create", None, body, "image")
    assert "available" in err.field_errors()["image"]


async def test_create_private_image_deploys(client: ApiClient, sim: Simulator) -> None:
    golden = next(i for i in sim.store.rows("images.images") if i["label"] == "web-[prod]-golden")
    made = await client.call(
        "compute.instances.create", body=create_body(image=golden["id"]), model=dict
    )
    assert made["image"] == golden["id"]
    labels = {d["label"] for d in owned(sim, "compute.disks", made["id"])}
    assert "web-[prod]-golden Disk" in labels


def script_id(sim: Simulator, label: str) -> int:
    return int(
        next(s["id"] for s in sim.store.rows("deployscripts.scripts") if s["label"] == label)
    )


async def test_create_stackscript_needs_a_compatible_image(
    client: ApiClient, sim: Simulator
) -> None:
    cafe = script_id(sim, "café terminal setup")  # alpine only
    await _bad(
        client,
        sim,
        "compute.instances.create",
        None,
        create_body(stackscript_id=cafe),
        "stackscript_id",
    )
    await _bad(
        client,
        sim,
        "compute.instances.create",
        None,
        {"region": "us-east", "type": "std-2", "stackscript_id": cafe},
        "image",
    )
    await _bad(
        client,
        sim,
        "compute.instances.create",
        None,
        create_body(stackscript_id=1),
        "stackscript_id",
    )
    ok = await client.call(
        "compute.instances.create",
        body=create_body(image="compute/alpine3.20", stackscript_id=cafe),
        model=dict,
    )
    assert ok["status"] == "provisioning"
    anywhere = script_id(sim, "Docker host")  # any/all
    ok = await client.call(
        "compute.instances.create",
        body=create_body(image="compute/arch", stackscript_id=anywhere),
        model=dict,
    )
    assert ok["image"] == "compute/arch"


async def test_create_stackscript_user_defined_fields(client: ApiClient, sim: Simulator) -> None:
    lamp = script_id(sim, "LAMP stack")
    await _bad(
        client,
        sim,
        "compute.instances.create",
        None,
        create_body(stackscript_id=lamp),
        "stackscript_data.db_password",
    )
    await _bad(
        client,
        sim,
        "compute.instances.create",
        None,
        create_body(stackscript_id=lamp, stackscript_data={"db_password": "x", "php_version": "7"}),
        "stackscript_data.php_version",
    )
    await _bad(
        client,
        sim,
        "compute.instances.create",
        None,
        create_body(stackscript_id=lamp, stackscript_data="db_password=x"),
        "stackscript_data",
    )
    before = rec(sim, "deployscripts.scripts", lamp)["deployments_total"]
    made = await client.call(
        "compute.instances.create",
        body=create_body(stackscript_id=lamp, stackscript_data={"db_password": "pw"}),
        model=dict,
    )
    script = rec(sim, "deployscripts.scripts", lamp)
    assert script["deployments_total"] == before + 1
    active = script["deployments_active"]
    await client.call("compute.instances.delete", {"computeId": made["id"]}, model=dict)
    assert rec(sim, "deployscripts.scripts", lamp)["deployments_active"] == active - 1


async def test_create_stackscript_data_needs_stackscript_id(
    client: ApiClient, sim: Simulator
) -> None:
    await _bad(
        client,
        sim,
        "compute.instances.create",
        None,
        create_body(stackscript_data={"a": "b"}),
        "stackscript_data",
    )


async def test_create_image_and_backup_exclude_each_other(
    client: ApiClient, sim: Simulator
) -> None:
    backup = owned(sim, "compute.backups", iid(sim, "db-primary"))[0]
    await _bad(
        client,
        sim,
        "compute.instances.create",
        None,
        create_body(type="ded-8", backup_id=backup["id"]),
        "backup_id",
    )


async def test_create_from_backup_copies_disks_and_profiles(
    client: ApiClient, sim: Simulator, clock: VirtualClock
) -> None:
    source = iid(sim, "db-primary")
    backup = next(b for b in owned(sim, "compute.backups", source) if b["type"] == "automatic")
    made = await client.call(
        "compute.instances.create",
        body={"region": "eu-west", "type": "ded-8", "backup_id": backup["id"]},
        model=dict,
    )
    assert made["status"] == "provisioning" and made["image"] == "compute/debian12"
    disks = owned(sim, "compute.disks", made["id"])
    assert [(d["label"], d["size"], d["filesystem"]) for d in disks] == [
        (d["label"], d["size"], d["filesystem"]) for d in backup["disks"]
    ]
    configs = owned(sim, "compute.configs", made["id"])
    assert [c["label"] for c in configs] == backup["configs"]
    mine = {d["id"] for d in disks}
    assert all(
        dev["disk_id"] in mine for c in configs for dev in c["devices"].values() if dev is not None
    )
    clock.advance(T["compute.provision"])
    assert (await client.call("compute.instances.view", {"computeId": made["id"]}, model=dict))[
        "status"
    ] == "running"


async def test_create_from_backup_needs_a_large_enough_type(
    client: ApiClient, sim: Simulator
) -> None:
    backup = owned(sim, "compute.backups", iid(sim, "db-primary"))[0]
    body = {"region": "us-east", "type": "std-2", "backup_id": backup["id"]}
    err = await _bad(client, sim, "compute.instances.create", None, body, "type")
    assert "backup needs" in err.field_errors()["type"]


async def test_create_from_backup_refuses_unfinished_and_unknown_backups(
    client: ApiClient, sim: Simulator
) -> None:
    running = next(b for b in sim.store.rows("compute.backups") if b["status"] != "successful")
    for backup_id in (running["id"], 1, "71800"):
        body = {"region": "us-east", "type": "ded-8", "backup_id": backup_id}
        await _bad(client, sim, "compute.instances.create", None, body, "backup_id")


async def test_create_booted_false_ends_offline(
    client: ApiClient, sim: Simulator, clock: VirtualClock
) -> None:
    made = await client.call("compute.instances.create", body=create_body(booted=False), model=dict)
    assert made["status"] == "provisioning"
    clock.advance(T["compute.provision"])
    after = await client.call("compute.instances.view", {"computeId": made["id"]}, model=dict)
    assert after["status"] == "offline"
    assert all(d["status"] == "ready" for d in owned(sim, "compute.disks", made["id"]))


async def test_create_from_image_has_a_default_profile_and_two_disks(
    client: ApiClient, sim: Simulator, clock: VirtualClock
) -> None:
    made = await client.call("compute.instances.create", body=create_body(), model=dict)
    disks = owned(sim, "compute.disks", made["id"])
    assert [(d["filesystem"], d["size"], d["status"]) for d in disks] == [
        ("ext4", 81920 - 512, "not ready"),
        ("swap", 512, "not ready"),
    ]
    (config,) = owned(sim, "compute.configs", made["id"])
    assert config["devices"]["sda"] == {"disk_id": disks[0]["id"], "volume_id": None}
    assert config["devices"]["sdb"] == {"disk_id": disks[1]["id"], "volume_id": None}
    assert config["kernel"] == "compute/latest-64bit" and config["memory_limit"] == 4096
    clock.advance(T["compute.provision"])
    await client.call("compute.instances.view", {"computeId": made["id"]}, model=dict)
    assert rec(sim, "compute.instances", made["id"])["_last_booted_config"] == config["id"]


async def test_create_without_image_is_offline_and_empty(
    client: ApiClient, sim: Simulator, clock: VirtualClock
) -> None:
    made = await client.call(
        "compute.instances.create",
        body={"region": "us-east", "type": "std-2", "root_pass": PW, "swap_size": 1024},
        model=dict,
    )
    assert made["status"] == "offline" and made["image"] is None
    assert owned(sim, "compute.disks", made["id"]) == []
    assert owned(sim, "compute.configs", made["id"]) == []
    clock.advance(600)
    view = await client.call("compute.instances.view", {"computeId": made["id"]}, model=dict)
    assert view["status"] == "offline"


async def test_create_swap_size(client: ApiClient, sim: Simulator) -> None:
    none = await client.call("compute.instances.create", body=create_body(swap_size=0), model=dict)
    assert [d["filesystem"] for d in owned(sim, "compute.disks", none["id"])] == ["ext4"]
    big = await client.call(
        "compute.instances.create", body=create_body(swap_size=2048), model=dict
    )
    sizes = [d["size"] for d in owned(sim, "compute.disks", big["id"])]
    assert sizes == [81920 - 2048, 2048]
    for swap in (-1, 81920, "512"):
        await _bad(
            client, sim, "compute.instances.create", None, create_body(swap_size=swap), "swap_size"
        )


async def test_create_assigns_addresses(client: ApiClient) -> None:
    plain = await client.call("compute.instances.create", body=create_body(), model=dict)
    private = await client.call(
        "compute.instances.create", body=create_body(private_ip=True), model=dict
    )
    assert len(plain["ipv4"]) == 1 and len(private["ipv4"]) == 2
    assert private["ipv4"][1].startswith("192.168.")
    assert plain["ipv4"][0] != private["ipv4"][0]
    assert plain["ipv6"].endswith("/128") and plain["ipv6"] != private["ipv6"]


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("authorized_keys", ["not a key"]),
        ("authorized_keys", "ssh-ed25519 AAAA"),
        ("authorized_users", ["nobody-here"]),
        ("backups_enabled", "true"),
    ],
)
async def test_create_keys_users_and_flags(
    client: ApiClient, sim: Simulator, field: str, value: Any
) -> None:
    await _bad(client, sim, "compute.instances.create", None, create_body(**{field: value}), field)


async def test_create_accepts_keys_users_and_enables_backups(client: ApiClient) -> None:
    made = await client.call(
        "compute.instances.create",
        body=create_body(
            authorized_keys=["ssh-ed25519 AAAAC3NzaC1 me@laptop"],
            authorized_users=["demo"],
            backups_enabled=True,
        ),
        model=dict,
    )
    assert made["backups"]["enabled"] is True and made["backups"]["available"] is False


# -- update ---------------------------------------------------------------------------------


async def test_update_changes_and_merges(client: ApiClient, sim: Simulator) -> None:
    params = on(sim, "web-prod-1")
    out = await client.call(
        "compute.instances.update",
        params,
        body={
            "label": "web-prod-1a",
            "group": "web",
            "watchdog_enabled": False,
            "alerts": {"cpu": 180, "transfer_quota": 90},
            "backups": {"schedule": {"window": "W2"}},
        },
        model=dict,
    )
    assert out["label"] == "web-prod-1a" and out["group"] == "web"
    assert out["alerts"]["cpu"] == 180 and out["alerts"]["io"] == 10000
    assert out["backups"]["schedule"] == {"day": "Scheduling", "window": "W2"}
    same = await client.call(
        "compute.instances.update", params, body={"label": "web-prod-1a"}, model=dict
    )
    assert same["label"] == "web-prod-1a"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"label": "ab"}, "label"),
        ({"label": "db-primary"}, "label"),
        ({"tags": "web"}, "tags"),
        ({"group": "g" * 51}, "group"),
        ({"watchdog_enabled": "no"}, "watchdog_enabled"),
        ({"alerts": {"cpu": -1}}, "alerts.cpu"),
        ({"alerts": {"cpu": 201}}, "alerts.cpu"),
        ({"alerts": {"transfer_quota": 101}}, "alerts.transfer_quota"),
        ({"alerts": {"io": True}}, "alerts.io"),
        ({"alerts": {"disk": 5}}, "alerts.disk"),
        ({"alerts": 5}, "alerts"),
        # Read-only: web-prod-1 has backups enabled, so only another value is refused.
        ({"backups": {"enabled": False}}, "backups.enabled"),
        ({"backups": {"available": False, "schedule": {"window": "W2"}}}, "backups.available"),
        ({"backups": {"schedule": {"day": "Someday"}}}, "backups.schedule.day"),
        ({"backups": {"schedule": {"window": "W3"}}}, "backups.schedule.window"),
        ({"backups": {"schedule": "daily"}}, "backups.schedule"),
        ({"region": "eu-west"}, "region"),
        ({"type": "std-4"}, "type"),
    ],
)
async def test_update_validation(
    client: ApiClient, sim: Simulator, body: dict[str, Any], field: str
) -> None:
    # web-prod-1 is std-2: 2 vCPUs, so the CPU alert may go up to 200.
    await _bad(client, sim, "compute.instances.update", on(sim, "web-prod-1"), body, field)


async def test_update_tags_only_by_unrestricted_users(
    client_for: Callable[..., ApiClient], sim: Simulator
) -> None:
    restricted = client_for("restricted")
    params = on(sim, "staging-api-1")
    await _bad(restricted, sim, "compute.instances.update", params, {"tags": ["x"]}, "tags", 403)
    out = await restricted.call(
        "compute.instances.update", params, body={"tags": ["staging", "[staging]"]}, model=dict
    )
    assert out["tags"] == ["staging", "[staging]"]


# -- delete ---------------------------------------------------------------------------------


async def test_delete_removes_everything_and_frees_volumes(
    client: ApiClient, sim: Simulator
) -> None:
    target = iid(sim, "db-primary")
    grant_restricted(sim.store, "compute", target, "db-primary", "read_only")
    volume = next(v for v in sim.store.rows("volumes.volumes") if v["compute_id"] == target)
    assert owned(sim, "compute.disks", target) and owned(sim, "compute.backups", target)
    await client.call("compute.instances.delete", {"computeId": target}, model=dict)
    await _refused(client, "compute.instances.view", {"computeId": target}, status=404)
    for table in ("compute.disks", "compute.configs", "compute.backups"):
        assert owned(sim, table, target) == []
    freed = rec(sim, "volumes.volumes", volume["id"])
    assert freed["compute_id"] is None and freed["_config_id"] is None
    grants = rec(sim, "users", "ops-restricted")["grants"]["compute"]
    assert all(g["id"] != target for g in grants)


@pytest.mark.parametrize("status", ["cloning", "restoring"])
async def test_delete_refused_while_cloning_or_restoring(
    client: ApiClient, sim: Simulator, status: str
) -> None:
    inst(sim, "web-prod-2")["status"] = status
    await _bad(client, sim, "compute.instances.delete", on(sim, "web-prod-2"), None, None, 409)


async def test_delete_cancels_pending_transitions(
    client: ApiClient, sim: Simulator, clock: VirtualClock
) -> None:
    target = iid(sim, "new-api-2")
    assert any(e["args"].get("id") == target for e in sim.store.events)
    await client.call("compute.instances.delete", {"computeId": target}, model=dict)
    assert not any(e["args"].get("id") == target for e in sim.store.events)
    clock.advance(3600)
    await client.call("compute.instances.list", model=dict)
    assert sim.store.get("compute.instances", target) is None


# -- boot, reboot, shutdown -----------------------------------------------------------------


async def test_boot_offline_instance_records_the_profile(
    client: ApiClient, sim: Simulator, clock: VirtualClock
) -> None:
    target = iid(sim, "ci-runner-01")
    (config,) = owned(sim, "compute.configs", target)
    await client.call("compute.instances.boot", {"computeId": target}, body={}, model=dict)
    assert rec(sim, "compute.instances", target)["status"] == "booting"
    assert rec(sim, "compute.instances", target)["_last_booted_config"] == config["id"]
    clock.advance(T["compute.boot"] - 1)
    view = await client.call("compute.instances.view", {"computeId": target}, model=dict)
    assert view["status"] == "booting"
    clock.advance(1)
    view = await client.call("compute.instances.view", {"computeId": target}, model=dict)
    assert view["status"] == "running"


async def test_boot_stopped_instance(
    client: ApiClient, sim: Simulator, clock: VirtualClock
) -> None:
    params = on(sim, "legacy-ftp")
    await client.call("compute.instances.boot", params, model=dict)
    clock.advance(T["compute.boot"])
    assert (await client.call("compute.instances.view", params, model=dict))["status"] == "running"


async def test_boot_and_reboot_config_id_must_be_the_instances(
    client: ApiClient, sim: Simulator
) -> None:
    foreign = owned(sim, "compute.configs", iid(sim, "db-primary"))[0]["id"]
    for name, label in (
        ("compute.instances.boot", "ci-runner-01"),
        ("compute.instances.reboot", "cafe-web"),
    ):
        for config_id in (foreign, "1", 1):
            await _bad(client, sim, name, on(sim, label), {"config_id": config_id}, "config_id")
        await _bad(client, sim, name, on(sim, label), {"kernel": "x"}, "kernel")


async def test_boot_without_profiles_is_refused(client: ApiClient, sim: Simulator) -> None:
    made = await client.call(
        "compute.instances.create", body={"region": "us-east", "type": "std-1"}, model=dict
    )
    params = {"computeId": made["id"]}
    await _bad(client, sim, "compute.instances.boot", params, {}, "config_id")


@pytest.mark.parametrize(
    ("name", "label"),
    [
        ("compute.instances.boot", "cafe-web"),
        ("compute.instances.reboot", "ci-runner-01"),
        ("compute.instances.reboot", "legacy-ftp"),
        ("compute.instances.shutdown", "ci-runner-01"),
        ("compute.instances.shutdown", "legacy-ftp"),
    ],
)
async def test_power_actions_need_the_right_state(
    client: ApiClient, sim: Simulator, name: str, label: str
) -> None:
    await _bad(client, sim, name, on(sim, label), {}, None, 409)


@pytest.mark.parametrize(
    ("name", "body"),
    [
        ("compute.instances.boot", {}),
        ("compute.instances.reboot", {}),
        ("compute.instances.shutdown", {}),
        ("compute.instances.resize", {"type": "std-4"}),
        ("compute.instances.rescue", {}),
    ],
)
async def test_queued_actions_must_complete_first(
    client: ApiClient, sim: Simulator, name: str, body: dict[str, Any]
) -> None:
    err = await _bad(client, sim, name, on(sim, "new-api-2"), body, None, 409)
    assert "queued actions must complete" in str(err)


async def test_reboot_with_another_profile(
    client: ApiClient, sim: Simulator, clock: VirtualClock
) -> None:
    target = iid(sim, "db-primary")
    recovery = next(
        c for c in owned(sim, "compute.configs", target) if c["label"].startswith("Recovery")
    )
    await client.call(
        "compute.instances.reboot",
        {"computeId": target},
        body={"config_id": recovery["id"]},
        model=dict,
    )
    record = rec(sim, "compute.instances", target)
    assert record["status"] == "rebooting" and record["_last_booted_config"] == recovery["id"]
    clock.advance(T["compute.reboot"])
    view = await client.call("compute.instances.view", {"computeId": target}, model=dict)
    assert view["status"] == "running"


async def test_shutdown_then_offline(
    client: ApiClient, sim: Simulator, clock: VirtualClock
) -> None:
    params = on(sim, "cafe-web")
    await client.call("compute.instances.shutdown", params, model=dict)
    assert (await client.call("compute.instances.view", params, model=dict))[
        "status"
    ] == "shutting_down"
    clock.advance(T["compute.shutdown"])
    assert (await client.call("compute.instances.view", params, model=dict))["status"] == "offline"


# -- resize ---------------------------------------------------------------------------------


async def test_resize_grows_the_main_disk(
    client: ApiClient, sim: Simulator, clock: VirtualClock
) -> None:
    target = iid(sim, "web-prod-2")
    await client.call(
        "compute.instances.resize", {"computeId": target}, body={"type": "std-4"}, model=dict
    )
    record = rec(sim, "compute.instances", target)
    assert record["status"] == "resizing" and record["type"] == "std-2"
    clock.advance(T["compute.resize"])
    view = await client.call("compute.instances.view", {"computeId": target}, model=dict)
    assert view["status"] == "running" and view["type"] == "std-4"
    assert view["specs"] == {"disk": 163840, "memory": 8192, "vcpus": 4, "transfer": 5000}
    sizes = sorted(d["size"] for d in owned(sim, "compute.disks", target))
    assert sizes == [512, 163840 - 512]


async def test_resize_without_auto_disk_keeps_disks_and_offline_stays_offline(
    client: ApiClient, sim: Simulator, clock: VirtualClock
) -> None:
    target = iid(sim, "ci-runner-01")
    before = sorted(d["size"] for d in owned(sim, "compute.disks", target))
    # ci-runner-01 is ded-8 (320 GB); hi-mem-48 has 40 GB: too small.
    await _bad(
        client, sim, "compute.instances.resize", {"computeId": target}, {"type": "std-4"}, "type"
    )
    await client.call(
        "compute.instances.resize",
        {"computeId": target},
        body={"type": "std-8", "allow_auto_disk_resize": False},
        model=dict,
    )
    clock.advance(T["compute.resize"])
    view = await client.call("compute.instances.view", {"computeId": target}, model=dict)
    assert view["status"] == "offline" and view["type"] == "std-8"
    assert sorted(d["size"] for d in owned(sim, "compute.disks", target)) == before


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "type"),
        ({"type": "std-3000"}, "type"),
        ({"type": "std-2"}, "type"),
        ({"type": 4}, "type"),
        ({"type": "std-4", "allow_auto_disk_resize": "yes"}, "allow_auto_disk_resize"),
        ({"type": "std-4", "size": 5}, "size"),
    ],
)
async def test_resize_validation(
    client: ApiClient, sim: Simulator, body: dict[str, Any], field: str
) -> None:
    await _bad(client, sim, "compute.instances.resize", on(sim, "web-prod-2"), body, field)


async def test_resize_refused_when_disks_exceed_the_new_type(
    client: ApiClient, sim: Simulator
) -> None:
    err = await _bad(
        client, sim, "compute.instances.resize", on(sim, "db-primary"), {"type": "std-2"}, "type"
    )
    assert "delete or shrink" in err.field_errors()["type"]


async def test_resize_refused_with_a_pending_migration(client: ApiClient, sim: Simulator) -> None:
    assert inst(sim, "mail-relay")["_pending_migration"] is True
    err = await _bad(
        client, sim, "compute.instances.resize", on(sim, "mail-relay"), {"type": "std-2"}, None, 409
    )
    assert "migration" in str(err)


async def test_resize_refused_with_an_outstanding_balance(
    client: ApiClient, sim: Simulator
) -> None:
    sim.store.meta[BALANCE_META] = 1250
    err = await _bad(
        client, sim, "compute.instances.resize", on(sim, "web-prod-2"), {"type": "std-4"}, None, 409
    )
    assert "12.50 USD" in str(err)
    sim.store.meta[BALANCE_META] = 0
    await client.call(
        "compute.instances.resize", on(sim, "web-prod-2"), body={"type": "std-4"}, model=dict
    )


async def test_resize_refused_while_transitional(client: ApiClient, sim: Simulator) -> None:
    await client.call("compute.instances.shutdown", on(sim, "web-prod-2"), model=dict)
    await _bad(
        client, sim, "compute.instances.resize", on(sim, "web-prod-2"), {"type": "std-4"}, None, 409
    )


# -- rescue ---------------------------------------------------------------------------------


async def test_rescue_refuses_sdh(client: ApiClient, sim: Simulator) -> None:
    target = iid(sim, "cafe-web")
    disk = owned(sim, "compute.disks", target)[0]
    err = await _bad(
        client,
        sim,
        "compute.instances.rescue",
        {"computeId": target},
        {"devices": {"sdh": {"disk_id": disk["id"]}}},
        "devices.sdh",
    )
    assert "reserved" in err.field_errors()["devices.sdh"]


@pytest.mark.parametrize(
    ("devices", "field"),
    [
        ({"sda": {"disk_id": "own"}}, "devices.sda.disk_id"),
        ({"sdz": None}, "devices.sdz"),
        ({"sda": "disk"}, "devices.sda"),
        ({"sda": {"disk_id": 1, "volume_id": 2}}, "devices.sda"),
        ({"sda": {"size": 1}}, "devices.sda.size"),
        ("sda", "devices"),
    ],
)
async def test_rescue_device_map_rules(
    client: ApiClient, sim: Simulator, devices: Any, field: str
) -> None:
    body = {"devices": devices}
    await _bad(client, sim, "compute.instances.rescue", on(sim, "cafe-web"), body, field)


async def test_rescue_disks_and_volumes_must_belong_to_the_instance(
    client: ApiClient, sim: Simulator
) -> None:
    other_disk = owned(sim, "compute.disks", iid(sim, "db-primary"))[0]
    free_volume = next(v for v in sim.store.rows("volumes.volumes") if v["compute_id"] is None)
    attached = next(
        v for v in sim.store.rows("volumes.volumes") if v["compute_id"] == iid(sim, "db-primary")
    )
    params = on(sim, "web-prod-1")
    for devices, field in (
        ({"sda": {"disk_id": other_disk["id"]}}, "devices.sda.disk_id"),
        ({"sdb": {"volume_id": free_volume["id"]}}, "devices.sdb.volume_id"),
        ({"sdc": {"volume_id": attached["id"]}}, "devices.sdc.volume_id"),
    ):
        await _bad(client, sim, "compute.instances.rescue", params, {"devices": devices}, field)
    mine = next(
        v for v in sim.store.rows("volumes.volumes") if v["compute_id"] == iid(sim, "web-prod-1")
    )
    own_disk = owned(sim, "compute.disks", iid(sim, "web-prod-1"))[0]
    await client.call(
        "compute.instances.rescue",
        params,
        body={"devices": {"sda": {"disk_id": own_disk["id"]}, "sdb": {"volume_id": mine["id"]}}},
        model=dict,
    )
    record = inst(sim, "web-prod-1")
    assert record["status"] == "rebooting"
    assert record["_rescue_devices"]["sdb"] == {"disk_id": None, "volume_id": mine["id"]}


async def test_rescue_defaults_to_the_instance_disks_and_boots(
    client: ApiClient, sim: Simulator, clock: VirtualClock
) -> None:
    target = iid(sim, "ci-runner-01")
    await client.call("compute.instances.rescue", {"computeId": target}, model=dict)
    record = rec(sim, "compute.instances", target)
    disks = owned(sim, "compute.disks", target)
    assert record["status"] == "booting"
    assert record["_rescue_devices"]["sda"]["disk_id"] == disks[0]["id"]
    assert record["_rescue_devices"]["sdb"]["disk_id"] == disks[1]["id"]
    clock.advance(T["compute.boot"])
    view = await client.call("compute.instances.view", {"computeId": target}, model=dict)
    assert view["status"] == "running"


# -- configuration profiles -----------------------------------------------------------------


async def test_config_create_defaults(client: ApiClient, sim: Simulator) -> None:
    target = iid(sim, "analytics-worker")
    disk = owned(sim, "compute.disks", target)[0]
    made = await client.call(
        "compute.configs.create",
        {"computeId": target},
        body={"label": "x", "devices": {"sda": {"disk_id": disk["id"]}}},
        model=dict,
    )
    assert made["kernel"] == "compute/latest-64bit"
    assert made["memory_limit"] == 24576
    assert (made["run_level"], made["virt_mode"], made["root_device"]) == (
        "default",
        "paravirt",
        "/dev/sda",
    )
    assert made["helpers"]["network"] is True and made["interfaces"] == []
    assert list(made["devices"]) == ["sda", "sdb", "sdc", "sdd", "sde", "sdf", "sdg", "sdh"]
    assert made["devices"]["sdh"] is None


def config_cases() -> list[tuple[dict[str, Any], str]]:
    return [
        ({"devices": {}}, "label"),
        ({"label": "", "devices": {}}, "label"),
        ({"label": "x" * 49, "devices": {}}, "label"),
        ({"label": "x"}, "devices"),
        ({"label": "x", "devices": []}, "devices"),
        ({"label": "x", "devices": {"sdi": None}}, "devices.sdi"),
        ({"label": "x", "devices": {}, "kernel": "compute/7.0-x86_64"}, "kernel"),
        ({"label": "x", "devices": {}, "memory_limit": 24577}, "memory_limit"),
        ({"label": "x", "devices": {}, "memory_limit": -1}, "memory_limit"),
        ({"label": "x", "devices": {}, "run_level": "fast"}, "run_level"),
        ({"label": "x", "devices": {}, "virt_mode": "hvm"}, "virt_mode"),
        ({"label": "x", "devices": {}, "root_device": "sda"}, "root_device"),
        ({"label": "x", "devices": {}, "helpers": {"turbo": True}}, "helpers.turbo"),
        ({"label": "x", "devices": {}, "helpers": {"network": "on"}}, "helpers.network"),
        ({"label": "x", "devices": {}, "interfaces": [{"purpose": "public"}] * 4}, "interfaces"),
        ({"label": "x", "devices": {}, "comments": 5}, "comments"),
        ({"label": "x", "devices": {}, "extra": 1}, "extra"),
    ]


@pytest.mark.parametrize(("body", "field"), config_cases())
async def test_config_create_rules(
    client: ApiClient, sim: Simulator, body: dict[str, Any], field: str
) -> None:
    await _bad(client, sim, "compute.configs.create", on(sim, "analytics-worker"), body, field)


async def test_config_devices_belong_to_the_instance_once(
    client: ApiClient, sim: Simulator
) -> None:
    target = iid(sim, "analytics-worker")
    own = owned(sim, "compute.disks", target)[0]["id"]
    foreign = owned(sim, "compute.disks", iid(sim, "db-primary"))[0]["id"]
    params = {"computeId": target}
    for devices, field in (
        ({"sda": {"disk_id": foreign}}, "devices.sda.disk_id"),
        ({"sda": {"disk_id": own}, "sdb": {"disk_id": own}}, "devices.sdb.disk_id"),
        ({"sdc": {"volume_id": 1}}, "devices.sdc.volume_id"),
    ):
        body = {"label": "x", "devices": devices}
        await _bad(client, sim, "compute.configs.create", params, body, field)


async def test_config_vlans_only_in_newer_regions(client: ApiClient, sim: Simulator) -> None:
    vlan = [{"purpose": "vlan", "label": "lan"}]
    await _bad(
        client,
        sim,
        "compute.configs.create",
        on(sim, "ci-runner-01"),  # us-west
        {"label": "x", "devices": {}, "interfaces": vlan},
        "interfaces[0].purpose",
    )
    made = await client.call(
        "compute.configs.create",
        on(sim, "vpn-gateway"),
        body={"label": "x", "devices": {}, "interfaces": vlan},
        model=dict,
    )
    assert made["interfaces"] == [{"purpose": "vlan", "label": "lan", "ipam_address": None}]


async def test_config_update_and_delete(client: ApiClient, sim: Simulator) -> None:
    target = iid(sim, "db-primary")
    first, second = owned(sim, "compute.configs", target)
    params = {"computeId": target, "configId": second["id"]}
    out = await client.call(
        "compute.configs.update",
        params,
        body={"comments": None, "helpers": {"network": False}, "devices": {}},
        model=dict,
    )
    assert out["comments"] is None and out["helpers"]["network"] is False
    assert out["helpers"]["distro"] is True
    assert all(d is None for d in out["devices"].values())
    for body, field in (
        ({"label": ""}, "label"),
        ({"kernel": "nope/0"}, "kernel"),
        ({"devices": "sda"}, "devices"),
    ):
        await _bad(client, sim, "compute.configs.update", params, body, field)
    await client.call("compute.configs.delete", params, model=dict)
    await _refused(client, "compute.configs.view", params, status=404)
    other = {"computeId": iid(sim, "web-prod-1"), "configId": first["id"]}
    for name in ("compute.configs.view", "compute.configs.delete"):
        await _bad(client, sim, name, other, None, None, 404)


async def test_deleting_the_booted_config_forgets_it(client: ApiClient, sim: Simulator) -> None:
    target = iid(sim, "db-primary")
    booted = inst(sim, "db-primary")["_last_booted_config"]
    volume = next(v for v in sim.store.rows("volumes.volumes") if v["compute_id"] == target)
    assert volume["_config_id"] == booted
    await client.call(
        "compute.configs.delete", {"computeId": target, "configId": booted}, model=dict
    )
    assert inst(sim, "db-primary")["_last_booted_config"] is None
    assert rec(sim, "volumes.volumes", volume["id"])["_config_id"] is None


# -- disks ----------------------------------------------------------------------------------


async def empty_instance(client: ApiClient, type_id: str = "std-1") -> dict[str, Any]:
    made = await client.call(
        "compute.instances.create", body={"region": "us-east", "type": type_id}, model=dict
    )
    return {"computeId": made["id"]}


async def test_disk_empty_needs_a_label_and_without_label_an_image(
    client: ApiClient, sim: Simulator
) -> None:
    params = await empty_instance(client)
    err = await _bad(client, sim, "compute.disks.create", params, {"size": 100}, "label")
    assert "image" in err.field_errors()


async def test_disk_from_image_needs_root_pass(client: ApiClient, sim: Simulator) -> None:
    params = await empty_instance(client)
    body = {"size": 4096, "image": IMAGE}
    await _bad(client, sim, "compute.disks.create", params, body, "root_pass")
    body["root_pass"] = "short"
    await _bad(client, sim, "compute.disks.create", params, body, "root_pass")


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"label": "d"}, "size"),
        ({"label": "d", "size": 0}, "size"),
        ({"label": "d", "size": 51201}, "size"),
        ({"label": "x" * 49, "size": 10}, "label"),
        ({"label": "d", "size": 10, "filesystem": "zfs"}, "filesystem"),
        ({"size": 100, "image": IMAGE, "root_pass": PW}, "size"),
        ({"size": 4096, "image": "compute/nope", "root_pass": PW}, "image"),
        ({"label": "d", "size": 10, "authorized_keys": ["nope"]}, "authorized_keys"),
        ({"label": "d", "size": 10, "authorized_users": ["ghost"]}, "authorized_users"),
        ({"label": "d", "size": 10, "stackscript_id": 10451}, "image"),
        ({"label": "d", "size": 10, "stackscript_data": {}}, "stackscript_data"),
        ({"label": "d", "size": 10, "bogus": 1}, "bogus"),
    ],
)
async def test_disk_create_rules(
    client: ApiClient, sim: Simulator, body: dict[str, Any], field: str
) -> None:
    params = await empty_instance(client)
    await _bad(client, sim, "compute.disks.create", params, body, field)


async def test_disk_stackscript_needs_a_compatible_image(client: ApiClient, sim: Simulator) -> None:
    params = await empty_instance(client)
    cafe = script_id(sim, "café terminal setup")
    body = {"size": 4096, "image": IMAGE, "root_pass": PW, "stackscript_id": cafe}
    await _bad(client, sim, "compute.disks.create", params, body, "stackscript_id")
    body["image"] = "compute/alpine3.20"
    made = await client.call("compute.disks.create", params, body=body, model=dict)
    assert made["label"] == "Alpine 3.20 Disk"


async def test_disk_size_must_fit_the_free_space(client: ApiClient, sim: Simulator) -> None:
    await _bad(
        client,
        sim,
        "compute.disks.create",
        on(sim, "web-prod-2"),
        {"label": "d", "size": 1},
        "size",
    )
    params = await empty_instance(client)  # std-1: 51200 MB
    await client.call(
        "compute.disks.create", params, body={"label": "a", "size": 51000}, model=dict
    )
    err = await _bad(
        client, sim, "compute.disks.create", params, {"label": "b", "size": 201}, "size"
    )
    assert "only 200 MB" in err.field_errors()["size"]
    await client.call("compute.disks.create", params, body={"label": "b", "size": 200}, model=dict)


async def test_disk_defaults_and_readiness(
    client: ApiClient, sim: Simulator, clock: VirtualClock
) -> None:
    params = await empty_instance(client)
    made = await client.call(
        "compute.disks.create", params, body={"label": "data", "size": 512}, model=dict
    )
    assert made["status"] == "not ready" and made["filesystem"] == "ext4"
    clock.advance(T["compute.disk"] - 1)
    assert (await client.call("compute.disks.list", params, model=dict))["data"][0][
        "status"
    ] == "not ready"
    clock.advance(1)
    assert (await client.call("compute.disks.list", params, model=dict))["data"][0][
        "status"
    ] == "ready"
    raw = await client.call(
        "compute.disks.create",
        params,
        body={"label": "raw", "size": 512, "filesystem": "raw"},
        model=dict,
    )
    assert raw["filesystem"] == "raw"


# -- backups --------------------------------------------------------------------------------


async def test_backups_listing_shape(client: ApiClient, sim: Simulator) -> None:
    listing = await client.call("compute.backups.list", on(sim, "db-primary"), model=dict)
    assert set(listing) == {"automatic", "snapshot"}
    assert set(listing["snapshot"]) == {"current", "in_progress"}
    created = [b["created"] for b in listing["automatic"]]
    assert created == sorted(created) and len(created) == 3
    for backup in listing["automatic"]:
        assert backup["type"] == "automatic" and backup["status"] == "successful"
        assert backup["available"] is True and backup["finished"] >= backup["created"]
        assert backup["disks"] and backup["configs"]
        assert not any(k.startswith("_") for k in backup)
    assert listing["snapshot"]["in_progress"]["status"] == "running"
    record = inst(sim, "db-primary")
    assert record["backups"]["last_successful"] == listing["automatic"][-1]["finished"]


# -- statistics -----------------------------------------------------------------------------


async def test_stats_are_24_hours_of_5_minute_points(client: ApiClient, sim: Simulator) -> None:
    stats = await client.call("compute.stats.view", on(sim, "web-prod-1"), model=dict)
    now_ms = int(sim.clock.now()) * 1000
    series = [
        stats["cpu"],
        stats["io"]["io"],
        stats["io"]["swap"],
        *(
            stats[v][k]
            for v in ("netv4", "netv6")
            for k in ("in", "out", "private_in", "private_out")
        ),
    ]
    for points in series:
        assert len(points) == 288
        stamps = [p[0] for p in points]
        assert all(isinstance(s, int) for s in stamps)
        assert all(b - a == 300_000 for a, b in itertools.pairwise(stamps))
        assert now_ms - 86_400_000 <= stamps[0] and stamps[-1] < now_ms
        assert all(p[1] >= 0 for p in points)
    assert max(p[1] for p in stats["cpu"]) <= 200  # 2 vCPUs
    assert stats["title"] and "web-prod-1" in stats["title"]
    again = await client.call("compute.stats.view", on(sim, "web-prod-1"), model=dict)
    assert again == stats
    other = await client.call("compute.stats.view", on(sim, "web-prod-2"), model=dict)
    assert other["cpu"] != stats["cpu"]


async def test_stats_of_a_new_instance_start_at_creation(
    client: ApiClient, clock: VirtualClock
) -> None:
    made = await client.call("compute.instances.create", body=create_body(), model=dict)
    stats = await client.call("compute.stats.view", {"computeId": made["id"]}, model=dict)
    assert stats["cpu"] == []
    clock.advance(3600)
    stats = await client.call("compute.stats.view", {"computeId": made["id"]}, model=dict)
    assert 11 <= len(stats["cpu"]) <= 12


async def test_stats_by_month(client: ApiClient, sim: Simulator) -> None:
    params = on(sim, "db-primary")
    october = await client.call(
        "compute.stats.month", {**params, "year": 2026, "month": 10}, model=dict
    )
    assert len(october["cpu"]) == 31 * 24 and "2026-10" in october["title"]
    current = await client.call(
        "compute.stats.month", {**params, "year": 2026, "month": 11}, model=dict
    )
    assert len(current["cpu"]) == 30 * 24
    before = await client.call(
        "compute.stats.month", {**params, "year": 2020, "month": 1}, model=dict
    )
    assert before["cpu"] == [] and before["netv4"]["in"] == []


@pytest.mark.parametrize(
    ("year", "month", "field"),
    [
        (2026, 0, "month"),
        (2026, 13, "month"),
        (2026, "ab", "month"),
        (1999, 5, "year"),
        (2027, 1, "year"),
        ("20x6", 5, "year"),
        (2026, 12, "month"),
    ],
)
async def test_stats_month_bounds(
    client: ApiClient, sim: Simulator, year: Any, month: Any, field: str
) -> None:
    params = {**on(sim, "db-primary"), "year": year, "month": month}
    await _bad(client, sim, "compute.stats.month", params, None, field)


# -- transfer -------------------------------------------------------------------------------


async def test_transfer_this_month(client: ApiClient, sim: Simulator) -> None:
    now = await client.call("compute.transfer.view", on(sim, "web-prod-1"), model=dict)
    assert set(now) == {"used", "quota", "billable"}
    assert now["quota"] == 4000 and now["billable"] == 0 and now["used"] > 0
    assert now == await client.call("compute.transfer.view", on(sim, "web-prod-1"), model=dict)


async def test_transfer_beyond_the_quota_is_billable(
    client: ApiClient, sim: Simulator, clock: VirtualClock
) -> None:
    heavy = next(r for r in sim.store.rows("compute.instances") if r["id"] % 13 == 0)
    params = {"computeId": heavy["id"]}
    early = await client.call("compute.transfer.view", params, model=dict)
    assert early["billable"] == 0
    clock.advance(27 * 86400)  # late in the month
    late = await client.call("compute.transfer.view", params, model=dict)
    assert late["used"] > early["used"] and late["billable"] > 0
    assert late["billable"] == -(-late["used"] // 1024**3) - late["quota"]


async def test_transfer_by_month(client: ApiClient, sim: Simulator) -> None:
    params = on(sim, "db-primary")
    october = await client.call(
        "compute.transfer.month", {**params, "year": 2026, "month": 10}, model=dict
    )
    assert october["bytes_total"] == october["bytes_in"] + october["bytes_out"] > 0
    for year, month in ((2037, 12), (2001, 1)):
        empty = await client.call(
            "compute.transfer.month", {**params, "year": year, "month": month}, model=dict
        )
        assert empty == {"bytes_in": 0, "bytes_out": 0, "bytes_total": 0}


@pytest.mark.parametrize(
    ("year", "month", "field"),
    [
        (1999, 1, "year"),
        (2038, 1, "year"),
        (2026, 0, "month"),
        (2026, 13, "month"),
        ("x", 1, "year"),
    ],
)
async def test_transfer_month_bounds(
    client: ApiClient, sim: Simulator, year: Any, month: Any, field: str
) -> None:
    params = {**on(sim, "db-primary"), "year": year, "month": month}
    await _bad(client, sim, "compute.transfer.month", params, None, field)


# -- attached volumes -----------------------------------------------------------------------


async def test_instance_volumes_are_the_attached_ones(
    client_for: Callable[..., ApiClient], client: ApiClient, sim: Simulator
) -> None:
    target = iid(sim, "db-primary")
    listed = await client.call("compute.volumes.list", {"computeId": target}, model=dict)
    expected = [v["id"] for v in sim.store.rows("volumes.volumes") if v["compute_id"] == target]
    assert [v["id"] for v in listed["data"]] == expected and expected
    assert all(not k.startswith("_") for v in listed["data"] for k in v)
    assert listed["data"][0]["compute_label"] == "db-primary"
    empty = await client.call("compute.volumes.list", on(sim, "cafe-web"), model=dict)
    assert empty["data"] == []
    grant_restricted(sim.store, "compute", target, "db-primary", "read_only")
    restricted = client_for("restricted")
    seen = await restricted.call("compute.volumes.list", {"computeId": target}, model=dict)
    granted = {g["id"] for g in rec(sim, "users", "ops-restricted")["grants"]["volume"]}
    assert {v["id"] for v in seen["data"]} == set(expected) & granted


# -- kernels, regions, types ----------------------------------------------------------------


async def test_kernels(client_for: Callable[..., ApiClient]) -> None:
    anonymous = client_for("anonymous")
    kernels = (await anonymous.call("compute.kernels.list", model=dict))["data"]
    ids = [k["id"] for k in kernels]
    assert {"compute/latest-64bit", "compute/latest-32bit", "compute/6.8.9-x86_64"} <= set(ids)
    assert all("/" in i for i in ids)
    assert {k["architecture"] for k in kernels} == {"x86_64", "i386"}
    assert any(k["deprecated"] for k in kernels) and not all(k["deprecated"] for k in kernels)
    one = await anonymous.call(
        "compute.kernels.view", {"kernelId": "compute/latest-32bit"}, model=dict
    )
    assert one["architecture"] == "i386"
    await _refused(anonymous, "compute.kernels.view", {"kernelId": "compute/none"}, status=404)


async def test_regions_and_types_need_no_token(client_for: Callable[..., ApiClient]) -> None:
    anonymous = client_for("anonymous")
    regions = (await anonymous.call("compute.regions.list", model=dict))["data"]
    assert [r["id"] for r in regions] == list(CONTRACT_REGIONS)
    assert all(set(r) == {"id", "label", "country", "status", "capabilities"} for r in regions)
    types = {t["id"]: t for t in (await anonymous.call("compute.types.list", model=dict))["data"]}
    assert {"std-1", "std-2", "std-4", "std-8", "ded-4", "ded-8", "hi-mem-24"} <= set(types)
    assert (types["std-2"]["memory"], types["std-2"]["disk"]) == (4096, 81920)
    for t in types.values():
        assert {"id", "label", "class", "disk", "memory", "vcpus", "transfer", "price"} <= set(t)
        assert t["price"]["monthly"] > 0 and t["price"]["hourly"] > 0


# -- seeds ----------------------------------------------------------------------------------


def test_seeded_demo_instances(sim: Simulator) -> None:
    rows = sim.store.rows("compute.instances")
    statuses = {r["status"] for r in rows}
    assert {"running", "offline", "provisioning", "stopped"} <= statuses
    assert len({r["region"] for r in rows}) >= 6 and len({r["type"] for r in rows}) >= 5
    labels = {r["label"] for r in rows}
    assert "staging-api-1" in labels and "cafe-web" in labels
    for record in rows:
        assert owned(sim, "compute.disks", record["id"])
        assert owned(sim, "compute.configs", record["id"])
    assert sum(1 for r in rows if r["tags"]) >= 5
    provisioning = next(r for r in rows if r["status"] == "provisioning")
    assert any(
        e["name"] == "compute.provisioned" and e["args"]["id"] == provisioning["id"]
        for e in sim.store.events
    )
    grants = rec(sim, "users", "ops-restricted")["grants"]["compute"]
    assert sorted(g["permissions"] for g in grants) == ["read_only", "read_write", "read_write"]


def test_seeds_are_deterministic() -> None:
    one = Simulator(clock=VirtualClock()).store.tables["compute.instances"]
    two = Simulator(clock=VirtualClock()).store.tables["compute.instances"]
    assert one == two


def test_scale_seeds_10000_distinct_instances() -> None:
    # How fast seeding is belongs to benchmarks/ (the demo at --demo-scale), not to a test.
    store = Store()
    ctx = SeedContext(store, VirtualClock().now(), random.Random("scale"), 10000, {})
    _catalogues(ctx)
    _seed_bulk(ctx, 10000)
    assert len(store.table("compute.instances")) == 10000
    labels = [r["label"] for r in store.rows("compute.instances")]
    assert len(set(labels)) == 10000
    addresses = [r["ipv4"][0] for r in store.rows("compute.instances")]
    assert len(set(addresses)) == 10000


async def test_scaled_simulator_lists_every_instance() -> None:
    sim = Simulator(clock=VirtualClock(), scale=1000)
    client = sim.client()
    try:
        first = await client.call("compute.instances.list", query={"page_size": 500}, model=dict)
        assert first["results"] == 1012 and first["pages"] == 3 and len(first["data"]) == 500
        assert all(not k.startswith("_") for item in first["data"] for k in item)
        made = await client.call("compute.instances.create", body=create_body(), model=dict)
        assert made["id"] not in {r["id"] for r in first["data"]}
        assert made["ipv4"][0] not in {r["ipv4"][0] for r in first["data"]}
    finally:
        await client.aclose()


@pytest.mark.parametrize(
    "keys",
    [
        ["id", "label"],
        ["id", "_slot"],
        ["_"],
        ["Zone", "id"],
        ["Zone", "_slot"],
        ["`tick", "_a"],
        ["a_b", "__x"],
        ["9", "id"],
        [],
    ],
)
def test_a_page_slice_shows_no_internal_field_whatever_the_keys(keys: list[str]) -> None:
    record = {key: n for n, key in enumerate(keys)}
    page = PublicRows([record])[0:1]
    assert page == [{k: v for k, v in record.items() if not k.startswith("_")}]


async def test_a_listing_shows_no_internal_field_and_leaves_the_records_alone(
    client: ApiClient, sim: Simulator
) -> None:
    target = iid(sim, "ci-runner-01")
    await client.call("compute.instances.boot", {"computeId": target}, body={}, model=dict)
    before = copy.deepcopy(sim.store.rows("compute.instances"))
    assert any(k.startswith("_") for r in before for k in r)
    listed = await client.fetch_all("compute.instances.list", model=dict, page_size=500)
    assert {i["id"] for i in listed} == {r["id"] for r in before}
    assert not [k for item in listed for k in item if k.startswith("_")]
    assert sim.store.rows("compute.instances") == before
