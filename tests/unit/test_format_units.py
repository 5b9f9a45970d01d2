"""One size formatter for every size and transfer figure; whole-number axis ticks."""

from __future__ import annotations

import pytest

from tui.resources.areas import SPECS
from tui.resources.format import field_display, format_value, human_size
from tui.resources.stats import axis_ticks


@pytest.mark.parametrize(
    ("value", "unit", "text"),
    [
        (200, "gb", "200 GB"),
        (40, "gb", "40 GB"),  # not "40.0 GB" beside "200 GB"
        (1536, "mb", "1.5 GB"),
        (48211.6, "mb", "47.1 GB"),
        (512, "bytes", "512 B"),
        (1024, "gb", "1 TB"),
        (0, "mb", "0 B"),
        (2_000_000, "bytes", "1.9 MB"),  # binary throughout, as the API counts memory
        (4096, "mb", "4 GB"),
        (4000, "gb", "3.9 TB"),
    ],
)
def test_sizes_read_alike(value: float, unit: str, text: str) -> None:
    assert human_size(value, unit) == text  # type: ignore[arg-type]
    assert format_value(value, unit) == text  # type: ignore[arg-type]


def test_balancer_transfer_has_units() -> None:
    spec = SPECS["loadbalancers"]
    item = {"transfer": {"in": 48211.6, "out": 391877.25, "total": 440088.85}}
    shown = {key: field_display(item, f) for key, f in _fields(spec).items()}
    assert shown["transfer.in"] == "47.1 GB"
    assert shown["transfer.total"] == "430 GB"


def _fields(spec):  # type: ignore[no-untyped-def]
    return {f.key: f for s in spec.sections for f in s.fields}


@pytest.mark.parametrize(
    ("lo", "hi", "ticks"),
    [
        (1, 31, [1, 5, 10, 15, 20, 25, 30]),
        (1, 28, [1, 5, 10, 15, 20, 25]),
        (-24, 0, [-24, -21, -18, -15, -12, -9, -6, -3, 0]),
    ],
)
def test_axis_ticks_are_whole_numbers(lo: int, hi: int, ticks: list[int]) -> None:
    assert axis_ticks(lo, hi) == ticks


def test_a_types_transfer_reads_the_same_in_the_chooser_and_the_detail() -> None:
    from tui.resources.choosers import TYPE_FACTS

    kind = {"id": "std-2", "memory": 4096, "disk": 81920, "transfer": 4000}
    chooser = {c.title: c.cell(kind) for c in TYPE_FACTS.columns}
    detail = {f.key: field_display(kind, f) for f in _fields(SPECS["compute.types"]).values()}
    assert chooser["Transfer"] == detail["transfer"] == "3.9 TB"
    assert chooser["RAM"] == detail["memory"] == "4 GB"
