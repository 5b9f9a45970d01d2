"""Small dialogs of the transfers: a local path with tab completion, an existing-file choice,
a share link with its expiry, and an inline text view.

They only collect choices and show text; the work is done by :mod:`tui.transfers`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import ClassVar, Literal

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static, TextArea

from tui.api.errors import CloudError
from tui.models.object_storage import URL_EXPIRES_DEFAULT, URL_EXPIRES_MAX, URL_EXPIRES_MIN
from tui.refresh import describe_error
from tui.transfers.local_paths import complete, expand
from tui.transfers.plan import Choice
from tui.untrusted import Shown, shown

DIALOG_CSS = """
{name} {{ align: center middle; }}
{name} > #dialog {{
    width: 90; max-width: 100%; height: auto; max-height: 100%;
    border: round $primary; background: $surface; padding: 0 1;
}}
{name} .title {{ text-style: bold; height: auto; }}
{name} .hint {{ color: $text-muted; height: auto; max-height: 6; }}
{name} .error {{ color: $text-error; height: auto; }}
"""


class LocalPathModal(ModalScreen[Path | None]):
    """Ask for a local path; ``tab`` completes it like a shell.

    Args:
        title: What the path is for ("Download 3 objects to").
        initial: Text the input starts with.
        kind: ``directory`` (must be one), ``existing`` (a file or directory that exists).
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="path.cancel"),
        Binding("tab", "complete", "Complete", priority=True, id="path.complete"),
    ]
    DEFAULT_CSS = DIALOG_CSS.format(name="LocalPathModal")

    def __init__(
        self, title: Shown, initial: str = "", kind: Literal["directory", "existing"] = "existing"
    ) -> None:
        super().__init__()
        self.title_text = title
        self.initial = initial
        self.kind = kind
        self._create: Path | None = None
        """A missing directory the user was told about: a second enter creates it."""

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(Text(self.title_text), classes="title")
            yield Input(self.initial, id="path-input")
            yield Static("", id="path-error", classes="error")
            yield Static(
                Text("tab complete · enter confirm · esc cancel"), id="path-hint", classes="hint"
            )

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def action_complete(self) -> None:
        """Complete the path under the cursor; list the candidates when several match."""
        field = self.query_one(Input)
        found = complete(field.value)
        field.value = found.text
        field.cursor_position = len(field.value)
        # Local file names are anybody's text too (a downloaded object keeps its name).
        hint = "  ".join(shown(c) for c in found.candidates) if len(found.candidates) > 1 else ""
        if not found.candidates:
            hint = "no match"
        self.query_one("#path-hint", Static).update(
            Text(hint or "tab complete · enter confirm · esc cancel")
        )

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if not event.value.strip() and self.kind == "existing":
            self.app.bell()
            self.query_one("#path-error", Static).update(Text("Type a path (tab completes)."))
            return
        path = expand(event.value)
        problem = ""
        if self.kind == "directory" and not path.exists() and path.parent.is_dir():
            if self._create == path:
                try:
                    path.mkdir()
                except OSError as error:
                    problem = f"{path} cannot be created: {error.strerror or error}."
            else:
                self._create = path
                problem = f"{path} does not exist. Press enter again to create it."
        if problem:
            pass
        elif self.kind == "directory" and not path.is_dir():
            problem = f"{path} is not a directory."
        elif self.kind == "existing" and not path.exists():
            problem = f"{path} does not exist."
        if problem:
            self.app.bell()
            self.query_one("#path-error", Static).update(Text(shown(problem)))
            return
        self.dismiss(path)

    def action_cancel(self) -> None:
        """Cancel."""
        self.dismiss(None)


class ConflictModal(ModalScreen[tuple[Choice, bool] | None]):
    """A download's target exists: overwrite, skip or rename (this one, or all the rest)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("o", "choose('overwrite', False)", "Overwrite", id="conflict.overwrite"),
        Binding("s", "choose('skip', False)", "Skip", id="conflict.skip"),
        Binding("r", "choose('rename', False)", "Rename", id="conflict.rename"),
        Binding("O", "choose('overwrite', True)", "Overwrite all", id="conflict.overwrite_all"),
        Binding("S", "choose('skip', True)", "Skip all", id="conflict.skip_all"),
        Binding("R", "choose('rename', True)", "Rename all", id="conflict.rename_all"),
        Binding("escape", "cancel", "Cancel download", id="conflict.cancel"),
    ]
    DEFAULT_CSS = DIALOG_CSS.format(name="ConflictModal")

    def __init__(self, path: Path) -> None:
        super().__init__()
        self.path = path

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(Text("The file exists"), classes="title")
            yield Static(Text(shown(self.path)))
            yield Static(
                Text(
                    "o overwrite · s skip · r rename (keep both)\n"
                    "O / S / R: the same for every other existing file · esc cancel the download"
                ),
                classes="hint",
            )

    def action_choose(self, choice: str, for_all: bool) -> None:
        """Answer with ``choice`` (for all the remaining conflicts when ``for_all``)."""
        self.dismiss((Choice(choice), for_all))

    def action_cancel(self) -> None:
        """Cancel the whole download."""
        self.dismiss(None)


def parse_expiry(text: str) -> int:
    """``3600``, ``90m``, ``6h`` or ``1d`` as seconds, within the spec's 360..86400.

    Raises:
        ValueError: Not a duration, or out of bounds (the message says the bounds).
    """
    value = text.strip().lower()
    units = {"s": 1, "m": 60, "h": 3600, "d": 86400}
    factor = units.get(value[-1:], 0)
    number = value[:-1] if factor else value
    if not number.isdigit():
        raise ValueError("Type seconds, or a number with m, h or d (90m, 6h, 1d).")
    seconds = int(number) * (factor or 1)
    if not URL_EXPIRES_MIN <= seconds <= URL_EXPIRES_MAX:
        raise ValueError(
            f"The link may last {URL_EXPIRES_MIN} s (6 minutes) to {URL_EXPIRES_MAX} s (1 day)."
        )
    return seconds


class ShareModal(ModalScreen[str | None]):
    """Pick how long a share link lasts, then show it and copy it (OSC 52).

    Args:
        name: The object.
        make_url: Asks the API for a GET URL valid for the given seconds.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close", id="share.close"),
    ]
    DEFAULT_CSS = DIALOG_CSS.format(name="ShareModal")

    def __init__(self, name: Shown, make_url: Callable[[int], Awaitable[str]]) -> None:
        super().__init__()
        self.object_name = name
        self.make_url = make_url
        self.url: str | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(Text(f"Share {self.object_name}"), classes="title")
            yield Static(Text("Link lasts (seconds, or 90m / 6h / 1d; 6 minutes to 1 day):"))
            yield Input(str(URL_EXPIRES_DEFAULT), id="share-expiry")
            yield Static("", id="share-error", classes="error")
            yield Static("", id="share-url")
            yield Static(Text("enter create and copy · esc close"), classes="hint")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    @on(Input.Submitted)
    async def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        error = self.query_one("#share-error", Static)
        try:
            seconds = parse_expiry(event.value)
        except ValueError as problem:
            error.update(Text(shown(problem)))
            return
        try:
            self.url = await self.make_url(seconds)
        except CloudError as failure:
            error.update(Text(describe_error(failure)))
            return
        error.update("")
        self.app.copy_to_clipboard(self.url)
        if hasattr(self.app, "last_copied"):
            self.app.last_copied = self.url
        copied = Text("Copied (OSC 52). Valid for ")
        copied.append(f"{seconds} s:\n")
        copied.append(shown(self.url))
        self.query_one("#share-url", Static).update(copied)

    def action_close(self) -> None:
        """Close (with the URL, when one was made)."""
        self.dismiss(self.url)


class TextViewModal(ModalScreen[None]):
    """An object's text, literal (never markup), read-only and scrollable."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "close", "Close", id="view.close"),
    ]
    DEFAULT_CSS = """
    TextViewModal { align: center middle; }
    TextViewModal > #dialog { width: 100%; height: 100%; border: round $primary; }
    TextViewModal .title { text-style: bold; height: 1; }
    TextViewModal TextArea { height: 1fr; }
    TextViewModal .hint { color: $text-muted; height: 1; }
    """

    def __init__(self, name: Shown, text: str) -> None:
        super().__init__()
        self.object_name = name
        self.text = shown(text, lines=True)  # an object's contents: anybody may have written it

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(Text(self.object_name), classes="title")
            yield TextArea(self.text, read_only=True, soft_wrap=False, id="view-text")
            yield Static(Text("arrows scroll · esc close"), classes="hint")

    def on_mount(self) -> None:
        self.query_one(TextArea).focus()

    def action_close(self) -> None:
        """Close."""
        self.dismiss(None)
