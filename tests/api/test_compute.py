"""Every compute operation through the typed ApiClient.call, against the simulator."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from pydantic import SecretStr, ValidationError

from tui.api.client import ApiClient
from tui.api.errors import ApiError
from tui.models.compute import (
    Backup,
    BackupsListing,
    BootRequest,
    ConfigCreate,
    ConfigDevices,
    ConfigUpdate,
    DeviceRequest,
    Disk,
    DiskCreate,
    Instance,
    InstanceConfig,
    InstanceCreate,
    InstanceType,
    InstanceUpdate,
    InterfaceRequest,
    Kernel,
    Region,
    RescueRequest,
    ResizeRequest,
    Stats,
    Transfer,
    TransferMonth,
)
from tui.models.docs import field_help
from tui.models.volumes import Volume
from tui.simulator import Simulator, VirtualClock
from tui.simulator.app import DEFAULT_TIMINGS

PROVISION = DEFAULT_TIMINGS["compute.provision"]


async def status_of(client: ApiClient, instance_id: int) -> str | None:
    """The instance's status as ``compute.instances.view`` answers it now."""
    return (await client.call("compute.instances.view", {"computeId": instance_id})).status


def iid(sim: Simulator, label: str) -> int:
    """Id of the seeded instance labelled ``label``."""
    return int(next(r["id"] for r in sim.store.rows("compute.instances") if r["label"] == label))


# -- the acceptance test --------------------------------------------------------------------


async def test_created_instance_provisions_then_runs_on_the_virtual_clock(
    client: ApiClient, clock: VirtualClock
) -> None:
    made = await client.call(
        "compute.instances.create",
        body=InstanceCreate(
            region="eu-west",
            type="std-2",
            image="compute/debian12",
            root_pass=SecretStr("correct-horse-battery-9"),
            label="accept-1",
        ),
    )
    assert made.status == "provisioning" and made.label == "accept-1"
    assert made.specs is not None and made.specs.memory == 4096 and made.specs.disk == 81920
    assert "root_pass" not in made.raw()
    clock.advance(PROVISION - 1)
    assert (
        await client.call("compute.instances.view", {"computeId": made.id or 0})
    ).status == "provisioning"
    clock.advance(1)
    running = await client.call("compute.instances.view", {"computeId": made.id or 0})
    assert running.status == "running"
    disks = await client.fetch_all("compute.disks.list", {"computeId": made.id or 0})
    assert sorted(d.filesystem or "" for d in disks) == ["ext4", "swap"]
    assert all(d.status == "ready" for d in disks)
    assert len(await client.fetch_all("compute.configs.list", {"computeId": made.id or 0})) == 1


# -- instances ------------------------------------------------------------------------------


async def test_list_iter_all_view(client: ApiClient, sim: Simulator) -> None:
    page = await client.fetch_page("compute.instances.list", page_size=25)
    assert page.results == len(sim.store.rows("compute.instances"))
    assert all(isinstance(i, Instance) for i in page.data)
    pages = [p async for p in client.iter_all("compute.instances.list")]
    assert [i.id for p in pages for i in p.data] == [i.id for i in page.data]
    assert [i.id for i in await client.fetch_all("compute.instances.list")] == [
        i.id for i in page.data
    ]
    cafe = await client.call("compute.instances.view", {"computeId": iid(sim, "cafe-web")})
    assert cafe.label == "cafe-web" and cafe.region == "eu-west" and cafe.hypervisor == "kvm"
    staging = await client.call("compute.instances.view", {"computeId": iid(sim, "staging-api-1")})
    assert staging.label == "staging-api-1" and staging.ipv6 and staging.ipv6.endswith("/128")


async def test_create_empty_instance_by_keywords(client: ApiClient) -> None:
    made = await client.call(
        "compute.instances.create",
        body=InstanceCreate(region="us-central", type="nano-1", tags=["tmp"]),
    )
    assert made.status == "offline" and made.image is None and made.tags == ["tmp"]
    assert made.label == "nano-us-central-1"
    assert await client.fetch_all("compute.disks.list", {"computeId": made.id or 0}) == []
    assert await client.fetch_all("compute.configs.list", {"computeId": made.id or 0}) == []


async def test_update_instance(client: ApiClient, sim: Simulator) -> None:
    target = iid(sim, "web-prod-2")
    out = await client.call(
        "compute.instances.update",
        {"computeId": target},
        body=InstanceUpdate(
            label="web-prod-2b",
            tags=["web"],
            watchdog_enabled=False,
            alerts={"cpu": 150},
            backups={"schedule": {"day": "Monday", "window": "W10"}},
        ),
    )
    assert out.label == "web-prod-2b" and out.tags == ["web"] and out.watchdog_enabled is False
    assert out.alerts is not None and out.alerts.cpu == 150 and out.alerts.io == 10000
    assert out.backups is not None and out.backups.schedule is not None
    assert (out.backups.schedule.day, out.backups.schedule.window) == ("Monday", "W10")


async def test_boot_reboot_shutdown(client: ApiClient, sim: Simulator, clock: VirtualClock) -> None:
    target = iid(sim, "ci-runner-01")
    config = (await client.fetch_all("compute.configs.list", {"computeId": target}))[0]
    await client.call(
        "compute.instances.boot", {"computeId": target}, body=BootRequest(config_id=config.id)
    )
    assert await status_of(client, target) == "booting"
    clock.advance(DEFAULT_TIMINGS["compute.boot"])
    assert await status_of(client, target) == "running"
    await client.call("compute.instances.reboot", {"computeId": target}, body=BootRequest())
    assert await status_of(client, target) == "rebooting"
    clock.advance(DEFAULT_TIMINGS["compute.reboot"])
    assert await status_of(client, target) == "running"
    await client.call("compute.instances.shutdown", {"computeId": target})
    assert await status_of(client, target) == "shutting_down"
    clock.advance(DEFAULT_TIMINGS["compute.shutdown"])
    assert await status_of(client, target) == "offline"


async def test_resize(client: ApiClient, sim: Simulator, clock: VirtualClock) -> None:
    target = iid(sim, "web-prod-2")
    await client.call(
        "compute.instances.resize", {"computeId": target}, body=ResizeRequest(type="std-4")
    )
    assert await status_of(client, target) == "resizing"
    clock.advance(DEFAULT_TIMINGS["compute.resize"])
    after = await client.call("compute.instances.view", {"computeId": target})
    assert after.status == "running" and after.type == "std-4"
    assert after.specs is not None and after.specs.memory == 8192


async def test_rescue(client: ApiClient, sim: Simulator, clock: VirtualClock) -> None:
    target = iid(sim, "cafe-web")
    disks = await client.fetch_all("compute.disks.list", {"computeId": target})
    await client.call(
        "compute.instances.rescue",
        {"computeId": target},
        body=RescueRequest.model_validate({"devices": {"sda": {"disk_id": disks[0].id}}}),
    )
    assert await status_of(client, target) == "rebooting"
    clock.advance(DEFAULT_TIMINGS["compute.reboot"])
    assert await status_of(client, target) == "running"
    await client.call("compute.instances.rescue", {"computeId": target}, body=RescueRequest())
    assert await status_of(client, target) == "rebooting"


async def test_delete_instance(client: ApiClient, sim: Simulator) -> None:
    target = iid(sim, "legacy-ftp")
    await client.call("compute.instances.delete", {"computeId": target})
    with pytest.raises(ApiError) as info:
        await client.call("compute.instances.view", {"computeId": target})
    assert info.value.status == 404


async def test_backups_listing(client: ApiClient, sim: Simulator) -> None:
    listing = await client.call("compute.backups.list", {"computeId": iid(sim, "db-primary")})
    assert isinstance(listing, BackupsListing)
    assert len(listing.automatic) == 3 and all(b.type == "automatic" for b in listing.automatic)
    assert listing.snapshot is not None
    assert isinstance(listing.snapshot.current, Backup)
    assert listing.snapshot.current.label == "pre-upgrade [pg 16]"
    assert listing.snapshot.in_progress is not None
    assert listing.snapshot.in_progress.finished is None
    empty = await client.call("compute.backups.list", {"computeId": iid(sim, "web-prod-2")})
    assert empty.automatic == [] and empty.snapshot is not None
    assert empty.snapshot.current is None and empty.snapshot.in_progress is None


async def test_configs_create_view_update_delete(client: ApiClient, sim: Simulator) -> None:
    target = iid(sim, "build-cache")
    disk = (await client.fetch_all("compute.disks.list", {"computeId": target}))[0]
    page = await client.fetch_page("compute.configs.list", {"computeId": target}, page_size=25)
    assert page.results == 1 and isinstance(page.data[0], InstanceConfig)
    assert [
        c.id
        for p in [p async for p in client.iter_all("compute.configs.list", {"computeId": target})]
        for c in p.data
    ] == [page.data[0].id]
    made = await client.call(
        "compute.configs.create",
        {"computeId": target},
        body=ConfigCreate(
            label="single user",
            devices=ConfigDevices(sda=DeviceRequest(disk_id=disk.id)),
            run_level="single",
        ),
    )
    assert made.kernel == "compute/latest-64bit" and made.memory_limit == 8192
    assert made.devices["sda"] is not None and made.devices["sda"].disk_id == disk.id
    assert made.devices["sdb"] is None
    seen = await client.call(
        "compute.configs.view", {"computeId": target, "configId": made.id or 0}
    )
    assert seen.label == "single user" and seen.run_level == "single"
    changed = await client.call(
        "compute.configs.update",
        {"computeId": target, "configId": made.id or 0},
        body=ConfigUpdate(comments="for fsck", virt_mode="fullvirt"),
    )
    assert changed.comments == "for fsck" and changed.virt_mode == "fullvirt"
    changed = await client.call(
        "compute.configs.update",
        {"computeId": target, "configId": made.id or 0},
        body=ConfigUpdate(label="renamed"),
    )
    assert changed.label == "renamed"
    await client.call("compute.configs.delete", {"computeId": target, "configId": made.id or 0})
    assert [
        c.id for c in await client.fetch_all("compute.configs.list", {"computeId": target})
    ] == [page.data[0].id]


async def test_disks_list_and_create(
    client: ApiClient, sim: Simulator, clock: VirtualClock
) -> None:
    target = iid(sim, "analytics-worker")
    page = await client.fetch_page("compute.disks.list", {"computeId": target}, page_size=25)
    assert page.results == 2 and all(isinstance(d, Disk) for d in page.data)
    assert [
        d.id
        for p in [p async for p in client.iter_all("compute.disks.list", {"computeId": target})]
        for d in p.data
    ] == [d.id for d in page.data]
    # Deployed disks fill the type's space, so new disks go on an empty instance.
    made = await client.call(
        "compute.instances.create", body=InstanceCreate(region="us-east", type="std-1")
    )
    disk = await client.call(
        "compute.disks.create",
        {"computeId": made.id or 0},
        body=DiskCreate(label="data", size=2048),
    )
    assert disk.status == "not ready" and disk.filesystem == "ext4" and disk.size == 2048
    clock.advance(DEFAULT_TIMINGS["compute.disk"])
    assert (await client.fetch_all("compute.disks.list", {"computeId": made.id or 0}))[
        0
    ].status == "ready"
    root = await client.call(
        "compute.disks.create",
        {"computeId": made.id or 0},
        body=DiskCreate(image="compute/debian12", size=8192, root_pass=SecretStr("hunter2-long")),
    )
    assert root.label == "Debian 12 Disk"


async def test_stats_and_transfer(client: ApiClient, sim: Simulator) -> None:
    target = iid(sim, "db-primary")
    day = await client.call("compute.stats.view", {"computeId": target})
    assert isinstance(day, Stats) and len(day.cpu) == 288
    assert day.netv4 is not None and len(day.netv4.in_) == 288
    assert day.raw()["netv4"]["in"] == day.netv4.raw()["in"]
    assert day.title and "db-primary" in day.title
    month = await client.call(
        "compute.stats.month", {"computeId": target, "year": 2026, "month": 10}
    )
    assert len(month.cpu) == 31 * 24
    now = await client.call("compute.transfer.view", {"computeId": target})
    assert isinstance(now, Transfer) and now.quota == 5000 and (now.used or 0) > 0
    october = await client.call(
        "compute.transfer.month", {"computeId": target, "year": 2026, "month": 10}
    )
    assert isinstance(october, TransferMonth)
    assert october.bytes_total == (october.bytes_in or 0) + (october.bytes_out or 0) > 0


async def test_instance_volumes(client: ApiClient, sim: Simulator) -> None:
    target = iid(sim, "db-primary")
    page = await client.fetch_page("compute.volumes.list", {"computeId": target}, page_size=25)
    assert [v.label for v in page.data] == ["pg-data"] and isinstance(page.data[0], Volume)
    assert [
        v.label
        for p in [p async for p in client.iter_all("compute.volumes.list", {"computeId": target})]
        for v in p.data
    ]
    assert [
        v.compute_id for v in await client.fetch_all("compute.volumes.list", {"computeId": target})
    ] == [target]


async def test_kernels_regions_types_without_a_token(
    client_for: Callable[..., ApiClient],
) -> None:
    anonymous = client_for("anonymous")
    kernels = await anonymous.fetch_all("compute.kernels.list")
    assert all(isinstance(k, Kernel) for k in kernels)
    assert {k.architecture for k in kernels} == {"x86_64", "i386"}
    assert [
        k.id for p in [p async for p in anonymous.iter_all("compute.kernels.list")] for k in p.data
    ] == [k.id for k in kernels]
    assert (await anonymous.fetch_page("compute.kernels.list", page_size=25)).results == len(
        kernels
    )
    latest = await anonymous.call("compute.kernels.view", {"kernelId": "compute/latest-64bit"})
    assert latest.id == "compute/latest-64bit" and latest.deprecated is False
    regions = await anonymous.fetch_all("compute.regions.list")
    assert all(isinstance(r, Region) for r in regions) and len(regions) == 8
    assert (await anonymous.fetch_page("compute.regions.list", page_size=25)).results == 8
    assert (
        len(
            [
                r
                for p in [p async for p in anonymous.iter_all("compute.regions.list")]
                for r in p.data
            ]
        )
        == 8
    )
    types = await anonymous.fetch_all("compute.types.list")
    std2 = next(t for t in types if t.id == "std-2")
    assert isinstance(std2, InstanceType) and (std2.memory, std2.disk) == (4096, 81920)
    assert std2.raw()["class"] == "standard"
    assert (await anonymous.fetch_page("compute.types.list", page_size=25)).results == len(types)
    assert len(
        [t for p in [p async for p in anonymous.iter_all("compute.types.list")] for t in p.data]
    ) == len(types)


async def test_server_errors_name_fields(client: ApiClient, sim: Simulator) -> None:
    with pytest.raises(ApiError) as info:
        await client.call(
            "compute.instances.create",
            body=InstanceCreate(region="us-east", type="std-2", label="cafe-web"),
        )
    assert info.value.status == 400 and "label" in info.value.field_errors()
    with pytest.raises(ApiError) as info:
        await client.call(
            "compute.instances.resize",
            {"computeId": iid(sim, "db-primary")},
            body=ResizeRequest(type="std-1"),
        )
    assert "type" in info.value.field_errors()


@pytest.mark.parametrize(
    ("model", "fields"),
    [
        (InstanceCreate, {"region": "us-east"}),
        (InstanceCreate, {"region": "us-east", "type": "std-2", "label": "ab"}),
        (InstanceCreate, {"region": "us-east", "type": "std-2", "label": "x" * 65}),
        (InstanceCreate, {"region": "us-east", "type": "std-2", "image": "compute/debian12"}),
        (
            InstanceCreate,
            {"region": "us-east", "type": "std-2", "image": "compute/arch", "root_pass": "short"},
        ),
        (
            InstanceCreate,
            {"region": "us-east", "type": "std-2", "image": "x/y", "root_pass": "p" * 129},
        ),
        (InstanceCreate, {"region": "us-east", "type": "std-2", "stackscript_id": 5}),
        (InstanceCreate, {"region": "us-east", "type": "std-2", "stackscript_data": {}}),
        (
            InstanceCreate,
            {
                "region": "us-east",
                "type": "std-2",
                "image": "compute/arch",
                "root_pass": "long-enough",
                "backup_id": 3,
            },
        ),
        (InstanceCreate, {"region": "us-east", "type": "std-2", "interfaces": [{}] * 4}),
        (
            InstanceCreate,
            {
                "region": "us-east",
                "type": "std-2",
                "interfaces": [{"purpose": "public"}, {"purpose": "public"}],
            },
        ),
        (InstanceCreate, {"region": "us-east", "type": "std-2", "authorized_keys": ["nope"]}),
        (InstanceCreate, {"region": "us-east", "type": "std-2", "swap_size": -1}),
        (InstanceCreate, {"region": "us-east", "type": "std-2", "colour": "red"}),
        (InterfaceRequest, {"purpose": "vlan"}),
        (InterfaceRequest, {"purpose": "vlan", "label": "lan", "ipam_address": "10.0.0.1"}),
        (InterfaceRequest, {"purpose": "public", "label": "lan"}),
        (InterfaceRequest, {"purpose": "bridge"}),
        (InstanceUpdate, {"label": "ab"}),
        (InstanceUpdate, {"alerts": {"transfer_quota": 101}}),
        (InstanceUpdate, {"alerts": {"cpu": -1}}),
        (InstanceUpdate, {"backups": {"schedule": {"day": "Someday"}}}),
        (InstanceUpdate, {"group": "g" * 51}),
        (ConfigCreate, {"label": "x"}),
        (ConfigCreate, {"label": "", "devices": {}}),
        (ConfigCreate, {"label": "x" * 49, "devices": {}}),
        (ConfigCreate, {"label": "x", "devices": {"sdi": {"disk_id": 1}}}),
        (ConfigCreate, {"label": "x", "devices": {}, "run_level": "fast"}),
        (ConfigCreate, {"label": "x", "devices": {}, "root_device": "sda"}),
        (ConfigCreate, {"label": "x", "devices": {"sda": {"disk_id": 1, "volume_id": 2}}}),
        (ConfigUpdate, {"virt_mode": "hvm"}),
        (DiskCreate, {"size": 10}),
        (DiskCreate, {"label": "x", "size": 0}),
        (DiskCreate, {"size": 10, "image": "compute/debian12"}),
        (DiskCreate, {"label": "x", "size": 10, "filesystem": "zfs"}),
        (DiskCreate, {"label": "x", "size": 10, "stackscript_id": 1}),
        (RescueRequest, {"devices": {"sdh": {"disk_id": 1}}}),
        (ResizeRequest, {}),
        (ResizeRequest, {"type": ""}),
        (BootRequest, {"config_id": "first"}),
    ],
)
def test_request_models_are_strict(model: Any, fields: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        model(**fields)


@pytest.mark.parametrize(
    ("model", "fields", "field"),
    [
        (InstanceCreate, {"region": "r", "type": "t", "image": "compute/arch"}, "root_pass"),
        (InstanceCreate, {"region": "r", "type": "t", "stackscript_id": 1}, "stackscript_id"),
        (InstanceCreate, {"region": "r", "type": "t", "stackscript_data": {}}, "stackscript_data"),
        (
            InstanceCreate,
            {"region": "r", "type": "t", "image": "i/x", "root_pass": "long-pass", "backup_id": 1},
            "backup_id",
        ),
        (DiskCreate, {"size": 10}, "image"),
        (DiskCreate, {"size": 10, "image": "compute/arch"}, "root_pass"),
        (DiskCreate, {"size": 10, "label": "d", "stackscript_id": 1}, "stackscript_id"),
    ],
)
def test_cross_field_errors_name_the_field(model: Any, fields: dict[str, Any], field: str) -> None:
    with pytest.raises(ValidationError) as info:
        model(**fields)
    assert [e["loc"] for e in info.value.errors()] == [(field,)]


def test_rescue_model_names_sdh() -> None:
    with pytest.raises(ValidationError) as info:
        RescueRequest.model_validate({"devices": {"sdh": {"disk_id": 1}}})
    assert "sdh is reserved" in str(info.value)


def test_request_models_send_only_what_was_set() -> None:
    body = InstanceCreate(
        region="us-east", type="std-2", image="compute/debian12", root_pass=SecretStr("s3cret-pw")
    ).body()
    assert body == {
        "region": "us-east",
        "type": "std-2",
        "image": "compute/debian12",
        "root_pass": "s3cret-pw",
    }
    assert "s3cret-pw" not in repr(InstanceCreate(region="r", type="t", root_pass="s3cret-pw"))
    assert ResizeRequest(type="std-4").body() == {"type": "std-4"}
    assert BootRequest().body() == {}
    assert RescueRequest.model_validate({"devices": {"sda": {"disk_id": 5}}}).body() == {
        "devices": {"sda": {"disk_id": 5}}
    }
    assert field_help(InstanceCreate, "root_pass")
    assert "7 to 128" in (field_help(InstanceCreate, "root_pass") or "")
    assert "3 to 64" in (field_help(InstanceCreate, "label") or "")


def test_request_models_accept_the_reference_field_names() -> None:
    made = InstanceCreate(
        region="us-east",
        type="std-2",
        image="compute/debian12",
        root_pass=SecretStr("long-enough"),
        stackscript_id=10450,
        stackscript_data={"db_password": "x"},
        backups_enabled=True,
        booted=False,
        private_ip=True,
        swap_size=1024,
        authorized_keys=["ssh-ed25519 AAAAC3Nza me@laptop"],
        authorized_users=["demo"],
        interfaces=[
            InterfaceRequest(purpose="public"),
            InterfaceRequest(purpose="vlan", label="office-lan", ipam_address="10.0.0.2/24"),
        ],
        tags=["a"],
        group="legacy",
    )
    assert made.body()["stackscript_data"] == {"db_password": "x"}
    assert made.body()["interfaces"][1] == {
        "purpose": "vlan",
        "label": "office-lan",
        "ipam_address": "10.0.0.2/24",
    }


def test_response_models_are_tolerant() -> None:
    i = Instance.model_validate({"id": 1, "status": "teleporting", "extra": {"a": 1}})
    assert i.status == "teleporting" and i.raw()["extra"] == {"a": 1}
    assert Instance.model_validate({}).ipv4 == []
    s = Stats.model_validate({"netv4": {"in": [[1, 2.5]]}, "new": 1})
    assert s.netv4 is not None and s.netv4.in_ == [[1.0, 2.5]] and s.raw()["netv4"]["in"]
    t = InstanceType.model_validate({"id": "x", "class": "gpu", "gpus": 1})
    assert t.class_ == "gpu" and t.raw()["class"] == "gpu" and t.raw()["gpus"] == 1
    listing = BackupsListing.model_validate({"automatic": [{"id": 1, "status": "weird"}]})
    assert listing.automatic[0].status == "weird" and listing.snapshot is None
