"""Every binding id the app defines: what a ``[keymap]`` entry of the config file may name.

Bindings are read from the code itself (the ``BINDINGS`` of every screen and widget, bindings
kept in module constants, and the keyed actions of every resource spec), so a new binding is
known here without a list to update. Collecting them imports every module of the UI packages,
subpackages included (about a second on a busy machine): the app does it after its first
frame, ``doctor`` only when the config file has a keymap, and ``docs/keys.py`` to write
``docs/keys.md``.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from types import ModuleType
from typing import Any, Literal

from textual.binding import Binding
from textual.dom import DOMNode

from tui.shortcuts.keys import split_keys

APP_MODULE = "tui.app"
"""The module of the app's own bindings."""
UI_PACKAGES = ("screens", "widgets")
"""Packages whose every module (in subpackages too) is imported, so that each class with
bindings is defined."""

ITEM_SCREEN_CLASSES = (
    ("tui.app", "CloudApp"),
    ("screens.resource_list", "ResourceListScreen"),
    ("screens.list_pane", "ResourceListPane"),
    ("screens.resource_detail", "ResourceDetailScreen"),
    ("widgets.resource_table", "ResourceTable"),
)
"""Where an item is selected: the keys bound there are what a plugin or hotkey key must not
take (the app's own, the list's and the detail's, and the table's)."""

OwnerKind = Literal["class", "constant", "action"]


@dataclass(frozen=True)
class DeclaredBinding:
    """A binding with an id, and where the code declares it.

    Attributes:
        binding: The binding as declared (its keys before any ``[keymap]`` remap).
        kind: ``class`` (in a class's ``BINDINGS``), ``constant`` (a module constant that
            screens add to their bindings) or ``action`` (a keyed action of a resource spec).
        owner: The class (``screens.help.HelpScreen``) or constant
            (``screens.list_marks.MARKS_BINDING``) by its dotted name, or the spec's id
            (``compute.instances``) for an action.
        owner_title: For an action, the spec's title (``Instances``); else empty.
    """

    binding: Binding
    kind: OwnerKind
    owner: str
    owner_title: str = ""

    @property
    def id(self) -> str:
        """The binding's id (the name a ``[keymap]`` entry uses)."""
        return self.binding.id or ""


def ui_modules() -> Iterator[ModuleType]:
    """The app's module and every module of the UI packages, each imported, in name order."""
    yield importlib.import_module(APP_MODULE)
    for package_name in UI_PACKAGES:
        package = importlib.import_module(package_name)
        yield package
        infos = pkgutil.walk_packages(package.__path__, f"{package_name}.")
        for name in sorted(info.name for info in infos):
            yield importlib.import_module(name)


def _subclasses(cls: type[Any]) -> Iterator[type[Any]]:
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)


def _bindings(values: Iterable[Any]) -> Iterator[Binding]:
    for value in values:
        if isinstance(value, Binding) and value.id:
            yield value
        elif isinstance(value, list | tuple):
            yield from _bindings(value)


def _counts(module_name: str, ours: set[str]) -> bool:
    # Textual's own classes count (their ids, if any, are remappable too); classes defined
    # elsewhere (a test's app, say) do not.
    return module_name in ours or module_name.partition(".")[0] == "textual"


@cache
def declared_bindings() -> tuple[DeclaredBinding, ...]:
    """Every binding with an id of the app, its screens and widgets, in a stable order.

    Returns:
        Class bindings (by class name), then module constants (by name), then spec actions
        (by spec id); a binding declared by several classes is listed once per class.
    """
    from screens.shell import binding_for
    from tui.resources.areas import SPECS

    modules = list(ui_modules())
    ours = {module.__name__ for module in modules}
    found: list[DeclaredBinding] = []
    classes = {c for c in _subclasses(DOMNode) if _counts(c.__module__, ours)}
    seen: set[int] = set()  # by identity: a constant imported elsewhere is still one binding
    for cls in sorted(classes, key=lambda c: f"{c.__module__}.{c.__qualname__}"):
        owner = f"{cls.__module__}.{cls.__qualname__}"
        for binding in _bindings(vars(cls).get("BINDINGS", ())):
            seen.add(id(binding))
            found.append(DeclaredBinding(binding, "class", owner))
    for module in modules:
        for name, value in sorted(vars(module).items()):
            for binding in _bindings([value]):
                if id(binding) not in seen:
                    seen.add(id(binding))
                    found.append(DeclaredBinding(binding, "constant", f"{module.__name__}.{name}"))
    for spec_id, spec in sorted(SPECS.items()):
        for action in spec.actions:
            if action.key:
                found.append(DeclaredBinding(binding_for(action), "action", spec_id, spec.title))
    return tuple(found)


@cache
def binding_ids() -> frozenset[str]:
    """The ids of every binding of the app, its screens and widgets (Textual's included)."""
    return frozenset(declared.id for declared in declared_bindings())


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
