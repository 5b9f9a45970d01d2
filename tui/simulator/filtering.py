"""The ``X-Filter`` header of listings: a JSON object that selects and orders the items.

The reference names which fields are filterable (:mod:`tui.simulator.filterable`) but not the
syntax; the simulator reads the one the reference's family of APIs uses:

* ``{"field": value}``: the field equals ``value`` (a string, number, boolean or null). On an
  array field (``tags``, ``ipv4``) a condition holds when it holds for one of its entries.
* ``{"field": {"+gt": 1, "+lte": 5}}``: operators on one field, all of which must hold:
  ``+gt``, ``+gte``, ``+lt``, ``+lte`` (a number, or a string such as a date-time: values of
  another kind never match), ``+neq`` (not equal; on an array field, equal to none of its
  entries) and ``+contains`` (a string found in the value, ignoring case).
* ``{"+and": [...]}``, ``{"+or": [...]}``: every or any of the filter objects listed. Several
  keys in one object must all hold.
* ``"+order_by": "field"`` with ``"+order": "asc"`` (default) or ``"desc"``, at the top level
  only. Nulls come first in ascending order; text compares ignoring case.

Filtering happens before pagination: ``results`` and ``pages`` count the matching items. A
field that is not filterable on the listing, an unknown operator, a value of the wrong kind or
text that is not a JSON object answers 400 naming the field (``X-Filter`` for the text itself).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from tui.simulator.errors import SimError
from tui.simulator.validate import same_json

HEADER = "X-Filter"
ORDER_BY, ORDER = "+order_by", "+order"
COMBINATIONS = ("+and", "+or")

Condition = Callable[[Mapping[str, Any]], bool]
"""Whether one item (its answered form) matches."""


def _compare(op: Callable[[Any, Any], bool]) -> Callable[[Any, Any], bool]:
    """``op`` for values of one kind (numbers with numbers, text with text), else False."""

    def compare(value: Any, operand: Any) -> bool:
        if _is_number(value) and _is_number(operand):
            return op(value, operand)
        if isinstance(value, str) and isinstance(operand, str):
            return op(value, operand)
        return False

    return compare


COMPARISONS: dict[str, Callable[[Any, Any], bool]] = {
    "+gt": _compare(lambda a, b: a > b),
    "+gte": _compare(lambda a, b: a >= b),
    "+lt": _compare(lambda a, b: a < b),
    "+lte": _compare(lambda a, b: a <= b),
}
OPERATORS = (*COMPARISONS, "+neq", "+contains")


@dataclass(frozen=True)
class RowFilter:
    """A parsed ``X-Filter``.

    Attributes:
        condition: Which items are kept.
        order_by: Field to sort by, or None to keep the listing's order.
        descending: Sort from the largest value down.
    """

    condition: Condition
    order_by: str | None = None
    descending: bool = False

    def apply(self, items: Iterable[Mapping[str, Any]]) -> list[Any]:
        """The matching items, ordered as asked."""
        kept = [item for item in items if self.condition(item)]
        if self.order_by is not None:
            field = self.order_by
            kept.sort(key=lambda item: _sort_key(item.get(field)), reverse=self.descending)
        return kept


def parse_filter(text: str | None, fields: frozenset[str]) -> RowFilter | None:
    """Read an ``X-Filter`` header for a listing whose filterable fields are ``fields``.

    Args:
        text: The header's value; None or blank means no filter.
        fields: The listing's filterable fields.

    Returns:
        The filter, or None when there is none.

    Raises:
        SimError: 400 naming the offending field, operator or the header itself.
    """
    if text is None or not text.strip():
        return None
    try:
        spec = json.loads(text)
    except ValueError:
        raise _bad(HEADER, f"{HEADER} is not valid JSON") from None
    if not isinstance(spec, dict):
        raise _bad(HEADER, f"{HEADER} must be a JSON object")
    order_by = spec.pop(ORDER_BY, None)
    order = spec.pop(ORDER, "asc")
    if order_by is not None:
        if not isinstance(order_by, str):
            raise _bad(ORDER_BY, f"{ORDER_BY} must name a field")
        _require_filterable(order_by, fields)
    if order not in ("asc", "desc"):
        raise _bad(ORDER, f"{ORDER} must be asc or desc")
    return RowFilter(_object(spec, fields), order_by, order == "desc")


def _object(spec: Mapping[str, Any], fields: frozenset[str]) -> Condition:
    """All the conditions of one filter object."""
    parts = [_part(key, value, fields) for key, value in spec.items()]
    return lambda item: all(part(item) for part in parts)


def _part(key: str, value: Any, fields: frozenset[str]) -> Condition:
    if key in COMBINATIONS:
        if not isinstance(value, list) or not value or not all(isinstance(v, dict) for v in value):
            raise _bad(key, f"{key} takes a non-empty array of filter objects")
        subs = [_object(v, fields) for v in value]
        if key == "+and":
            return lambda item: all(sub(item) for sub in subs)
        return lambda item: any(sub(item) for sub in subs)
    if key in (ORDER_BY, ORDER):
        raise _bad(key, f"{key} belongs at the top level of {HEADER}")
    if key.startswith("+"):
        raise _bad(key, f"{key} is not a filter operator")
    _require_filterable(key, fields)
    if isinstance(value, dict):
        return _operators(key, value)
    if not _is_scalar(value):
        raise _bad(key, f"{key}: a filter value is a string, number, boolean, null or operators")
    return lambda item: any(same_json(v, value) for v in _values(item, key))


def _operators(field: str, ops: Mapping[str, Any]) -> Condition:
    """The conditions of ``{"+gt": 1, ...}`` on one field."""
    if not ops:
        raise _bad(field, f"{field}: give a value or at least one operator")
    tests = [_operator(field, op, operand) for op, operand in ops.items()]
    return lambda item: all(test(item) for test in tests)


def _operator(field: str, op: str, operand: Any) -> Condition:
    """One operator's condition on ``field``."""
    if op in COMPARISONS:
        if isinstance(operand, bool) or not isinstance(operand, int | float | str):
            raise _bad(field, f"{field}: {op} compares with a number or a string")
        compare = COMPARISONS[op]
        return lambda item: any(compare(v, operand) for v in _values(item, field))
    if op == "+neq":
        if not _is_scalar(operand):
            raise _bad(field, f"{field}: +neq takes a string, number, boolean or null")
        return lambda item: not any(same_json(v, operand) for v in _values(item, field))
    if op == "+contains":
        if not isinstance(operand, str):
            raise _bad(field, f"{field}: +contains takes a string")
        needle = operand.casefold()
        return lambda item: any(
            isinstance(v, str) and needle in v.casefold() for v in _values(item, field)
        )
    raise _bad(field, f"{field}: {op} is not a filter operator ({', '.join(OPERATORS)})")


def _require_filterable(field: str, fields: frozenset[str]) -> None:
    if field in fields:
        return
    if fields:
        hint = f"filterable here: {', '.join(sorted(fields))}"
    else:
        hint = "this listing has no filterable field"
    raise _bad(field, f"{field} cannot be filtered on ({hint})")


def _values(item: Mapping[str, Any], field: str) -> list[Any]:
    """The values a condition on ``field`` looks at: an array's entries, else the value."""
    value = item.get(field)
    return value if isinstance(value, list) else [value]


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _is_scalar(value: Any) -> bool:
    return value is None or isinstance(value, str | int | float | bool)


def _sort_key(value: Any) -> tuple[Any, ...]:
    """Orders null, booleans, numbers, text (ignoring case), arrays, in that order."""
    if value is None:
        return (0,)
    if isinstance(value, bool):
        return (1, value)
    if _is_number(value):
        return (2, value)
    if isinstance(value, str):
        return (3, value.casefold(), value)
    if isinstance(value, list):
        return (4, tuple(_sort_key(v) for v in value))
    return (5, json.dumps(value, sort_keys=True))


def _bad(field: str, reason: str) -> SimError:
    return SimError(400, reason, field)
