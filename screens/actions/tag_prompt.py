"""Ask which tag to add or remove (on one item or on every marked row).

Bindings:

| Key | Id | Description |
| :- | :- | :- |
| enter | (input) | Add the tag typed (``-tag`` removes it) |
| ctrl+r | tag.remove | Remove the tag typed |
| escape | tag.cancel | Cancel |
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Static

from tui.untrusted import Shown, shown
from widgets.marked_button import MarkedButton

TAG_MIN = 3
TAG_MAX = 50
"""Length bounds of a tag label (the API's)."""


def check_tag(text: str) -> str:
    """Why ``text`` cannot be a tag, or "" when it can."""
    if not TAG_MIN <= len(text) <= TAG_MAX:
        return f"A tag has {TAG_MIN} to {TAG_MAX} characters."
    return ""


class TagPrompt(ModalScreen[tuple[str, bool] | None]):
    """Returns ``(tag, add)`` or None when cancelled.

    Args:
        title: What it applies to ("Tag 3 marked instances").
        suggestions: Tags the items carry now (shown as a hint).
    """

    accepts_typeahead = True
    """A tag typed right after the key lands in the input (nothing is sent without a confirm)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="tag.cancel"),
        Binding("ctrl+r", "remove", "Remove tag", id="tag.remove"),
    ]

    DEFAULT_CSS = """
    TagPrompt { align: center middle; }
    TagPrompt > #dialog {
        width: 70; max-width: 100%; height: auto; border: round $primary;
        background: $surface; padding: 0 1;
    }
    TagPrompt #tag-title { text-style: bold; }
    TagPrompt #tag-hint, TagPrompt #tag-current { color: $text-muted; }
    TagPrompt #tag-error { color: $text-error; }
    TagPrompt #tag-buttons { height: 1; align-horizontal: right; margin-top: 1; }
    TagPrompt #tag-buttons Button { margin-left: 1; }
    """

    def __init__(self, title: Shown, suggestions: list[str] | None = None) -> None:
        super().__init__()
        self.title_text = title
        self.suggestions = suggestions or []

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(Text(self.title_text), id="tag-title")
            yield Static("Tag (enter adds it; -tag or ctrl+r removes it):", id="tag-hint")
            yield Input(placeholder="production", id="tag-input")
            if self.suggestions:
                carried = ", ".join(shown(tag) for tag in self.suggestions)
                yield Static(Text(f"Carried now: {carried}"), id="tag-current")
            yield Static(Text(""), id="tag-error")
            with Horizontal(id="tag-buttons"):
                yield MarkedButton("Add", id="tag-add", variant="primary", compact=True)
                yield MarkedButton("Remove", id="tag-remove", compact=True)
                yield MarkedButton("Cancel", id="tag-cancel", compact=True)

    def on_mount(self) -> None:
        self.query_one("#tag-input", Input).focus()

    def _finish(self, add: bool) -> None:
        text = self.query_one("#tag-input", Input).value.strip()
        if text.startswith("-"):
            text, add = text[1:].strip(), False
        problem = check_tag(text)
        if problem:
            self.query_one("#tag-error", Static).update(Text(shown(problem)))
            self.app.bell()
            return
        self.dismiss((text, add))

    @on(Input.Submitted, "#tag-input")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._finish(True)

    @on(Button.Pressed, "#tag-add")
    def _add(self) -> None:
        self._finish(True)

    @on(Button.Pressed, "#tag-remove")
    def _remove(self) -> None:
        self._finish(False)

    @on(Button.Pressed, "#tag-cancel")
    def _cancel(self) -> None:
        self.dismiss(None)

    def action_remove(self) -> None:
        """Remove the tag typed."""
        self._finish(False)

    def action_cancel(self) -> None:
        """Close without a change."""
        self.dismiss(None)
