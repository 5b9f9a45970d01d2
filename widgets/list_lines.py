"""The lines around a list's table: its title line with the ``/`` filter input, and the message
line under the table (why it is empty, what went wrong).

Each holds what it shows and redraws only when that changes: a keystroke in the filter or a
refresh of 10,000 rows updates them many times, and an unchanged line costs nothing. Both are
one fixed line (the message at most three): they never make the screen lay itself out again.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.reactive import reactive
from textual.widgets import Input, Static

from tui.untrusted import Shown


class ListHeader(Horizontal):
    """A list's title line: its title (set :attr:`title_text`), then the filter input, hidden
    until :meth:`show_filter`.

    The filter input's ``Input.Changed`` and ``Input.Submitted`` go up to the list (it has the
    ``list-filter`` class).
    """

    DEFAULT_CSS = """
    ListHeader { height: 1; padding: 0 1; background: $boost; }
    ListHeader .list-title { width: 1fr; height: 1; text-style: bold; }
    ListHeader .list-filter { width: 30; height: 1; border: none; padding: 0 1; }
    ListHeader .list-filter.-hidden { display: none; }
    """

    title_text: reactive[Text] = reactive(Text, layout=False, repaint=False, init=False)
    """What the title says (the list's name, counts, filter, sort)."""

    def compose(self) -> ComposeResult:
        yield Static(classes="list-title")
        yield Input(placeholder="filter…", classes="list-filter -hidden", compact=True)

    def watch_title_text(self, text: Text) -> None:
        # One fixed-height line: no screen layout (it would cost ~20 ms per keystroke).
        self.query_one(".list-title", Static).update(text, layout=False)

    @property
    def filter_input(self) -> Input:
        """The filter input."""
        return self.query_one(".list-filter", Input)

    def show_filter(self, text: str | None = None, *, focus: bool = True) -> None:
        """Show the filter input (with ``text`` in it, when given) and focus it."""
        field = self.filter_input
        if text is not None:
            field.value = text
        field.remove_class("-hidden")
        if focus:
            field.focus()

    def hide_filter(self, *, clear: bool = False) -> None:
        """Hide the filter input (emptied first when ``clear``)."""
        field = self.filter_input
        if clear:
            field.value = ""
        field.add_class("-hidden")


class ListMessage(Static):
    """The line under a list's table: an error, or why no row shows; hidden when empty."""

    DEFAULT_CSS = """
    ListMessage { height: auto; max-height: 3; padding: 0 1; color: $text-muted; }
    ListMessage.-error { color: $text-error; }
    ListMessage.-hidden { display: none; }
    """

    def __init__(self, *, classes: str = "list-message -hidden") -> None:
        super().__init__(classes=classes)
        self.text: Shown = ""
        """What the line says now ('' when hidden)."""

    def say(self, text: Shown, *, error: bool = False) -> None:
        """Show ``text`` (display text already), as an error when ``error``; '' hides it."""
        if text != self.text:
            # Unchanged text (every keystroke, every refresh) skips an update and its layout.
            self.text = text
            self.update(Text(text))
        self.set_class(not text, "-hidden")
        self.set_class(error, "-error")
