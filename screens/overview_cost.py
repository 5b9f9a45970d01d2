"""The overview's cost in full: every area and every tag (``c`` on the overview)."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from tui.overview import OverviewData


class CostScreen(ModalScreen[None]):
    """Estimated monthly cost by area and by tag, from the prices the API returns."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,c", "dismiss", "Close", id="cost.close"),
        Binding("j", "scroll(1)", "Down", show=False),
        Binding("k", "scroll(-1)", "Up", show=False),
    ]

    DEFAULT_CSS = """
    CostScreen { align: center middle; }
    CostScreen > Vertical {
        width: 90%; height: 90%; border: round $primary; background: $surface; padding: 0 1;
    }
    CostScreen .cost-title { text-style: bold; height: 1; }
    CostScreen .cost-hint { color: $text-muted; height: auto; }
    CostScreen VerticalScroll { height: 1fr; }
    """

    def __init__(self, data: OverviewData) -> None:
        super().__init__()
        self.data = data

    def compose(self) -> ComposeResult:
        from tui.overview_cost import cost_lines

        with Vertical():
            yield Static(Text("Estimated monthly cost"), classes="cost-title")
            with VerticalScroll():
                yield Static(Text(cost_lines(self.data, brief=False)), id="cost-body")
            yield Static(
                "From the prices the API returns (instance types and the backups add-on); "
                "items without one say 'price not given'. escape closes.",
                classes="cost-hint",
            )

    def on_mount(self) -> None:
        self.query_one(VerticalScroll).focus()

    def action_scroll(self, lines: int) -> None:
        """Scroll by ``lines``."""
        self.query_one(VerticalScroll).scroll_relative(y=lines, animate=False)

    async def action_dismiss(self, result: None = None) -> None:
        """Close."""
        self.dismiss(result)
