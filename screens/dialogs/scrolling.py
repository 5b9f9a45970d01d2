"""A modal screen of text in one scrolling box, scrolled a line at a time with ``j`` and ``k``.

The help, the JSON view, a text modal and a plugin's output share these keys; each composes one
:class:`~textual.containers.VerticalScroll` and adds its own keys.
"""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen


class ScrollingModal(ModalScreen[None]):
    """A modal whose one :class:`VerticalScroll` ``j``/``k`` scroll by a line."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("j", "scroll(1)", "Down", show=False),
        Binding("k", "scroll(-1)", "Up", show=False),
    ]

    def action_scroll(self, lines: int) -> None:
        """Scroll by ``lines``."""
        self.query_one(VerticalScroll).scroll_relative(y=lines, animate=False)
