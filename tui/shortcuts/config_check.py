"""Everything wrong with the user's plugins, aliases and hotkeys, as ``doctor`` and the app's
start say it: one line each, in the config file's order, safe to show."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping

from tui.plugins.checks import plugin_problems
from tui.session.config import Settings, config_path
from tui.shortcuts.commands import alias_problems, hotkey_problems
from tui.untrusted import Shown, shown


def extension_problems(
    settings: Settings,
    which: Callable[[str], str | None],
    binding_keys: Callable[[], Mapping[str, Collection[str]]] | None = None,
) -> list[Shown]:
    """The problems of ``[[plugins]]``, ``[aliases]`` and ``[hotkeys]`` (see
    :mod:`tui.plugins.checks` and :mod:`tui.shortcuts.commands`), each with its line.

    Args:
        settings: The settings as loaded.
        which: Finds a program on ``PATH`` (``shutil.which``).
        binding_keys: Key -> ids of the built-in bindings where items are selected (None:
            keys are not checked against them; collecting them imports the whole UI).
    """
    try:
        text: str | None = config_path().read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        text = None
    keys = binding_keys() if binding_keys is not None else None
    problems = [
        *plugin_problems(settings, which=which, builtin_keys=keys, text=text),
        *alias_problems(settings, text),
        *hotkey_problems(settings, keys, text),
    ]
    problems.sort(key=lambda p: (p.line is None, p.line or 0))
    return [shown(str(p)) for p in problems]
