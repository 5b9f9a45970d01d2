"""Keeping what has focus in sight inside a scrolling container.

Textual scrolls a widget into view when it gains focus, measured on the layout of that moment.
Rows added, shown or hidden, and error lines appearing, move a focused widget afterwards; and a
field's label or error line matters as much as its input. These helpers scroll after the next
layout, by the least that shows what is asked.
"""

from __future__ import annotations

from textual.widget import Widget


def scroll_after_layout(container: Widget, *parts: Widget) -> None:
    """After the next layout, scroll ``container`` the least that shows each of ``parts``.

    Parts are shown in turn, so the last one is surely in view: put what matters most last.
    Parts gone or not displayed by then are skipped.
    """

    def scroll() -> None:
        for part in parts:
            if part.is_attached and part.display:
                container.scroll_to_widget(part, animate=False, immediate=True)

    container.call_after_refresh(scroll)


def keep_focus_in_view(container: Widget) -> None:
    """After the next layout, scroll ``container`` to its focused descendant, if it has one."""

    def scroll() -> None:
        focused = container.app.focused if container.is_attached else None
        if focused is not None and container in focused.ancestors:
            container.scroll_to_widget(focused, animate=False)

    container.call_after_refresh(scroll)
