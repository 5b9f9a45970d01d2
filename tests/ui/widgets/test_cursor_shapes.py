"""Where the cursor is, and what a narrow terminal hides, told by shape: a chooser's cursor row
and a pick list's highlighted option start with ``❯``, a chooser names its hidden columns and
←/→ bring them into view, and a row marked refused cannot be picked (it says why)."""

from __future__ import annotations

from typing import Any

from textual.app import App
from textual.widgets import Input

from screens.dialogs.pick_one import PickOneModal
from tui.resources.choosers import ChooserRow, ChooserTable
from tui.untrusted import shown
from widgets.chooser_grid import ChooserGrid
from widgets.chooser_modal import ChooserModal
from widgets.textual_private import MarkedOptionList


def _text(strip: Any) -> str:
    return "".join(segment.text for segment in strip)


def _table(columns: int, rows: int = 3, refused: int | None = None) -> ChooserTable:
    titles = tuple(f"Column{c}" for c in range(columns))
    out = []
    for r in range(rows):
        cells = tuple(f"r{r}c{c}-{'x' * 12}" for c in range(columns))
        why = shown("too small for the instance's disks") if r == refused else shown("")
        out.append(ChooserRow(f"v{r}", f"row {r}", cells, "", " ".join(cells), why))
    return ChooserTable(titles, (False,) * columns, tuple(out))


class _Host(App[None]):
    def __init__(self, table: ChooserTable) -> None:
        super().__init__()
        self.table = table
        self.picked: list[Any] = []

    def on_mount(self) -> None:
        self.push_screen(ChooserModal("Type", self.table), self.picked.append)


def _grid(app: App[Any]) -> ChooserGrid:
    return app.screen.query_one(ChooserGrid)


def _rows(grid: ChooserGrid) -> list[str]:
    return [_text(grid.render_line(y)) for y in range(1, grid.row_count + 1)]


async def test_the_chooser_marks_the_row_enter_picks() -> None:
    app = _Host(_table(2))
    async with app.run_test(size=(100, 24)) as pilot:
        await pilot.pause()
        grid = _grid(app)
        assert [row.startswith("❯") for row in _rows(grid)] == [True, False, False]
        await pilot.press("down")
        assert [row.startswith("❯") for row in _rows(grid)] == [False, True, False]
        await pilot.press("enter")
        await pilot.pause()
        assert app.picked == ["v1"]


async def test_a_narrow_chooser_names_its_hidden_columns_and_the_arrows_scroll_them() -> None:
    app = _Host(_table(6))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        grid = _grid(app)
        left, right = grid.hidden_columns()
        assert (left, right) != (0, 0) and left == 0
        header = _text(grid.render_line(0)).rstrip()
        assert header.endswith(f"+{right} cols →"), header
        hint = str(app.screen.query_one("#chooser-hint").render())
        assert "←→ columns" in hint
        for _ in range(6):
            await pilot.press("right")
        await pilot.pause()
        assert grid.scroll_x > 0
        assert grid.hidden_columns()[1] == 0
        assert "Column5" in _text(grid.render_line(0))
        assert _text(grid.render_line(0)).lstrip().startswith("←")
        for _ in range(6):
            await pilot.press("left")
        await pilot.pause()
        assert grid.scroll_x == 0
        # The arrows move in the filter's text again once the table cannot go further.
        await pilot.press("a", "b", "left")
        assert app.screen.query_one(Input).cursor_position == 1


async def test_a_row_marked_refused_cannot_be_picked_and_says_why() -> None:
    app = _Host(_table(2, refused=0))
    async with app.run_test(size=(100, 24)) as pilot:
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert app.picked == []
        assert isinstance(app.screen, ChooserModal)
        messages = [str(n.message) for n in app._notifications]
        assert any("too small for the instance's disks" in m for m in messages), messages
        await pilot.press("down", "enter")
        await pilot.pause()
        assert app.picked == ["v1"]


class _Picker(App[None]):
    def on_mount(self) -> None:
        options = [("alpha", "alpha"), ("beta  (in use)", "beta"), ("gamma", "gamma")]
        self.push_screen(PickOneModal("Switch to which account?", options, "", "beta"))


async def test_a_pick_list_marks_its_highlighted_option() -> None:
    app = _Picker()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        options = app.screen.query_one(MarkedOptionList)
        lines = [_text(options.render_line(y)).strip() for y in range(3)]
        assert lines == ["alpha", "❯ beta  (in use)", "gamma"]
        await pilot.press("down")
        assert _text(options.render_line(2)).strip() == "❯ gamma"
