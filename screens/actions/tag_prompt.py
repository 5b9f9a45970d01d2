"""Ask which tag to add or remove (on one item or on every marked row).

Bindings:

| Key | Id | Description |
| :- | :- | :- |
| enter | (input) | Add the tag typed (``-tag`` removes it) |
| ctrl+r | tag.remove | Remove the tag typed |
| ctrl+o | form.known | Choose among the account's tags |
| escape | tag.cancel | Cancel |

The account's tags complete what is typed (→ or end accepts) and are offered with ctrl+o
(:class:`widgets.suggest_input.SuggestInput`); any other tag may still be typed.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Static

from tui.api.errors import CloudError
from tui.refresh import describe_error
from tui.resources.forms import SUGGESTION_SOURCES, ChoiceSource
from tui.untrusted import Shown, shown
from widgets.marked_button import MarkedButton
from widgets.suggest_input import SuggestInput

TAGS_SOURCE: ChoiceSource = SUGGESTION_SOURCES["tags"][0]
"""Where the account's tags come from (the forms' ``tags`` fields use the same listing)."""

LoadKnown = Callable[[ChoiceSource], Awaitable[list[tuple[str, Any]]]]
"""Loads the ``(text, value)`` options of a listing (the action's ``load_choices``)."""

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
        load_known: Loads the account's tags, completed and offered in the input (None: the
            tag is typed without help).
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
    TagPrompt #tag-hint, TagPrompt #tag-current, TagPrompt #tag-known { color: $text-muted; }
    TagPrompt #tag-error { color: $text-error; }
    TagPrompt #tag-buttons { height: 1; align-horizontal: right; margin-top: 1; }
    TagPrompt #tag-buttons Button { margin-left: 1; }
    """

    def __init__(
        self,
        title: Shown,
        suggestions: list[str] | None = None,
        load_known: LoadKnown | None = None,
    ) -> None:
        super().__init__()
        self.title_text = title
        self.suggestions = suggestions or []
        self.load_known = load_known

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(Text(self.title_text), id="tag-title")
            yield Static("Tag (enter adds it; -tag or ctrl+r removes it):", id="tag-hint")
            entry = SuggestInput(
                placeholder="production", id="tag-input", title="Tag", noun="tags", listed=False
            )
            yield entry
            if self.load_known is not None:
                yield Static(Text(entry.known.note), id="tag-known")
            if self.suggestions:
                carried = ", ".join(shown(tag) for tag in self.suggestions)
                yield Static(Text(f"Carried now: {carried}"), id="tag-current")
            yield Static(Text(""), id="tag-error")
            with Horizontal(id="tag-buttons"):
                yield MarkedButton("Add", id="tag-add", variant="primary", compact=True)
                yield MarkedButton("Remove", id="tag-remove", compact=True)
                yield MarkedButton("Cancel", id="tag-cancel", compact=True)

    @property
    def tag_input(self) -> SuggestInput:
        """Where the tag is typed."""
        return self.query_one("#tag-input", SuggestInput)

    def on_mount(self) -> None:
        self.tag_input.focus()
        if self.load_known is not None:
            # The prompt is opened to type a tag: its known values are wanted at once.
            self.run_worker(self._load_known(self.load_known), group="known-tags")

    async def _load_known(self, load: LoadKnown) -> None:
        try:
            options = await load(TAGS_SOURCE)
        except CloudError as error:
            self.tag_input.known.failed(TAGS_SOURCE.key, describe_error(error))
        else:
            self.tag_input.known.set(TAGS_SOURCE.key, options)
        self.query_one("#tag-known", Static).update(Text(self.tag_input.known.note))

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
