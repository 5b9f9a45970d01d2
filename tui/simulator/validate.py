"""A small toolkit for validating request bodies the way the reference describes.

Rules come from the reference text, written out in each handler with these helpers; the
client's pydantic models are deliberately not reused, so a wrong model cannot hide behind an
equally wrong server.

How lenient a body is read is decided here, once, by :meth:`Check.unknown` (every handler
declares the fields its operation takes through it):

* ``null`` for an optional field means "not given", unless the field is declared nullable
  (there ``null`` is a value: it clears the field).
* An update may echo what it read: a field the operation does not take, sent back with the
  value the resource has now (``id``, ``created``, ``backups.enabled`` ...), is ignored. A
  *different* value for such a field is refused (it cannot be changed here), except for the
  fields the service moves by itself (:data:`VOLATILE`), and a name the resource does not have
  is refused as unknown.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable, Mapping
from typing import Any

from tui.simulator.errors import SimError

_MISSING = object()

VOLATILE = frozenset({"updated", "status", "nodes_status", "nodes"})
"""Read-only fields the service changes by itself (every write moves ``updated``; statuses,
and the nodes with theirs, move on the clock). A client cannot know its copy is current, so an
echo of them is ignored whatever its value instead of refused as a change."""
EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")


_Tree = dict[str, "_Tree"]
"""Allowed fields as a tree: an empty subtree allows the whole value."""


def _tree(allowed: Iterable[str]) -> _Tree:
    tree: _Tree = {}
    for name in allowed:
        node = tree
        for part in name.split("."):
            node = node.setdefault(part, {})
    return tree


class Check:
    """Collects field errors over a body, then raises them all at once.

    Args:
        body: The decoded JSON body (non-objects are reported as one error). It is not
            changed: :meth:`unknown` works on a copy.
        current: For an update, the resource as a read of it answers now; fields echoed from
            it unchanged are ignored by :meth:`unknown`.

    Example:
        >>> v = Check({"label": "x"})
        >>> label = v.string("label", min_len=3, max_len=64)
        >>> v.done()  # raises SimError(400) naming 'label'
    """

    def __init__(self, body: Any, *, current: Mapping[str, Any] | None = None) -> None:
        self.errors: list[dict[str, Any]] = []
        self.current = current
        if isinstance(body, dict):
            self.body: dict[str, Any] = body
        else:
            self.body = {}
            self.errors.append({"reason": "Request body must be a JSON object"})

    def fail(self, field: str | None, reason: str) -> None:
        """Record an error."""
        entry: dict[str, Any] = {"reason": reason}
        if field:
            entry["field"] = field
        self.errors.append(entry)

    def has(self, field: str) -> bool:
        """True when the body carries ``field`` (even as null)."""
        return field in self.body

    def raw(self, field: str, default: Any = None) -> Any:
        """The unchecked value."""
        return self.body.get(field, default)

    def _get(self, field: str, required: bool) -> Any:
        value = self.body.get(field, _MISSING)
        if required and (value is _MISSING or value is None):
            # A required field sent as null is as missing as one left out.
            self.fail(field, f"{field} is required")
            return _MISSING
        return value

    def string(
        self,
        field: str,
        *,
        required: bool = False,
        min_len: int | None = None,
        max_len: int | None = None,
        nullable: bool = False,
        choices: Iterable[str] | None = None,
        pattern: re.Pattern[str] | None = None,
        pattern_reason: str | None = None,
        default: Any = None,
    ) -> Any:
        """A string field, checked for presence, length, choices and pattern.

        ``pattern_reason`` is the reason given when ``pattern`` does not match (default:
        "<field> is not valid").
        """
        value = self._get(field, required)
        if value is _MISSING:
            return default
        if value is None:
            if not nullable:
                self.fail(field, f"{field} must not be null")
            return None
        if not isinstance(value, str):
            self.fail(field, f"{field} must be a string")
            return default
        if choices is not None:
            allowed = list(choices)
            if value not in allowed:
                self.fail(field, f"{field} must be one of: {', '.join(allowed)}")
                return default
        if min_len is not None and len(value) < min_len:
            self.fail(field, f"{field} must be at least {min_len} characters")
        elif max_len is not None and len(value) > max_len:
            self.fail(field, f"{field} must be at most {max_len} characters")
        elif pattern is not None and not pattern.fullmatch(value):
            self.fail(field, pattern_reason or f"{field} is not valid")
        return value

    def integer(
        self,
        field: str,
        *,
        required: bool = False,
        lo: int | None = None,
        hi: int | None = None,
        nullable: bool = False,
        default: Any = None,
    ) -> Any:
        """An integer field (booleans refused), checked against ``lo..hi``."""
        value = self._get(field, required)
        if value is _MISSING:
            return default
        if value is None:
            if not nullable:
                self.fail(field, f"{field} must not be null")
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(field, f"{field} must be an integer")
            return default
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            bounds = f"{lo if lo is not None else '-inf'}..{hi if hi is not None else 'inf'}"
            self.fail(field, f"{field} must be between {bounds}")
        return value

    def boolean(self, field: str, *, required: bool = False, default: Any = None) -> Any:
        """A boolean field."""
        value = self._get(field, required)
        if value is _MISSING:
            return default
        if not isinstance(value, bool):
            self.fail(field, f"{field} must be a boolean")
            return default
        return value

    def string_list(
        self,
        field: str,
        *,
        required: bool = False,
        max_items: int | None = None,
        default: Any = None,
    ) -> Any:
        """An array of strings."""
        value = self._get(field, required)
        if value is _MISSING:
            return default
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            self.fail(field, f"{field} must be an array of strings")
            return default
        if max_items is not None and len(value) > max_items:
            self.fail(field, f"{field} may have at most {max_items} entries")
        return value

    def int_list(self, field: str, *, required: bool = False, default: Any = None) -> Any:
        """An array of integers."""
        value = self._get(field, required)
        if value is _MISSING:
            return default
        if not isinstance(value, list) or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in value
        ):
            self.fail(field, f"{field} must be an array of integers")
            return default
        return value

    def obj(self, field: str, *, required: bool = False, nullable: bool = False) -> Any:
        """A nested object (returned as is for further checks)."""
        value = self._get(field, required)
        if value is _MISSING:
            return None
        if value is None and nullable:
            return None
        if not isinstance(value, dict):
            self.fail(field, f"{field} must be an object")
            return None
        return value

    def email(self, field: str, *, required: bool = False, nullable: bool = False) -> Any:
        """An email address."""
        value = self.string(field, required=required, nullable=nullable)
        if isinstance(value, str) and not EMAIL.match(value):
            self.fail(field, f"{field} must be a valid email address")
        return value

    def ip(self, field: str, *, required: bool = False, version: int | None = None) -> Any:
        """An IP address (optionally of one version)."""
        value = self.string(field, required=required)
        if isinstance(value, str) and not is_ip(value, version):
            self.fail(
                field, f"{field} must be a valid IP{'v' + str(version) if version else ''} address"
            )
        return value

    def unknown(self, allowed: Iterable[str], *, nullable: Iterable[str] = ()) -> None:
        """Declare the fields the operation takes; refuse the others.

        Call it first: it settles what the other methods see. ``null`` for a declared field
        that is not in ``nullable`` is dropped (the field counts as not given). With
        ``current`` (an update), a field outside ``allowed`` that repeats its current value is
        dropped too, one with another value is refused ("cannot be changed"); without it, or
        for a name the resource does not have, the field is refused as not recognised.

        Args:
            allowed: Field names; ``"a.b"`` allows only member ``b`` of object ``a`` (its other
                members are read-only: echoed unchanged they are dropped, changed refused).
            nullable: Allowed fields for which ``null`` is a value (it clears the field).
        """
        self.body = self._settle(self.body, _tree(allowed), set(nullable), self.current, "")

    def _settle(
        self,
        body: dict[str, Any],
        tree: _Tree,
        nullable: set[str],
        current: Mapping[str, Any] | None,
        prefix: str,
    ) -> dict[str, Any]:
        """``body`` without the fields that count as not given; refused ones are reported."""
        kept: dict[str, Any] = {}
        for key, value in body.items():
            path = f"{prefix}{key}"
            was = current.get(key, _MISSING) if current is not None else _MISSING
            if key in tree:
                members = tree[key]
                if value is None and path not in nullable:
                    continue  # null for an optional field: not given
                if members and isinstance(value, dict):
                    inner = was if isinstance(was, Mapping) else None
                    kept[key] = self._settle(value, members, nullable, inner, f"{path}.")
                else:
                    kept[key] = value
            elif was is _MISSING:
                self.fail(path, f"{path} is not a recognised field")
            elif value is not None and key not in VOLATILE and not same_json(value, was):
                self.fail(path, f"{path} cannot be changed here")
            # else: read-only and echoed unchanged (or null: not given, or volatile): ignored
        return kept

    def done(self) -> None:
        """Raise one 400 with every collected error (nothing happens when clean)."""
        if self.errors:
            raise SimError(400, errors=self.errors)


def same_json(a: Any, b: Any) -> bool:
    """True when two decoded JSON values are equal as JSON (``true`` is not ``1``)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same_json(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same_json(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, int | float) and isinstance(b, int | float):
        return a == b
    return type(a) is type(b) and a == b


_QUERY_INT = re.compile(r"-?[0-9]+")


def query_int(query: dict[str, str], name: str, default: int) -> int:
    """An integer query parameter (``page``, ``page_size``).

    Absent means ``default``; present but empty (``page=``) or not an integer is 400 naming
    it, like any other value that is not a number.
    """
    raw = query.get(name)
    if raw is None:
        return default
    if not _QUERY_INT.fullmatch(raw):
        raise SimError(400, f"{name} must be an integer", name)
    return int(raw)


def is_ip(text: str, version: int | None = None) -> bool:
    """True when ``text`` is an IP address (of ``version`` 4 or 6 when given)."""
    try:
        addr = ipaddress.ip_address(text)
    except ValueError:
        return False
    return version is None or addr.version == version
