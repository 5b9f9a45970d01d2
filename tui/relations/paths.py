"""Reading values out of an object's row, and filling sentence templates from them (headless).

A *path* names values in a row as the API returns it:

- ``label``, ``specs.memory``: a field, dotted for nested objects;
- ``ipv4[]``: every item of a list; ``bucket_access[].cluster``: a field of every item;
- ``devices.*.disk_id``: every value of an object (a config's device slots);
- ``^port``, ``^^label``: the same, read on the parent (a balancer node's config) or the
  grandparent (its balancer);
- ``@label``, ``@id``: the object's display label and id as the index names it (a DNS record
  has no ``label`` field; its label is built from its name, type and domain);
- the empty path: the row itself.

A path yields a list: nothing when a field is missing or null, several values when it expands a
list or an object. Templates (``"load balancer {^^label} port {^port}"``) name paths between
braces; every value they receive goes through :func:`~tui.untrusted.shown`.
"""

from __future__ import annotations

import string
from collections.abc import Iterator, Mapping, Sequence
from functools import lru_cache
from typing import Any, Protocol

from tui.untrusted import Shown, shown


class Readable(Protocol):
    """What a path reads: an object's row, its parent, and its display names."""

    @property
    def row(self) -> Mapping[str, Any]:
        """The object as the API returned it."""
        ...

    @property
    def parent(self) -> Readable | None:
        """The object it belongs to (a record's domain), or None."""
        ...

    @property
    def label(self) -> str:
        """Its display label."""
        ...

    @property
    def ident(self) -> Any:
        """Its id."""
        ...


@lru_cache(maxsize=512)
def _steps(path: str) -> tuple[str, ...]:
    """``a.b[].c`` -> ``("a", "b", "[]", "c")``."""
    steps: list[str] = []
    for part in path.split("."):
        if part.endswith("[]"):
            if part[:-2]:
                steps.append(part[:-2])
            steps.append("[]")
        elif part:
            steps.append(part)
    return tuple(steps)


def _walk(value: Any, steps: Sequence[str]) -> Iterator[Any]:
    if value is None:
        return
    if not steps:
        yield value
        return
    step, rest = steps[0], steps[1:]
    if step == "[]":
        if isinstance(value, list | tuple):
            for item in value:
                yield from _walk(item, rest)
    elif step == "*":
        if isinstance(value, Mapping):
            for item in value.values():
                yield from _walk(item, rest)
    elif isinstance(value, Mapping):
        yield from _walk(value.get(step), rest)


def values_at(obj: Readable | None, path: str) -> list[Any]:
    """Every value ``path`` names in ``obj`` (see the module docstring), nulls left out.

    Args:
        obj: The object (None reads as nothing).
        path: The path.

    Returns:
        The values in order; empty when there are none.
    """
    while path.startswith("^"):
        if obj is None:
            return []
        obj, path = obj.parent, path[1:]
    if obj is None:
        return []
    if path == "@label":
        return [obj.label]
    if path == "@id":
        return [obj.ident]
    steps = _steps(path)
    if len(steps) == 1 and steps[0] not in ("[]", "*"):
        value = obj.row.get(steps[0])  # the common case, a plain field, without the walk
        return [] if value is None else [value]
    if len(steps) == 2 and steps[1] == "[]":
        items = obj.row.get(steps[0])
        return [v for v in items if v is not None] if isinstance(items, list | tuple) else []
    return list(_walk(obj.row, steps))


def first_at(obj: Readable | None, path: str) -> Any:
    """The first value ``path`` names in ``obj``, or None."""
    found = values_at(obj, path)
    return found[0] if found else None


class _Filler(string.Formatter):
    """A formatter whose field names are paths (``{^^label}``) or given variables."""

    def __init__(self, obj: Readable | None, variables: Mapping[str, Any]) -> None:
        super().__init__()
        self._obj = obj
        self._variables = variables

    def get_field(self, field_name: str, args: Sequence[Any], kwargs: Mapping[str, Any]) -> Any:
        if field_name in self._variables:
            value = self._variables[field_name]
        else:
            found = values_at(self._obj, field_name)
            value = ", ".join(str(v) for v in found)
        return shown(value), field_name


def fill(template: str, obj: Readable | None = None, **variables: Any) -> Shown:
    """A sentence from ``template``: each ``{name}`` is a variable, else a path read in ``obj``.

    Args:
        template: Our text with ``{...}`` fields.
        obj: The object the paths read.
        **variables: Values named directly (``count``, ``value``, ``others`` ...).

    Returns:
        The sentence; every value in it went through :func:`~tui.untrusted.shown`.
    """
    return shown(_Filler(obj, variables).format(template))
