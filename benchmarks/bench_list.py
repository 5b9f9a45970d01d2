"""Benchmark 1: list 10,000 instances over HTTP with 50 ms simulated latency.

``cloudtui sim --scale N --latency L`` runs in a child process on 127.0.0.1. The client lists
every instance with its concurrent pagination (the client's default bound, 24 requests in
flight) and, interleaved in the same run, the same client with one request in flight
(sequential), for each page plan:

- ``default``: what the app does: page 1 at the client's page size (settings: 100), the rest
  in the largest pages the endpoint allows (500) where they tile: 25 requests for 10,012 items;
- ``uniform-100``: every page 100 items (101 requests);
- ``uniform-500``: every page 500 items (21 requests).

Round trips are counted in units of the median time of a tiny request (``GET /profile``)
measured in the same run. Items are decoded as the app's lists decode them: plain dicts
(``model=dict``; a row shows a few fields, and the full ``Instance`` model is built when one is
opened). The default plan is also listed into ``Instance`` models, for comparison.

Then, from process start: a fresh interpreter that imports cloudtui's client and lists every
instance (``ApiClient.fetch_all``, default plan, rows as the app decodes them), against a fresh
interpreter running what other command-line clients of this API do: httpx, one request at a
time, 500-item pages, ``json.loads`` (no validation). Both are timed from spawn until they
print their count, interleaved.

Each figure is measured twice: first against ``benchmarks/replay_server.py`` (the simulator's
pages encoded once up front and answered in parallel after the latency, so the client alone is
measured), then against ``cloudtui sim`` (which spends CPU on every page, one at a time).

Against ``cloudtui sim`` it also reports the simulator's CPU per 500-instance page: its ASGI
app called in-process (what the demo and the test suite pay), and served one page at a time
(the server process's user and kernel time from ``/proc``).

Targets: all items within 4 round trips; >= 6x faster than sequential with the same plan;
>= 4x faster than the sequential 500-item client from process start; first page within 1.2
round trips.

Run: .venv/bin/python benchmarks/bench_list.py [--runs 5] [--scale 10000] [--latency 0.05]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.common import (
    ROOT,
    SERVED_PIDS,
    fmt_ms,
    median,
    process_cpu,
    report,
    served_replay,
    served_simulator,
    user_env,
)
from tui.api.client import DEFAULT_MAX_CONCURRENCY, ApiClient
from tui.api.pagination import Page
from tui.session.config import Settings
from tui.simulator import DEMO_TOKENS

OURS = """
import asyncio, sys
from tui.api.client import ApiClient

async def main() -> None:
    async with ApiClient(sys.argv[1], sys.argv[2]) as client:
        items = await client.fetch_all("compute.instances.list", model=dict)
    print(len(items), flush=True)

asyncio.run(main())
"""
"""cloudtui's client in a fresh process: every instance, decoded as the app's list does."""

SEQUENTIAL_CLI = """
import json, sys
import httpx

rows = []
with httpx.Client(base_url=sys.argv[1], headers={"Authorization": "Bearer " + sys.argv[2]}) as c:
    page = 1
    while True:
        answer = c.get("/compute/instances", params={"page": page, "page_size": 500})
        answer.raise_for_status()
        body = json.loads(answer.content)
        rows.extend(body["data"])
        if page >= body["pages"]:
            break
        page += 1
print(len(rows), flush=True)
"""
"""What other command-line clients of this API do: one 500-item page at a time, plain JSON."""

PLANS: dict[str, int | None] = {"default": None, "uniform-100": 100, "uniform-500": 500}
"""Plan name -> explicit page size (None: the client's default plan)."""


async def one_run(
    base: str,
    concurrency: int,
    page_size: int | None,
    client_page_size: int,
    model: type[Any] | None = dict,
) -> dict[str, float]:
    """Time to the first page and to every item, for one listing, plus the client's CPU; then
    the time of the same listing again on the same client (a refresh: the count is known).

    ``model`` is what items are decoded into: ``dict`` (the app's rows) or None (the
    endpoint's pydantic model, ``Instance``)."""
    async with ApiClient(
        base,
        DEMO_TOKENS["unrestricted"],
        max_concurrency=concurrency,
        page_size=client_page_size,
    ) as client:
        await client.call("profile.view")  # open the connection outside the measurement
        sent = client.request_count
        cpu = time.process_time()
        start = time.perf_counter()
        first = 0.0
        count = 0
        page: Page[Any]
        listing = client.iter_all("compute.instances.list", page_size=page_size, model=model)
        async for page in listing:
            if not first:
                first = time.perf_counter() - start
            count += len(page.data)
        elapsed = time.perf_counter() - start
        used_cpu = time.process_time() - cpu
        requests = client.request_count - sent
        # The same listing again on the same client, as a refresh: the client knows the count.
        start = time.perf_counter()
        await client.fetch_all("compute.instances.list", page_size=page_size, model=model)
        return {
            "first": first,
            "all": elapsed,
            "again": time.perf_counter() - start,
            "items": count,
            "requests": requests,
            "cpu": used_cpu,
        }


def from_process_start(code: str, base: str) -> tuple[float, int]:
    """Seconds from spawning ``python -c code BASE TOKEN`` until it prints its item count."""
    start = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-c", code, base, DEMO_TOKENS["unrestricted"]],
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env=user_env(),
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    elapsed = time.perf_counter() - start
    proc.wait(timeout=30)
    return elapsed, int(line.strip() or 0)


async def measure_round_trip(base: str) -> float:
    """Median time of a tiny request (one round trip of latency plus overhead)."""
    async with ApiClient(base, DEMO_TOKENS["unrestricted"]) as client:
        await client.call("profile.view")
        times = []
        for _ in range(9):
            t = time.perf_counter()
            await client.call("profile.view")
            times.append(time.perf_counter() - t)
        return median(times)


async def simulator_page_cpu(base: str, rounds: int = 5) -> tuple[float, float]:
    """CPU the server at ``base`` spends per 500-instance page: (user, kernel) seconds.

    Every page of the listing, one request at a time, ``rounds`` times; the server's process
    CPU (from ``/proc``, 10 ms ticks) over the requests made. User time is the simulator and
    its HTTP server in Python; kernel time is mostly sending the ~330 KB answer over the
    loopback socket, whose TCP processing is charged to the sender.
    """
    pid = SERVED_PIDS[base]
    async with ApiClient(base, DEMO_TOKENS["unrestricted"]) as client:
        first = await client.fetch_page("compute.instances.list", page_size=500, model=dict)
        user, kernel = process_cpu(pid)
        for _ in range(rounds):
            for number in range(1, first.pages + 1):
                await client.fetch_page(
                    "compute.instances.list", page=number, page_size=500, model=dict
                )
        user_after, kernel_after = process_cpu(pid)
        pages = rounds * first.pages
        return (user_after - user) / pages, (kernel_after - kernel) / pages


async def in_process_page_cpu(scale: int, rounds: int = 5) -> float:
    """CPU seconds the simulator's ASGI app spends per 500-instance page, called in-process
    (what ``cloudtui --demo`` and the test suite pay): no HTTP server, no socket."""
    from tui.simulator.server import build_simulator

    sim = build_simulator(scale=scale)
    auth = f"Bearer {DEMO_TOKENS['unrestricted']}".encode()
    sent: list[Any] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: Any) -> None:
        sent.append(message)

    async def page(number: int) -> None:
        scope = {
            "type": "http",
            "method": "GET",
            "path": "/v4/compute/instances",
            "raw_path": b"/v4/compute/instances",
            "query_string": f"page={number}&page_size=500".encode(),
            "headers": [(b"authorization", auth), (b"host", b"sim")],
            "scheme": "http",
            "server": ("sim", 80),
            "client": ("127.0.0.1", 1),
            "root_path": "",
            "http_version": "1.1",
        }
        await sim(scope, receive, send)

    pages = -(-len(sim.store.rows("compute.instances")) // 500)
    for number in range(1, pages + 1):  # warm up
        await page(number)
    times = []
    for _ in range(rounds):
        for number in range(1, pages + 1):
            began = time.process_time()
            await page(number)
            times.append(time.process_time() - began)
            sent.clear()
    return median(times)


SERVERS = ("replay", "sim")
"""Servers measured, in the order reported: the replay server (no per-request work beyond
sending, pages answered in parallel: what the client alone can do) and ``cloudtui sim``."""


def _served(server: str, args: argparse.Namespace) -> contextlib.AbstractContextManager[str]:
    flags = ("--scale", str(args.scale), "--latency", str(args.latency))
    return served_replay(*flags) if server == "replay" else served_simulator(*flags)


async def measure(server: str, args: argparse.Namespace) -> None:
    """List every instance against one server, every plan and mode interleaved; print."""
    plans = [p for p in PLANS if p in args.plans.split(",")]
    size = Settings().page_size
    runs: dict[str, dict[str, list[dict[str, float]]]] = {
        p: {"concurrent": [], "sequential": [], "models": []} for p in plans
    }
    ours: list[float] = []
    cli: list[float] = []
    counts: set[int] = set()
    with _served(server, args) as base:
        await one_run(base, args.concurrency, None, size)  # warm both processes up
        rtt = await measure_round_trip(base)
        for _ in range(args.runs):
            # Interleaved, so every plan and mode sees the same machine noise.
            for plan in plans:
                explicit = PLANS[plan]
                runs[plan]["concurrent"].append(
                    await one_run(base, args.concurrency, explicit, size)
                )
                runs[plan]["sequential"].append(await one_run(base, 1, explicit, size))
                if plan == "default":
                    runs[plan]["models"].append(
                        await one_run(base, args.concurrency, explicit, size, model=None)
                    )
            if not args.skip_process:
                for code, into in ((OURS, ours), (SEQUENTIAL_CLI, cli)):
                    elapsed, count = from_process_start(code, base)
                    into.append(elapsed)
                    counts.add(count)
        rtt = median([rtt, await measure_round_trip(base)])
        page_cpu = await simulator_page_cpu(base) if server == "sim" else None
    own_cpu = await in_process_page_cpu(args.scale) if server == "sim" else 0.0

    def med(plan: str, mode: str, key: str) -> float:
        return median([r[key] for r in runs[plan][mode]])

    for plan in plans:
        c_first = med(plan, "concurrent", "first")
        c_all = med(plan, "concurrent", "all")
        c_again = med(plan, "concurrent", "again")
        s_all = med(plan, "sequential", "all")
        items = int(runs[plan]["concurrent"][0]["items"])
        requests = int(runs[plan]["concurrent"][0]["requests"])
        report(
            f"[{server}] List {items} instances, plan {plan} ({requests} requests), "
            f"{args.latency * 1000:.0f} ms latency, {args.concurrency} in flight, "
            f"{args.runs} runs (medians)",
            [
                ("round trip (small request)", fmt_ms(rtt)),
                ("concurrent: first page", f"{fmt_ms(c_first)} = {c_first / rtt:.2f} round trips"),
                ("concurrent: all items", f"{fmt_ms(c_all)} = {c_all / rtt:.2f} round trips"),
                ("concurrent: client CPU", fmt_ms(med(plan, "concurrent", "cpu"))),
                (
                    "concurrent, count known (a refresh)",
                    f"{fmt_ms(c_again)} = {c_again / rtt:.2f} round trips",
                ),
                ("sequential: all items", f"{fmt_ms(s_all)} = {s_all / rtt:.2f} round trips"),
                ("speed-up (sequential / concurrent)", f"{s_all / c_all:.2f}x"),
                *_models_rows(runs[plan]["models"], rtt),
            ],
        )
    if page_cpu is not None:
        user, kernel = page_cpu
        report(
            f"[{server}] The simulator's CPU per 500-instance page (target <= 2 ms)",
            [
                ("in-process (its ASGI app called directly)", fmt_ms(own_cpu)),
                ("served, one at a time: user (simulator + uvicorn)", fmt_ms(user)),
                ("served, one at a time: kernel (mostly the send)", fmt_ms(kernel)),
            ],
        )
    if ours and cli:
        report(
            f"[{server}] From process start to every instance ({sorted(counts)} items), fresh "
            f"interpreters, {args.runs} runs each, interleaved (medians)",
            [
                (
                    "cloudtui client (default plan, rows as the app decodes them)",
                    fmt_ms(median(ours)),
                ),
                ("sequential CLI (500-item pages, json.loads)", fmt_ms(median(cli))),
                ("speed-up (sequential CLI / cloudtui)", f"{median(cli) / median(ours):.2f}x"),
            ],
        )


def _models_rows(runs: list[dict[str, float]], rtt: float) -> list[tuple[str, str]]:
    """Report lines for the same listing decoded into ``Instance`` models (when measured)."""
    if not runs:
        return []
    every = median([r["all"] for r in runs])
    return [
        ("into Instance models: all items", f"{fmt_ms(every)} = {every / rtt:.2f} round trips"),
        ("into Instance models: client CPU", fmt_ms(median([r["cpu"] for r in runs]))),
    ]


async def main_async(args: argparse.Namespace) -> None:
    """Measure against each server asked for, the replay server first."""
    for server in [s for s in SERVERS if s in args.servers.split(",")]:
        await measure(server, args)
    print(
        "  targets: all items <= 4 round trips; speed-up >= 6x (same plan); >= 4x against the"
        " sequential 500-item CLI from process start; first page <= 1.2 round trips",
        flush=True,
    )


def main(argv: list[str] | None = None) -> Any:
    """Parse flags and run."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--scale", type=int, default=10000)
    parser.add_argument("--latency", type=float, default=0.05)
    parser.add_argument("--concurrency", type=int, default=DEFAULT_MAX_CONCURRENCY)
    parser.add_argument(
        "--skip-process", action="store_true", help="skip the from-process-start comparison"
    )
    parser.add_argument(
        "--servers",
        default=",".join(SERVERS),
        help="comma-separated subset of replay (pages encoded up front), sim (cloudtui sim)",
    )
    parser.add_argument(
        "--plans", default=",".join(PLANS), help=f"comma-separated subset of {', '.join(PLANS)}"
    )
    asyncio.run(main_async(parser.parse_args(argv)))


if __name__ == "__main__":
    main()
