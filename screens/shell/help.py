"""``?``: every binding of the current screen, with its id (for the keymap) and state."""

from __future__ import annotations

from typing import Any

from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from screens.dialogs.scrolling import ScrollingModal
from tui.untrusted import Shown, shown
from widgets.key_names import key_label


def binding_rows(screen: Screen[Any]) -> list[tuple[str, str, str, bool, str]]:
    """``(keys, description, id, enabled, tooltip)`` for each active binding of ``screen``.

    Keys bound to the same action are merged (``down, j``); the app's keymap is already applied.
    """
    merged: dict[tuple[str, str], list[Any]] = {}
    for active in screen.active_bindings.values():
        binding = active.binding
        if binding.system:
            continue
        description = binding.description or binding.action
        label = binding.key_display or key_label(binding.key)
        entry = merged.setdefault(
            (binding.action, description),
            [[], description, binding.id or "", active.enabled, active.tooltip or binding.tooltip],
        )
        if label not in entry[0]:
            entry[0].append(label)
    rows = [(", ".join(e[0]), e[1], e[2], e[3], e[4]) for e in merged.values()]
    return sorted(rows, key=lambda r: (not r[3], r[1].lower()))


class HelpScreen(ScrollingModal):
    """Bindings of the screen underneath."""

    BINDINGS = [
        Binding("escape,question_mark,q", "dismiss", "Close", id="help.close"),
    ]

    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > Vertical {
        width: 90%; max-width: 110; height: 90%;
        border: round $primary; background: $surface; padding: 0 1;
    }
    HelpScreen .help-title { text-style: bold; height: 1; }
    HelpScreen .help-hint { color: $text-muted; height: auto; }
    HelpScreen VerticalScroll { height: 1fr; }
    """

    def __init__(self, rows: list[tuple[str, str, str, bool, str]], title: Shown = "") -> None:
        super().__init__()
        self.rows = rows
        self.screen_title = title

    WIDE = 100
    """Below this many columns the binding ids go under each description, not beside it."""

    def _table(self, wide: bool) -> Table:
        table = Table(expand=True, box=None, padding=(0, 1), show_edge=False)
        table.add_column("Keys", no_wrap=True, style="bold")
        table.add_column("Does")
        if wide:
            table.add_column(Text("Binding id (for [keymap] in the config file)"), no_wrap=True)
        for keys, description, binding_id, enabled, tooltip in self.rows:
            # Keys and descriptions come from the bindings and the user's [keymap].
            does = Text(shown(description))
            if tooltip:
                does.append(f" — {shown(tooltip)}", style="dim")
            if not enabled:
                does.append(" (not available here)", style="italic")
            if wide:
                table.add_row(Text(shown(keys)), does, Text(shown(binding_id), style="dim"))
            else:
                does.append(f"\nid {shown(binding_id)}", style="dim")
                table.add_row(Text(shown(keys)), does)
        return table

    def _filter_syntax(self) -> Table | None:
        """The ``/`` filter language, on screens that have a filter."""
        if not any(row[2] == "list.filter" for row in self.rows):
            return None
        from tui.resources.filter_query import SYNTAX_HELP

        table = Table(
            title="Filter (/): terms are ANDed; matches are highlighted",
            title_justify="left",
            expand=True,
            box=None,
            padding=(0, 1),
            show_edge=False,
        )
        table.add_column("Type", no_wrap=True, style="bold")
        table.add_column("Shows")
        for example, meaning in SYNTAX_HELP:
            table.add_row(Text(example), Text(meaning))
        return table

    def on_resize(self, event: events.Resize) -> None:
        self.query_one("#help-table", Static).update(self._table(event.size.width >= self.WIDE))

    def compose(self) -> ComposeResult:
        table = self._table(self.app.size.width >= self.WIDE)
        with Vertical():
            yield Static(Text(f"Keys: {self.screen_title}"), classes="help-title")
            with VerticalScroll():
                yield Static(table, id="help-table")
                syntax = self._filter_syntax()
                if syntax is not None:
                    yield Static(syntax, id="help-filter")
            yield Static(
                'Remap in the config file: [keymap] "compute.reboot" = "ctrl+r". escape closes.',
                classes="help-hint",
                markup=False,
            )

    def on_mount(self) -> None:
        self.query_one(VerticalScroll).focus()

    async def action_dismiss(self, result: None = None) -> None:
        """Close."""
        self.dismiss(result)

    def text(self) -> str:
        """Plain text of the rows (tests)."""
        text = "\n".join(f"{k}\t{d}\t{i}" for k, d, i, _e, _t in self.rows)
        if self._filter_syntax() is not None:
            from tui.resources.filter_query import SYNTAX_HELP

            text += "\n" + "\n".join(f"{e}\t{m}" for e, m in SYNTAX_HELP)
        return text
