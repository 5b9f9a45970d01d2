"""Benchmark 1: list 10,000 instances over HTTP with 50 ms simulated latency.

Compares the client's concurrent pagination with the same client fetching page by page.
Targets: >= 5x faster than sequential; first page within 1.2 round trips; all items within
16 round trips of latency plus parsing.

Run: .venv/bin/python benchmarks/bench_list.py [--runs 5] [--scale 10000] [--latency 0.05]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.common import fmt_ms, median, report, served_simulator
from tui.api.client import ApiClient
from tui.simulator import DEMO_TOKENS


async def one_run(base: str, concurrency: int, page_size: int) -> tuple[float, float, int]:
    """Time to first page and to every item, for one listing."""
    async with ApiClient(
        base, DEMO_TOKENS["unrestricted"], max_concurrency=concurrency, page_size=page_size
    ) as client:
        await client.call("profile.view")  # open the connection outside the measurement
        start = time.perf_counter()
        first = 0.0
        count = 0
        async for page in client.iter_all("compute.instances.list"):
            if not first:
                first = time.perf_counter() - start
            count += len(page.data)
        return first, time.perf_counter() - start, count


async def measure_round_trip(base: str) -> float:
    """Median time of a tiny request (one round trip of latency plus overhead)."""
    async with ApiClient(base, DEMO_TOKENS["unrestricted"]) as client:
        await client.call("profile.view")
        times = []
        for _ in range(7):
            t = time.perf_counter()
            await client.call("profile.view")
            times.append(time.perf_counter() - t)
        return median(times)


async def main_async(args: argparse.Namespace) -> None:
    with served_simulator("--scale", str(args.scale), "--latency", str(args.latency)) as base:
        rtt = await measure_round_trip(base)
        concurrent: list[tuple[float, float, int]] = []
        sequential: list[tuple[float, float, int]] = []
        for _ in range(args.runs):
            # Interleave so both modes see the same machine noise.
            concurrent.append(await one_run(base, args.concurrency, args.page_size))
            sequential.append(await one_run(base, 1, args.page_size))
    items = concurrent[0][2]
    c_first = median([r[0] for r in concurrent])
    c_all = median([r[1] for r in concurrent])
    s_all = median([r[1] for r in sequential])
    report(
        f"List {items} instances, {args.latency * 1000:.0f} ms latency, page_size {args.page_size},"
        f" {args.runs} runs (medians)",
        [
            ("round trip (small request)", fmt_ms(rtt)),
            ("concurrent: first page", f"{fmt_ms(c_first)} = {c_first / rtt:.2f} round trips"),
            ("concurrent: all items", f"{fmt_ms(c_all)} = {c_all / rtt:.2f} round trips"),
            ("sequential: all items", f"{fmt_ms(s_all)} = {s_all / rtt:.2f} round trips"),
            ("speed-up (sequential / concurrent)", f"{s_all / c_all:.2f}x"),
        ],
    )
    print(
        "  targets: speed-up >= 5x; first page <= 1.2 round trips; all <= 16 round trips",
        flush=True,
    )


def main() -> None:
    """Parse flags and run."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--scale", type=int, default=10000)
    parser.add_argument("--latency", type=float, default=0.05)
    parser.add_argument("--page-size", type=int, default=500)
    parser.add_argument("--concurrency", type=int, default=8)
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
