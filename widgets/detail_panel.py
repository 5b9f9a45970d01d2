"""Sections of fields of one resource, formatted by kind; values are rendered literally."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widget import Widget
from textual.widgets import Static

from tui.resources.format import MISSING, field_display
from tui.resources.spec import Section

EMPTY = MISSING


def section_table(
    section: Section,
    item: Mapping[str, Any],
    transitional: frozenset[str],
    *,
    reveal: bool = False,
) -> Table | Group:
    """A two-column grid (title, value) of one section; API values as display text.

    ``block`` fields (scripts, zone files) follow the grid as preformatted text, line by line;
    a line wider than the panel wraps (folding inside long tokens) instead of being cut.
    Secrets are masked unless ``reveal`` (the user asked to see them).
    """
    grid = Table.grid(padding=(0, 2), expand=False)
    grid.add_column(style="bold", no_wrap=True, min_width=12)
    grid.add_column(overflow="fold")
    blocks: list[RenderableType] = []
    for spec in section.fields:
        shown = field_display(item, spec, transitional, reveal=reveal)
        if spec.kind == "block":
            if len(section.fields) > 1:
                blocks.append(Text(spec.title, style="bold"))
            # Folded, never cut: a long zone line (a DKIM key) must stay readable in full.
            blocks.append(Text(shown or EMPTY, overflow="fold"))
        else:
            grid.add_row(Text(spec.title), Text(shown or EMPTY))
    if not blocks:
        return grid
    return Group(grid, *blocks) if grid.row_count else Group(*blocks)


class DetailPanel(VerticalScroll, can_focus=True):
    """Titled sections of fields; call :meth:`show` with a fresh item to update in place."""

    DEFAULT_CSS = """
    DetailPanel { height: 1fr; padding: 0 1; }
    DetailPanel > .detail-section-title { color: $text-primary; text-style: bold; margin-top: 1; }
    DetailPanel > .detail-section { height: auto; }
    """

    BINDINGS = [
        Binding("j", "scroll_down", "Down", show=False),
        Binding("k", "scroll_up", "Up", show=False),
    ]

    def __init__(
        self,
        sections: Sequence[Section],
        item: Mapping[str, Any] | None = None,
        *,
        transitional: frozenset[str] = frozenset(),
        after: Sequence[Widget] = (),
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(id=id, classes=classes)
        self._sections: tuple[Section, ...] = tuple(sections)
        self._item: Mapping[str, Any] = item or {}
        self._transitional = transitional
        self._after = tuple(after)
        """Widgets shown below the sections, scrolling with them (the detail's actions)."""
        self.revealed = False
        """Secrets are shown in clear (the user asked; hidden again when they leave)."""

    def compose(self) -> ComposeResult:
        for index, section in enumerate(self._sections):
            yield Static(Text(section.title), classes="detail-section-title")
            yield Static(
                section_table(section, self._item, self._transitional, reveal=self.revealed),
                classes="detail-section",
                id=f"section-{index}",
            )
        yield from self._after

    @property
    def item(self) -> Mapping[str, Any]:
        """The item shown."""
        return self._item

    def show(self, item: Mapping[str, Any]) -> None:
        """Show a fresh copy of the item (sections keep their scroll position)."""
        if item == self._item:
            return
        self._item = item
        self._redraw()

    def set_revealed(self, revealed: bool) -> None:
        """Show secrets in clear (True) or masked again (False)."""
        if revealed != self.revealed:
            self.revealed = revealed
            self._redraw()

    def _redraw(self) -> None:
        if not self.is_mounted:
            return
        for index, section in enumerate(self._sections):
            self.query_one(f"#section-{index}", Static).update(
                section_table(section, self._item, self._transitional, reveal=self.revealed)
            )

    def text(self) -> str:
        """Plain text of every section (tests and copy)."""
        lines: list[str] = []
        for section in self._sections:
            lines.append(section.title)
            for spec in section.fields:
                shown = field_display(self._item, spec, self._transitional, reveal=self.revealed)
                lines.append(f"  {spec.title}: {shown or EMPTY}")
        return "\n".join(lines)
