"""The ``/`` filter language on 10,000 rows: a query's cost against the plain substring filter.

Each figure is the median of ``--runs`` re-filters of the same headless row view (what the list
does on each keystroke). The ratio to the plain substring path is the number to compare across
machines: absolute times move with load.

Run: .venv/bin/python benchmarks/bench_filter.py [--rows 10000] [--runs 7]
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

from tui.resources.areas import SPECS
from tui.resources.filter_query import compile_query, parse
from tui.resources.rows import RowView, table_row

QUERIES = ("#production", "status:running", "#production status:running web-1", "!region:us-east")


def _items(count: int) -> dict[str, dict[str, Any]]:
    return {
        str(i): {
            "id": i,
            "label": f"web-{i}",
            "status": "running" if i % 3 else "offline",
            "region": "us-east" if i % 4 else "eu-west",
            "type": "g6-standard-2",
            "tags": ["production", "web"] if i % 2 else ["staging"],
            "ipv4": [f"10.0.{i // 256}.{i % 256}"],
            "specs": {"memory": 4096},
        }
        for i in range(count)
    }


def main(argv: list[str] | None = None) -> None:
    """Print the median re-filter time of each query and its ratio to the substring path."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args(argv)
    spec = SPECS["compute.instances"]
    items = _items(args.rows)
    view = RowView()
    view.append(table_row(spec, item) for item in items.values())

    def timed(apply: Any) -> float:
        times = []
        for _ in range(args.runs):
            view.set_filter("")
            view.set_predicate(None)
            start = time.perf_counter()
            apply()
            times.append(time.perf_counter() - start)
        return statistics.median(times)

    base = timed(lambda: view.set_filter("web-1"))
    print(f"{args.rows:,} rows, median of {args.runs}")
    print(f"  plain substring 'web-1': {base * 1000:7.1f} ms  (1.0x)")
    for text in QUERIES:
        matcher = compile_query(parse(text), spec)
        cost = timed(
            lambda m=matcher: view.set_predicate(lambda r: m(items[r.key], r.cells, r.haystack))
        )
        shown = len(view.view)
        print(f"  {text!r}: {cost * 1000:7.1f} ms  ({cost / base:.1f}x), {shown:,} shown")


if __name__ == "__main__":
    main()
