"""The error modal: an unexpected failure, explained, without taking the app down."""

from __future__ import annotations

import traceback

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from tui.untrusted import Shown, shown
from widgets.marked_button import MarkedButton


def format_exception(error: BaseException) -> str:
    """The traceback of ``error`` as text."""
    return "".join(traceback.format_exception(type(error), error, error.__traceback__))


class ErrorScreen(ModalScreen[None]):
    """Shows an unexpected error with its traceback; the app keeps running."""

    BINDINGS = [Binding("escape,enter", "dismiss", "Close", id="error.close")]

    DEFAULT_CSS = """
    ErrorScreen { align: center middle; }
    ErrorScreen > Vertical {
        width: 90%; max-width: 120; height: 80%;
        border: thick $error; background: $surface; padding: 0 1;
    }
    ErrorScreen .error-title { text-style: bold; color: $text-error; height: auto; }
    ErrorScreen .error-message { height: auto; margin-bottom: 1; }
    ErrorScreen VerticalScroll { height: 1fr; border: round $panel; }
    ErrorScreen Button { margin-top: 1; }
    """

    def __init__(self, title: Shown, error: BaseException) -> None:
        super().__init__()
        self.error_title = title
        self.error = error

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text(self.error_title), classes="error-title")
            yield Static(
                Text(
                    f"{type(self.error).__name__}: {shown(self.error)}\n"
                    "The app is still running. If this keeps happening, please report it with "
                    "the details below."
                ),
                classes="error-message",
            )
            with VerticalScroll():
                yield Static(
                    Text(shown(format_exception(self.error), lines=True)), id="error-traceback"
                )
            yield MarkedButton("Close", variant="primary", id="error-close")

    def on_mount(self) -> None:
        self.query_one(Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(None)

    async def action_dismiss(self, result: None = None) -> None:
        """Close."""
        self.dismiss(result)
