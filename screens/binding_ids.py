"""Every binding id the app defines: what a ``[keymap]`` entry of the config file may name.

Ids are read from the code itself (the ``BINDINGS`` of every screen and widget, bindings kept
in module constants, and the keyed actions of every resource spec), so a new binding is known
here without a list to update. Collecting them imports every screen and widget module (about
a second on a busy machine): the app does it after its first frame, ``doctor`` only when the
config file has a keymap.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterable, Iterator, Mapping
from functools import cache
from types import ModuleType
from typing import Any

from textual.binding import Binding
from textual.dom import DOMNode

from tui.shortcuts.keys import split_keys

UI_PACKAGES = ("screens", "widgets")

ITEM_SCREEN_CLASSES = (
    ("tui.app", "CloudApp"),
    ("screens.resource_list", "ResourceListScreen"),
    ("screens.list_pane", "ResourceListPane"),
    ("screens.resource_detail", "ResourceDetailScreen"),
    ("widgets.resource_table", "ResourceTable"),
)
"""Where an item is selected: the keys bound there are what a plugin or hotkey key must not
take (the app's own, the list's and the detail's, and the table's)."""
"""Packages whose every module is imported, so that each class with bindings is defined."""


def _modules() -> Iterator[ModuleType]:
    yield importlib.import_module("tui.app")
    for package_name in UI_PACKAGES:
        package = importlib.import_module(package_name)
        for info in pkgutil.iter_modules(package.__path__, f"{package_name}."):
            yield importlib.import_module(info.name)


def _subclasses(cls: type[Any]) -> Iterator[type[Any]]:
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)


def _ids(values: Iterable[Any]) -> Iterator[str]:
    for value in values:
        if isinstance(value, Binding) and value.id:
            yield value.id
        elif isinstance(value, list | tuple):
            yield from _ids(value)


@cache
def binding_ids() -> frozenset[str]:
    """The ids of every binding of the app, its screens and widgets (Textual's included)."""
    from tui.resources.areas import SPECS

    found: set[str] = set()
    for module in _modules():
        found.update(_ids(vars(module).values()))  # bindings kept as module constants
    for cls in set(_subclasses(DOMNode)):
        found.update(_ids(vars(cls).get("BINDINGS", ())))
    found.update(a.id for spec in SPECS.values() for a in spec.actions if a.key)
    return frozenset(found)


@cache
def item_screen_keys() -> Mapping[str, frozenset[str]]:
    """Normalised key -> ids of the built-in bindings on it where an item is selected (see
    :data:`ITEM_SCREEN_CLASSES`; inherited bindings included, spec actions not)."""
    found: dict[str, set[str]] = {}
    for module_name, class_name in ITEM_SCREEN_CLASSES:
        cls = getattr(importlib.import_module(module_name), class_name)
        for klass in cls.__mro__:
            for binding in Binding.make_bindings(vars(klass).get("BINDINGS", ())):
                for key in split_keys(binding.key):
                    found.setdefault(key, set()).add(binding.id or binding.action)
    return {key: frozenset(ids) for key, ids in found.items()}
