"""Transfers through ``cloudtui sim`` on 127.0.0.1.

* A 256 MB file up and down with the app's transfer code (:mod:`tui.transfers`) and with
  ``curl`` on the same kind of pre-signed URLs: medians and the ratio (target >= 0.8x curl).
* The client's RSS growth during each transfer (target < 50 MB): sampled every 20 ms.
* A 20,000-object folder: the first rows arrive after one ``object-list`` request (the browser
  pages by marker as the cursor nears the end), against listing it whole.
* 1,000 files of 4 KB: bounded concurrency (4 at once) against one at a time, on the plain
  simulator and on one that adds 20 ms to each request (as a network would).

Run: .venv/bin/python benchmarks/bench_transfer.py [--runs 3] [--mb 256]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.common import median, report, served_simulator
from tui.api.client import ApiClient
from tui.simulator.auth import DEMO_TOKENS
from tui.simulator.handlers.object_storage import (
    new_bucket,
    object_key,
    put_object,
    refresh_bucket_stats,
)
from tui.simulator.seed import ensure_users
from tui.simulator.store import Store
from tui.transfers.listing import FolderListing, walk_objects
from tui.transfers.objects import run_uploads, url_source
from tui.transfers.plan import UploadItem
from tui.transfers.progress import Batch
from tui.transfers.stream import download_to, upload_from

BUCKET = {"clusterId": "us-east-1", "bucket": "cloudtui-site"}
BIG_BUCKET = {"clusterId": "us-east-1", "bucket": "big-bucket"}
MB = 1024 * 1024
LATENCY = 0.02
"""Seconds the simulator adds to each request in the second small-files measure: on
127.0.0.1 there is no latency for concurrency to hide, over a network there is."""


def rss() -> int:
    """Resident set size of this process, bytes."""
    with open("/proc/self/statm") as handle:
        return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


class RssPeak:
    """Samples the RSS in a thread while a transfer runs; ``growth`` is peak minus start."""

    def __enter__(self) -> RssPeak:
        self.start = self.peak = rss()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()
        return self

    def _sample(self) -> None:
        while not self._stop.wait(0.02):
            self.peak = max(self.peak, rss())

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self.peak = max(self.peak, rss())

    @property
    def growth(self) -> int:
        return self.peak - self.start


def make_file(path: Path, megabytes: int) -> None:
    """Random bytes, written a megabyte at a time (never the whole file in memory)."""
    with path.open("wb") as handle:
        for _ in range(megabytes):
            handle.write(os.urandom(MB))


def curl(*args: str) -> float:
    """Seconds one curl run takes (it must succeed)."""
    began = time.perf_counter()
    subprocess.run(["curl", "-sS", "--fail", "-H", "Expect:", *args], check=True)
    return time.perf_counter() - began


async def big_file(
    client: ApiClient, work: Path, megabytes: int, runs: int
) -> list[tuple[str, str]]:
    source = work / "big.bin"
    make_file(source, megabytes)
    size = source.stat().st_size
    have_curl = shutil.which("curl") is not None
    up_app: list[float] = []
    up_curl: list[float] = []
    down_app: list[float] = []
    down_curl: list[float] = []
    rss_up: list[int] = []
    rss_down: list[int] = []
    for _ in range(runs):
        name = "bench/big.bin"  # replaced each run: the simulator holds one copy
        ctype = "application/octet-stream"
        with RssPeak() as peak:
            began = time.perf_counter()
            await upload_from(
                client,
                url_source(client, BUCKET, name, "PUT", ctype),
                source,
                Batch().add(name, size),
                content_type=ctype,
            )
            up_app.append(time.perf_counter() - began)
        rss_up.append(peak.growth)
        target = work / "down.bin"
        with RssPeak() as peak:
            began = time.perf_counter()
            await download_to(
                client,
                url_source(client, BUCKET, name, "GET"),
                target,
                Batch().add(name, size),
                expected_size=size,
            )
            down_app.append(time.perf_counter() - began)
        rss_down.append(peak.growth)
        target.unlink()
        if have_curl:
            put = await url_source(client, BUCKET, name, "PUT", ctype)()
            up_curl.append(
                curl("-o", "/dev/null", "-T", str(source), "-H", f"Content-Type: {ctype}", put)
            )
            get = await url_source(client, BUCKET, name, "GET")()
            down_curl.append(curl("-o", str(target), get))
            target.unlink()
    source.unlink()

    def speed(seconds: list[float]) -> str:
        return f"{median(seconds):.2f} s ({size / MB / median(seconds):.0f} MB/s)"

    rows = [
        ("upload, app", speed(up_app)),
        ("download, app", speed(down_app)),
        ("RSS growth, upload (max)", f"{max(rss_up) / MB:.1f} MB"),
        ("RSS growth, download (max)", f"{max(rss_down) / MB:.1f} MB"),
    ]
    if have_curl:
        rows += [
            ("upload, curl", speed(up_curl)),
            ("download, curl", speed(down_curl)),
            ("upload throughput vs curl", f"{median(up_curl) / median(up_app):.2f}x"),
            ("download throughput vs curl", f"{median(down_curl) / median(down_app):.2f}x"),
        ]
    else:
        rows.append(("curl", "not installed: comparison skipped"))
    return rows


async def small_files(client: ApiClient, work: Path, count: int) -> list[tuple[str, str]]:
    folder = work / "small"
    folder.mkdir()
    items = []
    for n in range(count):
        path = folder / f"f{n:04d}.txt"
        path.write_bytes(os.urandom(4096))
        items.append(UploadItem(path, f"small/f{n:04d}.txt", 4096, "text/plain"))
    times: dict[int, float] = {}
    for concurrency in (1, 4):
        batch = Batch()
        progresses = [batch.add(i.key, i.size) for i in items]
        began = time.perf_counter()
        await run_uploads(client, BUCKET, items, progresses, batch, concurrency=concurrency)
        times[concurrency] = time.perf_counter() - began
        assert batch.summary() == f"{count} done", batch.summary()
    shutil.rmtree(folder)
    return [
        (f"{count} x 4 KB, one at a time", f"{times[1]:.2f} s"),
        (f"{count} x 4 KB, 4 at once", f"{times[4]:.2f} s"),
        ("speed-up", f"{times[1] / times[4]:.2f}x"),
    ]


def big_bucket_state(path: Path, objects: int) -> None:
    """A state file with ``objects`` objects in one folder of a new bucket."""
    from tui.simulator.seed import seed_demo

    store = Store()
    seed_demo(store, time.time())
    ensure_users(store)
    bucket = new_bucket(store, cluster="us-east-1", label="big-bucket", now=time.time())
    record = put_object(store, bucket, "logs/000000.log", b"x", "text/plain", time.time())
    for n in range(1, objects):
        # put_object recounts the bucket each time (quadratic here): copy the first record.
        name = f"logs/{n:06d}.log"
        store.put(
            "object_storage.objects",
            object_key("us-east-1", "big-bucket", name),
            {**record, "name": name},
        )
    refresh_bucket_stats(store, bucket)
    store.save(path)


async def large_listing(base_url: str, objects: int) -> list[tuple[str, str]]:
    async with ApiClient(base_url, DEMO_TOKENS["unrestricted"]) as client:
        listing = FolderListing(client, BIG_BUCKET, "logs/")
        began = time.perf_counter()
        first = await listing.load_first()
        first_time = time.perf_counter() - began
        requests_first = listing.requests
        began = time.perf_counter()
        everything = [e async for e in walk_objects(client, BIG_BUCKET, "logs/")]
        whole = time.perf_counter() - began
    return [
        (
            f"{objects}-object folder: first rows",
            f"{len(first)} rows after {requests_first} request(s), {first_time * 1000:.0f} ms",
        ),
        ("listing it whole (not done by the browser)", f"{len(everything)} rows, {whole:.2f} s"),
    ]


async def small_files_with_latency(base_url: str, files: int) -> None:
    async with ApiClient(base_url, DEMO_TOKENS["unrestricted"]) as client:
        with tempfile.TemporaryDirectory() as tmp:
            rows = await small_files(client, Path(tmp), files)
    report(f"many small files, {LATENCY * 1000:.0f} ms per request (as over a network)", rows)


async def transfers(base_url: str, megabytes: int, runs: int, files: int) -> None:
    async with ApiClient(base_url, DEMO_TOKENS["unrestricted"], read_timeout=120) as client:
        with tempfile.TemporaryDirectory() as tmp:
            work = Path(tmp)
            report(
                f"{megabytes} MB file, {runs} run(s) (medians)",
                await big_file(client, work, megabytes, runs),
            )
            report("many small files, 127.0.0.1", await small_files(client, work, files))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--mb", type=int, default=256)
    parser.add_argument("--files", type=int, default=1000)
    parser.add_argument("--objects", type=int, default=20_000)
    args = parser.parse_args(argv)
    print("transfer benchmark (a shared, noisy machine: compare the ratios of one run)", flush=True)
    with served_simulator() as url:
        asyncio.run(transfers(url, args.mb, args.runs, args.files))
    with served_simulator("--latency", str(LATENCY)) as url:
        asyncio.run(small_files_with_latency(url, args.files))
    with tempfile.TemporaryDirectory() as tmp:
        state = Path(tmp) / "state.json"
        big_bucket_state(state, args.objects)
        with served_simulator("--state", str(state)) as url:
            report("large bucket", asyncio.run(large_listing(url, args.objects)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
