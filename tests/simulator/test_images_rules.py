"""Image rules: visibility, capture from a disk, uploads on the virtual clock, permissions."""

from __future__ import annotations

import copy
import gzip
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from tests.simulator.rules import refusal_check
from tests.simulator.rules import refused as _refused
from tui.api.client import ApiClient
from tui.api.errors import ApiError
from tui.simulator import Simulator, VirtualClock
from tui.simulator.auth import TokenInfo
from tui.simulator.seed import grant_restricted

PUBLIC_IDS = {
    "compute/debian12",
    "compute/debian11",
    "compute/ubuntu24.04",
    "compute/ubuntu22.04",
    "compute/alpine3.20",
    "compute/rocky9",
    "compute/arch",
    "compute/fedora40",
}
CREATE_DELAY = 6.0
PROCESS_DELAY = 4.0
DAY = 86400.0
GZ = gzip.compress(b"\0" * (3 * 1024 * 1024 + 5), mtime=0)


@pytest.fixture(autouse=True)
def catalog(sim: Simulator) -> None:
    """Regions, an instance and its disk with the contract's shapes (independent of compute)."""
    for rid in ("us-east", "eu-west"):
        sim.store.table("compute.regions").setdefault(
            rid, {"id": rid, "label": rid, "country": "us", "status": "ok", "capabilities": []}
        )
    sim.store.put(
        "compute.instances",
        990500,
        {"id": 990500, "label": "img-src", "status": "running", "region": "eu-west", "tags": []},
    )
    sim.store.put(
        "compute.disks",
        770500,
        {
            "id": 770500,
            "label": "img-src-root",
            "size": 25600,
            "filesystem": "ext4",
            "status": "ready",
            "_compute_id": 990500,
        },
    )


def image(sim: Simulator, label: str) -> dict[str, Any]:
    return next(i for i in sim.store.rows("images.images") if i["label"] == label)


def _rec(sim: Simulator, table: str, key: object) -> dict[str, Any]:
    """A record that must exist."""
    record = sim.store.get(table, key)
    assert record is not None, (table, key)
    return record


def _state(sim: Simulator) -> dict[str, Any]:
    return copy.deepcopy(
        {
            "images": sim.store.tables.get("images.images"),
            "users": sim.store.tables.get("users"),
            "events": sim.store.events,
        }
    )


_bad = refusal_check(_state)
"""The call is refused with ``status``, names ``field``, and changes nothing."""


async def _put(
    sim: Simulator, url: str, data: bytes, content_type: str = "application/octet-stream"
) -> httpx.Response:
    async with httpx.AsyncClient(transport=sim.transport()) as raw:
        return await raw.put(url, content=data, headers={"Content-Type": content_type})


# -- visibility -----------------------------------------------------------------------------


async def test_anonymous_lists_only_public_images(
    client_for: Callable[..., ApiClient], sim: Simulator
) -> None:
    data = (await client_for("anonymous").call("images.list", model=dict))["data"]
    assert {i["id"] for i in data} == PUBLIC_IDS
    for i in data:
        assert i["created_by"] == "compute" and i["vendor"] and i["size"] > 0
        assert i["status"] == "available" and "eol" in i
    assert sum(1 for i in data if i["deprecated"]) == 1


async def test_token_adds_private_images(client: ApiClient, sim: Simulator) -> None:
    data = (await client.call("images.list", model=dict))["data"]
    private = [i for i in data if not i["is_public"]]
    assert len(private) >= 3 and all(i["id"].startswith("private/") for i in private)
    statuses = {i["status"] for i in private}
    assert {"available", "creating", "pending_upload"} <= statuses


async def test_restricted_sees_public_and_granted_private(
    client_for: Callable[..., ApiClient], sim: Simulator
) -> None:
    restricted = client_for("restricted")
    data = (await restricted.call("images.list", model=dict))["data"]
    assert {i["id"] for i in data} == PUBLIC_IDS | {image(sim, "café-pos-base")["id"]}
    await _refused(
        restricted, "images.view", {"imageId": image(sim, "web-[prod]-golden")["id"]}, status=404
    )


async def test_view_public_anonymously_private_needs_token(
    client_for: Callable[..., ApiClient], client: ApiClient, sim: Simulator
) -> None:
    anonymous = client_for("anonymous")
    assert (await anonymous.call("images.view", {"imageId": "compute/arch"}, model=dict))[
        "label"
    ] == "Arch Linux"
    golden = image(sim, "web-[prod]-golden")["id"]
    await _refused(anonymous, "images.view", {"imageId": golden}, status=404)
    assert (await client.call("images.view", {"imageId": golden}, model=dict))["id"] == golden
    await _refused(client, "images.view", {"imageId": "private/1"}, status=404)
    await _refused(client, "images.view", {"imageId": "nothing"}, status=404)


async def test_page_size_bounds(client: ApiClient) -> None:
    for size in (24, 101):
        with pytest.raises(ApiError) as info:
            await client.call("images.list", query={"page_size": size}, model=dict)
        assert info.value.status == 400 and "page_size" in info.value.field_errors()


def test_expiry_only_for_automatic_images(sim: Simulator) -> None:
    rows = sim.store.rows("images.images")
    assert any(i["type"] == "automatic" and i["expiry"] for i in rows)
    assert all(i["expiry"] is None for i in rows if i["type"] != "automatic")


async def test_automatic_image_is_deleted_at_expiry(
    client: ApiClient, sim: Simulator, clock: VirtualClock
) -> None:
    auto = next(i for i in sim.store.rows("images.images") if i["type"] == "automatic")
    clock.advance(13 * DAY)
    await _refused(client, "images.view", {"imageId": auto["id"]}, status=404)


async def test_seeded_creating_image_becomes_available(
    client: ApiClient, sim: Simulator, clock: VirtualClock
) -> None:
    creating = next(i for i in sim.store.rows("images.images") if i["status"] == "creating")
    clock.advance(120)
    view = await client.call("images.view", {"imageId": creating["id"]}, model=dict)
    assert view["status"] == "available"


# -- create from a disk ---------------------------------------------------------------------


async def test_create_from_disk_creating_then_available(
    client: ApiClient, sim: Simulator, clock: VirtualClock
) -> None:
    out = await client.call(
        "images.create", body={"disk_id": 770500, "description": "golden"}, model=dict
    )
    assert out["status"] == "creating" and out["label"] == "img-src-root"
    assert out["id"].startswith("private/") and out["is_public"] is False
    assert out["size"] == 25600 and out["created_by"] == "demo" and out["expiry"] is None
    clock.advance(CREATE_DELAY - 1)
    assert (await client.call("images.view", {"imageId": out["id"]}, model=dict))[
        "status"
    ] == "creating"
    clock.advance(1)
    assert (await client.call("images.view", {"imageId": out["id"]}, model=dict))[
        "status"
    ] == "available"
    named = await client.call(
        "images.create", body={"disk_id": 770500, "label": "named"}, model=dict
    )
    assert named["label"] == "named"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "disk_id"),
        ({"disk_id": "770500"}, "disk_id"),
        ({"disk_id": 1}, "disk_id"),
        ({"disk_id": 770500, "description": ""}, "description"),
        ({"disk_id": 770500, "description": "x" * 65001}, "description"),
        ({"disk_id": 770500, "label": ""}, "label"),
        ({"disk_id": 770500, "label": "x" * 129}, "label"),
        ({"disk_id": 770500, "region": "us-east"}, "region"),
    ],
)
async def test_create_validation(
    client: ApiClient, sim: Simulator, body: dict[str, Any], field: str
) -> None:
    await _bad(client, sim, "images.create", None, body, field)


async def test_create_description_upper_bound_accepted(client: ApiClient) -> None:
    out = await client.call(
        "images.create", body={"disk_id": 770500, "description": "d" * 65000}, model=dict
    )
    assert len(out["description"]) == 65000


async def test_create_needs_computes_read_only_scope(sim: Simulator) -> None:
    sim.add_token("images-only", TokenInfo("demo", frozenset({"images:read_write"})))
    api = ApiClient(
        "http://sim.local/v4", "images-only", transport=sim.transport(), allow_insecure=True
    )
    try:
        before = _state(sim)
        await _refused(api, "images.create", body={"disk_id": 770500}, status=403)
        assert _state(sim) == before
    finally:
        await api.aclose()


async def test_create_restricted_needs_add_images_and_readable_disk(
    client_for: Callable[..., ApiClient], sim: Simulator
) -> None:
    restricted = client_for("restricted")
    before = _state(sim)
    await _refused(restricted, "images.create", body={"disk_id": 770500}, status=403)
    assert _state(sim) == before
    _rec(sim, "users", "ops-restricted")["grants"]["global"]["add_images"] = True
    await _bad(restricted, sim, "images.create", None, {"disk_id": 770500}, "disk_id")
    grant_restricted(sim.store, "compute", 990500, "img-src", "read_only")
    out = await restricted.call("images.create", body={"disk_id": 770500}, model=dict)
    assert (await restricted.call("images.view", {"imageId": out["id"]}, model=dict))["id"] == out[
        "id"
    ]


# -- upload ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"region": "us-east"}, "label"),
        ({"label": "up"}, "region"),
        ({"label": "up", "region": "mars"}, "region"),
        ({"label": "up", "region": "us-east", "description": ""}, "description"),
        ({"label": "up", "region": "us-east", "disk_id": 1}, "disk_id"),
    ],
)
async def test_upload_validation(
    client: ApiClient, sim: Simulator, body: dict[str, Any], field: str
) -> None:
    await _bad(client, sim, "images.upload", None, body, field)


async def test_upload_end_to_end_on_the_clock(
    client: ApiClient, sim: Simulator, clock: VirtualClock
) -> None:
    started = await client.call(
        "images.upload",
        body={"label": "my-upload", "region": "us-east", "description": "raw"},
        model=dict,
    )
    img = started["image"]
    assert img["status"] == "pending_upload" and img["id"].startswith("private/")
    assert started["upload_to"].startswith("http://sim.local/_sim/uploads/")
    response = await _put(sim, started["upload_to"], GZ)
    assert response.status_code == 200
    view = await client.call("images.view", {"imageId": img["id"]}, model=dict)
    assert view["status"] == "pending_upload" and view["size"] == 4  # 3 MiB + 5 bytes -> 4 MB
    clock.advance(PROCESS_DELAY)
    assert (await client.call("images.view", {"imageId": img["id"]}, model=dict))[
        "status"
    ] == "available"
    # The 24-hour window no longer applies once the data arrived.
    clock.advance(DAY)
    assert (await client.call("images.view", {"imageId": img["id"]}, model=dict))[
        "status"
    ] == "available"
    again = await _put(sim, started["upload_to"], GZ)
    assert again.status_code == 409


async def test_upload_refuses_non_gzip(client: ApiClient, sim: Simulator) -> None:
    started = await client.call(
        "images.upload", body={"label": "bad", "region": "us-east"}, model=dict
    )
    before = _state(sim)
    for data in (b"plain raw disk", b"", b"\x1f\x8b\x08garbage"):
        response = await _put(sim, started["upload_to"], data)
        assert response.status_code == 400
        assert response.json()["errors"][0]["reason"]
    assert _state(sim) == before
    # The address still works for a proper upload.
    assert (await _put(sim, started["upload_to"], GZ)).status_code == 200


async def test_upload_wrong_content_type_and_method(client: ApiClient, sim: Simulator) -> None:
    started = await client.call(
        "images.upload", body={"label": "ct", "region": "us-east"}, model=dict
    )
    before = _state(sim)
    assert (await _put(sim, started["upload_to"], GZ, "application/json")).status_code == 415
    async with httpx.AsyncClient(transport=sim.transport()) as raw:
        assert (await raw.get(started["upload_to"])).status_code == 405
    assert _state(sim) == before


async def test_upload_size_cap(client: ApiClient, sim: Simulator) -> None:
    sim.upload_limit = 1024
    started = await client.call(
        "images.upload", body={"label": "huge", "region": "us-east"}, model=dict
    )
    before = _state(sim)
    big = gzip.compress(bytes(range(256)) * 64, mtime=0, compresslevel=0)
    assert len(big) > 1024
    assert (await _put(sim, started["upload_to"], big)).status_code == 413
    assert _state(sim) == before


async def test_upload_not_completed_in_24_hours_is_cancelled(
    client: ApiClient, sim: Simulator, clock: VirtualClock
) -> None:
    started = await client.call(
        "images.upload", body={"label": "late", "region": "us-east"}, model=dict
    )
    image_id = started["image"]["id"]
    clock.advance(DAY - 1)
    assert (await client.call("images.view", {"imageId": image_id}, model=dict))[
        "status"
    ] == "pending_upload"
    clock.advance(1)
    await _refused(client, "images.view", {"imageId": image_id}, status=404)
    assert (await _put(sim, started["upload_to"], GZ)).status_code == 404


async def test_unknown_upload_address(sim: Simulator) -> None:
    assert (await _put(sim, "http://sim.local/_sim/uploads/nope", GZ)).status_code == 404


async def test_upload_restricted_lacks_add_images(
    client_for: Callable[..., ApiClient], sim: Simulator
) -> None:
    before = _state(sim)
    await _refused(
        client_for("restricted"),
        "images.upload",
        body={"label": "x", "region": "us-east"},
        status=403,
    )
    assert _state(sim) == before


# -- update and delete ----------------------------------------------------------------------


async def test_update_private_label_and_nullable_description(
    client: ApiClient, sim: Simulator
) -> None:
    golden = image(sim, "web-[prod]-golden")["id"]
    out = await client.call(
        "images.update", {"imageId": golden}, body={"label": "golden-2"}, model=dict
    )
    assert out["label"] == "golden-2" and out["description"]
    out = await client.call(
        "images.update", {"imageId": golden}, body={"description": None}, model=dict
    )
    assert out["description"] is None and out["label"] == "golden-2"
    await _bad(client, sim, "images.update", {"imageId": golden}, {"label": ""}, "label")
    await _bad(client, sim, "images.update", {"imageId": golden}, {"size": 1}, "size")


async def test_public_images_cannot_be_changed_or_deleted(
    client: ApiClient, sim: Simulator
) -> None:
    before = _state(sim)
    await _refused(
        client, "images.update", {"imageId": "compute/debian12"}, body={"label": "x"}, status=403
    )
    await _refused(client, "images.delete", {"imageId": "compute/debian12"}, status=403)
    assert _state(sim) == before


async def test_delete_private_image(client: ApiClient, sim: Simulator) -> None:
    pos = image(sim, "café-pos-base")
    assert await client.call("images.delete", {"imageId": pos["id"]}, model=dict) == {}
    await _refused(client, "images.view", {"imageId": pos["id"]}, status=404)
    grants = _rec(sim, "users", "ops-restricted")["grants"]["image"]
    assert all(g["id"] != pos["_num"] for g in grants)


async def test_restricted_update_and_delete_need_read_write(
    client_for: Callable[..., ApiClient], sim: Simulator
) -> None:
    restricted = client_for("restricted")
    pos = image(sim, "café-pos-base")["id"]
    out = await restricted.call(
        "images.update", {"imageId": pos}, body={"label": "pos-2"}, model=dict
    )
    assert out["label"] == "pos-2"
    for g in _rec(sim, "users", "ops-restricted")["grants"]["image"]:
        g["permissions"] = "read_only"
    before = _state(sim)
    await _refused(restricted, "images.update", {"imageId": pos}, body={"label": "x"}, status=403)
    await _refused(restricted, "images.delete", {"imageId": pos}, status=403)
    assert _state(sim) == before


def test_restricted_image_grant_is_read_write(sim: Simulator) -> None:
    grants = _rec(sim, "users", "ops-restricted")["grants"]["image"]
    assert [g["permissions"] for g in grants] == ["read_write"]
    assert grants[0]["id"] == image(sim, "café-pos-base")["_num"]
