"""Values computed from an item rather than read from it, named ``@name`` (headless).

A spec's detail field, or an action's :attr:`~tui.resources.spec.Action.text`, may name one
instead of a field of the API's answer: the commands that make a volume usable are built from
its device path and label. One registry, read by :func:`tui.resources.format.display` and by
the actions that show a text.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from tui.resources.volume_use import grow_commands, new_volume_commands, use_commands

PREFIX = "@"
"""Marks a key as a derived value's name."""


@dataclass(frozen=True)
class Derived:
    """One derived value.

    Attributes:
        title: What it is for, as a dialog's heading ("Use it on the instance").
        compute: Computes it from an item.
    """

    title: str
    compute: Callable[[Mapping[str, Any]], str]


DERIVED: dict[str, Derived] = {
    "volume_use": Derived("Use it on the instance", use_commands),
    "volume_use_new": Derived("Use the new volume", new_volume_commands),
    "volume_grow": Derived("Grow the filesystem", grow_commands),
}
"""Name -> how it is computed."""


def is_derived(key: str) -> bool:
    """True when ``key`` names a derived value (``@volume_use``)."""
    return key.startswith(PREFIX)


def derived(item: Mapping[str, Any], key: str) -> str | None:
    """The derived value ``key`` of ``item`` (None for an unknown name or an empty item)."""
    found = DERIVED.get(key.removeprefix(PREFIX))
    return found.compute(item) if found is not None and item else None


def derived_title(key: str) -> str:
    """The heading of the derived value ``key`` ('' for an unknown name)."""
    found = DERIVED.get(key.removeprefix(PREFIX))
    return found.title if found is not None else ""
