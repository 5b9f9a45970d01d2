"""Sign in: base URL and token (masked), verified with GET /profile, then stored.

A rejected token keeps the screen open with the API's reason. When no system keyring is usable
(typical over SSH), the screen explains why and lets the user choose between keeping the token
for this session only and a file readable only by them (mode 0600).
"""

from __future__ import annotations

from collections.abc import Callable

import httpx
from pydantic import SecretStr
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, Footer, Input, Label, Static

from tui.api.client import InsecureBaseUrl, validate_base_url
from tui.api.errors import ApiError, TransportFailure, Unauthorized
from tui.models.profile import Profile as AccountProfile
from tui.session.auth import KEYRING_HELP, KeyringUnavailable, TokenSource, store_token
from tui.session.config import ConfigError, Settings, remember_profile, save_settings
from tui.session.login import verify_token
from tui.session.runtime import Session
from tui.untrusted import Shown, shown
from widgets.marked_button import MarkedButton

SessionFactory = Callable[[Settings, str, str, SecretStr], Session]


class LoginScreen(Screen[Session]):
    """Asks for the base URL and the token; dismisses with a ready :class:`Session`.

    Args:
        settings: Loaded settings (the profile's base URL is saved into them).
        profile_name: Profile being signed in.
        base_url: Prefilled base URL.
        transport: httpx transport for the verification request (tests: the simulator's).
        session_factory: Builds the session (defaults to :meth:`Session.for_profile`).
        save: Write the profile's base URL to the config file after a successful sign-in.
    """

    BINDINGS = [Binding("ctrl+q", "app.quit", "Quit", id="app.quit")]

    DEFAULT_CSS = """
    LoginScreen { align: center middle; }
    LoginScreen > Vertical {
        width: 80; max-width: 100%; height: auto;
        border: round $primary; background: $surface; padding: 1 2;
    }
    LoginScreen .login-title { text-style: bold; margin-bottom: 1; }
    LoginScreen Label { margin-top: 1; }
    LoginScreen #login-error { color: $text-error; height: auto; margin-top: 1; }
    LoginScreen #login-error.-hidden { display: none; }
    LoginScreen #login-status { color: $text-muted; height: auto; }
    LoginScreen #keyring-choice { height: auto; margin-top: 1; }
    LoginScreen #keyring-choice.-hidden { display: none; }
    LoginScreen #keyring-help { height: auto; color: $text-warning; }
    LoginScreen Horizontal { height: auto; margin-top: 1; }
    LoginScreen Button { margin-right: 2; }
    """

    def __init__(
        self,
        settings: Settings,
        profile_name: str = "default",
        base_url: str | None = None,
        *,
        transport: httpx.AsyncBaseTransport | None = None,
        session_factory: SessionFactory | None = None,
        save: bool = True,
    ) -> None:
        super().__init__()
        self.settings = settings
        self.profile_name = profile_name
        self.base_url = base_url or ""
        self.transport = transport
        self.session_factory: SessionFactory = session_factory or Session.for_profile
        self.save = save
        self._verified: tuple[str, SecretStr, AccountProfile] | None = None
        self.stored_in: TokenSource | None = None

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(
                Text(f"Sign in to profile {shown(self.profile_name)}"), classes="login-title"
            )
            yield Label("API base URL (ends in /v4)")
            yield Input(self.base_url, placeholder="https://api.example.com/v4", id="base-url")
            yield Label("API token (input hidden)")
            yield Input(password=True, placeholder="token", id="token")
            yield Static(id="login-error", classes="-hidden")
            yield Static(id="login-status")
            with Horizontal(id="login-buttons"):
                yield MarkedButton("Sign in", variant="primary", id="sign-in")
            with Vertical(id="keyring-choice", classes="-hidden"):
                yield Static(Text(KEYRING_HELP), id="keyring-help")
                with Horizontal():
                    yield MarkedButton("Session only", id="store-session")
                    yield MarkedButton("File store (0600)", variant="warning", id="store-file")
        yield Footer()

    def on_mount(self) -> None:
        (self.query_one("#token", Input) if self.base_url else self.query_one("#base-url")).focus()

    def _error(self, text: Shown) -> None:
        error = self.query_one("#login-error", Static)
        error.update(Text(text))
        error.set_class(not text, "-hidden")

    def _status(self, text: Shown) -> None:
        self.query_one("#login-status", Static).update(Text(text))

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        if event.input.id == "base-url":
            self.query_one("#token", Input).focus()
        else:
            self.sign_in()

    @on(Button.Pressed, "#sign-in")
    def _pressed(self) -> None:
        self.sign_in()

    def sign_in(self) -> None:
        """Check the inputs and verify the token."""
        raw_url = self.query_one("#base-url", Input).value
        token = self.query_one("#token", Input).value.strip()
        try:
            url = validate_base_url(raw_url)
        except InsecureBaseUrl as exc:
            self._error(shown(exc))
            self.query_one("#base-url").focus()
            return
        if not token:
            self._error("Enter the API token.")
            self.query_one("#token").focus()
            return
        self._error("")
        self._status("Checking the token with GET /profile …")
        self.query_one("#sign-in", Button).disabled = True
        self._verify(url, SecretStr(token))

    @work(exclusive=True, exit_on_error=False, group="login")
    async def _verify(self, url: str, token: SecretStr) -> None:
        try:
            profile = await verify_token(url, token, transport=self.transport)
        except Unauthorized as exc:
            self._failed(f"The token was rejected: {shown(exc.reasons)}. Nothing was stored.")
            return
        except ApiError as exc:
            self._failed(f"Could not verify the token: {shown(exc)}. Nothing was stored.")
            return
        except TransportFailure as exc:
            self._failed(f"Cannot reach the API: {shown(exc.reason)}. Nothing was stored.")
            return
        self._verified = (url, token, profile)
        user = profile.username or "?"
        self._status(f"Token accepted for {shown(user)}.")
        try:
            self.stored_in = store_token(self.profile_name, token, TokenSource.KEYRING)
        except KeyringUnavailable:
            self.query_one("#keyring-choice").remove_class("-hidden")
            self.query_one("#login-buttons").add_class("-hidden")
            self.query_one("#store-session", Button).focus()
            return
        self._finish()

    def _failed(self, message: Shown) -> None:
        self._error(message)
        self._status("")
        self.query_one("#sign-in", Button).disabled = False
        token = self.query_one("#token", Input)
        token.focus()

    @on(Button.Pressed, "#store-session")
    def _session_only(self) -> None:
        self.stored_in = TokenSource.SESSION
        self._finish()

    @on(Button.Pressed, "#store-file")
    def _file_store(self) -> None:
        assert self._verified is not None
        self.stored_in = store_token(self.profile_name, self._verified[1], TokenSource.FILE)
        self.app.notify(
            "The token is in a file readable only by you (mode 0600). Protect your account.",
            title="Token stored in a file",
            severity="warning",
        )
        self._finish()

    def _finish(self) -> None:
        assert self._verified is not None
        url, token, _profile = self._verified
        if self.save:
            remember_profile(self.settings, self.profile_name, url)
            try:
                save_settings(self.settings)
            except (OSError, ConfigError) as exc:
                self.app.notify(
                    f"Settings not saved: {shown(exc)}", title="Config file", markup=False
                )
        self.dismiss(self.session_factory(self.settings, self.profile_name, url, token))
