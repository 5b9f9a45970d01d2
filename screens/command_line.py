"""The ``:`` command line: area aliases with completion (``:in``, ``:domains``, ``:k8s`` ...).

``:account NA`` completes to the profiles of the config file; ``:fanout`` to its areas, then
to the profiles.
"""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.suggester import SuggestFromList
from textual.widgets import Input, Static

from tui.accounts.fanout import complete_fanout
from tui.accounts.switch import complete_account, profile_names
from tui.resources.areas import BUILTIN_COMMANDS, COMMANDS, complete_command


class CommandLineScreen(ModalScreen[str | None]):
    """A one-line prompt at the bottom; returns the command typed, or None."""

    accepts_typeahead = True
    """``:vol`` typed in one go: ``vol`` lands in the line (see :mod:`screens.key_gate`)."""
    submits_typeahead = True
    """And ``:vol`` then enter goes there: a command line sends nothing to the API."""

    BINDINGS = [
        Binding("escape", "cancel", "Cancel", id="command.cancel"),
        Binding("tab", "complete", "Complete", id="command.complete"),
    ]

    DEFAULT_CSS = """
    CommandLineScreen { align: left bottom; background: $background 30%; }
    CommandLineScreen > Vertical { height: auto; width: 100%; background: $panel; }
    CommandLineScreen Input { border: none; height: 1; padding: 0 1; background: $panel; }
    CommandLineScreen .command-matches { height: 1; padding: 0 1; color: $text-muted; }
    """

    def _profiles(self) -> list[str]:
        settings = getattr(self.app, "settings", None)
        return profile_names(settings) if settings is not None else []

    def _matches(self, text: str) -> list[str]:
        """Completions of ``text``: profiles after ``account``, areas and profiles after
        ``fanout``, else areas and commands."""
        names = self._profiles()
        return (
            complete_account(text, names) or complete_fanout(text, names) or complete_command(text)
        )

    def compose(self) -> ComposeResult:
        accounts = complete_account("account ", self._profiles())
        words = sorted({*COMMANDS, *BUILTIN_COMMANDS, *accounts})
        with Vertical():
            yield Static(classes="command-matches")
            yield Input(
                placeholder="area or command (tab completes, enter goes, escape cancels)",
                suggester=SuggestFromList(words, case_sensitive=False),
                id="command-input",
                compact=True,  # one line, no border even when focused
            )

    def on_mount(self) -> None:
        self.query_one(Input).focus()
        self._show_matches("")

    def _show_matches(self, text: str) -> None:
        if text.strip().lower().startswith("export "):
            from tui.export import USAGE

            self.query_one(".command-matches", Static).update(Text(f":{USAGE}"))
            return
        matches = self._matches(text)
        line = Text(":")
        line.append("  ".join(matches) if matches else "no match")
        self.query_one(".command-matches", Static).update(line)

    @on(Input.Changed)
    def _changed(self, event: Input.Changed) -> None:
        self._show_matches(event.value)

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.dismiss(event.value.strip() or None)

    def action_complete(self) -> None:
        """Complete to the first match."""
        field = self.query_one(Input)
        matches = self._matches(field.value)
        if matches:
            field.value = matches[0]
            field.cursor_position = len(field.value)

    def action_cancel(self) -> None:
        """Close without a command."""
        self.dismiss(None)
