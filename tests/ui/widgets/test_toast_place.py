"""Notifications never cover the list's cursor row."""

from __future__ import annotations

from textual.widgets._toast import Toast

from tests.ui.helpers import make_app, open_area, settle, wait_until
from widgets.toast_place import toasts_at_top


def test_toasts_go_to_the_top_only_when_they_would_cover_the_focus_at_the_bottom() -> None:
    assert not toasts_at_top(None, 5, 24)
    assert not toasts_at_top(range(3, 4), 5, 24)  # a row near the top: bottom is fine
    assert toasts_at_top(range(20, 21), 5, 24)  # under the bottom stack (rows 18..22)
    assert not toasts_at_top(range(17, 18), 5, 24)  # just above it
    assert not toasts_at_top(range(10, 11), 22, 24)  # covered either way: stays at the bottom


def _toast_rows(app: object) -> set[int]:
    rows: set[int] = set()
    for toast in app.screen.query(Toast):  # type: ignore[attr-defined]
        rows.update(range(toast.region.y, toast.region.bottom))
    return rows


async def test_a_toast_moves_off_the_cursor_row_and_back() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot)
        pane = await open_area(pilot, "instances")
        table = pane.table
        await pilot.press("end")
        await settle(pilot)
        cursor = table.cursor_screen_y
        assert cursor is not None and cursor > 12  # the last rows of a short list

        # A long message (an API error's) makes a toast tall enough to reach the cursor row.
        message = "The request was refused: " + "the instance is busy with another job; " * 4
        app.notify(message, title="Reboot: refused", timeout=60)
        await wait_until(pilot, lambda: bool(_toast_rows(app)))
        await settle(pilot)
        assert cursor not in _toast_rows(app)
        assert min(_toast_rows(app)) < cursor  # moved to the top edge

        await pilot.press("home")
        await settle(pilot)
        top_row = table.cursor_screen_y
        assert top_row is not None and top_row not in _toast_rows(app)
        assert min(_toast_rows(app)) > top_row  # back at the bottom
