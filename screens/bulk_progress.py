"""Live progress of a bulk action: one line per item, then the summary (done, failed, skipped).

Bindings:

| Key | Id | Description |
| :- | :- | :- |
| s | bulk.stop | Stop: send no further requests (those in flight finish) |
| escape, enter | bulk.close | Close, once the run has finished |
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from tui.bulk import BulkItem, BulkRun, Summary
from tui.untrusted import Shown, shown

MARKS = {
    "pending": ("·", ""),
    "running": ("…", "italic"),
    "waiting": ("⏸", "italic"),
    "done": ("✓", "bold"),
    "failed": ("✗", "bold"),
    "skipped": ("–", "dim"),
}
"""State -> (symbol, style): readable without colour (NO_COLOR)."""


def item_line(entry: BulkItem) -> Text:
    """One item's line: symbol, label and id, state, reason (literal text, never markup)."""
    symbol, style = MARKS[entry.state]
    line = Text(f"{symbol} ", style=style)
    line.append(entry.line())
    line.append(f"  {entry.state}", style=style)
    if entry.reason:
        line.append(f": {shown(entry.reason)}")
    return line


class BulkProgressModal(ModalScreen[None]):
    """Shows a bulk run as it goes; closes only when it has finished.

    Args:
        title: What runs ("Reboot 3 marked instances").
        items: Every item: targets first, then those skipped before sending.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "stop", "Stop", id="bulk.stop"),
        Binding("escape,enter", "close", "Close", id="bulk.close"),
    ]

    DEFAULT_CSS = """
    BulkProgressModal { align: center middle; }
    BulkProgressModal > #dialog {
        width: 90; max-width: 100%; height: auto; max-height: 100%;
        border: round $primary; background: $surface; padding: 0 1;
    }
    BulkProgressModal #bulk-title { text-style: bold; }
    BulkProgressModal #bulk-items-box { height: auto; max-height: 16; }
    BulkProgressModal #bulk-summary { margin-top: 1; }
    BulkProgressModal #bulk-hint { color: $text-muted; }
    """

    def __init__(self, title: Shown, items: Sequence[BulkItem]) -> None:
        super().__init__()
        self.title_text = title
        self.items = list(items)
        self.run: BulkRun | None = None
        self.summary: Summary | None = None
        self._dirty = False

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(Text(self.title_text), id="bulk-title")
            with VerticalScroll(id="bulk-items-box"):
                yield Static(self._lines(), id="bulk-items")
            yield Static(Text(""), id="bulk-summary")
            yield Static("s stop · sending…", id="bulk-hint")

    def on_mount(self) -> None:
        self.query_one("#bulk-items-box").focus()

    def _lines(self) -> Text:
        return Text("\n").join(item_line(e) for e in self.items)

    def changed(self, _entry: BulkItem) -> None:
        """An item changed state: redraw once per refresh, however many changed meanwhile."""
        if not self._dirty:
            self._dirty = True
            self.call_after_refresh(self._redraw)

    def _redraw(self) -> None:
        self._dirty = False
        if not self.is_mounted:
            return
        self.query_one("#bulk-items", Static).update(self._lines())
        if self.run is not None and self.summary is None:
            count = sum(1 for e in self.items if e.state in ("done", "failed"))
            text = f"{count} of {len(self.run.targets)} sent"
            if self.run.rate_waits:
                text += f" · rate limited {self.run.rate_waits}×, waiting it out"
            self.query_one("#bulk-summary", Static).update(Text(text))

    def finish(self, summary: Summary) -> None:
        """The run ended: show the summary and let the user close."""
        self.summary = summary
        self._redraw()
        text = Text(f"Finished: {summary}", style="bold")
        if summary.failed:
            text.append("\nFailed items stay marked: fix the cause and run it again.")
        self.query_one("#bulk-summary", Static).update(text)
        self.query_one("#bulk-hint", Static).update("enter or escape closes")

    def action_stop(self) -> None:
        """Send no further requests."""
        if self.run is not None and self.summary is None:
            self.run.stop()
            self.query_one("#bulk-hint", Static).update("stopping after the requests in flight…")

    def action_close(self) -> None:
        """Close once finished (before that, the run would go on unseen)."""
        if self.summary is not None:
            self.dismiss(None)
        else:
            self.app.bell()

    def text(self) -> str:
        """Plain text of the lines and summary (tests)."""
        summary = self.query_one("#bulk-summary", Static).render()
        return f"{self._lines().plain}\n{summary}"
