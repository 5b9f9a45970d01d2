"""The table header's hint at columns cut off by a narrow terminal (``+3 cols →``).

On an 80-column terminal a list's last columns (ID, tags, memory, MX priority ...) fall off the
right edge with nothing saying they exist. The header's ends say how many columns lie beyond
each edge and which arrow key scrolls to them. Any table with column widths can use it.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.segment import Segment
from rich.style import Style
from textual.strip import Strip


def columns_beyond(
    widths: Sequence[int], start: int, view_left: int, view_right: int
) -> tuple[int, int]:
    """How many columns are not wholly in view, to the left and to the right.

    Args:
        widths: Column widths, each followed by one space.
        start: Where the first column starts (after the row gutter).
        view_left: First visible cell (the horizontal scroll offset).
        view_right: One past the last visible cell.

    Returns:
        ``(left, right)`` counts.
    """
    left = right = 0
    x = start
    for width in widths:
        if x < view_left:
            left += 1
        elif x + width > view_right:
            right += 1
        x += width + 1
    return left, right


def hint_header(strip: Strip, left: int, right: int, style: Style) -> Strip:
    """``strip`` (the visible header) with ``← +N`` / ``+N cols →`` over its ends.

    The hint is the header's ``style`` reversed, so it stands out without colour too.
    """
    style = style + Style(reverse=True)
    width = strip.cell_length
    if right:
        tail = f" +{right} col{'s' if right != 1 else ''} → "
        if len(tail) < width:
            strip = Strip.join([strip.crop(0, width - len(tail)), Strip([Segment(tail, style)])])
    if left:
        head = f" ← +{left} "
        if len(head) < width:
            strip = Strip.join([Strip([Segment(head, style)]), strip.crop(len(head), width)])
    return strip
