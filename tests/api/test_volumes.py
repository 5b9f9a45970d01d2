"""Every volume operation through the typed ApiClient.call, against the simulator."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from tui.api.client import ApiClient
from tui.api.errors import ApiError
from tui.models.docs import field_help
from tui.models.volumes import (
    Volume,
    VolumeAttach,
    VolumeClone,
    VolumeCreate,
    VolumeResize,
    VolumeUpdate,
)
from tui.simulator import Simulator, VirtualClock

REGIONS = ("us-east", "eu-west")
INSTANCE_ID = 990900
CONFIG_ID = 880900


@pytest.fixture(autouse=True)
def catalog(sim: Simulator) -> None:
    """Regions and one running instance with a profile, in case compute has not seeded them."""
    for rid in REGIONS:
        sim.store.table("compute.regions").setdefault(
            rid, {"id": rid, "label": rid, "country": "us", "status": "ok", "capabilities": []}
        )
    sim.store.put(
        "compute.instances",
        INSTANCE_ID,
        {
            "id": INSTANCE_ID,
            "label": "vol-host",
            "status": "running",
            "region": "eu-west",
            "type": "std-2",
            "specs": {"disk": 81920, "memory": 4096, "vcpus": 2, "transfer": 4000},
            "tags": [],
        },
    )
    sim.store.put(
        "compute.configs",
        CONFIG_ID,
        {"id": CONFIG_ID, "label": "boot", "devices": {}, "_compute_id": INSTANCE_ID},
    )


def vol_id(sim: Simulator, label: str) -> int:
    return int(next(v["id"] for v in sim.store.rows("volumes.volumes") if v["label"] == label))


async def test_list_iter_all_view(client: ApiClient, sim: Simulator) -> None:
    page = await client.fetch_page("volumes.list", page_size=25)
    assert page.results == len(sim.store.rows("volumes.volumes"))
    assert all(isinstance(v, Volume) for v in page.data)
    pages = [p async for p in client.iter_all("volumes.list")]
    assert [v.id for p in pages for v in p.data] == [v.id for v in page.data]
    assert [v.id for v in await client.fetch_all("volumes.list")] == [v.id for v in page.data]
    cafe = await client.call("volumes.view", {"volumeId": vol_id(sim, "cafe-media")})
    assert cafe.label == "cafe-media" and cafe.size == 60 and cafe.hardware_type == "nvme"
    assert cafe.filesystem_path == "/dev/disk/by-id/scsi-0Volume_cafe-media"


async def test_create_update_resize_clone_delete(client: ApiClient, clock: VirtualClock) -> None:
    made = await client.call(
        "volumes.create", body=VolumeCreate(label="api-vol", region="us-east", size=30)
    )
    assert made.status == "creating" and made.size == 30 and made.region == "us-east"
    clock.advance(3)
    assert (await client.call("volumes.view", {"volumeId": made.id or 0})).status == "active"
    renamed = await client.call(
        "volumes.update",
        {"volumeId": made.id or 0},
        body=VolumeUpdate(label="api_vol2", tags=["x"]),
    )
    assert renamed.label == "api_vol2" and renamed.tags == ["x"]
    grown = await client.call(
        "volumes.resize", {"volumeId": made.id or 0}, body=VolumeResize(size=40)
    )
    assert grown.size == 40 and grown.status == "resizing"
    clock.advance(4)
    copy = await client.call(
        "volumes.clone", {"volumeId": made.id or 0}, body=VolumeClone(label="api-copy")
    )
    assert copy.size == 40 and copy.status == "creating"
    await client.call("volumes.delete", {"volumeId": copy.id or 0})
    with pytest.raises(ApiError) as info:
        await client.call("volumes.view", {"volumeId": copy.id or 0})
    assert info.value.status == 404


async def test_create_attached_by_keywords(client: ApiClient) -> None:
    made = await client.call(
        "volumes.create", body=VolumeCreate(label="attached", compute_id=INSTANCE_ID)
    )
    assert made.compute_id == INSTANCE_ID and made.compute_label == "vol-host"
    assert made.region == "eu-west"


async def test_attach_and_detach(client: ApiClient, sim: Simulator) -> None:
    vid = vol_id(sim, "cafe-media")
    out = await client.call(
        "volumes.attach",
        {"volumeId": vid},
        body=VolumeAttach(compute_id=INSTANCE_ID, config_id=CONFIG_ID),
    )
    assert out.compute_id == INSTANCE_ID
    await client.call("volumes.detach", {"volumeId": vid})
    assert (await client.call("volumes.view", {"volumeId": vid})).compute_id is None
    again = await client.call(
        "volumes.attach",
        {"volumeId": vid},
        body=VolumeAttach(compute_id=INSTANCE_ID, persist_across_boots=False),
    )
    assert again.compute_label == "vol-host"


async def test_server_errors_name_fields(client: ApiClient) -> None:
    with pytest.raises(ApiError) as info:
        await client.call(
            "volumes.create",
            body=VolumeCreate(label="far", region="us-east", compute_id=INSTANCE_ID),
        )
    assert "region" in info.value.field_errors()


@pytest.mark.parametrize(
    ("model", "fields"),
    [
        (VolumeCreate, {"label": "x"}),
        (VolumeCreate, {"label": "x", "region": "us-east", "config_id": 1}),
        (VolumeCreate, {"label": "bad label", "region": "us-east"}),
        (VolumeCreate, {"label": "x" * 33, "region": "us-east"}),
        (VolumeCreate, {"label": "x", "region": "us-east", "size": 9}),
        (VolumeCreate, {"label": "x", "region": "us-east", "size": 10241}),
        (VolumeCreate, {"label": "x", "region": "us-east", "colour": "red"}),
        (VolumeUpdate, {"label": ""}),
        (VolumeAttach, {}),
        (VolumeAttach, {"compute_id": 1, "config_id": 2, "persist_across_boots": False}),
        (VolumeClone, {}),
        (VolumeResize, {"size": 5}),
    ],
)
def test_request_models_are_strict(model: Any, fields: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        model(**fields)


def test_request_models_send_only_what_was_set() -> None:
    assert VolumeCreate(label="a", region="us-east").body() == {"label": "a", "region": "us-east"}
    assert VolumeAttach(compute_id=5).body() == {"compute_id": 5}
    assert field_help(VolumeCreate, "size")


def test_response_model_is_tolerant() -> None:
    v = Volume.model_validate({"id": 1, "status": "brand_new", "extra": {"a": 1}})
    assert v.status == "brand_new" and v.raw()["extra"] == {"a": 1}
    assert Volume.model_validate({}).tags == []
