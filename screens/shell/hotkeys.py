"""The user's ``[hotkeys]``: each key runs a ``:`` command as if typed (aliases allowed),
bound on the app at start, after every built-in key (a key a built-in binding has is reported
by the config check and keeps its built-in meaning)."""

from __future__ import annotations

from typing import Any

from textual.app import App
from textual.binding import Binding

from screens.app_surface import surface
from tui.shortcuts.commands import hotkey_commands
from tui.untrusted import shown
from widgets.textual_private import bind_last

HOTKEY_ID = "hotkey"
"""Binding id prefix of the hotkeys (``hotkey.f6``)."""


def hotkey_bindings(app: App[Any]) -> list[Binding]:
    """One binding per hotkey of the config file: ``hotkey('<key>')`` runs its command."""
    commands = hotkey_commands(surface(app).state.settings.hotkeys)
    return [
        Binding(
            key,
            f"hotkey({key!r})",
            shown(f":{command}"),
            show=False,
            id=f"{HOTKEY_ID}.{key}",
            tooltip="From [hotkeys] in the config file",
        )
        for key, command in commands.items()
    ]


def bind_hotkeys(app: App[Any]) -> None:
    """Bind the config file's hotkeys on ``app``."""
    bind_last(app, hotkey_bindings(app))


def hotkey_command(app: App[Any], key: str) -> str | None:
    """The command the hotkey ``key`` runs (None: no such hotkey)."""
    return hotkey_commands(surface(app).state.settings.hotkeys).get(key)
