"""Which plugins an area offers, and what ``doctor`` says about them.

A plugin's ``areas`` are area ids or any ``:`` word of an area (``in`` is instances), or ``*``.
Its problems, each a warning with the plugin's line: an area no ``:`` word names (with the
nearest one), a program that is not installed, and a key that something else has where the
plugin is offered: a built-in binding (the app's, the list's, the detail's, the table's), an
action of one of its areas, a hotkey, or an earlier plugin of the same area. Unknown fields
of a ``[[plugins]]`` table are named with the config file's other unknown keys.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Collection, Mapping, Sequence
from functools import cache

from tui.handoff.launch import program_source
from tui.plugins.settings import ANY_AREA, PluginSettings
from tui.resources.areas import AREA_OF_SPEC, AREAS, COMMANDS, SPECS
from tui.session.config import ConfigProblem, Settings
from tui.session.config_keys import line_of, nearest
from tui.shortcuts.keys import normalize_key, split_keys


@cache
def area_words() -> dict[str, str]:
    """``:`` word -> area id, for the resource areas (where items are selected)."""
    return {word: destination.area.id for word, destination in COMMANDS.items()}


def plugin_areas(plugin: PluginSettings) -> frozenset[str]:
    """The area ids a plugin is offered in (every area for ``*``; unknown words left out)."""
    if ANY_AREA in plugin.areas:
        return frozenset(area.id for area in AREAS)
    words = area_words()
    return frozenset(words[w.lower()] for w in plugin.areas if w.lower() in words)


def plugins_for(plugins: Sequence[PluginSettings], area_id: str) -> list[PluginSettings]:
    """The plugins offered in ``area_id``, in the config file's order."""
    return [p for p in plugins if area_id in plugin_areas(p)]


def binding_id(plugin: PluginSettings) -> str:
    """The plugin's binding id (``plugin.ping``), for the keymap, help and footer."""
    slug = re.sub(r"[^a-z0-9]+", "_", plugin.title.lower()).strip("_") or "plugin"
    return f"plugin.{slug}"


@cache
def area_action_keys(area_id: str) -> dict[str, tuple[str, ...]]:
    """Normalised key -> ids of the keyed actions of the area's resources."""
    keys: dict[str, list[str]] = {}
    for spec_id, spec in SPECS.items():
        if AREA_OF_SPEC.get(spec_id) != area_id:
            continue
        for action in spec.actions:
            for key in split_keys(action.key) if action.key else ():
                keys.setdefault(key, []).append(action.id)
    return {key: tuple(dict.fromkeys(ids)) for key, ids in keys.items()}


def _installed(program: str, which: Callable[[str], str | None]) -> bool:
    path = os.path.expanduser(program)
    if os.sep in path:
        return os.access(path, os.X_OK) and not os.path.isdir(path)
    return which(path) is not None


def _key_users(
    index: int,
    plugin: PluginSettings,
    settings: Settings,
    builtin_keys: Mapping[str, Collection[str]] | None,
) -> list[str]:
    """What else has the plugin's key where it is offered."""
    key = normalize_key(plugin.key)
    users = [*sorted((builtin_keys or {}).get(key, ()))]
    areas = plugin_areas(plugin)
    for area in sorted(areas):
        users += [f"{action} ({area})" for action in area_action_keys(area).get(key, ())]
    users += [f"the hotkey {k}" for k in settings.hotkeys if normalize_key(k) == key]
    for other in settings.plugins[:index]:
        if normalize_key(other.key) == key and areas & plugin_areas(other):
            users.append(f"the plugin {other.title!r}")
    return list(dict.fromkeys(users))


def plugin_problems(
    settings: Settings,
    *,
    which: Callable[[str], str | None],
    builtin_keys: Mapping[str, Collection[str]] | None = None,
    text: str | None = None,
) -> list[ConfigProblem]:
    """Every problem of the ``[[plugins]]`` tables (see the module), in file order.

    Args:
        settings: The settings.
        which: Finds a program on ``PATH`` (``shutil.which``).
        builtin_keys: Normalised key -> ids of the built-in bindings on it where items are
            selected (None: not checked; collecting them imports the whole UI).
        text: The config file's text (for lines).
    """
    lines = text.splitlines() if text is not None else []
    problems: list[ConfigProblem] = []

    def add(index: int, field: str, message: str) -> None:
        line = line_of(lines, ("plugins", index, field)) if lines else None
        title = settings.plugins[index].title
        problems.append(ConfigProblem(line, f"[[plugins]] {title!r}: {message}"))

    words = area_words()
    for index, plugin in enumerate(settings.plugins):
        for word in plugin.areas:
            if word != ANY_AREA and word.lower() not in words:
                hint = nearest(word.lower(), [a.id for a in AREAS])
                also = f"; did you mean {hint}?" if hint else ""
                add(index, "areas", f"{word!r} is not an area{also}")
        program = plugin.command[0]
        if not _installed(program, which):
            source = program_source(program)
            add(
                index, "command", f"{program} is not installed" + (f" ({source})" if source else "")
            )
        users = _key_users(index, plugin, settings, builtin_keys)
        if users:
            add(index, "key", f'the key "{plugin.key}" is taken by {", ".join(users)}')
    return problems
