"""The render filter: what a widget draws raw (an editor's value) is made visible, never sent."""

from __future__ import annotations

from rich.segment import Segment
from rich.style import Style
from textual.app import App, ComposeResult
from textual.color import Color
from textual.widgets import Input

from tests.ui.terminal_output import RecordingDriver, take, terminal, terminal_problems
from widgets.visible_controls import VisibleControls

__all__ = ["terminal"]

BLACK = Color(0, 0, 0)


def test_a_clean_line_is_passed_on_as_it_is() -> None:
    line = [Segment("web-1 ", Style(bold=True)), Segment("● running 漢字 👩\u200d💻")]
    net = VisibleControls()
    assert net.apply(line, BLACK) is line
    assert net.replaced == 0


def test_control_characters_become_pictures_and_the_line_keeps_its_width() -> None:
    line = [Segment("a\x1b[2Jb", Style(bold=True)), Segment(" \u202ec   ")]
    width = sum(s.cell_length for s in line)
    net = VisibleControls()
    out = net.apply(line, BLACK)
    text = "".join(s.text for s in out)
    assert text.startswith("a␛[2Jb �c")
    assert sum(s.cell_length for s in out) == width  # cut back: pictures take a cell each
    assert out[0].style == Style(bold=True)
    assert net.replaced == 1


class EditorApp(App[None]):
    """An input holding a raw value, as an edit form prefills a hostile label."""

    def compose(self) -> ComposeResult:
        yield Input("web\x1b]52;c;aGk=\x07\x1b[2J-1")

    def get_line_filters(self):  # type: ignore[no-untyped-def]
        return [*super().get_line_filters(), self.net]

    net = VisibleControls()


async def test_an_editor_keeps_its_raw_value_and_the_terminal_gets_only_pictures(
    terminal: list[str],
) -> None:
    app = EditorApp()
    async with app.run_test(size=(60, 5)) as pilot:
        await pilot.pause()
        field = app.query_one(Input)
        assert field.value == "web\x1b]52;c;aGk=\x07\x1b[2J-1"  # sent back unchanged
        frames = take(terminal)
        assert "␛]52" in frames
        assert terminal_problems(frames) == []
        assert app.net.replaced > 0
    assert RecordingDriver.recorded is terminal
