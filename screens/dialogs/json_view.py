"""Raw JSON of one item, secrets masked, scrollable; escape closes."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Static

from screens.dialogs.scrolling import ScrollingModal
from tui.resources.format import redact
from tui.untrusted import Shown, shown


def item_json(item: Mapping[str, Any]) -> str:
    """Pretty JSON of ``item`` with secrets masked and internal ``_`` fields left out."""
    public = {k: v for k, v in item.items() if not str(k).startswith("_")}
    return json.dumps(redact(public), indent=2, sort_keys=True, ensure_ascii=False)


class JsonViewScreen(ScrollingModal):
    """The item as the API returned it."""

    BINDINGS = [
        Binding("escape,q,J", "dismiss", "Close", id="json.close"),
        Binding("y", "copy", "Copy JSON", id="json.copy"),
    ]

    DEFAULT_CSS = """
    JsonViewScreen { align: center middle; }
    JsonViewScreen > Vertical {
        width: 90%; height: 90%;
        border: round $primary; background: $surface; padding: 0 1;
    }
    JsonViewScreen .json-title { text-style: bold; height: 1; }
    JsonViewScreen .json-hint { color: $text-muted; height: 1; }
    JsonViewScreen VerticalScroll { height: 1fr; }
    """

    def __init__(self, title: Shown, item: Mapping[str, Any]) -> None:
        super().__init__()
        self.title_text = title
        self.text = item_json(item)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text(f"JSON: {self.title_text}"), classes="json-title")
            with VerticalScroll():
                # Values come from the API: JSON escapes C0 controls, not DEL, C1 or bidi.
                yield Static(Text(shown(self.text, lines=True)), id="json-body")
            yield Static("escape close · y copy · secrets are masked", classes="json-hint")

    def on_mount(self) -> None:
        self.query_one(VerticalScroll).focus()

    def action_copy(self) -> None:
        """Copy the (masked) JSON."""
        self.app.copy_to_clipboard(self.text)
        self.app.notify(f"{len(self.text)} characters of JSON", title="Copied")

    async def action_dismiss(self, result: None = None) -> None:
        """Close."""
        self.dismiss(result)
