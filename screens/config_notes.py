"""At start, name the config file's unknown keys (each with the nearest valid one).

Unknown settings are known from loading the file; ``[keymap]`` ids are checked against every
binding id of the app, which takes importing every screen: that runs in a thread after the
first frame, so the start does not wait for it. Plugins, aliases and hotkeys are checked there
too (their areas, programs, targets and keys), as ``doctor`` checks them.
"""

from __future__ import annotations

import asyncio
from typing import Any

from tui.session.config_keys import UnknownKey, unknown_binding_ids
from tui.untrusted import shown

TITLE = "Config file"
TIMEOUT = 20.0
"""Seconds a warning stays: long enough to read a key's name and the suggestion."""


def announce_unknown_keys(app: Any) -> None:
    """Notify each unknown setting now and start checking the keymap (see the module)."""
    for key in app.settings.unknown_keys:
        _notify(app, key)
    settings = app.settings
    if settings.keymap or settings.plugins or settings.aliases or settings.hotkeys:
        app.run_worker(_check_keymap(app), group="config-keymap", exit_on_error=False)


async def _check_keymap(app: Any) -> None:
    from screens.binding_ids import binding_ids

    known = await asyncio.to_thread(binding_ids)
    for key in unknown_binding_ids(app.settings.keymap, known):
        _notify(app, key)
    for problem in await asyncio.to_thread(_extension_problems, app.settings):
        app.notify(shown(problem), title=TITLE, severity="warning", timeout=TIMEOUT, markup=False)


def _extension_problems(settings: Any) -> list[str]:
    """What is wrong with the plugins, aliases and hotkeys (as ``doctor`` says it)."""
    import shutil

    from screens.binding_ids import item_screen_keys
    from tui.shortcuts.config_check import extension_problems

    return list(extension_problems(settings, shutil.which, item_screen_keys))


def _notify(app: Any, key: UnknownKey) -> None:
    app.notify(key.message(), title=TITLE, severity="warning", timeout=TIMEOUT, markup=False)
