"""A dialog that shows one scrolling text: a title, the text, and a hint line (escape closes)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Static

from screens.dialogs.scrolling import ScrollingModal
from tui.untrusted import Shown


class TextModal(ScrollingModal):
    """Shows ``body`` under ``title``; ``j``/``k`` scroll. Subclasses bind their close keys
    (with a binding id of their own, so the keymap can remap them)."""

    DEFAULT_CSS = """
    TextModal { align: center middle; }
    TextModal > Vertical {
        width: 90%; height: 90%; border: round $primary; background: $surface; padding: 0 1;
    }
    TextModal .text-modal-title { text-style: bold; height: 1; }
    TextModal .text-modal-hint { color: $text-muted; height: auto; }
    TextModal VerticalScroll { height: 1fr; }
    """

    def __init__(self, title: Shown, body: Text, hint: Shown) -> None:
        """Args:
        title: The first line (literal text).
        body: What is shown and scrolled (already a Text: never parsed as markup).
        hint: The last line (keys, where the figures come from).
        """
        super().__init__()
        self._title = title
        self._body = body
        self._hint = hint

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text(self._title), classes="text-modal-title")
            with VerticalScroll():
                yield Static(self._body, classes="text-modal-body")
            yield Static(Text(self._hint), classes="text-modal-hint")

    def on_mount(self) -> None:
        self.query_one(VerticalScroll).focus()

    async def action_dismiss(self, result: None = None) -> None:
        """Close."""
        self.dismiss(result)
