"""A narrow terminal's list says how many columns it cuts off, and arrows scroll to them."""

from __future__ import annotations

from typing import Any

from tests.ui.helpers import make_app, open_area, settle
from widgets.column_hint import columns_beyond


def test_columns_beyond_each_edge() -> None:
    widths = [10, 10, 10, 10]  # columns at 2, 13, 24, 35 (one space after each)
    assert columns_beyond(widths, 2, 0, 80) == (0, 0)
    assert columns_beyond(widths, 2, 0, 30) == (0, 2)
    assert columns_beyond(widths, 2, 14, 46) == (2, 0)


def _header(pane: Any) -> str:
    return "".join(s.text for s in pane.table.render_line(0))


async def test_cut_off_columns_are_announced_in_the_header() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        pane = await open_area(pilot, "volumes")
        await pilot.pause()
        header = _header(pane)
        assert header.rstrip().endswith("+2 cols →"), header
        assert "ID" not in header.split()

        for _ in range(40):
            await pilot.press("right")
        await pilot.pause()
        header = _header(pane)
        assert header.lstrip().startswith("← +"), header
        assert "ID" in header.split() and "→" not in header
