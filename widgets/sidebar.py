"""The sidebar: every area, grouped; enter or a click switches to that area's mode."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.binding import Binding
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from tui.resources.spec import Area


class Sidebar(OptionList):
    """Areas grouped under headings; the current area is highlighted.

    Bindings are OptionList's (up/down, enter); ``j``/``k`` move too.
    """

    BINDINGS = [
        Binding("j", "cursor_down", "Down", show=False),
        Binding("k", "cursor_up", "Up", show=False),
    ]

    DEFAULT_CSS = """
    Sidebar {
        width: 22;
        height: 1fr;
        border: none;
        border-right: vkey $panel-lighten-2;
        background: $surface;
        padding: 0;
    }
    Sidebar:focus { border: none; border-right: vkey $primary; }
    """

    class AreaChosen(Message):
        """The user chose an area."""

        def __init__(self, area_id: str) -> None:
            self.area_id = area_id
            super().__init__()

    def __init__(
        self, areas: Sequence[Area], current: str | None = None, *, id: str | None = None
    ) -> None:
        options: list[Option | None] = []
        group = None
        for area in areas:
            if area.group and area.group != group:
                group = area.group
                options.append(Option(Text(group.upper(), style="bold dim"), disabled=True))
            # The current area is marked by a shape too, so it shows without colour.
            marker = "▸" if area.id == current else " "
            options.append(Option(Text(f"{marker}{area.title}"), id=area.id))
        super().__init__(*options, id=id)
        self._current = current

    def on_mount(self) -> None:
        if self._current:
            self.highlight_area(self._current)

    def highlight_area(self, area_id: str) -> None:
        """Move the highlight to ``area_id``."""
        try:
            self.highlighted = self.get_option_index(area_id)
        except Exception:  # an unknown id leaves the highlight where it is
            return

    def _on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id:
            self.post_message(self.AreaChosen(event.option.id))
