"""A footer that greys and un-greys its keys in place instead of rebuilding them.

Textual's :class:`~textual.widgets.Footer` recomposes every key widget whenever the screen's
bindings change, even when only whether an action is allowed changed. In a list that happens
on cursor moves (a stopped instance offers Boot, a running one Shut down): with some twenty
keys that rebuild costs ~100 ms of CPU per move, and during start-up the footer was rebuilt
seven times. This footer compares the keys it would show with those it shows: when they are the
same keys it only updates each key's enabled state and tooltip; otherwise it recomposes, at
most once per refresh however many changes arrived.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import groupby
from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Footer, Static

from widgets.textual_private import FooterKey, footer_key_disabled, set_footer_key_disabled

if TYPE_CHECKING:
    from textual.screen import Screen

_KeyLayout = tuple[str, str, str, object]
"""What a footer key looks like apart from its state: key, description, action, group."""


def _layout_of(keys: Iterable[tuple[Binding, bool, str]]) -> tuple[_KeyLayout, ...]:
    """The keys' layouts, their enabled states and tooltips left out."""
    return tuple((b.key, b.description, b.action, b.group) for b, _enabled, _tip in keys)


MORE_KEYS = " … ? all keys "
"""Shown at the right edge when the keys do not all fit (an 80-column terminal)."""


def keys_that_fit(widths: list[int], room: int, hint: int = len(MORE_KEYS)) -> list[bool]:
    """Which keys to show, whole, in ``room`` columns: all when they fit; else the first ones
    (the footer's order is its priority) that fit beside the ``hint`` naming ``?``.

    Args:
        widths: Each key's width with its margin, in the footer's order.
        room: Columns the keys may use.
        hint: Width of the hint shown when keys are left out.
    """
    if sum(widths) <= room:
        return [True] * len(widths)
    shown: list[bool] = []
    used = hint
    for width in widths:
        fits = not shown or shown[-1]  # once a key is left out, so are the ones after it
        fits = fits and used + width <= room
        used += width if fits else 0
        shown.append(fits)
    return shown


class ActionFooter(Footer):
    """:class:`~textual.widgets.Footer` that updates key states in place when it can.

    When its keys are wider than the terminal, the last ones are left out whole (a label is
    never cut mid-word); the right edge then says so and names ``?`` (help lists every key of
    the screen).
    """

    DEFAULT_CSS = """
    ActionFooter > .footer-more {
        dock: right; width: auto; height: 1; display: none; text-style: reverse;
    }
    ActionFooter.-overflow > .footer-more { display: block; }
    """

    def __init__(self) -> None:
        super().__init__()
        self._layout: tuple[_KeyLayout, ...] | None = None
        self._update_pending = False
        self._widths: dict[FooterKey, int] = {}
        """Each key's width when last shown (a key left out measures 0)."""

    def _shown_keys(self) -> Iterator[tuple[Binding, bool, str]]:
        """The (binding, enabled, tooltip) of every key, in the order ``compose`` yields them.

        Mirrors :meth:`Footer.compose`: one key per action (its first binding), then the
        command palette's key.
        """
        active = self.screen.active_bindings
        first_per_action: dict[str, tuple[Binding, bool, str]] = {}
        for _node, binding, enabled, tooltip in active.values():
            if binding.show:
                first_per_action.setdefault(binding.action, (binding, enabled, tooltip))
        keys = list(first_per_action.values())
        for _group, run in groupby(keys, lambda key: key[0].group):
            members = list(run)
            # Keys shown as a group fall back to their description as tooltip (as Footer does).
            grouped = _group is not None and len(members) > 1
            for binding, enabled, tooltip in members:
                yield binding, enabled, tooltip or (binding.description if grouped else "")
        if self.show_command_palette and self.app.ENABLE_COMMAND_PALETTE:
            palette = active.get(self.app.COMMAND_PALETTE_BINDING)
            if palette is not None:
                _node, binding, enabled, _tooltip = palette
                yield binding, enabled, binding.tooltip or binding.description

    def compose(self) -> ComposeResult:
        """Compose as Footer does, remembering which keys were shown."""
        if self._bindings_ready:
            self._layout = _layout_of(self._shown_keys())
        for widget in super().compose():
            if isinstance(widget, FooterKey) and not widget.has_class("-command-palette"):
                # A key's ``compact`` starts True and the footer's data binding turns it off
                # once mounted: two restyles of every bound key on each screen's first frame
                # (~10 ms of a start). Set before mounting, neither happens. (The palette's
                # key is not bound: it stays compact.)
                widget.set_reactive(FooterKey.compact, self.compact)
                widget.set_class(self.compact, "-compact", update=False)
            yield widget
        yield Static(MORE_KEYS, classes="footer-more")

    def watch_virtual_size(self) -> None:
        # The keys were laid out (a new screen, other keys, a resized terminal).
        self._mark_overflow()

    def on_resize(self) -> None:
        self._mark_overflow()

    def _mark_overflow(self) -> None:
        """Leave out the keys that do not fit whole, and then show the "more keys" hint."""
        keys = list(self.query(FooterKey))
        docked = [k for k in keys if k.has_class("-command-palette")]
        flowing = [k for k in keys if k not in docked]
        reserved = sum(k.outer_size.width for k in docked)
        self._widths = {
            k: (k.virtual_region_with_margin.width if k.display else 0) or self._widths.get(k, 0)
            for k in flowing
        }
        shown = keys_that_fit([self._widths[k] for k in flowing], self.size.width - reserved)
        for key, show in zip(flowing, shown, strict=True):
            if key.display != show:
                key.display = show
        overflow = not all(shown)
        self.set_class(overflow, "-overflow")
        if overflow:
            # Left of the palette key, which is docked at the same edge.
            self.query_one(".footer-more", Static).styles.margin = (0, reserved, 0, 0)

    def bindings_changed(self, screen: Screen[object]) -> None:
        """Schedule one update after the next refresh (changes in between are folded)."""
        self._bindings_ready = True
        if not screen.app.app_focus or not self.is_attached or screen is not self.screen:
            return
        if not self._update_pending:
            self._update_pending = True
            self.call_after_refresh(self._update_keys)

    async def _update_keys(self) -> None:
        """Update enabled states in place when the keys are the same, else recompose."""
        self._update_pending = False
        if not self.is_attached:
            return
        shown = list(self._shown_keys())
        widgets = list(self.query(FooterKey))
        if _layout_of(shown) != self._layout or len(widgets) != len(shown):
            await self.recompose()
            return
        for widget, (_binding, enabled, tooltip) in zip(widgets, shown, strict=True):
            if footer_key_disabled(widget) == (not enabled) and (widget.tooltip or "") == tooltip:
                continue
            # FooterKey reads its greyed state on click and styles itself by the class.
            set_footer_key_disabled(widget, not enabled)
            widget.set_class(not enabled, "-disabled")
            widget.tooltip = tooltip or None
