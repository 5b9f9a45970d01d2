"""A character typed while a button has the focus is never lost without a word.

Tab from a form's last input lands on Send. Digits typed then used to vanish: a button takes
no characters, and nothing else did (an MX priority ``10`` went out as 0). The rule, for every
button of every dialog and screen, applied once, where a key that nothing took ends (back at
the app, no binding for it):

* The character goes to **the text field the user was last in on that screen** (the one the
  marker stood on before the focus moved to the button), at its cursor, and the focus goes
  back there with it. Tabbing one field too far is the usual way to be on a button while
  typing: the characters were meant for that field, and the focus moving back shows where
  they went.
* If there is no such field (a confirmation without inputs, an error), or it is gone, hidden,
  disabled or read-only, or it refuses the character (``y`` in a number field), a
  notification names the character and says why it was not typed.

Keys with a meaning on the button's screen (enter presses it, ``y``/``n`` in a confirmation,
the screen's own bindings) are left alone: only a key that nothing takes is dealt with here.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Any

from textual.widgets import Button, Input

from screens.keys.not_typed import say_not_typed
from widgets.text_entry import can_type_into, text_field, type_into, typing_rule

if TYPE_CHECKING:
    from textual import events
    from textual.screen import Screen
    from textual.widget import Widget
    from textual.widgets import TextArea


class KeysOnButtons:
    """Remembers each screen's last text field; places or explains keys typed on a button.

    Args:
        app: The app (its key handling asks :meth:`take` for keys that came back unhandled,
            and tells :meth:`focused` where the focus went).
    """

    def __init__(self, app: Any) -> None:
        self.app = app
        self._last_field: weakref.WeakKeyDictionary[Screen[Any], weakref.ref[Widget]] = (
            weakref.WeakKeyDictionary()
        )

    def focused(self, widget: Widget) -> None:
        """The focus moved to ``widget``: remember it if characters can be typed into it."""
        if text_field(widget) is not None:
            try:
                self._last_field[widget.screen] = weakref.ref(widget)
            except Exception:  # no screen any more (it is closing)
                return

    def take(self, event: events.Key) -> bool:
        """Deal with ``event`` if it is a character typed on a button that nothing takes.

        Args:
            event: A key that came back up to the app (no widget consumed it).

        Returns:
            True when it was dealt with here (typed into a field, or explained).
        """
        button = self.app.focused
        if not isinstance(button, Button) or not event.is_printable or not event.character:
            return False
        screen = button.screen
        binding = screen.active_bindings.get(event.key)
        if binding is not None and binding.enabled:
            return False  # the key means something here (the app runs it)
        event.stop()
        self._place(screen, button, event.character)
        return True

    def _place(self, screen: Screen[Any], button: Button, char: str) -> None:
        """Type ``char`` into the screen's last text field, or say why it could not be."""
        remembered = self._last_field.get(screen)
        field = text_field(remembered() if remembered is not None else None)
        label = str(button.label).strip()
        if field is None or field.screen is not screen or not can_type_into(field):
            why = f"the focus is on the {label} button, not a field: shift+tab goes back."
            say_not_typed(self.app, char, why)
            return
        refused = type_into(field, char)
        _focus_keeping_cursor(screen, field)
        if refused:
            rule = (typing_rule(field) if isinstance(field, Input) else "") or "refused it"
            why = f"typed on the {label} button, it went back to your last field, which {rule}."
            say_not_typed(self.app, refused, why)


def _focus_keeping_cursor(screen: Screen[Any], field: Input | TextArea) -> None:
    """Focus ``field`` with its cursor where the character went (an input that selects its
    text on focus would otherwise let the next key replace everything typed)."""
    screen.set_focus(field)
    if isinstance(field, Input):
        position = field.cursor_position
        # After the Focus event just queued to the field, which selects all.
        field.call_later(setattr, field, "cursor_position", position)
