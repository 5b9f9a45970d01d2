"""Typing characters into a text field on the user's behalf, and knowing what it refused.

Two mechanisms type for the user: the key gate (characters typed while a dialog opened) and the
rule for keys typed on a button (they go back to the field the user was in). Both must know
which characters the field did not take (letters in a number field, a full field), so that
nothing typed vanishes without a word.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.widget import Widget
from textual.widgets import Input

from widgets.textual_private import loaded_text_area

if TYPE_CHECKING:
    from textual.widgets import TextArea


def text_field(widget: object) -> Input | TextArea | None:
    """``widget`` if characters can be typed into it (an input or a text area), else None."""
    if isinstance(widget, Input):
        return widget
    return loaded_text_area(widget)


def can_type_into(field: Widget) -> bool:
    """True when ``field`` is on screen, enabled and editable: typing into it would show."""
    if not field.is_attached or field.disabled or not field.focusable:
        return False
    if getattr(field, "read_only", False):
        return False
    return all(node.display for node in (field, *field.ancestors) if isinstance(node, Widget))


def type_into(field: Input | TextArea, text: str) -> str:
    """Type ``text`` into ``field`` at its cursor, one character at a time as keys would.

    Returns:
        The characters the field did not take ('' when it took them all): an input refuses
        what its type, pattern or length forbids (``y`` in a number field).
    """
    if not isinstance(field, Input):
        field.insert(text)  # a text area takes any character
        return ""
    refused = []
    for char in text:
        before = field.value
        field.insert_text_at_cursor(char)
        if field.value == before:
            refused.append(char)
    return "".join(refused)


def typing_rule(field: Input) -> str:
    """What ``field`` accepts, in words, for saying why a character was refused ('' if any)."""
    if field.type == "integer":
        return "takes whole numbers only"
    if field.type == "number":
        return "takes numbers only"
    if field.max_length:
        return f"takes at most {field.max_length} characters"
    return ""
