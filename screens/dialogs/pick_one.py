"""A small dialog that picks one of a few options (an account, an address to ssh to).

Bindings:

| Key | Id | Description |
| :- | :- | :- |
| up, down | (list) | Move the highlight |
| enter | (list) | Pick the highlighted option |
| escape | pick.cancel | Close without picking |
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from tui.untrusted import Shown, shown
from widgets.textual_private import MarkedOptionList


class PickOneModal(ModalScreen[str | None]):
    """Pick one option; dismissed with its id, or None on escape.

    Args:
        title: The question.
        options: ``(text, id)`` of each option, in order (texts are shown literally).
        hint: The key line under the list (``enter connect · esc cancel``).
        highlighted: Id of the option highlighted first (default: the first).
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="pick.cancel"),
    ]

    DEFAULT_CSS = """
    PickOneModal { align: center middle; }
    PickOneModal > #dialog {
        width: 60; max-width: 100%; height: auto; max-height: 100%;
        border: round $accent; background: $surface; padding: 0 1;
    }
    PickOneModal OptionList { height: auto; max-height: 16; }
    PickOneModal .pick-hint { color: $text-muted; height: 1; }
    """

    def __init__(
        self, title: Shown, options: list[tuple[str, str]], hint: Shown, highlighted: str = ""
    ) -> None:
        super().__init__()
        self.title_text = title
        self.options = options
        self.hint = hint
        self.highlighted = highlighted

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(Text(self.title_text), classes="pick-title")
            options = (Option(Text(shown(text)), id=key) for text, key in self.options)
            yield MarkedOptionList(*options)
            yield Static(Text(self.hint), classes="pick-hint")

    def on_mount(self) -> None:
        options = self.query_one(OptionList)
        options.focus()
        ids = [key for _text, key in self.options]
        if self.highlighted in ids:
            options.highlighted = ids.index(self.highlighted)

    @on(OptionList.OptionSelected)
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        """Close without picking."""
        self.dismiss(None)
