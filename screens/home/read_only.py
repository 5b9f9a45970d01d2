"""``:read-only``: the account's read-only mode turned on at once, off only after a confirmation.

Never off when the command line or the config file made the account read-only (it says why:
see :mod:`tui.accounts.read_only`). Actions are checked again and the status bar says so, both
told by the account's signal.
"""

from __future__ import annotations

from typing import Any

from textual.app import App

from screens.app_surface import surface
from tui.untrusted import shown


def toggle_read_only(app: App[Any]) -> None:
    """``:read-only``: on at once; off only after the user confirms on a dialog, and never
    when the command line or the profile made the account read-only (it says why)."""
    state = surface(app).state
    account = state.account
    if account is None:
        return
    if not account.read_only.on:
        state.set_read_only(True)
        app.screen.refresh_bindings()
        app.notify(
            f"Nothing can be changed on {shown(account.name)} now. "
            "Type :read-only again to leave it.",
            title="Read-only session",
            markup=False,
        )
        return
    held = account.read_only.held_by()
    if held:
        app.notify(
            f"{shown(account.name)} stays read-only: {shown(held)}.",
            title="Read-only session",
            severity="warning",
            markup=False,
        )
        return
    from screens.dialogs.confirm import ConfirmModal

    def answered(confirmed: bool | None) -> None:
        if confirmed:
            state.set_read_only(False)
            app.screen.refresh_bindings()
            app.notify("Changes are possible again.", title="Read-only session ended")

    app.push_screen(
        ConfirmModal(
            "Leave the read-only session?",
            "Actions that change resources become available again in this session.",
            "(no request is sent)",
            confirm_label="Leave read-only",
        ),
        answered,
    )
