"""Ticked and unticked boxes differ by shape, not colour only (read under NO_COLOR)."""

from __future__ import annotations

from typing import Any

from textual.app import App, ComposeResult

from tui.resources.forms import FormField
from widgets.form_inputs import inputs_for
from widgets.switches import Tick, TickList, YesNo


class _Boxes(App[None]):
    def compose(self) -> ComposeResult:
        field = FormField("ports", "Ports", "multi", choices=(("http", "80"), ("https", "443")))
        yield from inputs_for(field, "ports", ["443"])
        yield Tick("replace", False, id="off")
        yield Tick("replace", True, id="on")
        yield YesNo(False, id="no")


def _line(widget: Any, y: int = 0) -> str:
    return "".join(segment.text for segment in widget.render_line(y))


async def test_a_many_of_field_draws_its_mark_only_in_chosen_boxes() -> None:
    app = _Boxes()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        ticks = app.query_one("#ports", TickList)
        ticks.highlighted = 0
        await pilot.pause()
        # The highlighted option is marked by a shape too (its colour is gone under NO_COLOR).
        assert _line(ticks, 0).startswith("❯ ▐ ▌ http")
        assert _line(ticks, 1).startswith("  ▐X▌ https")
        await pilot.press("space")  # the focused list ticks the highlighted option
        assert "80" in ticks.selected
        assert _line(ticks, 0).startswith("❯ ▐X▌ http")
        await pilot.press("down")
        assert _line(ticks, 0).startswith("  ▐X▌ http")
        assert _line(ticks, 1).startswith("❯ ▐X▌ https")


async def test_check_boxes_and_switches_draw_their_mark_only_when_on() -> None:
    app = _Boxes()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.query_one("#off", Tick).BUTTON_INNER == " "
        assert app.query_one("#on", Tick).BUTTON_INNER == "X"
        assert app.query_one("#no", YesNo).BUTTON_INNER == " "
