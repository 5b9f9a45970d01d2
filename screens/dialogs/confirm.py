"""Confirmation of a request: what will be sent, and for irreversible ones, the label typed.

Every confirmation names the account it will be sent to ("Delete instance web-1 in prod?"),
in the account's colour when the config gives it one.

Bindings:

| Key | Id | Description |
| :- | :- | :- |
| y | confirm.yes | Confirm (simple confirmations) |
| n, escape | confirm.no | Cancel |
| enter | (button / input) | Press the focused button; in the label input, confirm when it matches |
| pagedown, pageup | confirm.page_down / up | Scroll the request preview, wherever the focus is |

The preview itself is reachable by tab; focused, it scrolls with j/k, arrows, home and end.
A confirmation may offer one more thing to send with it (the clean-up after a delete): a tick
box, reachable by tab and toggled with space, off until ticked (:attr:`ConfirmModal.option_on`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Static

from screens.app_surface import surface
from tui.accounts.naming import ACTING_ACCOUNT, AccountMark, in_account
from tui.resources.format import pems_apart, redact
from tui.untrusted import Shown, shown, typeable
from widgets.marked_button import MarkedButton
from widgets.switches import Tick

if TYPE_CHECKING:
    from rich.style import Style

PREVIEW_LINES = 10
"""Rows of the request preview box; longer previews scroll."""

UNTYPEABLE_WORD = "confirm"
"""What to type when a label holds nothing that can be typed (only control characters)."""

TYPED_MAX = 40
"""Characters of a label a user is asked to type: the start of a longer one is proof enough
that they read it, and a 500-character word would push the input off the screen."""

MIN_PREVIEW_LINES = 3
"""Rows the request box keeps however short the terminal is."""


def typed_word(label: str) -> str:
    """What a typed confirmation asks for: the typeable start of ``label`` (or a fixed word)."""
    return typeable(label)[:TYPED_MAX].rstrip() or UNTYPEABLE_WORD


def request_preview(method: str, path: str, body: Mapping[str, Any] | None) -> Shown:
    """``METHOD /path`` and the JSON body with secrets masked, as display text (JSON escapes
    C0 controls but leaves DEL, C1 and bidirectional controls as they are). A certificate
    follows the JSON line by line, so that it copies from the screen as a valid PEM."""
    text = f"{method} {path}"
    if body:
        rest, pems = pems_apart(redact(dict(body)))
        text += "\n" + json.dumps(rest, indent=2, ensure_ascii=False)
        for name, pem in pems:
            text += f"\n\n{name}:\n{pem}"
    return shown(text, lines=True)


class PreviewScroll(VerticalScroll):
    """The scrolling request preview: focusable by tab, vim keys on top of the arrows."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("j", "scroll_down", "Down", show=False),
        Binding("k", "scroll_up", "Up", show=False),
    ]


def account_title(title: Shown, account: AccountMark | None, style: Style | str = "") -> Text:
    """The dialog's title naming ``account`` (its name in its colour, bold)."""
    if account is None:
        return Text(title)
    name = shown(account.name)
    named = in_account(title, name)
    start = named.rindex(name)
    text = Text(shown(named))
    text.stylize(style or "bold", start, start + len(name))
    return text


def account_style(account: AccountMark) -> str:
    """Rich style of an account's name: bold, in its configured terminal colour."""
    return f"bold {account.color}" if account.color else "bold"


class ConfirmModal(ModalScreen[bool]):
    """Ask before sending a request.

    Args:
        title: What is about to happen ("Delete instance web-1").
        message: Consequences, in a sentence or two.
        preview: The request (see :func:`request_preview`).
        typed: The label the user must type to confirm (irreversible actions), or None.
        confirm_label: Text of the confirm button.
        price: What the request will cost, line by line ('' when it is not billed).
        account: The account the request goes to (default: the account of the action being
            run, else the app's session's).
        option: Label of a tick box offering more to send with it ('' for none).
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="confirm.no"),
        Binding("n", "cancel", "No", show=False, id="confirm.no_key"),
        Binding("y", "confirm", "Yes", id="confirm.yes"),
        Binding("pagedown", "page(1)", "Scroll", show=False, id="confirm.page_down"),
        Binding("pageup", "page(-1)", "Scroll up", show=False, id="confirm.page_up"),
    ]

    DEFAULT_CSS = """
    ConfirmModal { align: center middle; }
    ConfirmModal > #dialog {
        /* Wider where the terminal is: a key or a long value in the request on one line. */
        width: 100%; max-width: 110; height: auto; max-height: 100%;
        border: round $error; background: $surface; padding: 0 1;
    }
    ConfirmModal #confirm-title { text-style: bold; height: auto; }
    ConfirmModal #confirm-message { height: auto; margin-bottom: 1; }
    ConfirmModal #confirm-price { height: auto; margin-bottom: 1; text-style: bold; }
    ConfirmModal #confirm-preview-box { height: auto; }
    /* The focus shows by shape too (NO_COLOR): a bar down the left edge. */
    ConfirmModal #confirm-preview-box { border-left: blank; }
    ConfirmModal #confirm-preview-box:focus { background: $boost; border-left: outer $accent; }
    ConfirmModal #confirm-preview { color: $text-muted; height: auto; }
    /* One row (the dialog fits 80x24 with a long preview), marked by a bar even without
       colour. */
    ConfirmModal #confirm-typed { margin-top: 1; border-left: outer $accent !important; }
    ConfirmModal #confirm-buttons { height: 1; align-horizontal: right; margin-top: 1; }
    ConfirmModal #confirm-buttons Button { margin-left: 1; }
    /* Textual gives a disabled button a tall border on ANSI terminals (NO_COLOR), even a
       compact one: in a one-row bar it then shows its border's top and hides its label. */
    ConfirmModal #confirm-buttons Button:disabled { border: none !important; }
    ConfirmModal #confirm-hint { color: $text-muted; height: 1; }
    ConfirmModal #confirm-option { margin-top: 1; }
    """

    def __init__(
        self,
        title: Shown,
        message: Shown,
        preview: Shown,
        *,
        typed: str | None = None,
        confirm_label: Shown = "Confirm",
        price: Shown = "",
        account: AccountMark | None = None,
        option: Shown = "",
    ) -> None:
        super().__init__()
        # Built inside an action's flow: the account it acts on, which may not be the app's.
        self.account = account or ACTING_ACCOUNT.get()
        self.price = price
        self.title_text = title
        self.message = message
        self.preview = preview
        # What the user types: the label less what nobody can type (escape characters,
        # bidirectional overrides), so a hostile label can neither forge nor block the prompt.
        self.typed = None if typed is None else typed_word(typed)
        self.confirm_label = confirm_label
        self.option = option
        self.chosen: bool | None = None
        """Whether the option was ticked when the request was confirmed (None before)."""

    @property
    def shown_title(self) -> str:
        """The title as shown: the caller's, naming the account."""
        return self._title().plain

    def _title(self) -> Text:
        if self.account is None:
            session = surface(self).state.session
            self.account = session.mark if session is not None else None
        style = account_style(self.account) if self.account is not None else ""
        return account_title(self.title_text, self.account, style)

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(self._title(), id="confirm-title")
            yield Static(Text(self.message), id="confirm-message")
            if self.price:
                yield Static(Text(self.price), id="confirm-price")
            box = PreviewScroll(id="confirm-preview-box")
            box.styles.max_height = PREVIEW_LINES
            with box:
                yield Static(Text(self.preview), id="confirm-preview")
            if self.option:
                yield Tick(self.option, id="confirm-option")
            if self.typed is not None:
                prompt = Text("This cannot be undone. Type ")
                prompt.append(shown(self.typed), style="bold")
                prompt.append(" to confirm:")
                yield Static(prompt)
                yield Input(id="confirm-typed", compact=True)
            with Horizontal(id="confirm-buttons"):
                yield MarkedButton(
                    self.confirm_label,
                    variant="error",
                    id="confirm-yes",
                    disabled=self.typed is not None,
                    compact=True,
                )
                yield MarkedButton("Cancel", id="confirm-no", compact=True)
            yield Static(self._hint(), id="confirm-hint")

    def _hint(self) -> Shown:
        """The keys line; it names the scroll keys when the preview is longer than its box."""
        keys = "enter confirm · esc cancel" if self.typed is not None else "y confirm · n cancel"
        if self.preview.count("\n") + 1 > PREVIEW_LINES:
            keys += " · pgdn/pgup scroll the request"
        return keys

    def on_mount(self) -> None:
        self.call_after_refresh(self._fit)
        if self.typed is not None:
            self.query_one("#confirm-typed", Input).focus()
        else:
            # Safer default: enter on a stray keypress cancels; y confirms on purpose.
            self.query_one("#confirm-no", Button).focus()

    def on_resize(self) -> None:
        self.call_after_refresh(self._fit)

    def _fit(self) -> None:
        """Shrink the request box until the prompt, the input and the buttons are on screen: a
        long impact list or a long title must not push what the user acts on out of sight."""
        dialog = self.query_one("#dialog", Vertical)
        box = self.query_one("#confirm-preview-box", PreviewScroll)
        others = sum(
            child.outer_size.height + child.styles.margin.top + child.styles.margin.bottom
            for child in dialog.children
            if child is not box
        )
        room = self.size.height - dialog.styles.gutter.height - others
        fitted = max(MIN_PREVIEW_LINES, min(PREVIEW_LINES, room))
        if box.styles.max_height is None or box.styles.max_height.value != fitted:
            box.styles.max_height = fitted

    @property
    def option_on(self) -> bool:
        """True when the offered option is ticked (False when none is offered); once
        confirmed, as it was at that moment (the dialog's widgets go with it)."""
        if self.chosen is not None:
            return self.chosen
        return bool(self.option) and self.query_one("#confirm-option", Tick).value

    @property
    def matches(self) -> bool:
        """True when no label is needed or the typed one matches exactly."""
        if self.typed is None:
            return True
        return self.query_one("#confirm-typed", Input).value == self.typed

    @on(Input.Changed, "#confirm-typed")
    def _typed_changed(self) -> None:
        self.query_one("#confirm-yes", Button).disabled = not self.matches

    @on(Input.Submitted, "#confirm-typed")
    def _typed_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_confirm()

    def action_confirm(self) -> None:
        """Confirm when allowed."""
        if self.matches:
            self.chosen = self.option_on
            self.dismiss(True)
            return
        self.app.bell()
        hint = self.query_one("#confirm-hint", Static)
        hint.update(Text(f"✖ Type {shown(self.typed)} exactly, or escape."))

    def action_page(self, pages: int) -> None:
        """Scroll the request preview by ``pages`` screens, whatever has the focus."""
        box = self.query_one("#confirm-preview-box", PreviewScroll)
        if pages > 0:
            box.scroll_page_down(animate=False)
        else:
            box.scroll_page_up(animate=False)

    def action_cancel(self) -> None:
        """Cancel."""
        self.dismiss(False)

    @on(Button.Pressed, "#confirm-yes")
    def _yes(self) -> None:
        self.action_confirm()

    @on(Button.Pressed, "#confirm-no")
    def _no(self) -> None:
        self.action_cancel()
