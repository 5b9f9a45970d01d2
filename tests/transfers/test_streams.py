"""Headless transfers against the simulator: downloads resume or restart after drops, checks
size and ETag, leave no partial file; uploads retry with fresh URLs and report failures;
batches run bounded, delete, share and preview."""

from __future__ import annotations

import asyncio
import hashlib
from pathlib import Path
from typing import Any

import pytest

from tests.waits import eventually
from tui.api.client import ApiClient
from tui.api.errors import ApiError
from tui.simulator import Simulator
from tui.simulator.handlers.object_storage import TRANSFER_OPERATION, byte_range
from tui.transfers.listing import FolderListing, parent_of, walk_objects
from tui.transfers.objects import (
    preview_text,
    run_deletes,
    run_downloads,
    run_uploads,
    share_url,
    url_source,
)
from tui.transfers.plan import download_items, upload_items
from tui.transfers.progress import Batch, State
from tui.transfers.stream import TransferFailed, download_to, upload_from

SITE = {"clusterId": "us-east-1", "bucket": "cloudtui-site"}


async def put(client: ApiClient, name: str, data: bytes, ctype: str = "") -> None:
    url = await url_source(client, SITE, name, "PUT", ctype)()
    async with client.stream_url(
        "PUT", url, content=data, headers={"Content-Type": ctype or "application/octet-stream"}
    ) as response:
        assert response.status_code == 200


@pytest.fixture
def out(tmp_path: Path) -> Path:
    """An empty directory of its own (tmp_path also holds the isolated config)."""
    path = tmp_path / "out"
    path.mkdir()
    return path


def listing_of(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.rglob("*"))


def leftovers(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.rglob("*") if p.name.endswith(".part"))


def test_byte_range_parsing() -> None:
    assert byte_range("bytes=0-9", 100) == (0, 9)
    assert byte_range("bytes=90-", 100) == (90, 99)
    assert byte_range("bytes=-10", 100) == (90, 99)
    assert byte_range("bytes=95-200", 100) == (95, 99)
    assert byte_range("bytes=100-", 100) is None
    assert byte_range("bytes=0-1,5-6", 100) is None
    assert byte_range("items=0-1", 100) is None


async def test_simulator_serves_ranges(client: ApiClient) -> None:
    data = bytes(range(256)) * 40
    await put(client, "r.bin", data)
    url = await url_source(client, SITE, "r.bin", "GET")()
    async with client.stream_url("GET", url, headers={"Range": "bytes=100-"}) as response:
        assert response.status_code == 206
        assert response.headers["content-range"] == f"bytes 100-{len(data) - 1}/{len(data)}"
        assert await response.aread() == data[100:]
    async with client.stream_url("GET", url, headers={"Range": "bytes=99999-"}) as response:
        assert response.status_code == 416


async def test_download_resumes_after_a_dropped_connection(
    client: ApiClient, sim: Simulator, tmp_path: Path
) -> None:
    data = bytes(range(256)) * 4096  # 1 MB
    await put(client, "big.bin", data)
    etag = hashlib.md5(data).hexdigest()
    sim.faults.fail_next(TRANSFER_OPERATION, 1, 0)  # the first GET breaks off halfway
    batch = Batch()
    progress = batch.add("big.bin", len(data))
    target = tmp_path / "big.bin"
    result = await download_to(
        client,
        url_source(client, SITE, "big.bin", "GET"),
        target,
        progress,
        expected_size=len(data),
        etag=etag,
    )
    assert target.read_bytes() == data
    assert result.checked_etag and result.md5 == etag
    assert progress.attempts == 2 and progress.done == len(data)
    assert leftovers(tmp_path) == []


async def test_download_that_keeps_failing_is_reported_and_leaves_nothing(
    client: ApiClient, sim: Simulator, out: Path
) -> None:
    await put(client, "flaky.bin", b"x" * 5000)
    sim.faults.fail_next(TRANSFER_OPERATION, 10, 503)
    progress = Batch().add("flaky.bin", 5000)
    with pytest.raises(TransferFailed, match="503"):
        await download_to(client, url_source(client, SITE, "flaky.bin", "GET"), out / "f", progress)
    assert listing_of(out) == []


async def test_download_checks_size_and_etag(client: ApiClient, out: Path) -> None:
    await put(client, "a.txt", b"hello")
    source = url_source(client, SITE, "a.txt", "GET")
    with pytest.raises(TransferFailed, match="size mismatch"):
        await download_to(client, source, out / "a", Batch().add("a", 5), expected_size=6)
    with pytest.raises(TransferFailed, match="checksum"):
        await download_to(client, source, out / "a", Batch().add("a", 5), etag="0" * 32)
    assert listing_of(out) == []
    # An existing file is replaced only by a complete, checked download.
    (out / "a").write_bytes(b"old")
    await download_to(client, source, out / "a", Batch().add("a", 5), expected_size=5)
    assert (out / "a").read_bytes() == b"hello"


async def test_cancelled_download_leaves_no_file(
    client: ApiClient, sim: Simulator, out: Path
) -> None:
    await put(client, "slow.bin", b"y" * 10000)
    sim.faults.latency = 5.0
    task = asyncio.ensure_future(
        download_to(
            client,
            url_source(client, SITE, "slow.bin", "GET"),
            out / "slow.bin",
            Batch().add("slow", 10000),
        )
    )
    # Until the temporary file exists and the request waits on the server.
    await eventually(lambda: leftovers(out), "a partial download", poll=0.01)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert listing_of(out) == []


async def test_upload_asks_a_fresh_url_after_a_failed_put(
    client: ApiClient, sim: Simulator, tmp_path: Path
) -> None:
    source = tmp_path / "notes.md"
    source.write_text("# notes\n" * 100)
    sim.faults.fail_next(TRANSFER_OPERATION, 1, 0)
    calls: list[str] = []
    inner = url_source(client, SITE, "docs/notes.md", "PUT", "text/markdown")

    async def counting() -> str:
        url = await inner()
        calls.append(url)
        return url

    progress = Batch().add("notes.md", None)
    etag = await upload_from(client, counting, source, progress, content_type="text/markdown")
    assert len(calls) == 2 and progress.attempts == 2
    assert etag == f'"{hashlib.md5(source.read_bytes()).hexdigest()}"'
    record = sim.store.get("object_storage.objects", "us-east-1/cloudtui-site/docs/notes.md")
    assert record is not None and record["_content_type"] == "text/markdown"


async def test_upload_failing_every_time_is_failed_never_done(
    client: ApiClient, sim: Simulator, tmp_path: Path
) -> None:
    source = tmp_path / "a.bin"
    source.write_bytes(b"z" * 100)
    items, problems = upload_items(source, "in/")
    assert problems == [] and [i.key for i in items] == ["in/a.bin"]
    sim.faults.fail_next(TRANSFER_OPERATION, 10, 500)
    batch = Batch()
    progresses = [batch.add(i.key, i.size) for i in items]
    await run_uploads(client, SITE, items, progresses, batch)
    assert progresses[0].state is State.FAILED and "500" in progresses[0].reason
    # Retrying the failed ones once the server behaves again.
    sim.faults.clear()
    await run_uploads(client, SITE, items, progresses, batch)
    assert progresses[0].state is State.DONE


async def test_rate_limited_transfers_wait_and_resume(
    client: ApiClient, sim: Simulator, tmp_path: Path
) -> None:
    source = tmp_path / "r.txt"
    source.write_text("rate")
    sim.faults.fail_next(TRANSFER_OPERATION, 3, 429)
    progress = Batch().add("r.txt", 4)
    await upload_from(
        client,
        url_source(client, SITE, "r.txt", "PUT"),
        source,
        progress,
        content_type="text/plain",
    )
    assert progress.attempts == 4


async def test_directory_upload_then_folder_download_round_trip(
    client: ApiClient, tmp_path: Path
) -> None:
    tree = tmp_path / "site"
    (tree / "css").mkdir(parents=True)
    (tree / "index.html").write_text("<h1>hi</h1>")
    (tree / "css" / "main.css").write_text("body{}")
    items, _ = upload_items(tree, "www/")
    assert [(i.key, i.content_type) for i in items] == [
        ("www/site/css/main.css", "text/css"),
        ("www/site/index.html", "text/html"),
    ]
    batch = Batch()
    progresses = [batch.add(i.key, i.size) for i in items]
    await run_uploads(client, SITE, items, progresses, batch, concurrency=2)
    assert batch.summary() == "2 done"
    listing = FolderListing(client, SITE, "www/")
    entries = await listing.load_first()
    assert [(e.name, e.folder) for e in entries] == [("site/", True)]
    objects = [e async for e in walk_objects(client, SITE, "www/site/")]
    out = tmp_path / "out"
    plan = download_items(objects, "www/", out)
    down = Batch()
    progs = [down.add(i.entry.key, i.entry.size) for i in plan]
    await run_downloads(client, SITE, plan, progs, down)
    assert (out / "site" / "index.html").read_text() == "<h1>hi</h1>"
    assert (out / "site" / "css" / "main.css").read_text() == "body{}"
    assert down.moved_bytes == down.total_bytes == 17
    assert parent_of("www/site/") == "www/"


async def test_listing_pages_by_marker(client: ApiClient, sim: Simulator) -> None:
    for number in range(450):
        await put(client, f"many/{number:04d}.txt", b".")
    listing = FolderListing(client, SITE, "many/")
    first = await listing.load_first()
    assert len(first) == 200 and listing.truncated and listing.requests == 1
    assert listing.wants_more(170) and not listing.wants_more(100)
    await listing.load_more()
    await listing.load_more()
    assert len(listing.entries) == 450 and not listing.truncated
    assert len({e.key for e in listing.entries}) == 450


async def test_delete_share_and_preview(client: ApiClient, sim: Simulator) -> None:
    await put(client, "t/readme.txt", "héllo [b]x[/b]".encode())
    await put(client, "t/bin.dat", b"\x00\x01\x02")
    preview = await preview_text(client, SITE, "t/readme.txt", 16)
    assert preview.text == "héllo [b]x[/b]"
    assert (await preview_text(client, SITE, "t/bin.dat", 3)).text is None
    assert "1 MB" in (await preview_text(client, SITE, "t/bin.dat", 2_000_000)).reason
    url = await share_url(client, SITE, "t/readme.txt", 360)
    assert "method=GET" in url
    with pytest.raises(ValueError):
        await share_url(client, SITE, "t/readme.txt", 100)
    batch = Batch()
    await run_deletes(client, SITE, ["t/readme.txt", "t/bin.dat"], batch)
    assert batch.summary() == "2 done"
    remaining: list[Any] = [e async for e in walk_objects(client, SITE, "t/")]
    assert remaining == []


async def test_fault_flags_apply_to_transfer_urls(client: ApiClient, sim: Simulator) -> None:
    data = b"0123456789" * 1000
    await put(client, "f.bin", data)
    url = await url_source(client, SITE, "f.bin", "GET")()
    # A dropped download sends half of the body and stops.
    sim.faults.fail_next(TRANSFER_OPERATION, 1, 0)
    async with client.stream_url("GET", url) as response:
        assert response.headers["content-length"] == str(len(data))
        assert await response.aread() == data[: len(data) // 2]
    # Scripted statuses and the rate limit answer as they do for API operations.
    sim.faults.fail_next(TRANSFER_OPERATION, 1, 429)
    async with client.stream_url("GET", url) as response:
        assert response.status_code == 429 and response.headers["retry-after"] == "1"
    sim.faults.fail_next("images.upload_data", 1, 503)
    started = await client.call(
        "images.upload", body={"label": "x", "region": "us-east"}, model=dict
    )
    async with client.stream_url("PUT", started["upload_to"], content=b"\x1f\x8b") as response:
        assert response.status_code == 503
    async with client.stream_url("GET", url) as response:
        assert response.status_code == 200 and await response.aread() == data


async def test_signing_request_is_sent_again_after_a_drop_or_5xx(
    client: ApiClient, sim: Simulator
) -> None:
    sim.faults.fail_next("object_storage.objects.url", 1, 0)
    sim.faults.fail_next("object_storage.objects.url", 1, 502)
    url = await url_source(client, SITE, "x.txt", "GET")()
    assert "signature=" in url
    sim.faults.fail_next("object_storage.objects.url", 1, 400)
    with pytest.raises(ApiError):
        await url_source(client, SITE, "x.txt", "GET")()
