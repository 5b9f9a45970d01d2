"""Notifications kept off the row the user is working on.

Textual stacks toasts at the bottom right. Over a list whose cursor is on one of its last rows
they hide that row, the one the user acts on. :func:`place_toasts` moves the stack to the top
edge while the focused widget's cursor row (or a small focused input) lies under it there, and
back when it no longer does. It runs after each layout of a screen that has shown a toast
(:func:`follow_layout`), and when a list's cursor moves. A widget tells where its cursor is
with a ``cursor_screen_y`` property.
"""

from __future__ import annotations

from textual.css.query import NoMatches
from textual.screen import Screen

from widgets.textual_private import Toast, ToastRack

AT_TOP = "-top"
"""Class of the toast stack while it is drawn at the top edge (see app.tcss)."""

SMALL_WIDGET = 3
"""A focused widget at most this tall (an input, a button) is kept clear as a whole."""


def focus_rows(screen: Screen[object]) -> range | None:
    """The screen rows the user works on: the focused widget's cursor row, or the whole of a
    small focused widget; None when neither applies."""
    focused = screen.focused
    if focused is None:
        return None
    cursor = getattr(focused, "cursor_screen_y", None)
    if isinstance(cursor, int):
        return range(cursor, cursor + 1)
    region = focused.region
    if 0 < region.height <= SMALL_WIDGET:
        return range(region.y, region.bottom)
    return None


def toasts_at_top(focus: range | None, height: int, screen_height: int) -> bool:
    """Whether toasts ``height`` rows tall go to the top edge: only when the focus rows lie
    under them at the bottom (one row above the bottom edge) and not under them at the top
    (below the first row)."""
    if focus is None or height <= 0:
        return False
    bottom = range(max(0, screen_height - 1 - height), screen_height - 1)
    top = range(1, 1 + height)

    def covers(band: range) -> bool:
        return focus.start < band.stop and band.start < focus.stop

    return covers(bottom) and not covers(top)


def place_toasts(screen: Screen[object]) -> None:
    """Put ``screen``'s toasts at the edge where they cover no focus row."""
    rack = _rack_of(screen)
    if rack is None or not rack.display:
        return
    # The stack's own size stays 0 (it is a hidden layer); its toasts have real regions.
    regions = [toast.region for toast in rack.query(Toast) if toast.region.height]
    if not regions:
        return
    height = max(r.bottom for r in regions) - min(r.y for r in regions)
    rack.set_class(toasts_at_top(focus_rows(screen), height, screen.size.height), AT_TOP)


def follow_layout(screen: Screen[object]) -> None:
    """Place ``screen``'s toasts after each of its layouts from now on (a new toast is sized
    in a layout some frames after ``notify``; nothing else says when). Calling it again is
    harmless."""
    rack = _rack_of(screen)
    if rack is None or not rack.is_running:
        return
    signal = screen.screen_layout_refresh_signal
    signal.unsubscribe(rack)
    signal.subscribe(rack, place_toasts)


def _rack_of(screen: Screen[object]) -> ToastRack | None:
    try:
        return screen.get_child_by_type(ToastRack)
    except NoMatches:
        return None
