"""The user's ``[[plugins]]`` on a list or a detail screen: their keys, bound where their
``areas`` say, shown in the footer and in help, and starting the plugin on the selected item.

What a plugin does once started (the confirmation, the hand-off or the background run and its
panel) is :mod:`screens.editors.plugins`, imported when the first plugin runs.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from textual.binding import Binding
from textual.dom import DOMNode
from textual.screen import Screen

from screens.app_surface import surface
from tui.resources.areas import AREA_OF_SPEC
from tui.resources.spec import ResourceSpec
from tui.untrusted import shown
from widgets.textual_private import bind_first, bindings_after_keymap

FLOW = "screens.editors.plugins:run_plugin"
"""The flow, imported on first use (the editors sit above this package)."""


def plugin_bindings(node: DOMNode, spec: ResourceSpec) -> list[Binding]:
    """The bindings of the plugins offered where ``spec``'s items are selected (its area's);
    each runs ``plugin(N)``, N the plugin's place in the config file."""
    plugins = surface(node).state.settings.plugins
    area = AREA_OF_SPEC.get(spec.id)
    if not plugins or area is None:
        return []
    from tui.plugins.checks import binding_id, plugin_areas  # only for a config with plugins
    from tui.shortcuts.keys import normalize_key

    return [
        Binding(
            normalize_key(plugin.key),
            f"plugin({index})",
            shown(plugin.title),
            id=binding_id(plugin),
            tooltip=shown(f"Plugin: {' '.join(plugin.command)} ({plugin.mode})"),
        )
        for index, plugin in enumerate(plugins)
        if area in plugin_areas(plugin)
    ]


def bind_plugins(node: DOMNode, spec: ResourceSpec) -> None:
    """Bind the plugins of ``spec``'s area on ``node``, before its own keys: the user asked
    for them, so the footer shows them before the built-in actions (it has room for few).
    A key the node has already keeps its built-in meaning (the config check reports it)."""
    taken = bindings_after_keymap(node).key_to_bindings
    bind_first(node, [b for b in plugin_bindings(node, spec) if b.key not in taken])


def start_plugin(
    node: DOMNode,
    host: Screen[Any],
    spec: ResourceSpec,
    item: Mapping[str, Any] | None,
    index: int,
) -> None:
    """Run plugin ``index`` of the config file on ``item`` (in a worker of ``node``)."""
    plugins = surface(node).state.settings.plugins
    if not 0 <= index < len(plugins):
        return
    if not item:
        node.app.notify("Nothing selected to run it on.", title=shown(plugins[index].title))
        return
    module_name, _, function = FLOW.partition(":")
    flow = getattr(importlib.import_module(module_name), function)
    node.run_worker(
        flow(host, spec, dict(item), plugins[index]), group="plugin", exit_on_error=False
    )
