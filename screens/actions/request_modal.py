"""The base of every dialog that sends one request (generated forms and hand-written ones).

The modal validates before sending, sends through the ``submit`` callback, and shows a
server's field errors beside the inputs. It stays open, with everything typed, until the call
succeeds; escape cancels. A send whose answer was lost is not sent twice without asking.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from screens.app_surface import Change, surface
from screens.dialogs.confirm import account_style, account_title
from tui.accounts.naming import ACTING_ACCOUNT
from tui.api.errors import ApiError, CloudError, may_have_been_carried_out
from tui.refresh import describe_error
from tui.untrusted import Shown
from widgets.marked_button import MarkedButton

Submit = Callable[[dict[str, Any]], Awaitable[Any]]
"""Sends a valid body; returns the API's answer or raises the client's error."""


@dataclass(frozen=True)
class FormOutcome:
    """What a successful form returns.

    Attributes:
        body: The body that was sent.
        answer: The API's answer.
    """

    body: dict[str, Any]
    answer: Any


class RequestModal(ModalScreen[FormOutcome | None]):
    """A dialog that sends one request and stays open, with its input, until it succeeds.

    Subclasses compose their inputs in :meth:`compose_body` and turn them into a body in
    :meth:`build`; this class sends it, shows the API's errors and closes on success.

    Args:
        title: Heading.
        submit: Sends the body.
        request_line: ``METHOD /path`` shown under the title.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "submit", "Send", id="form.submit", priority=True),
        Binding("escape", "cancel", "Cancel", id="form.cancel"),
    ]

    DEFAULT_CSS = """
    RequestModal { align: center middle; }
    RequestModal > #dialog {
        width: 100; max-width: 100%; height: 90%; max-height: 100%;
        border: round $primary; background: $surface; padding: 0 1;
    }
    RequestModal #form-title { text-style: bold; height: auto; }
    RequestModal #form-request { color: $text-muted; height: 1; }
    RequestModal #form-note { color: $text-muted; height: auto; }
    RequestModal #form-general { color: $text-error; height: auto; }
    RequestModal #form-general.-hidden { display: none; }
    RequestModal #form-buttons { height: 1; align-horizontal: right; margin-top: 1; }
    RequestModal #form-buttons Button { margin-left: 1; }
    RequestModal #form-hint { color: $text-muted; height: auto; }  /* whole at 80 columns */
    """

    accepts_typeahead = True
    """Characters typed while the dialog opened go into its first field (see key_gate)."""

    hint = "ctrl+s send · esc cancel · tab next field"
    """Key reminder under the buttons."""
    send_label = "Send"
    """Text of the button that sends."""

    def __init__(self, title: Shown, submit: Submit, *, request_line: Shown = "") -> None:
        super().__init__()
        self.title_text = title
        self.account = ACTING_ACCOUNT.get()
        """The account the form sends to (an action's, which may not be the app's)."""
        self.submit = submit
        self.request_line = request_line
        self.sending = False
        self.maybe_sent = False
        """A send's answer was lost: the server may have acted, so sending again asks first."""

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(self._title(), id="form-title")
            if self.request_line:
                yield Static(Text(self.request_line), id="form-request")
            yield from self.compose_body()
            yield Static("", id="form-general", classes="-hidden")
            with Horizontal(id="form-buttons"):
                yield MarkedButton(self.send_label, variant="primary", id="form-send", compact=True)
                yield MarkedButton("Cancel", id="form-cancel", compact=True)
            yield Static(self.hint, id="form-hint")

    def _title(self) -> Text:
        """The title; it names the account when that is not the app's (a row of a list
        across accounts), since the status bar names the app's."""
        own = surface(self).state.session
        if self.account is None or (own is not None and self.account.name == own.profile_name):
            return Text(self.title_text)
        return account_title(self.title_text, self.account, account_style(self.account))

    def compose_body(self) -> ComposeResult:
        """The dialog's inputs."""
        yield from ()

    def build(self) -> dict[str, Any] | None:
        """The body to send, or None after showing why it cannot be sent."""
        raise NotImplementedError

    def show_general(self, messages: list[Shown]) -> None:
        """Messages below the inputs (empty: hide)."""
        general = self.query_one("#form-general", Static)
        general.update(Text("\n".join(messages)))
        general.set_class(not messages, "-hidden")

    def show_api_error(self, error: ApiError) -> None:
        """An API refusal: field errors where the subclass can place them, else below."""
        self.show_general([describe_error(error)])

    def action_submit(self) -> None:
        """Build and send; errors stay on screen with everything typed."""
        if self.sending:
            return
        body = self.build()
        if body is None:
            return
        self.sending = True
        self.query_one("#form-send", Button).disabled = True
        self._send(body)

    async def confirm_before_send(self, body: dict[str, Any]) -> bool:
        """Last word before sending ``body`` (a subclass asks about what cannot be undone)."""
        return True

    # Named and described: the default description would print the body (secrets included).
    @work(group="send", exclusive=True, name="sending the request", description="send")
    async def _send(self, body: dict[str, Any]) -> None:
        try:
            if self.maybe_sent and not await self._confirm_resend(body):
                return
            if not await self.confirm_before_send(body):
                return
            answer = await self.submit(body)
        except CloudError as error:
            if may_have_been_carried_out(error):
                self._answer_lost(error)
            elif isinstance(error, ApiError):
                self.show_api_error(error)
            else:
                self.show_general([describe_error(error)])
        else:
            self.dismiss(FormOutcome(body, answer))
        finally:
            self.sending = False
            # Dismissed by now on success: its buttons may already be gone.
            for button in self.query("#form-send").results(Button):
                button.disabled = False

    def _answer_lost(self, error: CloudError) -> None:
        """The server may have acted: say so, keep every input, refresh the lists behind."""
        self.maybe_sent = True
        self.show_general([describe_error(error)])
        surface(self).change_signal.publish(Change(answer_lost=True))

    async def _confirm_resend(self, body: dict[str, Any]) -> bool:
        """Ask before sending again what the server may already have carried out."""
        from screens.dialogs.confirm import ConfirmModal, request_preview

        method, _, path = self.request_line.partition(" ")
        modal = ConfirmModal(
            f"{self.title_text}: send again?",
            "The last send may have been carried out (its answer was lost). Check the list "
            "first: sending again may do it twice.",
            request_preview(method, path, body),
            confirm_label="Send again",
            account=self.account,
        )
        confirmed: bool = await self.app.push_screen_wait(modal)
        if confirmed:
            self.maybe_sent = False
        return bool(confirmed)

    def action_cancel(self) -> None:
        """Close without sending."""
        self.dismiss(None)

    @on(Button.Pressed, "#form-send")
    def _send_pressed(self) -> None:
        self.action_submit()

    @on(Button.Pressed, "#form-cancel")
    def _cancel_pressed(self) -> None:
        self.action_cancel()
