"""The ``:`` command line: area aliases with completion (``:in``, ``:domains``, ``:k8s`` ...),
and what a command does (:func:`run_command`).

``:account NA`` completes to the profiles of the config file; ``:fanout`` to its areas, then
to the profiles. The user's ``[aliases]`` stand for commands (:mod:`tui.shortcuts.commands`).
↑ and ↓ recall the commands typed before, kept per profile across runs
(:mod:`tui.history.commands`; a command that may hold a secret is never kept).
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from rich.text import Text
from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.suggester import SuggestFromList
from textual.widgets import Input, Static

from screens.app_surface import surface
from screens.lists.pane_host import PaneHostScreen
from screens.navigation import GoToArea, HelpAsked
from tui.accounts.fanout import complete_fanout, parse_fanout_command
from tui.accounts.switch import complete_account, parse_account_command, profile_names
from tui.history.commands import HistoryCursor
from tui.home.areas import READ_ONLY_WORDS, home_area
from tui.resources.areas import BUILTIN_COMMANDS, COMMANDS, complete_command, resolve_command
from tui.shortcuts.commands import expand_alias
from tui.untrusted import shown


class CommandLineScreen(ModalScreen[str | None]):
    """A one-line prompt at the bottom; returns the command typed, or None."""

    accepts_typeahead = True
    """``:vol`` typed in one go: ``vol`` lands in the line (see :mod:`screens.keys.gate`)."""
    submits_typeahead = True
    """And ``:vol`` then enter goes there: a command line sends nothing to the API."""

    BINDINGS = [
        Binding("escape", "cancel", "Cancel", id="command.cancel"),
        Binding("tab", "complete", "Complete", id="command.complete"),
        Binding(
            "up",
            "recall(-1)",
            "Earlier",
            id="command.history_previous",
            tooltip="The command typed before (those starting like the text typed, if any)",
        ),
        Binding("down", "recall(1)", "Later", id="command.history_next"),
    ]

    DEFAULT_CSS = """
    CommandLineScreen { align: left bottom; background: $background 30%; }
    CommandLineScreen > Vertical { height: auto; width: 100%; background: $panel; }
    CommandLineScreen Input { border: none; height: 1; padding: 0 1; background: $panel; }
    CommandLineScreen .command-matches { height: 1; padding: 0 1; color: $text-muted; }
    """

    def __init__(self) -> None:
        super().__init__()
        self.cursor: HistoryCursor | None = None
        """↑/↓ through the profile's earlier commands (None: no history is kept)."""
        self._recalled = ""
        """The text just put in the line by ↑/↓ (its change event is not typing)."""

    def _profiles(self) -> list[str]:
        return profile_names(surface(self).state.settings)

    def _matches(self, text: str) -> list[str]:
        """Completions of ``text``: profiles after ``account``, areas and profiles after
        ``fanout``, trees after ``xray``, else areas and commands."""
        from tui.relations.xray import complete_xray  # the relations load when first needed

        names = self._profiles()
        return (
            complete_account(text, names)
            or complete_fanout(text, names)
            or complete_xray(text)
            or complete_command(text)
        )

    def compose(self) -> ComposeResult:
        accounts = complete_account("account ", self._profiles())
        aliases = surface(self).state.settings.aliases
        words = sorted({*COMMANDS, *BUILTIN_COMMANDS, *accounts, *aliases})
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
        account = surface(self).state.account
        history = account.commands if account is not None else None
        self.cursor = history.cursor() if history is not None else None

    def _show_matches(self, text: str) -> None:
        if text.strip().lower().startswith("export "):
            from tui.export import USAGE

            self.query_one(".command-matches", Static).update(Text(f":{USAGE}"))
            return
        matches = self._matches(text)
        line = Text(":")
        line.append("  ".join(shown(m) for m in matches) if matches else "no match")
        self.query_one(".command-matches", Static).update(line)

    @on(Input.Changed)
    def _changed(self, event: Input.Changed) -> None:
        self._show_matches(event.value)
        if self.cursor is not None and event.value != self._recalled:
            self.cursor.typed(event.value)

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value.strip()
        account = surface(self).state.account
        if text and account is not None and account.commands is not None:
            account.commands.record(text)  # typed commands only: a hotkey's are not
        self.dismiss(text or None)

    def action_recall(self, step: int) -> None:
        """↑ (``-1``): an earlier command; ↓ (``1``): a later one, then the text typed."""
        if self.cursor is None:
            self.app.bell()
            return
        field = self.query_one(Input)
        text = self.cursor.previous(field.value) if step < 0 else self.cursor.next()
        if text is None:
            self.app.bell()
            return
        self._recalled = text
        field.value = text
        field.cursor_position = len(text)

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


@runtime_checkable
class RefreshesAll(Protocol):
    """A screen that ``:refresh`` refreshes (every pane it shows)."""

    def refresh_all(self) -> None:
        """Refresh what the screen shows."""
        ...


@runtime_checkable
class ShowsJson(Protocol):
    """A screen or pane that ``:json`` shows the raw JSON of (its item, or the row's)."""

    def action_json(self) -> None:
        """Show the raw JSON."""
        ...


ARGUMENT_COMMANDS: dict[str, str] = {
    "xray": "screens.relations.xray:open_xray",
}
"""``:`` words followed by an argument -> ``"module:function"`` taking the app and the rest of
the line (imported on first use)."""


def _argument_command(app: App[Any], text: str) -> bool:
    """A word of :data:`ARGUMENT_COMMANDS` with its argument: True when ``text`` was one."""
    import importlib

    word, _, rest = text.strip().lstrip(":").partition(" ")
    target = ARGUMENT_COMMANDS.get(word.lower())
    if target is None:
        return False
    module_name, _, function = target.partition(":")
    getattr(importlib.import_module(module_name), function)(app, rest.strip())
    return True


def run_command(app: App[Any], text: str | None) -> None:
    """Run a ``:`` command: an area (``in``, ``k8s``, ``keys`` ...) or a built-in.

    Args:
        app: The running app.
        text: What was typed after ``:`` (None or empty: the line was cancelled).
    """
    if not text:
        return
    text = expand_alias(text, surface(app).state.settings.aliases)
    word = text.strip().lstrip(":").lower()
    if _argument_command(app, text):
        return
    if _account_command(app, text, word) or _builtin_command(app, word):
        return
    home = home_area(word)
    if home is not None:
        app.post_message(GoToArea(home))
        return
    destination = resolve_command(word)
    if destination is None:
        app.notify(f"Unknown command: {shown(text)}", title=":", severity="warning", markup=False)
        return
    app.post_message(GoToArea(destination.area.id, destination.spec or destination.area.root))


def _account_command(app: App[Any], text: str, word: str) -> bool:
    """``:account``, ``:fanout``, ``:export`` and ``:read-only``: True when ``text`` was one."""
    account = parse_account_command(text)
    if account is not None:
        from screens.accounts.switch import account_command

        account_command(app, account)  # the profile name keeps its case
        return True
    fanout = parse_fanout_command(text, surface(app).state.settings)
    if isinstance(fanout, str):
        app.notify(shown(fanout), title=":fanout", severity="warning", markup=False)
        return True
    if fanout is not None:
        from screens.accounts.fanout import open_fanout

        open_fanout(app, fanout)  # a list, or the overview of every account
        return True
    if word.split()[0] == "export":
        from screens.lists.export import run_export

        run_export(app, text.strip().lstrip(":"))  # the path keeps its case
        return True
    if word in READ_ONLY_WORDS:
        from screens.home.read_only import toggle_read_only

        toggle_read_only(app)
        return True
    return False


def _builtin_command(app: App[Any], word: str) -> bool:
    """``:quit``, ``:help``, ``:back``, ``:refresh`` and ``:json``: True when ``word`` was one."""
    builtin = BUILTIN_COMMANDS.get(word)
    if builtin == "quit":
        app.exit(0)
    elif builtin == "help":
        app.post_message(HelpAsked())
    elif builtin == "back":
        if len(app.screen_stack) > 1:
            app.pop_screen()
    elif builtin == "refresh":
        if isinstance(app.screen, RefreshesAll):
            app.screen.refresh_all()
    elif builtin == "json":
        screen = app.screen
        pane = screen.active_pane() if isinstance(screen, PaneHostScreen) else None
        target = screen if isinstance(screen, ShowsJson) else pane
        if isinstance(target, ShowsJson):
            target.action_json()
    else:
        return False
    return True
