"""Edit the config file's TOML in place: only the values that changed are written.

A config file edited by hand keeps its comments (own-line and inline), its order, its
formatting, the keys the program does not know and the keys left at their defaults. tomlkit
reads the file into a document that remembers all of that; this module changes only the keys
whose value differs between the settings as loaded from the file and the settings to save.
"""

from __future__ import annotations

from collections.abc import Mapping, MutableMapping
from typing import Any

import tomlkit
from tomlkit.items import Item

_MISSING: Any = object()


def edit_document(
    text: str,
    *,
    before: Mapping[str, Any],
    after: Mapping[str, Any],
    lean: Mapping[str, Any],
) -> str:
    """The file's text with the changes from ``before`` to ``after`` applied.

    Args:
        text: The file as it is ('' for a new file).
        before: The settings the file holds now, every field (defaults included), as JSON data.
        after: The settings to save, the same way.
        lean: The settings to save without the fields left at their defaults: what a new key
            or table is written with, so a new profile does not spell out every default.

    Returns:
        The new text of the file.
    """
    document = tomlkit.parse(text)
    _apply(document, before, after, lean)
    edited = tomlkit.dumps(document)
    if not text.endswith("\n\n"):
        # New tables end with a blank line (to stand apart from the next one); at the end of
        # the file that line is not wanted.
        edited = edited.rstrip("\n") + "\n"
    return edited


def _apply(
    table: MutableMapping[str, Any],
    before: Mapping[str, Any],
    after: Mapping[str, Any],
    lean: Mapping[str, Any],
) -> None:
    for key, value in after.items():
        old = before.get(key, _MISSING)
        if old == value:
            continue  # unchanged: what the file says (or leaves to the default) stays
        new_lean = lean.get(key, _MISSING) if isinstance(lean, Mapping) else _MISSING
        present = table.get(key, _MISSING)
        if isinstance(value, dict) and isinstance(old, dict) and isinstance(present, Mapping):
            _apply(present, old, value, new_lean if isinstance(new_lean, dict) else {})  # type: ignore[arg-type]
        elif present is not _MISSING or new_lean is not _MISSING:
            # A key back at its default but written in the file is written with that value.
            table[key] = _item(value if new_lean is _MISSING else new_lean)
    for key in before:
        if key not in after and key in table:
            del table[key]  # e.g. a profile that was removed


def _item(value: Any) -> Any:
    """A TOML item for a new value: tables for mappings (a table of tables as ``[a.b]``)."""
    if isinstance(value, Item) or not isinstance(value, Mapping):
        return value
    if value and all(isinstance(v, Mapping) for v in value.values()):
        outer = tomlkit.table(is_super_table=True)
        for name, inner in value.items():
            outer[name] = _item(inner)
        return outer
    table = tomlkit.table()
    for name, inner in value.items():
        table[name] = _item(inner)
    table.add(tomlkit.nl())
    return table
