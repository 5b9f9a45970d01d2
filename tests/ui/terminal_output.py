"""What a headless app writes to the terminal, and the two invariants hostile text must not break.

A headless app writes nothing; :class:`RecordingDriver` is Textual's headless driver that says it
is not headless, so every screen update is rendered to terminal bytes exactly as on a real
terminal, and kept. :func:`terminal_problems` reads those bytes: the only control sequences a
frame may hold are the ones Textual itself writes (colours, cursor moves, synchronised output,
the pointer shape); a control character anywhere else came from data.

The second invariant: no table row and no title takes more than its one line.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from rich.segment import Segment
from textual.color import Color
from textual.drivers import headless_driver
from textual.filter import LineFilter
from textual.widget import Widget
from textual.widgets import DataTable, Input, TextArea

TEXTUAL_SEQUENCES = re.compile(
    r"\x1b\[[0-9;]*[mHJK]"  # colours and styles, cursor position, Textual's own clears
    r"|\x1b\[\?[0-9;]+[hl]"  # modes: synchronised output, cursor visibility
    r"|\x1b\]22;[a-z-]*\x07"  # the mouse pointer's shape (Kitty's protocol)
    r"|\n"  # between the lines of a frame
)
"""Control sequences a frame holds that Textual writes itself."""

FORBIDDEN = re.compile(
    "[\x00-\x1f\x7f-\x9f\u061c\u200b\u200e\u200f\u202a-\u202e\u2060-\u2069\ufeff]"
)
"""A control character, a bidirectional control or an invisible format character."""


class RecordingDriver(headless_driver.HeadlessDriver):
    """Headless, but renders and keeps every update (see the module)."""

    recorded: list[str] = []

    @property
    def is_headless(self) -> bool:
        return False

    def write(self, data: str) -> None:
        if data != "\x07":  # the app's own bell (a refused key), not data
            RecordingDriver.recorded.append(data)


class Witness(LineFilter):
    """Notes each line a widget draws with a control character in it, before the render
    filter makes it visible: which widgets leaned on that last line of defence."""

    seen: list[tuple[str, str]] = []

    def __init__(self, widget: Widget) -> None:
        super().__init__()
        self.widget = widget

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        for segment in segments:
            if not segment.control and FORBIDDEN.search(segment.text):
                editor = isinstance(self.widget, Input | TextArea)
                Witness.seen.append(("editor" if editor else repr(self.widget), segment.text))
        return segments


@pytest.fixture
def terminal(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Apps started in the test write their frames to the list this yields, and
    :class:`Witness` notes the widgets that drew a raw control character."""
    RecordingDriver.recorded = []
    Witness.seen = []
    monkeypatch.setattr(headless_driver, "HeadlessDriver", RecordingDriver)
    app_filters = Widget.get_line_filters

    def witnessed(widget: Widget) -> list[LineFilter]:
        return [Witness(widget), *app_filters(widget)]

    monkeypatch.setattr(Widget, "get_line_filters", witnessed)
    yield RecordingDriver.recorded


def terminal_problems(frames: str) -> list[str]:
    """Each control character in ``frames`` that Textual did not write, with its context."""
    problems: list[str] = []
    cleaned = TEXTUAL_SEQUENCES.sub("", frames)
    for match in FORBIDDEN.finditer(cleaned):
        start = max(0, match.start() - 30)
        problems.append(repr(cleaned[start : match.end() + 30]))
    return problems


def take(recorded: list[str]) -> str:
    """Everything written since the last call."""
    frames = "".join(recorded)
    recorded.clear()
    return frames


def _is_title(widget: Widget) -> bool:
    names = {widget.id or "", *widget.classes}
    return any(name == "title" or name.endswith("-title") for name in names)


def broken_lines(screen: Any) -> list[str]:
    """Titles that take more than one line, and table rows taller than one line."""
    problems: list[str] = []
    for widget in screen.query("*"):
        if not widget.display or not widget.size.height:
            continue
        if _is_title(widget) and widget.size.height > 1:
            problems.append(f"{widget!r} is {widget.size.height} lines high")
        if isinstance(widget, DataTable):
            tall = [key for key, row in widget.rows.items() if row.height != 1]
            if tall:
                problems.append(f"{widget!r} has {len(tall)} rows of more than one line")
    return problems


def assert_clean(app: Any, recorded: list[str], where: str) -> None:
    """The invariants after ``where``: nothing raw was written, and no line broke.

    The render filter (:mod:`widgets.visible_controls`) may only have had to act in widgets
    that edit a raw value: anywhere else, the text boundary held before it.
    """
    frames = take(recorded)
    problems = terminal_problems(frames)
    assert not problems, f"{where}: control characters reached the terminal: {problems[:3]}"
    raw = [(who, text) for who, text in Witness.seen if who != "editor"]
    Witness.seen.clear()
    assert not raw, f"{where}: drawn without passing the text boundary: {raw[:3]}"
    lines = broken_lines(app.screen)
    assert not lines, f"{where}: {lines[:3]}"
