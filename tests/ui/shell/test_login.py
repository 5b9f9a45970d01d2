"""The login screen: verify with GET /profile, keep the screen open on rejection, store the token
(keyring, or the user's choice of session-only / 0600 file when no keyring is usable)."""

from __future__ import annotations

import stat
from typing import Any

import keyring
from keyring.backends import fail
from pydantic import SecretStr
from textual.app import App

from screens.shell.login import LoginScreen
from tui.api.client import ApiClient
from tui.session.auth import KEYRING_HELP, KEYRING_SERVICE, token_file
from tui.session.config import Settings, config_path, load_settings
from tui.session.runtime import Session
from tui.simulator import DEMO_TOKENS, Simulator, VirtualClock

BASE = "http://127.0.0.1:8080/v4"


class Host(App[None]):
    """Pushes the login screen and records what it returns."""

    def __init__(self, sim: Simulator, settings: Settings) -> None:
        super().__init__()
        self.sim = sim
        self.settings = settings
        self.result: list[Session | None] = []

    def on_mount(self) -> None:
        def factory(settings: Settings, profile: str, url: str, token: SecretStr) -> Session:
            client = ApiClient(url, token, transport=self.sim.transport())
            return Session(client, settings, profile)

        self.push_screen(
            LoginScreen(
                self.settings,
                "work",
                BASE,
                transport=self.sim.transport(),
                session_factory=factory,
            ),
            self.result.append,
        )


async def sign_in(pilot: Any, token: str) -> None:
    screen = pilot.app.screen
    screen.query_one("#token").value = token
    await pilot.click("#sign-in")
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


async def test_rejected_token_keeps_the_screen_open_with_the_reason(isolated_home) -> None:
    app = Host(Simulator(clock=VirtualClock()), Settings())
    async with app.run_test(size=(100, 30)) as pilot:
        await sign_in(pilot, "not-a-token")
        assert isinstance(app.screen, LoginScreen)
        error = str(app.screen.query_one("#login-error").render())
        assert "rejected" in error and "Invalid Token" in error
        assert app.result == []
        assert not isolated_home.entries
        # The token field is masked.
        assert app.screen.query_one("#token").password


async def test_insecure_base_url_is_refused() -> None:
    app = Host(Simulator(clock=VirtualClock()), Settings())
    async with app.run_test(size=(100, 30)) as pilot:
        app.screen.query_one("#base-url").value = "http://api.example.com/v4"
        await sign_in(pilot, DEMO_TOKENS["unrestricted"])
        assert isinstance(app.screen, LoginScreen)
        assert "plain http" in str(app.screen.query_one("#login-error").render())


async def test_accepted_token_is_stored_in_the_keyring(isolated_home) -> None:
    settings = Settings()
    app = Host(Simulator(clock=VirtualClock()), settings)
    async with app.run_test(size=(100, 30)) as pilot:
        await sign_in(pilot, DEMO_TOKENS["unrestricted"])
        assert len(app.result) == 1 and app.result[0] is not None
        assert app.result[0].profile_name == "work"
        assert isolated_home.entries[(KEYRING_SERVICE, "work")] == DEMO_TOKENS["unrestricted"]
        saved = load_settings(config_path())
        assert saved.profiles["work"].base_url == BASE
        assert DEMO_TOKENS["unrestricted"] not in config_path().read_text()
        await app.result[0].aclose()


async def test_no_keyring_offers_session_only() -> None:
    keyring.set_keyring(fail.Keyring())
    app = Host(Simulator(clock=VirtualClock()), Settings())
    async with app.run_test(size=(100, 30)) as pilot:
        await sign_in(pilot, DEMO_TOKENS["unrestricted"])
        screen = app.screen
        assert isinstance(screen, LoginScreen)
        choice = screen.query_one("#keyring-choice")
        assert choice.display and not choice.has_class("-hidden")
        assert str(screen.query_one("#keyring-help").render()) == KEYRING_HELP
        await pilot.click("#store-session")
        await pilot.pause()
        assert app.result and app.result[0] is not None
        assert not token_file().exists()
        await app.result[0].aclose()


async def test_no_keyring_offers_a_0600_file() -> None:
    keyring.set_keyring(fail.Keyring())
    app = Host(Simulator(clock=VirtualClock()), Settings())
    async with app.run_test(size=(100, 30)) as pilot:
        await sign_in(pilot, DEMO_TOKENS["unrestricted"])
        await pilot.click("#store-file")
        await pilot.pause()
        assert app.result and app.result[0] is not None
        path = token_file()
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        assert DEMO_TOKENS["unrestricted"] in path.read_text()
        await app.result[0].aclose()


async def test_app_without_a_session_starts_on_the_login_screen() -> None:
    from tui.app import CloudApp

    app = CloudApp(Settings(), None, profile_name="work", base_url=BASE)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, LoginScreen)
        assert app.screen.query_one("#base-url").value == BASE
