"""Text to take elsewhere (commands to run on an instance), shown and copied with one key.

:class:`CommandsModal` shows a derived text (:mod:`tui.resources.derived`) of an action's
record (``screens.action_results.show_text``); ``y`` copies all of it. :func:`copy_text` is how
anything is copied: the terminal's clipboard through OSC 52, and a notification that says so
and where to read the value when the terminal ignores OSC 52 (tmux without
``set-clipboard on``, some terminals over SSH).

Bindings:

| Key | Id | Description |
| :- | :- | :- |
| y | commands.copy | Copy the whole text |
| escape, enter | commands.close | Close |
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType

from screens.text_modal import TextModal
from tui.untrusted import Shown, shown

if TYPE_CHECKING:
    from textual.app import App


def copy_text(app: App[Any], text: str, what: Shown, *, fallback: Shown) -> None:
    """Copy ``text`` with OSC 52 and say so, with where to read it when OSC 52 is ignored.

    Args:
        app: The running app.
        text: What to copy (never logged; the notification names it, not its value).
        what: What it is ("Mount commands", "Password").
        fallback: How to read it where the terminal ignores OSC 52 ("read it in this
            dialog", "press s to show it").
    """
    app.copy_to_clipboard(text)
    app.notify(
        f"{what} sent to the terminal's clipboard (OSC 52). Nothing to paste? The terminal "
        f"ignores OSC 52 (in tmux: set -g set-clipboard on): {fallback}.",
        title="Copied",
        markup=False,
    )
    if hasattr(app, "last_copied"):
        app.last_copied = text


class CommandsModal(TextModal):
    """Shows ``text`` under ``title``; ``y`` copies it.

    Args:
        title: What the text is for.
        text: The text (shown literally).
        what: Its name in the "Copied" notification.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "copy", "Copy", id="commands.copy"),
        Binding("escape,enter", "dismiss", "Close", id="commands.close"),
    ]

    DEFAULT_CSS = """
    CommandsModal > Vertical { height: auto; max-height: 90%; }
    CommandsModal VerticalScroll { height: auto; max-height: 20; }
    """

    def __init__(self, title: Shown, text: str, what: Shown = "Commands") -> None:
        super().__init__(title, Text(shown(text, lines=True)), "y copy all · esc close")
        self.text = text
        self.what = what

    def action_copy(self) -> None:
        """Copy the whole text."""
        copy_text(self.app, self.text, self.what, fallback="read it in this dialog")
