"""The overview's cost in full: every area and every tag (``c`` on the overview)."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType

from screens.text_modal import TextModal
from tui.home.overview import OverviewData
from tui.untrusted import shown


class CostScreen(TextModal):
    """Estimated monthly cost by area and by tag, from the prices the API returns."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,c", "dismiss", "Close", id="cost.close"),
    ]

    def __init__(self, data: OverviewData) -> None:
        from tui.home.cost import cost_lines

        super().__init__(
            "Estimated monthly cost",
            Text(shown(cost_lines(data, brief=False), lines=True)),
            "From the prices the API returns (instance types and the backups add-on); "
            "items without one say 'price not given'. escape closes.",
        )
        self.data = data
