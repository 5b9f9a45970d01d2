"""Every image operation through the typed ApiClient.call, against the simulator, plus uploads."""

from __future__ import annotations

import gzip
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from pydantic import ValidationError

from tui.api.client import ApiClient, InsecureBaseUrl
from tui.api.errors import ApiError
from tui.models.images import (
    Image,
    ImageCreate,
    ImageUpdate,
    ImageUpload,
    ImageUploadStarted,
)
from tui.simulator import Simulator, VirtualClock
from tui.transfers.images import upload_image_file
from tui.transfers.progress import FileProgress
from tui.transfers.stream import CHUNK, TransferFailed

DISK_ID = 770900
PAYLOAD = gzip.compress(b"raw disk bytes " * 1000, mtime=0)


@pytest.fixture(autouse=True)
def catalog(sim: Simulator) -> None:
    """A region, an instance and its disk, in case compute has not seeded them."""
    sim.store.table("compute.regions").setdefault(
        "us-east", {"id": "us-east", "label": "Newark, NJ", "country": "us", "status": "ok"}
    )
    sim.store.put(
        "compute.instances",
        990900,
        {"id": 990900, "label": "src", "status": "running", "region": "us-east", "tags": []},
    )
    sim.store.put(
        "compute.disks",
        DISK_ID,
        {"id": DISK_ID, "label": "src-root", "size": 8192, "_compute_id": 990900},
    )


async def test_list_iter_all_view(client: ApiClient, sim: Simulator) -> None:
    page = await client.fetch_page("images.list", page_size=25)
    assert page.results == len(sim.store.rows("images.images"))
    assert all(isinstance(i, Image) for i in page.data)
    pages = [p async for p in client.iter_all("images.list")]
    assert [i.id for p in pages for i in p.data] == [i.id for i in page.data]
    assert [i.id for i in await client.fetch_all("images.list")] == [i.id for i in page.data]
    debian = await client.call("images.view", {"imageId": "compute/debian12"})
    assert debian.is_public is True and debian.vendor == "Debian" and debian.eol


async def test_anonymous_lists_public(client_for: Callable[..., ApiClient]) -> None:
    anon = client_for("anonymous")
    images = await anon.fetch_all("images.list")
    assert len(images) == 8 and all(i.is_public for i in images)


async def test_create_update_delete(client: ApiClient, clock: VirtualClock) -> None:
    made = await client.call(
        "images.create", body=ImageCreate(disk_id=DISK_ID, description="from api")
    )
    assert made.status == "creating" and made.label == "src-root" and made.size == 8192
    clock.advance(6)
    assert (await client.call("images.view", {"imageId": made.id or ""})).status == "available"
    changed = await client.call(
        "images.update",
        {"imageId": made.id or ""},
        body=ImageUpdate(label="renamed", description=None),
    )
    assert changed.label == "renamed" and changed.description is None
    kept = await client.call(
        "images.update", {"imageId": made.id or ""}, body=ImageUpdate(description="back")
    )
    assert kept.label == "renamed" and kept.description == "back"
    await client.call("images.delete", {"imageId": made.id or ""})
    with pytest.raises(ApiError) as info:
        await client.call("images.view", {"imageId": made.id or ""})
    assert info.value.status == 404


def _image_file(tmp_path: Path, data: bytes, name: str = "disk.img.gz") -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


async def test_upload_end_to_end(client: ApiClient, clock: VirtualClock, tmp_path: Path) -> None:
    started = await client.call("images.upload", body=ImageUpload(label="up", region="us-east"))
    assert isinstance(started, ImageUploadStarted) and started.image is not None
    assert started.image.status == "pending_upload" and started.upload_to
    progress = FileProgress("disk.img.gz")
    await upload_image_file(client, started.upload_to, _image_file(tmp_path, PAYLOAD), progress)
    assert progress.done == len(PAYLOAD)
    clock.advance(4)
    done = await client.call("images.view", {"imageId": started.image.id or ""})
    assert done.status == "available" and done.size == 1


async def test_upload_of_a_large_file_is_streamed(
    client: ApiClient, clock: VirtualClock, tmp_path: Path
) -> None:
    # Over one chunk (random bytes do not compress): sent as a stream, counted as it leaves.
    data = gzip.compress(random.Random(7).randbytes(2 * CHUNK + 1), mtime=0)
    started = await client.call(
        "images.upload", body=ImageUpload(label="from-file", region="us-east", description="file")
    )
    progress = FileProgress("disk.img.gz")
    path = _image_file(tmp_path, data)
    await upload_image_file(client, started.upload_to or "", path, progress)
    assert progress.done == len(data) > CHUNK
    clock.advance(4)
    assert started.image is not None
    done = await client.call("images.view", {"imageId": started.image.id or ""})
    assert done.status == "available" and done.size == 3


async def test_upload_refuses_non_gzip_before_sending(client: ApiClient, tmp_path: Path) -> None:
    started = await client.call("images.upload", body=ImageUpload(label="nope", region="us-east"))
    sent = client.request_count
    plain = _image_file(tmp_path, b"raw", "disk.img")
    with pytest.raises(ValueError, match="gzip"):
        await upload_image_file(client, started.upload_to or "", plain, FileProgress("disk.img"))
    assert client.request_count == sent


async def test_server_refusal_of_upload_fails_the_transfer(
    client: ApiClient, tmp_path: Path
) -> None:
    started = await client.call("images.upload", body=ImageUpload(label="twice", region="us-east"))
    path = _image_file(tmp_path, PAYLOAD)
    await upload_image_file(client, started.upload_to or "", path, FileProgress("first"))
    sent = client.request_count
    with pytest.raises(TransferFailed, match="HTTP 409") as info:
        await upload_image_file(client, started.upload_to or "", path, FileProgress("again"))
    assert client.request_count == sent + 1  # a refusal is not retried
    secret = (started.upload_to or "").rsplit("/", 1)[-1]
    assert secret and secret not in str(info.value)  # the address's secret part is not shown


async def test_presigned_requests_never_send_the_token() -> None:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200)

    api = ApiClient(
        "https://api.example.com/v4", "secret-token", transport=httpx.MockTransport(handler)
    )
    headers = {"Content-Type": "application/octet-stream"}
    try:
        url = "https://uploads.example.net/abc?sig=1"
        async with api.stream_url("PUT", url, headers=headers, content=PAYLOAD) as response:
            assert response.status_code == 200
        with pytest.raises(InsecureBaseUrl):
            async with api.stream_url("PUT", "http://uploads.example.net/abc", content=PAYLOAD):
                pass
        with pytest.raises(InsecureBaseUrl):
            async with api.stream_url("PUT", "ftp://uploads.example.net/abc", content=PAYLOAD):
                pass
    finally:
        await api.aclose()
    assert len(seen) == 1
    assert "authorization" not in seen[0].headers
    assert seen[0].headers["content-type"] == "application/octet-stream"
    assert seen[0].content == PAYLOAD


@pytest.mark.parametrize(
    ("model", "fields"),
    [
        (ImageCreate, {}),
        (ImageCreate, {"disk_id": 1, "description": ""}),
        (ImageCreate, {"disk_id": 1, "description": "x" * 65001}),
        (ImageCreate, {"disk_id": 1, "region": "us-east"}),
        (ImageUpload, {"label": "x"}),
        (ImageUpload, {"region": "us-east"}),
        (ImageUpload, {"label": "", "region": "us-east"}),
        (ImageUpdate, {"label": "x" * 129}),
    ],
)
def test_request_models_are_strict(model: Any, fields: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        model(**fields)


def test_update_sends_null_description_only_when_asked() -> None:
    assert ImageUpdate(description=None).body() == {"description": None}
    assert ImageUpdate(label="a").body() == {"label": "a"}


def test_response_models_are_tolerant() -> None:
    image = Image.model_validate({"id": "private/9", "status": "queued", "regions": ["x"]})
    assert image.status == "queued" and image.raw()["regions"] == ["x"]
    started = ImageUploadStarted.model_validate({"upload_to": "https://u/x"})
    assert started.image is None
