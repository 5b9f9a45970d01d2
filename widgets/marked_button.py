"""The focus marker, and a button that shows it.

A form marks the row that has the focus with ``❯`` (text, not only colour: it must survive
``NO_COLOR``). When the focus moves on to a button, the marker goes with it: a marker left on
the last input made its user type digits at a Send button, where they vanished. Every button
of the app is a :class:`MarkedButton` (a structure test keeps it so).
"""

from __future__ import annotations

from textual.app import RenderResult
from textual.content import Content
from textual.geometry import Size
from textual.widgets import Button

MARKER = "›"
"""A form row's marker while the row does not have the focus."""

FOCUS_MARKER = "❯"
"""The marker of what has the focus: a form's row, a button."""

_MARKED = Content(f"{FOCUS_MARKER} ")
_UNMARKED = Content("  ")  # the same width: the label does not move when the focus comes


class MarkedButton(Button):
    """A :class:`~textual.widgets.Button` whose label starts with ``❯`` while it has the focus.

    Keys typed on it that nothing takes are dealt with by :mod:`screens.keys.on_buttons`.
    """

    def render(self) -> RenderResult:
        label = super().render()
        assert isinstance(label, Content)  # Button renders its label, always Content
        return (_MARKED if self.has_focus else _UNMARKED) + label

    def get_content_width(self, container: Size, viewport: Size) -> int:
        return super().get_content_width(container, viewport) + _MARKED.cell_length
