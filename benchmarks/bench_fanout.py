"""Benchmark 13: ``:fanout instances`` over five accounts of 10,000 instances each.

Five replay servers (``benchmarks/replay_server.py``: the simulator's own pages, encoded before
they listen, answered after a fixed latency with every connection served at once, one server
per account, each in its own process on 127.0.0.1) stand for five accounts' APIs, so all the
CPU measured is the app's. The app starts on a sixth, small account (its start area lists
a dozen instances), then runs ``:fanout instances acct1 ... acct5``; the reference is the
same command with one account (``:fanout instances acct1``), in a fresh process as well, run
by run interleaved. Every run reports, from the command:

- all rows on screen: the fanout table holds every account's rows;
- each account's arrival (its rows joined the table): with the accounts sharing one bound on
  pages in flight, none may finish far behind the others (no starvation);
- peak memory: the process's peak RSS less its RSS just before the command;
- the longest event-loop block while the rows arrive (UI thread CPU).

Targets: all rows <= 1.5x one account alone; peak memory <= 3x one account's; every
account arrives.

Run: .venv/bin/python benchmarks/bench_fanout.py [--runs 3] [--scale 10000] [--accounts 5]
[--latency 0.05]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.common import ROOT, fmt_ms, median, report, served_replay, user_env

HOME = "home"
"""The profile the app starts on (a small account, never part of the fanout)."""


def _rss() -> int:
    """This process's resident set now, in bytes (Linux ``/proc``)."""
    import os

    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def child(urls: list[str], home_url: str, expected: int) -> dict[str, Any]:
    """One measured app run in this process: ``:fanout instances`` over ``urls``."""
    import asyncio
    import resource

    from screens.accounts.fanout import FanoutPane, FanoutScreen
    from tui.accounts.switch import open_account
    from tui.app import CloudApp, freeze_startup_heap
    from tui.session.config import Profile, Settings

    names = [f"acct{n + 1}" for n in range(len(urls))]
    profiles = {name: Profile(base_url=url) for name, url in zip(names, urls, strict=True)}
    profiles[HOME] = Profile(base_url=home_url)
    settings = Settings(profiles=profiles, default_profile=HOME, start_area="instances")
    app = CloudApp(settings, open_account(settings, HOME), profile_name=HOME)
    freeze_startup_heap()
    arrived: dict[str, float] = {}
    original = FanoutPane._arrived
    began = {"t": 0.0}

    async def on_arrived(self: FanoutPane, listing: Any) -> None:
        await original(self, listing)
        arrived[listing.account] = time.perf_counter() - began["t"]

    FanoutPane._arrived = on_arrived  # type: ignore[method-assign]
    out: dict[str, Any] = {}

    async def drive() -> None:
        gaps: list[float] = []
        stop = False

        async def monitor() -> None:
            last = time.thread_time()
            while not stop:
                await asyncio.sleep(0.001)
                now = time.thread_time()
                gaps.append(now - last)
                last = now

        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            deadline = time.perf_counter() + 30
            while time.perf_counter() < deadline:  # until the start area's small list shows
                tables = app.screen.query("ResourceTable")
                if tables and tables.first().row_count:
                    break
                await asyncio.sleep(0.01)
            await pilot.pause()
            before = _rss()
            watcher = asyncio.ensure_future(monitor())
            began["t"] = time.perf_counter()
            app.run_command(f"fanout instances {' '.join(names)}")
            pane = None
            while pane is None or pane.table.row_count < expected:
                if pane is None and isinstance(app.screen, FanoutScreen):
                    pane = next(iter(app.screen.query(FanoutPane)), None)
                await asyncio.sleep(0.002)
            out["all_rows"] = time.perf_counter() - began["t"]
            stop = True
            await watcher
            out["rows"] = pane.table.row_count
            out["arrived"] = arrived
            out["block_cpu"] = max(gaps) if gaps else 0.0
            peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
            out["peak_growth"] = peak - before

    asyncio.run(drive())
    return out


def _run(urls: list[str], home: str, expected: int) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, __file__, "--child", json.dumps([urls, home, expected])],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=user_env(
            CLOUDTUI_CONFIG="/nonexistent/cloudtui-bench.toml",
            CLOUDTUI_DATA="/tmp/cloudtui-bench-data",
            CLOUDTUI_TOKEN="bench-token",
        ),
        check=False,
    )
    if done.returncode != 0:
        sys.stderr.write(done.stderr[-4000:])
        raise SystemExit(f"benchmark child failed ({done.returncode})")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    """Parse flags; as the parent, serve the accounts and spawn one app process per run."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--scale", type=int, default=10000, help="extra instances per account")
    parser.add_argument("--accounts", type=int, default=5)
    parser.add_argument("--latency", type=float, default=0.05)
    parser.add_argument("--child", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child is not None:
        urls, home, expected = json.loads(args.child)
        print(json.dumps(child(urls, home, expected)), flush=True)
        return
    latency = str(args.latency)
    with contextlib.ExitStack() as servers:
        urls = [
            servers.enter_context(served_replay("--scale", str(args.scale), "--latency", latency))
            for _ in range(args.accounts)
        ]
        home = servers.enter_context(served_replay("--scale", "0", "--latency", latency))
        per_account = args.scale + 12  # the simulator's own demo instances come along
        one: list[dict[str, Any]] = []
        many: list[dict[str, Any]] = []
        for _ in range(args.runs):
            one.append(_run(urls[:1], home, per_account))
            many.append(_run(urls, home, per_account * args.accounts))

    def med(runs: list[dict[str, Any]], key: str) -> float:
        return median([r[key] for r in runs])

    last = [max(r["arrived"].values()) for r in many]
    first = [min(r["arrived"].values()) for r in many]
    names = sorted(many[0]["arrived"])
    arrivals = " / ".join(fmt_ms(median([r["arrived"][n] for r in many])) for n in names)
    mb = 1024 * 1024
    report(
        f":fanout instances, {args.accounts} accounts of {per_account:,} instances "
        f"({args.latency * 1000:.0f} ms, replay servers), headless 120x40, "
        f"{args.runs} runs each (medians)",
        [
            ("one account: all rows on screen", fmt_ms(med(one, "all_rows"))),
            (f"{args.accounts} accounts: all rows on screen", fmt_ms(med(many, "all_rows"))),
            ("  ratio (target <= 1.5x)", f"{med(many, 'all_rows') / med(one, 'all_rows'):.2f}x"),
            ("each account's arrival (median per account)", arrivals),
            (
                "  last arrival - first arrival (starvation)",
                fmt_ms(median([b - a for a, b in zip(first, last, strict=True)])),
            ),
            ("one account: peak memory growth", f"{med(one, 'peak_growth') / mb:.1f} MB"),
            (
                f"{args.accounts} accounts: peak memory growth",
                f"{med(many, 'peak_growth') / mb:.1f} MB",
            ),
            (
                "  ratio (target <= 3x)",
                f"{med(many, 'peak_growth') / max(med(one, 'peak_growth'), 1):.2f}x",
            ),
            ("longest event-loop block, one account (UI CPU)", fmt_ms(med(one, "block_cpu"))),
            (f"longest event-loop block, {args.accounts} accounts", fmt_ms(med(many, "block_cpu"))),
        ],
    )


if __name__ == "__main__":
    main()
