"""docs/simulator.md tells what the code does: its tables of timings, filterable fields,
tokens and operations per area are checked against the data they describe."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from tui.api.endpoints import REGISTRY
from tui.simulator import DEMO_TOKENS
from tui.simulator.app import DEFAULT_TIMINGS
from tui.simulator.filterable import FILTERABLE

DOC = Path(__file__).parents[2] / "docs" / "simulator.md"
TEXT = DOC.read_text(encoding="utf-8")


def rows(after: str) -> list[list[str]]:
    """The body rows of the first table after the line containing ``after``."""
    lines = TEXT[TEXT.index(after) :].splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("|"))
    table = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        table.append([cell.strip() for cell in line.strip("|").split("|")])
    return table


def test_the_timings_table_is_default_timings() -> None:
    table = {row[0].strip("`"): float(row[1]) for row in rows("takes clock seconds")}
    assert table == DEFAULT_TIMINGS


def test_the_filtering_table_is_the_filterable_table() -> None:
    documented: dict[str, frozenset[str]] = {}
    for listing, fields in rows("marks *filterable* for it"):
        paths = re.findall(r"`GET ([^`]+)`", listing)
        names = frozenset(re.findall(r"`([a-z_0-9]+)`", fields))
        for path in paths:
            documented[path] = names
    expected = {REGISTRY[name].path: fields for name, fields in FILTERABLE.items()}
    engines = {p for p in expected if p.startswith("/databases/") and p.endswith("/instances")}
    for path in engines - {"/databases/instances"}:
        assert expected.pop(path) == documented["/databases/{engine}/instances"]
    documented.pop("/databases/{engine}/instances")
    assert documented == expected


def test_the_tokens_are_the_demo_tokens() -> None:
    documented = {row[0].strip("`") for row in rows("## Demo users and tokens")}
    assert documented == set(DEMO_TOKENS.values())


def test_the_operations_per_area_add_up_to_the_registry() -> None:
    counts = [int(row[1]) for row in rows("## What it implements")]
    assert sorted(counts) == sorted(Counter(e.area for e in REGISTRY.values()).values())
    assert sum(counts) == len(REGISTRY) == 188
    assert f"All {len(REGISTRY)} operations" in TEXT
