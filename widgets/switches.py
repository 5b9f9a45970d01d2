"""Check boxes that read without colour: a tick drawn only when on, a yes/no switch, and a
list of choices ticked the same way."""

from __future__ import annotations

from rich.segment import Segment
from textual.strip import Strip
from textual.widgets import Checkbox, SelectionList
from textual.widgets.option_list import OptionDoesNotExist
from textual.widgets.selection_list import SelectionType

from widgets.textual_private import CursorMarked

TICKED, UNTICKED = "X", " "
"""What a box holds when ticked and when not: told apart by shape, never by colour alone."""


class Tick(Checkbox):
    """A compact check box that draws its ``X`` only when ticked.

    Textual's box always draws its ``X`` and tells on from off by colour alone, which vanishes
    under ``NO_COLOR``.

    Args:
        label: What ticking it means.
        value: Ticked or not.
        id: Widget id.
    """

    def __init__(self, label: str, value: bool = False, *, id: str | None = None) -> None:
        super().__init__(label, value, id=id, compact=True)

    @property
    def BUTTON_INNER(self) -> str:  # type: ignore[override]
        return TICKED if self.value else UNTICKED


class YesNo(Tick):
    """A :class:`Tick` whose label also says the state (``X yes`` / ``  no``)."""

    def __init__(self, value: bool, *, id: str | None = None) -> None:
        super().__init__(self._word(value), value, id=id)

    @staticmethod
    def _word(value: bool) -> str:
        return "yes" if value else "no"

    def watch_value(self) -> None:
        super().watch_value()  # the -on class and the Changed message (fields follow it)
        self.label = self._word(self.value)


class _TickBoxes(SelectionList[SelectionType]):
    """A :class:`SelectionList` whose boxes draw their ``X`` only on chosen options.

    Textual's list draws ``X`` in every box and tells chosen from not chosen by colour alone.
    """

    def render_line(self, y: int) -> Strip:
        strip = super().render_line(y)
        segments = list(strip)
        try:
            option = self.get_option_at_index(self.scroll_offset.y + y)
        except OptionDoesNotExist:
            return strip
        # The list draws the box's left side, its inside, its right side, then the prompt.
        if len(segments) < 3 or segments[1].text != Checkbox.BUTTON_INNER:
            return strip
        box = segments[1]
        mark = TICKED if option.value in self._selected else UNTICKED
        segments[1] = Segment(mark, box.style, box.control)
        return Strip(segments, strip.cell_length)


class TickList(CursorMarked, _TickBoxes[SelectionType]):
    """A list of choices ticked with ``X`` (only when chosen), the highlighted one marked
    ``❯``: both told by shape, never by colour alone."""
