"""Keys typed while an action is opening its dialog never reach the screen beneath.

An action key starts a worker that opens a form or a confirmation a moment later. Keys typed
in that moment (``n`` then ``dy`` as the start of a label) used to reach the list behind: ``d``
opened a Delete confirmation under the form, and ``y`` would have confirmed it. While an action
runs, the screen it started from is *gated*: whenever that screen is on top, keys are held
instead of delivered. A screen just pushed is gated too until it is painted with its focus.

When the new screen is ready, printable characters held meanwhile are typed into its focused
text field if it takes typeahead (a form, the command line: ``accepts_typeahead``); every other
held key is dropped, so a key pressed before a confirmation was visible can never confirm it or
fill its typed label. When the action ends, whatever is still held is dropped.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from textual import events
from textual.widgets import Input, TextArea

if TYPE_CHECKING:
    from textual.app import App
    from textual.screen import Screen

PASS_THROUGH = frozenset({"ctrl+c", "ctrl+q"})
"""Keys never held: quitting must always work."""


@dataclass
class _Running:
    """One running action and the screen it was started from."""

    base: Screen[Any]


@dataclass
class KeyGate:
    """Holds the keys of screens whose actions are still opening their dialogs.

    Args:
        app: The app whose keys are gated (its key handling asks :meth:`take` first).
    """

    app: App[Any]
    held: list[events.Key] = field(default_factory=list)
    _running: list[_Running] = field(default_factory=list)
    _opening: Screen[Any] | None = None
    """A screen just pushed that has not been painted with its focus yet."""
    _depth = 0

    def watch_screens(self) -> None:
        """Follow the app's screen changes (call once the app runs)."""
        self.app.screen_change_signal.subscribe(self.app, self._screen_changed)

    def begin(self, base: Screen[Any]) -> object:
        """An action started from ``base``: gate it until :meth:`end` with the token returned."""
        running = _Running(base)
        self._running.append(running)
        return running

    def end(self, token: object) -> None:
        """The action of ``token`` finished (sent, cancelled or failed)."""
        if token in self._running:
            self._running.remove(token)
        if not self.gated:
            self.held.clear()

    @property
    def gated(self) -> bool:
        """True while the screen on top is still opening, or has an action opening from it."""
        try:
            screen = self.app.screen
        except Exception:  # no screen yet (starting) or any more (closing)
            return False
        return screen is self._opening or any(r.base is screen for r in self._running)

    def take(self, event: events.Key) -> bool:
        """Hold ``event`` if the top screen is gated; False: deliver it as usual."""
        if event.key in PASS_THROUGH or not self.gated:
            return False
        self.held.append(event)
        event.stop()
        event.prevent_default()
        return True

    def _screen_changed(self, screen: Screen[Any]) -> None:
        depth = len(self.app.screen_stack)
        pushed, self._depth = depth > self._depth, depth
        if pushed:
            # Keys typed before a new screen has its focus would reach the screen itself and
            # be lost (``:vol`` typed in one go): they are held until it is ready.
            self._opening = screen
            self.app.call_after_refresh(self._opened, screen, 0)
        elif self.held and not self.gated:
            self.app.call_after_refresh(self._hand_over, screen)

    def _opened(self, screen: Screen[Any], attempts: int) -> None:
        if self._opening is not screen:
            return
        if screen.focused is None and attempts < 5 and screen.focus_chain:
            # Painted, but its focus is not set yet (a dialog focuses its field on mount).
            self.app.call_after_refresh(self._opened, screen, attempts + 1)
            return
        self._opening = None
        if self.held and not self.gated:
            self._hand_over(screen)

    def _hand_over(self, screen: Screen[Any]) -> None:
        """Type held characters into the new dialog's text field; drop the other keys."""
        held, self.held = self.held, []
        if self.gated or screen is not self.app.screen:
            return
        text = "".join(k.character or "" for k in held if k.is_printable)
        focused = screen.focused
        if not text or not getattr(screen, "accepts_typeahead", False):
            # A confirmation's typed label must be typed while it is shown, never before.
            return
        if isinstance(focused, Input):
            focused.insert_text_at_cursor(text)
        elif isinstance(focused, TextArea) and not focused.read_only:
            focused.insert(text)
