"""The last line of the text boundary: no control character is ever written to the terminal.

Every string from outside passes :func:`tui.untrusted.shown` before a widget draws it; the
structure test of the boundary holds the code to that. Two kinds of widget must draw a raw value
all the same: an input or a text area that edits it (the value sent back must be the one the API
gave, byte for byte). And a mistake the structure test cannot see (a library widget drawing a
value it was handed some other way) must not reach the terminal either.

This line filter runs on every line every widget renders, just before it becomes terminal
output. A line with nothing to replace (the common case) is passed on as it is; otherwise each
control character, bidirectional control or invisible format character becomes its one-character
picture (``␛``, ``�``), exactly as :func:`~tui.untrusted.shown` shows it, and the line is cut back
to its width: Rich measures a control character as zero cells wide, its picture as one.
"""

from __future__ import annotations

from rich.segment import Segment
from textual.color import Color
from textual.filter import LineFilter

from tui.untrusted import shown


class VisibleControls(LineFilter):
    """Makes control characters visible in every line drawn (see the module).

    Attributes:
        replaced: Lines this filter had to change since the app started: zero when every
            widget drew only display text (the boundary held; editors of raw values aside).
    """

    def __init__(self, enabled: bool = True) -> None:
        super().__init__(enabled)
        self.replaced = 0

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        """``segments`` with their text made display text, cut to their width."""
        if all(segment.control or _clean(segment.text) for segment in segments):
            return segments
        self.replaced += 1
        width = sum(segment.cell_length for segment in segments)
        visible = [
            segment if segment.control else Segment(shown(segment.text), segment.style)
            for segment in segments
        ]
        return list(Segment.adjust_line_length(visible, width))


def _clean(text: str) -> bool:
    # The fast path, checked in C; text that is not printable (a joined emoji, a no-break
    # space) is clean when the boundary would leave it as it is.
    return text.isprintable() or shown(text) == text
