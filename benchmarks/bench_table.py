"""The resource table with 10,000 rows: first frame, a refresh's update, cursor, filter, sort.

``widgets.resource_table.ResourceTable`` alone in a headless Textual app at 100x30, 10,000 rows
of 4 columns (what the app's lists show, without the API). For each of ``--runs`` fresh apps:

- first frame: from handing it 10,000 rows until the first frame is painted (wall clock);
- update: one refresh's diff applied (3,334 rows changed, one removed) with the cursor and its
  place on screen kept (wall clock of ``update_rows``), then painted;
- cursor: one ``down`` key until repainted (CPU);
- filter and sort: a filter that keeps 111 rows, and a sort on the ID column (wall clock).

Reference, interleaved run by run: Textual's ``DataTable`` given the same rows (its first frame
measures every cell: about 2 s on these machines); the ratio of the medians is the figure that
survives the machine's load. Targets: first frame < 1.0 s and update < 0.5 s on an idle 2-core
machine (they were test assertions until timing moved here).

Run: .venv/bin/python benchmarks/bench_table.py [--runs 5] [--rows 10000] [--no-reference]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from textual.app import App, ComposeResult
from textual.widgets import DataTable

from benchmarks.common import fmt_ms, median, report
from widgets.resource_table import ResourceTable, TableColumn, TableRow

COLUMNS = [
    TableColumn("Label"),
    TableColumn("Status", 14, status=True),
    TableColumn("Region", 10),
    TableColumn("ID", 8, numeric=True),
]


def row(n: int, status: str = "running") -> TableRow:
    """Row ``n`` as the app's lists build it (cells, sort keys, a haystack for the filter)."""
    cells = (f"web-{n}", f"● {status}", "us-east", str(n))
    return TableRow(
        n, cells, ((1, cells[0]), (1, status), (1, "us-east"), (0, n)), "ok", "\x00".join(cells)
    )


class TableApp(App[None]):
    """The resource table alone."""

    def compose(self) -> ComposeResult:
        yield ResourceTable(COLUMNS)


class DataTableApp(App[None]):
    """Textual's own table, for reference."""

    def compose(self) -> ComposeResult:
        table: DataTable[str] = DataTable()
        table.add_columns(*(c.title for c in COLUMNS))
        yield table


async def measure_table(rows: int) -> dict[str, float]:
    """One fresh app: the figures of the module docstring, in seconds."""
    app = TableApp()
    out: dict[str, float] = {}
    async with app.run_test(size=(100, 30)) as pilot:
        table = app.query_one(ResourceTable)
        table.focus()
        start = time.perf_counter()
        table.append_rows(row(n) for n in range(rows))
        await pilot.pause()
        out["first frame"] = time.perf_counter() - start
        cpu = time.process_time()
        await pilot.press("down")
        out["cursor key (CPU)"] = time.process_time() - cpu
        await pilot.press("pagedown")
        upserts = [row(n, "booting") for n in range(0, rows, 3)]
        start = time.perf_counter()
        table.update_rows([n for n in range(rows) if n != 1], upserts)
        out["update"] = time.perf_counter() - start
        await pilot.pause()
        out["update, painted"] = time.perf_counter() - start
        start = time.perf_counter()
        table.set_filter("web-99")
        out["filter"] = time.perf_counter() - start
        table.set_filter("")
        start = time.perf_counter()
        table.sort_by(3, reverse=True)
        out["sort"] = time.perf_counter() - start
    return out


async def measure_datatable(rows: int) -> float:
    """Seconds from handing ``DataTable`` the same rows until its first frame."""
    app = DataTableApp()
    async with app.run_test(size=(100, 30)) as pilot:
        table: DataTable[str] = app.query_one(DataTable)
        start = time.perf_counter()
        table.add_rows(row(n).cells for n in range(rows))
        await pilot.pause()
        return time.perf_counter() - start


def main(argv: list[str] | None = None) -> None:
    """Print the medians of each figure over ``--runs`` fresh apps."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--rows", type=int, default=10_000)
    parser.add_argument("--no-reference", action="store_true", help="skip DataTable")
    args = parser.parse_args(argv)
    figures: dict[str, list[float]] = {}
    reference: list[float] = []
    for _ in range(args.runs):
        for name, seconds in asyncio.run(measure_table(args.rows)).items():
            figures.setdefault(name, []).append(seconds)
        if not args.no_reference:
            reference.append(asyncio.run(measure_datatable(args.rows)))
    rows: list[tuple[str, Any]] = [(name, fmt_ms(median(v))) for name, v in figures.items()]
    if reference:
        first = median(figures["first frame"])
        rows.append(("DataTable first frame", fmt_ms(median(reference))))
        rows.append(("first frame / DataTable's", f"{first / median(reference):.2f}x"))
    report(f"ResourceTable, {args.rows:,} rows x {len(COLUMNS)}, median of {args.runs}", rows)


if __name__ == "__main__":
    main()
