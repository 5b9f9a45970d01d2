"""The table of a chooser: the cursor row marked ``❯``, hidden columns named in the header.

A chooser's table never has the focus (typing filters), so its cursor row is told by its
colour alone, which ``NO_COLOR`` and monochrome terminals strip. The row enter would pick
starts with ``❯`` instead (in the cell padding, so nothing moves). When the terminal is too
narrow for every column, the header's ends say how many lie beyond each edge
(``+2 cols →``, as a list's header does) and :meth:`ChooserGrid.scroll_columns` brings them
into view.
"""

from __future__ import annotations

from rich.segment import Segment
from rich.text import Text
from textual.strip import Strip
from textual.widgets import DataTable

from widgets.column_hint import columns_beyond, hint_header
from widgets.marked_button import FOCUS_MARKER


def mark_first_cell(strip: Strip, marker: str = FOCUS_MARKER) -> Strip:
    """``strip`` with its first cell replaced by ``marker``, in that cell's style."""
    if strip.cell_length < 1:
        return strip
    segments = list(strip.crop(0, 1))
    style = segments[0].style if segments else None
    return Strip.join([Strip([Segment(marker, style)], 1), strip.crop(1, strip.cell_length)])


class ChooserGrid(DataTable[Text]):
    """A row-cursor :class:`DataTable` that marks its cursor row and its hidden columns."""

    def column_widths(self) -> list[int]:
        """Each column's width, its padding included."""
        return [column.get_render_width(self) for column in self.ordered_columns]

    def hidden_columns(self) -> tuple[int, int]:
        """How many columns are not wholly in view, to the left and to the right."""
        # columns_beyond counts one separating cell after each width: the padding is that cell.
        widths = [max(0, width - 1) for width in self.column_widths()]
        left = round(self.scroll_x)
        return columns_beyond(widths, 0, left, left + self.scrollable_content_region.width)

    def scroll_columns(self, step: int) -> bool:
        """Scroll one column's worth right (``step`` 1) or left (-1).

        Returns:
            True when the table moved (False: nothing lies beyond that edge).
        """
        left, right = self.hidden_columns()
        if (step > 0 and not right) or (step < 0 and not left):
            return False
        starts = [0]
        for width in self.column_widths():
            starts.append(starts[-1] + width)
        x = round(self.scroll_x)
        if step > 0:
            target = next((s for s in starts if s > x), x)
        else:
            target = max((s for s in starts if s < x), default=0)
        self.scroll_to(x=target, animate=False)
        return True

    def render_line(self, y: int) -> Strip:
        strip = super().render_line(y)
        if self.show_header and y == 0:
            left, right = self.hidden_columns()
            if left or right:
                style = self.get_component_rich_style("datatable--header")
                return hint_header(strip, left, right, style)
            return strip
        header = self.header_height if self.show_header else 0
        if self.row_count and y - header + round(self.scroll_y) == self.cursor_row:
            return mark_first_cell(strip)
        return strip
