"""Benchmark 4: requests per minute while a 10,000-instance list is on screen.

The app runs headless on the in-process simulator (10,000 extra instances, 50 ms latency) with
its default refresh policy (fast 2.5 s, slow 30 s, budget 30 requests per minute).

1. At rest (nothing transitional), observed over ``--minutes`` simulated minutes. To see several
   refresh intervals quickly, this phase compresses time by ``--speed`` (default 10): the
   simulator's clock runs that much faster and the policy's intervals are divided by it (its
   budget multiplied), so the app makes the same decisions ten times as fast. The rate is
   counted from the start of one full refresh to the start of the last one in the window.
2. One item transitional, in real time: an instance on screen reboots (made to last longer than
   the phase); the requests of ``--busy`` seconds are counted, split into single-item polls and
   full refreshes.
3. The reboot finishes in the simulator; the time until its row shows ``running`` is measured.

Targets: at most 30 requests per minute at rest, whatever the account size; status changes of
visible items still shown within the fast interval (2.5 s).

Run: .venv/bin/python benchmarks/bench_requests.py [--scale 10000] [--speed 10] [--minutes 4]
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


async def wait_until(check: Any, limit: float, step: float = 0.005) -> float:
    """Seconds until ``check()`` is true (raises TimeoutError after ``limit`` seconds)."""
    start = time.perf_counter()
    while not check():
        if time.perf_counter() - start > limit:
            raise TimeoutError("condition not reached")
        await asyncio.sleep(step)
    return time.perf_counter() - start


def set_speed(clock: Any, speed: float) -> None:
    """Change a RealClock's speed from now on, without a jump in its time."""
    now = clock.now()
    clock._origin, clock._mono, clock.speed = now, time.monotonic(), speed


def burst_rate(stamps: list[float], gap: float) -> tuple[float, int]:
    """Requests per second from the first burst's start to the last burst's start, and bursts.

    A burst is a run of requests less than ``gap`` seconds apart (one full refresh).
    """
    starts = [i for i, t in enumerate(stamps) if i == 0 or t - stamps[i - 1] > gap]
    if len(starts) < 2:
        return 0.0, len(starts)
    first, last = starts[0], starts[-1]
    return (last - first) / (stamps[last] - stamps[first]), len(starts)


async def run(args: argparse.Namespace) -> dict[str, Any]:
    """Drive the app through the three phases; returns the figures."""
    from screens.lists.list_pane import ResourceListPane
    from tui.app import CloudApp, freeze_startup_heap
    from tui.refresh import RefreshPolicy
    from tui.session.config import Settings
    from tui.session.runtime import Session
    from tui.simulator.clock import RealClock

    k = args.speed
    settings = Settings(start_area="instances")  # the list, not the overview
    clock = RealClock(speed=k)
    session = Session.for_demo(settings, scale=args.scale, latency=args.latency, clock=clock)
    sim = session.simulator
    assert sim is not None
    client = session.client
    stamps: list[tuple[float, str]] = []
    exchange = client._exchange

    async def counted(method: str, path: str, json: Any, params: Any, headers: Any = None) -> Any:
        stamps.append((time.perf_counter(), path))
        return await exchange(method, path, json, params, headers)

    client._exchange = counted  # type: ignore[method-assign]
    app = CloudApp(settings, session)
    freeze_startup_heap()  # as run_app() does
    out: dict[str, Any] = {}
    async with app.run_test(size=(120, 40)) as pilot:
        pane: Any = None

        def loaded() -> bool:
            nonlocal pane
            found = app.screen.query(ResourceListPane)
            pane = found.first() if found else None
            return pane is not None and pane.loaded and not pane.fetching

        await wait_until(loaded, 120)
        base = RefreshPolicy.from_settings(settings.refresh)
        scaled = RefreshPolicy(
            fast=base.fast / k,
            slow=base.slow / k,
            max_backoff=base.max_backoff / k,
            budget=base.budget * k,
            item_polls=base.item_polls,
        )
        pane.refresher.schedule.policy = scaled
        out["rows"] = pane.table.total_count
        # Let the demo's own transitions (a provisioning instance) finish first.
        pane.refresh_now()
        await wait_until(lambda: not pane.fetching and not pane.changing, 120)
        pane.refresh_now()
        await wait_until(lambda: not pane.fetching, 60)
        out["requests_per_refresh"] = pane._listing_requests()
        out["rest_delay"] = pane.last_delay * k

        # Phase 1: at rest, time compressed.
        first = len(stamps)
        await asyncio.sleep(args.minutes * 60 / k)
        window = [t for t, _path in stamps[first:]]
        rate, bursts = burst_rate(window, gap=scaled.slow / 2)
        out["rest_rate"] = rate * 60 / k
        out["rest_bursts"] = bursts

        # Phase 2: real time; one visible instance reboots, for longer than the phase lasts.
        set_speed(clock, 1.0)
        pane.refresher.schedule.policy = base
        key = pane.table.visible_keys()[3]
        sim.timings["compute.reboot"] = args.busy + 600.0
        await client.call("compute.instances.reboot", {"computeId": key})
        pane.refresh_now()  # what the app does after an action
        await wait_until(lambda: pane.items[key].get("status") == "rebooting", 30)
        await wait_until(lambda: not pane.fetching, 30)
        first = len(stamps)
        await asyncio.sleep(args.busy)
        paths = [path for _t, path in stamps[first:]]
        polls = sum(1 for p in paths if p.rstrip("/").split("/")[-1] == str(key))
        out["poll_rate"] = polls * 60 / args.busy
        out["full_rate"] = out["requests_per_refresh"] * 60 / (out["rest_delay"])
        out["busy_rate"] = out["poll_rate"] + out["full_rate"]
        out["busy_seen"] = len(paths) * 60 / args.busy
        out["fast_delay"] = pane.last_delay

        # Phase 3: the reboot finishes; how long until the row says so?
        for event in sim.store.events:
            event["at"] = min(event["at"], sim.clock.now())
        sim.advance()
        settled = sim.store.get("compute.instances", key)
        assert settled is not None and settled["status"] == "running"
        out["settle_latency"] = await wait_until(
            lambda: "running" in " ".join(pane.table.row(key).cells), 60
        )
        await pilot.pause()
    return out


def main(argv: list[str] | None = None) -> None:
    """Parse flags and run."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scale", type=int, default=10000)
    parser.add_argument("--latency", type=float, default=0.05)
    parser.add_argument("--speed", type=float, default=10.0)
    parser.add_argument("--minutes", type=float, default=4.0, help="simulated minutes at rest")
    parser.add_argument("--busy", type=float, default=20.0, help="seconds with one transitional")
    args = parser.parse_args(argv)
    os.environ.setdefault("CLOUDTUI_CONFIG", "/nonexistent/cloudtui-bench.toml")
    out = asyncio.run(run(args))
    report(
        f"Requests of a {out['rows']}-instance list on screen (per minute)",
        [
            ("requests of one full refresh", str(out["requests_per_refresh"])),
            ("delay between full refreshes at rest", f"{out['rest_delay']:.1f} s"),
            (
                f"at rest (time x{args.speed:g}, {out['rest_bursts']} refreshes)",
                f"{out['rest_rate']:.1f} requests/min",
            ),
            ("one item transitional: delay between polls", f"{out['fast_delay']:.1f} s"),
            ("one item transitional: single-item polls", f"{out['poll_rate']:.1f} requests/min"),
            (
                "one item transitional: polls + full refreshes",
                f"{out['busy_rate']:.1f} requests/min "
                f"(seen in {args.busy:g} s: {out['busy_seen']:.1f}/min)",
            ),
            ("transition finished -> row shows it", fmt_ms(out["settle_latency"])),
        ],
    )
    print(
        "  targets: <= 30 requests/min at rest; a visible status change shown within the "
        "fast interval (2.5 s)",
        flush=True,
    )


if __name__ == "__main__":
    main()
