"""Benchmark 5: memory over 1,000 refresh cycles of the 10,000-instance list.

The app runs headless on the in-process simulator (10,000 extra instances, no latency). After
the first load, the first 10 cycles and every ``--full-every``-th one are real full refreshes
(requests through the API client to the simulator, parsing, diff, table update, repaint); the
others hand the list a new copy of its 10,000 items, 1% of them changed on the server (a
different 1% each time), so the diff, the table update and the repaint run as after a real
refresh without the simulator's cost. The resident set size (RSS, from /proc) is read after
cycle 10 and after the last one.

Target: RSS after 1,000 cycles within 10% of RSS after the first 10.

Run: .venv/bin/python benchmarks/bench_memory.py [--cycles 1000] [--scale 10000]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.common import fmt_ms, report


def rss() -> int:
    """Current resident set size of this process, bytes."""
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


async def run(args: argparse.Namespace) -> dict[str, Any]:
    """Load the list, then run the cycles; returns the figures."""
    from screens.lists.list_pane import ResourceListPane
    from tui.app import CloudApp, freeze_startup_heap
    from tui.session.config import RefreshSettings, Settings
    from tui.session.runtime import Session

    # Long timer intervals: only this benchmark's cycles refresh the list.
    settings = Settings(
        refresh=RefreshSettings(fast=60, slow=3600, max_backoff=3600), start_area="instances"
    )
    session = Session.for_demo(settings, scale=args.scale, latency=0.0)
    app = CloudApp(settings, session)
    freeze_startup_heap()  # as run_app() does
    out: dict[str, Any] = {}
    async with app.run_test(size=(120, 40)) as pilot:
        pane: Any = None
        while pane is None or not pane.loaded or pane.fetching:
            await asyncio.sleep(0.01)
            found = app.screen.query(ResourceListPane)
            pane = found.first() if found else None
        await pilot.pause()
        out["rows"] = pane.table.total_count
        sim = session.simulator
        assert sim is not None
        table = sim.store.table("compute.instances")
        records = [r for r in table.values() if pane.spec.item_key(r) in pane.items]
        assert len(records) == len(pane.items)
        out["trace"] = []
        durations: list[float] = []
        for cycle in range(1, args.cycles + 1):
            start = time.perf_counter()
            if cycle <= 10 or cycle % args.full_every == 0:
                pane.refresh_now()
                await asyncio.sleep(0)
                while pane.fetching:  # noqa: ASYNC110 (waiting is what is measured)
                    await asyncio.sleep(0.002)
            else:
                # 1% of the instances change on the server; the list gets a new copy of every
                # item (new top-level objects, as after decoding), the changes included.
                for n in range(cycle % 100, len(records), 100):
                    running = records[n].get("status") == "running"
                    records[n]["status"] = "offline" if running else "running"
                fresh = [dict(item) for item in pane.items.values()]
                for n in range(cycle % 100, len(records), 100):
                    fresh[n]["status"] = records[n]["status"]
                await pane._apply(fresh)
            await pilot.pause()
            durations.append(time.perf_counter() - start)
            if cycle == 10:
                out["rss_10"] = rss()
            if cycle % (args.cycles // 10 or 1) == 0:
                out["trace"].append(rss())
        out["rss_end"] = rss()
        out["cycle"] = sorted(durations)[len(durations) // 2]
    return out


def main(argv: list[str] | None = None) -> None:
    """Parse flags and run."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cycles", type=int, default=1000)
    parser.add_argument("--scale", type=int, default=10000)
    parser.add_argument("--full-every", type=int, default=100)
    args = parser.parse_args(argv)
    os.environ.setdefault("CLOUDTUI_CONFIG", "/nonexistent/cloudtui-bench.toml")
    out = asyncio.run(run(args))
    growth = out["rss_end"] / out["rss_10"] - 1
    report(
        f"Memory of a {out['rows']}-instance list over {args.cycles} refresh cycles "
        f"(every {args.full_every}th through the API)",
        [
            ("RSS after 10 cycles", f"{out['rss_10'] / 2**20:.1f} MB"),
            (f"RSS after {args.cycles} cycles", f"{out['rss_end'] / 2**20:.1f} MB"),
            ("growth", f"{growth * 100:+.1f}%"),
            ("RSS every tenth of the run, MB", " ".join(f"{v / 2**20:.0f}" for v in out["trace"])),
            ("median cycle", fmt_ms(out["cycle"])),
        ],
    )
    print("  target: growth within 10%", flush=True)


if __name__ == "__main__":
    main()
