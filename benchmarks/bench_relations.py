"""Benchmark 10: the relations index of a 10,000-instance account with 200 domains.

The simulator runs in its own process (``cloudtui sim --state FILE --latency L`` on 127.0.0.1),
seeded here at ``--scale`` with its domains cut to ``--domains``, so what is measured in this
process is the index's own work against a remote API. Each run builds a fresh index with a
fresh client (nothing cached) and records:

- the first build: requests sent and wall time (every listing the index fetches itself: the
  top-level lists, the records of every domain, the balancers' ports and nodes, the pools);
- the first look at one instance: its configs, disks and backups (three requests);
- an instance's relations once cached: the answer a Relations tab shows (median of many);
- keeping the cache: feeding the whole instance listing again unchanged (what the app's list
  refresh hands the index every 30 s);
- the app itself (headless at 120x40, against the same served simulator): the instances list
  loaded (and fed to the index), then the Relations tab of one instance opened the first time
  (the build's requests and wall time as the tab sees them), then, once cached, the tab of a
  detail screen opened again, from showing the tab to its first row of relations drawn
  (median of several; not through the test pilot's pause, which waits
  for the app to be idle, the tab's underline animation included).

Target: an instance's Relations tab on screen within 150 ms once the data is cached; the
headless answer must be a small fraction of that.

Run: .venv/bin/python benchmarks/bench_relations.py [--runs 3] [--scale 10000] [--domains 200]
     [--latency 0.05] [--concurrency 8] [--tab-runs 5]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.common import fmt_ms, median, report, served_simulator

INSTANCE = 51201
"""web-prod-1: DNS records, balancer nodes, a volume, tags (the demo's related instance)."""


def seeded_state(path: Path, scale: int, domains: int) -> dict[str, int]:
    """Seed a demo account at ``scale``, keep its first ``domains`` domains, save it to ``path``.

    Returns:
        Counts of what the account holds.
    """
    from tui.simulator.clock import RealClock
    from tui.simulator.seed import seed_demo
    from tui.simulator.store import Store

    store = Store()
    seed_demo(store, RealClock().now(), scale=scale)
    kept = {str(d["id"]) for d in sorted(store.rows("domains.domains"), key=lambda d: d["id"])}
    kept = set(sorted(kept, key=int)[:domains])
    table = store.table("domains.domains")
    for key in [k for k in table if k not in kept]:
        del table[key]
    records = store.table("domains.records")
    for key in [k for k, r in records.items() if str(r.get("_domain_id")) not in kept]:
        del records[key]
    store.save(path)
    return {
        "instances": len(store.table("compute.instances")),
        "domains": len(table),
        "records": len(records),
        "balancers": len(store.table("loadbalancers.balancers")),
        "volumes": len(store.table("volumes.volumes")),
    }


async def one_run(url: str, args: argparse.Namespace) -> dict[str, Any]:
    """Build an index from nothing and time it and its answers; returns the figures."""
    from pydantic import SecretStr

    from tui.api.client import ApiClient
    from tui.relations import RelationIndex
    from tui.simulator.auth import DEMO_TOKENS

    out: dict[str, Any] = {}
    async with ApiClient(
        url, SecretStr(DEMO_TOKENS["unrestricted"]), allow_insecure=True
    ) as client:
        index = RelationIndex(concurrency=args.concurrency)
        started = time.perf_counter()
        await index.build(client)
        out["build"] = time.perf_counter() - started
        out["build_requests"] = client.request_count
        out["objects"] = len(index.graph)
        ref = index.ref("compute.instances", INSTANCE)
        assert ref is not None, "the demo instance is missing"
        sent = client.request_count
        started = time.perf_counter()
        await index.ensure(client, ref)
        out["ensure"] = time.perf_counter() - started
        out["ensure_requests"] = client.request_count - sent
        times = []
        for _ in range(args.answers):
            started = time.perf_counter()
            answer = index.relations(ref)
            times.append(time.perf_counter() - started)
        out["answer"] = median(times)
        out["rows"] = len(answer.uses) + len(answer.used_by)
        rows = await client.fetch_all("compute.instances.list", model=dict)
        started = time.perf_counter()
        index.feed("compute.instances", rows)
        out["feed"] = time.perf_counter() - started
        out["feed_rows"] = len(rows)
    return out


async def app_run(url: str, args: argparse.Namespace) -> dict[str, Any]:
    """The Relations tab in the app against ``url``: first build, then once cached."""
    from pydantic import SecretStr
    from textual.widgets import TabbedContent

    from screens.details.resource_detail import ResourceDetailScreen
    from screens.lists.list_pane import ResourceListPane
    from screens.relations.tab import RelationsPane, RelationsTable
    from tui.app import CloudApp
    from tui.resources.areas import SPECS
    from tui.session.config import Settings
    from tui.session.runtime import Session
    from tui.simulator.auth import DEMO_TOKENS

    settings = Settings(start_area="instances")
    session = Session.for_profile(settings, "bench", url, SecretStr(DEMO_TOKENS["unrestricted"]))
    app = CloudApp(settings, session)
    out: dict[str, Any] = {}

    async with app.run_test(size=(120, 40)) as pilot:

        async def until(condition: Any) -> None:
            while not condition():
                await pilot.pause()  # a turn of the app's loop

        await until(lambda: bool(app.screen.query(ResourceListPane)))
        listing = app.screen.query(ResourceListPane).first()
        await until(lambda: listing.loaded)
        cache = app.state.relation_cache()
        assert cache is not None
        await until(lambda: len(cache.index.graph) >= len(listing.items))  # fed in turns
        row = listing.items.get(str(INSTANCE)) or listing.items.get(INSTANCE)
        assert row is not None, "the demo instance is missing"

        painted: list[float] = []
        drawn = asyncio.Event()
        draw_row = RelationsTable.render_line

        def render_line(table: RelationsTable, y: int) -> Any:
            # A row of relations drawn (the header is line 0): what the user sees arrive.
            if y >= 1 and table.row_count and not painted:
                painted.append(time.perf_counter())
                drawn.set()
            return draw_row(table, y)

        RelationsTable.render_line = render_line  # type: ignore[method-assign]

        async def tab_of_new_detail() -> float:
            app.open_detail(SPECS["compute.instances"], row, {})
            await until(lambda: isinstance(app.screen, ResourceDetailScreen))
            screen = app.screen
            await pilot.pause()
            pane = screen.query_one(RelationsPane)
            painted.clear()
            drawn.clear()
            started = time.perf_counter()
            screen.query_one("#detail-tabs", TabbedContent).active = "tab-relations"
            # Not the pilot's pause: that waits for the app to be idle (the tab's underline
            # still sliding), which is not when the rows arrive.
            await drawn.wait()
            took = painted[0] - started
            assert pane.loaded
            app.pop_screen()
            await pilot.pause()
            return took

        sent = session.client.request_count
        out["tab_first"] = await tab_of_new_detail()
        out["tab_first_requests"] = session.client.request_count - sent
        out["tab_cached"] = median([await tab_of_new_detail() for _ in range(args.tab_runs)])
    await session.aclose()
    return out


def main(argv: list[str] | None = None) -> None:
    """Parse flags and run."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--scale", type=int, default=10000)
    parser.add_argument("--domains", type=int, default=200)
    parser.add_argument("--latency", type=float, default=0.05)
    parser.add_argument("--concurrency", type=int, default=8, help="listings in flight")
    parser.add_argument("--answers", type=int, default=200, help="cached answers timed per run")
    parser.add_argument("--tab-runs", type=int, default=5, help="cached tabs timed per run")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="cloudtui-bench-") as folder:
        state = Path(folder) / "state.json"
        counts = seeded_state(state, args.scale, args.domains)
        with served_simulator("--state", str(state), "--latency", str(args.latency)) as url:
            runs = [asyncio.run(one_run(url, args)) for _ in range(args.runs)]
            for run in runs:
                run.update(asyncio.run(app_run(url, args)))
    figures = {key: median([run[key] for run in runs]) for key in runs[0]}
    report(
        f"Relations of a {counts['instances']}-instance account, {counts['domains']} domains "
        f"({counts['records']} records), {counts['balancers']} balancers, "
        f"{args.latency * 1000:.0f} ms latency, {args.runs} runs (medians)",
        [
            ("first build: requests", f"{figures['build_requests']:.0f}"),
            ("first build: wall time", fmt_ms(figures["build"])),
            ("objects held", f"{figures['objects']:.0f}"),
            (
                f"first look at an instance ({figures['ensure_requests']:.0f} requests)",
                fmt_ms(figures["ensure"]),
            ),
            (
                f"its relations once cached ({figures['rows']:.0f} rows)",
                f"{figures['answer'] * 1e6:.0f} us",
            ),
            (
                f"feeding {figures['feed_rows']:.0f} unchanged instance rows",
                fmt_ms(figures["feed"]),
            ),
            (
                f"app: Relations tab the first time ({figures['tab_first_requests']:.0f} "
                "requests, the build included)",
                fmt_ms(figures["tab_first"]),
            ),
            ("app: Relations tab on screen once cached", fmt_ms(figures["tab_cached"])),
        ],
    )
    print(
        "  target: an instance's Relations tab on screen <= 150 ms once cached "
        "(the headless answer a small fraction of it)",
        flush=True,
    )


if __name__ == "__main__":
    main()
