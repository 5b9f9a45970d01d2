"""Run every benchmark one after the other and print their figures.

Each benchmark runs in its own process, so one's memory or imports never colour another's.
The others add up to roughly 10 minutes (the per-script times in benchmarks/README.md);
``faults`` alone takes 10 to 20 minutes on a contended 2-core machine: its faulty run waits out
the simulator's rate limit (120 requests a minute) as a user would. ``--only`` picks some.

Run: .venv/bin/python benchmarks/run_all.py [--only NAME,...]  (names: the keys of BENCHMARKS below)
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent

BENCHMARKS: dict[str, list[str]] = {
    "list": ["bench_list.py", "--runs", "3"],
    "app": ["bench_app.py", "--runs", "3"],
    "startup": ["bench_startup.py", "--runs", "7"],
    "requests": ["bench_requests.py"],
    "memory": ["bench_memory.py", "--cycles", "1000"],
    "faults": ["bench_faults.py", "--ops", "200"],
    "transfer": ["bench_transfer.py", "--runs", "3"],
    "overview": ["bench_overview.py", "--runs", "5"],
    "filter": ["bench_filter.py", "--runs", "7"],
    "relations": ["bench_relations.py", "--runs", "3"],
    "check": ["bench_check.py", "--runs", "5"],
    "table": ["bench_table.py", "--runs", "3"],
    "fanout": ["bench_fanout.py", "--runs", "3"],
}
"""Name -> script and arguments (fewer repeats than each script's default)."""


def load_average() -> str:
    """The 1, 5 and 15 minute load averages: a figure taken under load is not a measurement."""
    return "load average " + ", ".join(f"{load:.2f}" for load in os.getloadavg())


def main(argv: list[str] | None = None) -> int:
    """Run the selected benchmarks; returns the number that failed."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--only", default=",".join(BENCHMARKS))
    args = parser.parse_args(argv)
    failed = 0
    start = time.perf_counter()
    for name in args.only.split(","):
        script, *flags = BENCHMARKS[name]
        if not (HERE / script).exists():
            print(f"  ({name}: {script} is not in this tree)", flush=True)
            continue
        print(f"  ({name}: starts at {load_average()})", flush=True)
        began = time.perf_counter()
        done = subprocess.run([sys.executable, str(HERE / script), *flags], check=False)
        failed += done.returncode != 0
        took = time.perf_counter() - began
        print(f"  ({name}: {took:.0f} s, ends at {load_average()})", flush=True)
    print(f"\nall benchmarks: {time.perf_counter() - start:.0f} s, {failed} failed", flush=True)
    return failed


if __name__ == "__main__":
    sys.exit(main())
