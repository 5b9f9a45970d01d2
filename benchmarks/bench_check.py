"""The account check's rules over a large account, once its listings are in.

The listings of a demo account of ``--scale`` extra instances (10,000 by default, with its
balancers, domains and records grown alike) are gathered once from the in-process simulator;
then every rule runs over them ``--runs`` times. The figure is the median CPU time of one run
of all the rules (``time.process_time``), what ``cloudtui check`` and the ``:check`` screen
spend after the listings arrive (the goal: at most 1 s for 10,000 instances).

Run: .venv/bin/python benchmarks/bench_check.py [--scale 10000] [--runs 5]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.common import fmt_ms, report
from tui.check.account import Account
from tui.check.certificates import simulator_source
from tui.check.gather import Gathered, gather
from tui.check.rules import RULES
from tui.check.run import evaluate
from tui.simulator import Simulator, VirtualClock


async def _listings(scale: int) -> tuple[Gathered, float]:
    sim = Simulator(clock=VirtualClock(), scale=scale)
    client = sim.client("unrestricted")
    try:
        return await gather(client, RULES, certificates=simulator_source(sim)), sim.clock.now()
    finally:
        await client.aclose()


def main(argv: list[str] | None = None) -> None:
    """Print the median CPU time of running every rule over the gathered listings."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scale", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    began = time.perf_counter()
    gathered, now = asyncio.run(_listings(args.scale))
    gathering = time.perf_counter() - began
    times, found = [], 0
    for _ in range(args.runs):
        # A fresh Account each run: what it derives (owned addresses, prices) is part of the cost.
        account = Account(gathered.listings, now, frozenset({"production"}))
        start = time.process_time()
        result = evaluate(account, RULES, failed=gathered.errors)
        times.append(time.process_time() - start)
        found = len(result.findings)
    sizes = ", ".join(f"{name} {len(items):,}" for name, items in gathered.listings.items())
    report(
        f"check: every rule over a {args.scale:,}-instance demo account",
        [
            ("listings", sizes),
            ("gathering (in-process, wall)", fmt_ms(gathering)),
            ("rules, CPU (median)", fmt_ms(statistics.median(times))),
            ("findings", f"{found:,}"),
        ],
    )


if __name__ == "__main__":
    main()
