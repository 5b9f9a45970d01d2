"""Saying which typed characters were not typed anywhere, and why.

A character the user typed either lands in a field or is named in a notification: never lost
without a word (a digit typed on a form's Send button, letters typed while a form opened whose
focus ended on a choice list, a letter refused by a number field).
"""

from __future__ import annotations

from typing import Any

from tui.untrusted import shown

TITLE = "Not typed"
"""Title of every such notification (tests and users can tell them apart)."""


def say_not_typed(app: Any, text: str, why: str) -> None:
    """Notify that ``text`` (typed by the user) went into no field, saying ``why``.

    Args:
        app: The running app.
        text: The characters not typed.
        why: A sentence: where the focus was and how to get back to a field.
    """
    # Typed text and a button's label: shown as they are, whatever they hold.
    message = shown(f"“{text}”: {why}")
    app.notify(message, title=TITLE, severity="warning", markup=False)
