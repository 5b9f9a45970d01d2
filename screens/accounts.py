"""``:account``: switch the running app to another profile, with a picker when no name is given.

The session side (which profiles exist, reading the chosen one's token, building its client)
is :mod:`tui.accounts.switch`; this module does the screen side. A switch drops every screen of
the old account, the dialogs on top included: their workers are cancelled with them, so what a
dialog would have sent reaches neither account. The app then takes the new account's state
whole (``CloudApp.adopt_account``: its read-only mode, colour, user, API health, lists, activity
log, watchlist and undo journal, see :mod:`tui.accounts.state`) and the areas open afresh on it;
no toast of the old one stays up.

Bindings of the picker:

| Key | Id | Description |
| :- | :- | :- |
| up, down | (list) | Move the highlight |
| enter | (list) | Switch to the highlighted profile |
| escape | account.cancel | Close without switching |
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Static

from screens.pick_one import PickOneModal
from tui.accounts.switch import AccountUnavailable, profile_names
from tui.untrusted import shown

if TYPE_CHECKING:
    from tui.session.runtime import Session

SWITCH_MODE = "_account_switch"
"""The mode shown while the areas are rebuilt for the new account."""


class AccountPicker(PickOneModal):
    """Pick a profile to switch to (the current one is marked and highlighted)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="account.cancel"),
    ]

    def __init__(self, names: list[str], current: str) -> None:
        options = [(f"{name}  (in use)" if name == current else name, name) for name in names]
        super().__init__("Switch to which account?", options, "enter switch · esc cancel", current)
        self.names = names
        self.current = current


class SwitchingScreen(Screen[None]):
    """Shown for the moment the areas are rebuilt: nothing of either account on it."""

    def compose(self) -> ComposeResult:
        yield Static(Text("Switching account…"))


def account_command(app: Any, name: str) -> None:
    """``:account NAME`` switches; ``:account`` opens the picker."""
    names = profile_names(app.settings)
    if name:
        switch_account(app, name)
        return
    if not names:
        app.notify(
            "No profiles in the config file yet: run `cloudtui login --profile NAME`.",
            title="Accounts",
            severity="warning",
            markup=False,
        )
        return
    current = app.session.profile_name if app.session is not None else ""

    def chosen(picked: str | None) -> None:
        if picked:
            switch_account(app, picked)

    app.push_screen(AccountPicker(names, current), chosen)


def switch_account(app: Any, name: str, *, then: Callable[[], object] | None = None) -> None:
    """Open profile ``name`` (its token is read now) and move the app onto it.

    Args:
        app: The app.
        name: The profile to move to.
        then: Called once the app is on it (a cross-account list opens the row's item).
    """
    current = app.session.profile_name if app.session is not None else None
    if name == current:
        app.notify(f"Already on {shown(name)}.", title="Accounts", markup=False)
        return
    try:
        session = app.account_opener(app.settings, name)
    except AccountUnavailable as exc:
        app.notify(shown(exc), title="Accounts", severity="error", markup=False)
        return
    app.run_worker(
        move_to_session(app, session, then),
        group="account-switch",
        exclusive=True,
        exit_on_error=False,
    )


async def move_to_session(
    app: Any, session: Session, then: Callable[[], object] | None = None
) -> None:
    """Drop every screen of the old account, open the areas on ``session``, then ``then``."""
    from screens.home_actions import open_home_state

    old = app.session
    area = app.current_mode
    app.add_mode(SWITCH_MODE, SwitchingScreen)
    await app.switch_mode(SWITCH_MODE)
    app.clear_notifications()
    for worker in list(app.workers):
        # The app's own background work of the old account (prefetches, the user's profile).
        if worker.node is app and worker.group != "account-switch":
            worker.cancel()
    for mode in app.area_modes():
        await app.remove_mode(mode)  # its screens and their workers (open dialogs) go too
    app.add_area_modes()
    app.adopt_account(session)  # the old account's state goes as a whole
    if old is not None:
        await old.aclose()
    open_home_state(app)
    app.load_user()
    await app.switch_mode(area if area in app.area_modes() else app.start_mode())
    await app.remove_mode(SWITCH_MODE)
    app.notify(f"Now on {shown(session.profile_name)}.", title="Accounts", markup=False)
    if then is not None:
        then()
