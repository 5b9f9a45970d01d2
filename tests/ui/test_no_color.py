"""NO_COLOR: no colour codes at all (only reverse, bold, dim, underline, italic); the cursor row
stays visible and reads as one bar, its status cell included."""

from __future__ import annotations

from typing import Any

import pytest
from rich.segment import Segment

from tests.ui.helpers import make_app, open_area, settle


def _colours(segments: list[Segment]) -> set[str]:
    found: set[str] = set()
    for segment in segments:
        style = segment.style
        if style is None:
            continue
        for colour in (style.color, style.bgcolor):
            if colour is not None and not colour.is_default:
                found.add(colour.name)
    return found


def _cursor_line(pane: Any) -> list[Segment]:
    table = pane.table
    return list(table.render_line(table.cursor_row - table.scroll_offset.y + 1))


async def test_no_color_renders_without_any_colour(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        pane = await open_area(pilot, "volumes")
        await pilot.pause()
        segments = [s for strip in app.screen._compositor.render_strips() for s in strip]
        assert _colours(segments) == set()
        # Without colour the cursor must show another way: reverse video.
        assert any(s.style and s.style.reverse for s in _cursor_line(pane) if s.text.strip())


async def test_the_cursor_rows_status_cell_shares_the_rows_background() -> None:
    app = make_app()
    async with app.run_test(size=(120, 30)) as pilot:
        await settle(pilot)
        pane = await open_area(pilot, "volumes")
        await pilot.pause()
        backgrounds = {s.style.bgcolor for s in _cursor_line(pane) if s.style and s.text.strip()}
        assert len(backgrounds) == 1, backgrounds


async def test_an_open_dropdowns_highlighted_option_is_underlined(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Option lists draw through visual styles, which drop reverse video: without colour the
    # highlighted option must still differ from the others by shape.
    from textual.widgets import Select

    from tests.ui.helpers import open_form

    monkeypatch.setenv("NO_COLOR", "1")
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        form = await open_form(pilot, "loadbalancers")
        protocol = form.model_form.widget_for("configs.0.protocol")
        assert isinstance(protocol, Select)
        protocol.focus()
        await pilot.press("enter")
        await pilot.pause()
        overlay = protocol.query_one("SelectOverlay")
        rows = range(overlay.option_count)
        underlined = {
            y
            for y in rows
            if any(s.style and s.style.underline for s in overlay.render_line(y) if s.text.strip())
        }
        assert underlined == {overlay.highlighted - overlay.scroll_offset.y}
        # And it starts with the cursor's marker, a shape that no terminal strips.
        marked = {
            y for y in rows if "".join(s.text for s in overlay.render_line(y)).startswith("❯")
        }
        assert marked == underlined
        await pilot.press("escape", "escape")


async def test_an_unavailable_footer_key_is_struck_through(monkeypatch: pytest.MonkeyPatch) -> None:
    # A greyed key is dimmed, and dim is a colour blend that NO_COLOR strips.
    from textual.widgets._footer import FooterKey

    from tests.ui.helpers import wait_until

    monkeypatch.setenv("NO_COLOR", "1")
    app = make_app()
    async with app.run_test(size=(120, 30)) as pilot:
        await settle(pilot)
        pane = await open_area(pilot, "volumes")
        attached = next(k for k, item in pane.items.items() if item.get("compute_id"))
        pane.table.move_cursor(attached)
        await settle(pilot)

        def keys() -> dict[str, Any]:
            return {k.description: k for k in app.screen.query(FooterKey)}

        await wait_until(
            pilot, lambda: "Attach" in keys() and keys()["Attach"].has_class("-disabled")
        )
        assert keys()["Attach"].rich_style.strike
        assert not keys()["Edit"].rich_style.strike
