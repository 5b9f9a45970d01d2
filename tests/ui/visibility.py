"""What the user can see: the focused widget must lie on screen, inside everything that clips it.

Textual clips every widget to the content region of each container it sits in (minus
scrollbars), and a scrolling container shows only its window. A widget can therefore be
focused, displayed and attached, yet not visible: below the fold of a form that does not
scroll, or scrolled out of a list. Keys then go to something the user cannot see.

:func:`focus_visibility_problem` walks the focused widget's ancestors up to its screen and
checks its region against each one's visible region; :func:`assert_focus_visible` fails a test
with that explanation. :func:`press_and_settle` types one key and waits until its focus move and
the scrolling it causes are done, without the idle sleeps of ``Pilot.press`` (a walk through
every field of every form presses hundreds of keys).
"""

from __future__ import annotations

import asyncio
from typing import Any

from textual.geometry import Region
from textual.pilot import Pilot
from textual.widget import Widget

from tests.ui.keyboard import screen_of, type_fast
from tests.waits import WAIT_LIMIT, Deadline


def _shown_within(region: Region, clip: Region) -> bool:
    """True when ``region`` is inside ``clip``, or fills it along an axis where it is larger.

    A widget taller than its viewport (a long text area) cannot be shown whole: it counts as
    visible when it covers the viewport in that direction.
    """
    overlap = region.intersection(clip)
    if not overlap.area:
        return False
    wide_enough = overlap.width == region.width or overlap.width == clip.width
    tall_enough = overlap.height == region.height or overlap.height == clip.height
    return wide_enough and tall_enough


def _describe(widget: Widget) -> str:
    name = type(widget).__name__
    return f"{name}#{widget.id}" if widget.id else name


def visibility_problem(widget: Widget) -> str | None:
    """Why ``widget`` cannot be seen now, or None when it can.

    Args:
        widget: A widget of the top screen (after a pause, so layout and scrolling are done).
    """
    screen = widget.screen
    region = widget.region
    where = f"{_describe(widget)} on {type(screen).__name__}"
    if not region.area:
        return f"{where} takes no room on screen (hidden, or zero-sized)"
    if not _shown_within(region, screen.region):
        return f"{where} at {region} lies outside the screen {screen.region.size}"
    for ancestor in widget.ancestors:
        if not isinstance(ancestor, Widget) or ancestor is screen:
            break
        clip = ancestor.scrollable_content_region
        if not _shown_within(region, clip):
            scroll = f", scrolled to y={ancestor.scroll_y:g}" if ancestor.is_scrollable else ""
            return (
                f"{where} at {region} is clipped by {_describe(ancestor)} which shows "
                f"{clip}{scroll} (overflow-y {ancestor.styles.overflow_y})"
            )
    return None


def focus_visibility_problem(app: Any) -> str | None:
    """Why the focused widget cannot be seen now, or None when it can (or nothing has focus)."""
    focused = app.focused
    if focused is None:
        return None
    problem = visibility_problem(focused)
    return f"focused {problem}" if problem else None


def assert_visible(widget: Widget, context: str = "") -> None:
    """Fail when ``widget`` cannot be seen (see :func:`visibility_problem`)."""
    problem = visibility_problem(widget)
    if problem:
        raise AssertionError(f"{context}: {problem}" if context else problem)


def assert_focus_visible(app: Any, context: str = "") -> None:
    """Fail when the focused widget cannot be seen (see :func:`focus_visibility_problem`).

    Args:
        app: The running app.
        context: What led here, added to the failure message (the form, the key pressed).
    """
    problem = focus_visibility_problem(app)
    if problem:
        raise AssertionError(f"{context}: {problem}" if context else problem)


def assert_label_visible(app: Any, context: str) -> None:
    """A form's focused input shows with its label (what is being typed, and where)."""
    focused = app.focused
    ancestors = focused.ancestors if focused is not None else []
    row = next((a for a in ancestors if a.has_class("form-row")), None)
    if row is not None:
        assert_visible(row.query_one(".form-label"), f"{context}, the label of the focused input")


def _view_state(app: Any) -> tuple[Any, ...] | None:
    """What a key's focus move changes: the focused widget, its region, its ancestors' scroll."""
    focused = app.focused
    if focused is None:
        return None
    offsets = tuple(a.scroll_offset for a in focused.ancestors if isinstance(a, Widget))
    return (id(focused), focused.region, offsets)


async def _drain(node: Any) -> None:
    """Wait until ``node`` has handled every message queued before now."""
    done = asyncio.Event()
    if node.call_later(done.set):
        await done.wait()


async def _drain_focus_path(app: Any) -> None:
    """Drain the focused widget, each of its containers, and the screen, in that order."""
    focused = app.focused
    path = [n for n in focused.ancestors_with_self if isinstance(n, Widget)] if focused else []
    for node in path or [app.screen]:  # the focused widget's path ends with its screen
        await _drain(node)


async def screen_workers_done(app: Any, screen: Any) -> None:
    """Wait for the workers of ``screen`` and its widgets (a choice list loading), and for
    those they start, up to a few generations, within :data:`~tests.waits.WAIT_LIMIT` seconds
    in all."""
    deadline = Deadline()
    for _ in range(5):
        busy = [w for w in app.workers if not w.is_finished and screen_of(w.node) is screen]
        if not busy or deadline.passed:
            return
        done, _pending = await asyncio.wait(
            [asyncio.ensure_future(w.wait()) for w in busy], timeout=deadline.left
        )
        for future in done:
            future.exception()  # a failed worker is the app's to report, not this wait's


SETTLE_LIMIT = WAIT_LIMIT
"""Seconds :func:`press_and_settle` allows the view to come to rest (three or four rounds are
usual: focus, scroll, repaint)."""


async def press_and_settle(pilot: Pilot[Any], key: str) -> None:
    """Press ``key`` and return once the focus and every scroll it caused have stopped moving.

    Each round lets the app and the screen handle what is queued (the key, then the focus
    events and the screen's scroll-to-focus), lets scroll animations finish and lays the screen
    out again; the view is settled when two rounds in a row change nothing.

    Raises:
        AssertionError: The view still moves after :data:`SETTLE_LIMIT` seconds.
    """
    type_fast(pilot.app, [key])
    await settle_view(pilot, f"after {key!r}")


async def settle_view(pilot: Pilot[Any], context: str = "") -> None:
    """Return once the focus and every scroll have stopped moving (see :func:`press_and_settle`).

    Raises:
        AssertionError: The view still moves after :data:`SETTLE_LIMIT` seconds.
    """
    app = pilot.app
    previous: Any = object()
    unchanged = 0
    deadline = Deadline(SETTLE_LIMIT)
    while not deadline.passed:
        await _drain(app)
        screen = app.screen
        await screen_workers_done(app, screen)
        # Scrolling goes through the focused widget's containers: their queues, then the
        # screen's (deferred scrolls run after its next layout).
        await _drain_focus_path(app)
        await app.animator.wait_for_idle()
        screen._on_timer_update()  # the repaint Pilot.pause forces: layout, then callbacks
        await _drain_focus_path(app)
        state = _view_state(app)
        unchanged = unchanged + 1 if state == previous else 0
        if unchanged == 2:
            return
        previous = state
    raise AssertionError(f"the view still moves after {SETTLE_LIMIT:g} s {context}".strip())
