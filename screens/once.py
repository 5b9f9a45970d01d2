"""What an answer shows only once (a new key's ``secret_key``, an upload address): keep it now.

Secrets stay masked until the user reveals them (``s``), so a glance or a screenshot does not
leak them; ``y`` copies each value with OSC 52.

Bindings:

| Key | Id | Description |
| :- | :- | :- |
| s | once.reveal | Show or hide secret values |
| y | once.copy | Copy the next value (cycles through them) |
| escape, enter | once.close | Close |
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from screens.commands_modal import copy_text
from tui.resources.format import SECRET_KEYS, SECRET_MASK
from tui.untrusted import Shown, shown


class OnceModal(ModalScreen[None]):
    """Values to keep before closing.

    Args:
        title: What produced them.
        answer: The API's answer.
        fields: Fields of ``answer`` to show, in order.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,enter", "close", "Close", id="once.close"),
        Binding("s", "reveal", "Show/hide secrets", id="once.reveal"),
        Binding("y", "copy", "Copy", id="once.copy"),
    ]

    DEFAULT_CSS = """
    OnceModal { align: center middle; }
    OnceModal > #dialog {
        width: 90; max-width: 100%; height: auto; max-height: 100%;
        border: round $warning; background: $surface; padding: 0 1;
    }
    OnceModal #once-title { text-style: bold; }
    OnceModal #once-warning { color: $text-warning; margin-bottom: 1; }
    OnceModal #once-hint { color: $text-muted; margin-top: 1; }
    """

    def __init__(
        self,
        title: Shown,
        answer: Mapping[str, Any],
        fields: tuple[str, ...],
        *,
        shown_once: bool = True,
    ) -> None:
        super().__init__()
        self.title_text = title
        self.answer = dict(answer)
        self.fields = fields
        self.shown_once = shown_once
        self.revealed = False
        self._next_copy = 0

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(Text(self.title_text), id="once-title")
            yield Static("Keep these now: the API will not show them again.", id="once-warning")
            yield Static(id="once-values")
            yield Static("y copy · s show/hide secrets · esc close", id="once-hint")

    def on_mount(self) -> None:
        self._render_values()

    def rows_on_screen(self) -> list[tuple[Shown, Shown]]:
        """``(field, text on screen)`` rows: secrets masked until revealed."""
        rows: list[tuple[Shown, Shown]] = []
        for name in self.fields:
            value = shown(self.answer.get(name, ""))
            hide = name in SECRET_KEYS and not self.revealed
            rows.append((shown(name), SECRET_MASK if hide else value))
        return rows

    def _render_values(self) -> None:
        grid = Table.grid(padding=(0, 2))
        grid.add_column(style="bold", no_wrap=True)
        grid.add_column(overflow="fold")
        for name, text in self.rows_on_screen():
            grid.add_row(Text(name), Text(text))
        self.query_one("#once-values", Static).update(grid)

    def action_reveal(self) -> None:
        """Show or hide the secret values."""
        self.revealed = not self.revealed
        self._render_values()

    def action_copy(self) -> None:
        """Copy the next value (each press moves to the next field)."""
        # Copy what matters first: the kept values, then their context.
        order = [f for f in self.fields if f in SECRET_KEYS or f in ("url", "upload_to")]
        order += [f for f in self.fields if f not in order]
        name = order[self._next_copy % len(order)]
        self._next_copy += 1
        hidden = name in SECRET_KEYS and not self.revealed
        fallback = "press s to show it here" if hidden else "read it in this dialog"
        copy_text(self.app, str(self.answer.get(name, "")), shown(name), fallback=fallback)

    def action_close(self) -> None:
        """Close."""
        self.dismiss(None)
