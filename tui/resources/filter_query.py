"""The ``/`` filter language of resource lists (headless).

A filter is whitespace-separated terms, all of which must hold (AND):

* ``#production``: the item carries the tag ``production`` (case-insensitive).
* ``field:value``: the item's ``field`` equals ``value`` (case-insensitive). ``field`` is any
  top-level item field (``status``, ``region``, ``type``, ``label``, ``hypervisor`` ...), a
  dotted path (``specs.memory``, ``ipv4.0``) or a column title (``Region``, ``Memory``: the
  cell as shown or the raw value). A list field matches when any element does.
* plain text: appears in some column of the row (case-insensitive).

``*`` in a tag or value is a wildcard (``label:web-*``, ``#prod*``); quotes group words
(``label:"web 1"``); ``!`` before a term negates it (``!status:running``). A word whose part
before ``:`` is not a field name (``10:30``, an IPv6 address) is plain text.

Other screens link to a filtered list with the same text (``status:offline``).
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fnmatch import fnmatchcase
from typing import Any, Literal

from tui.resources.spec import ResourceSpec, dig

TermKind = Literal["text", "tag", "field"]

_FIELD_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)*")

SYNTAX_HELP = (
    ("#tag", "items carrying the tag (#prod* matches prod, production ...)"),
    ("field:value", "status:running, region:us-east, type:g6-*, label:web-1, any column"),
    ("text", "plain words match any column"),
    ("!term", "negate a term (!status:running)"),
    ('"a b"', 'quotes keep spaces: label:"web 1"'),
)
"""The syntax as (example, meaning) rows, for the ``?`` help screen."""


@dataclass(frozen=True)
class Term:
    """One term of a filter.

    Attributes:
        kind: ``text``, ``tag`` or ``field``.
        value: What to match, lower-cased (may hold ``*`` wildcards).
        field: The field name as typed (``field`` terms).
        negate: The term must not hold.
    """

    kind: TermKind
    value: str
    field: str = ""
    negate: bool = False

    def __str__(self) -> str:
        prefix = "!" if self.negate else ""
        if self.kind == "tag":
            return f"{prefix}#{self.value}"
        if self.kind == "field":
            return f"{prefix}{self.field}:{self.value}"
        return f"{prefix}{self.value}"


@dataclass(frozen=True)
class FilterQuery:
    """A parsed filter: terms that must all hold."""

    terms: tuple[Term, ...] = ()

    @property
    def empty(self) -> bool:
        """True when the filter lets everything through."""
        return not self.terms

    @property
    def text_only(self) -> bool:
        """True when every term is positive plain text (the fast path over row text)."""
        return all(t.kind == "text" and not t.negate for t in self.terms)

    def highlights(self) -> tuple[str, ...]:
        """Plain words to highlight in every cell (positive text terms without wildcards)."""
        return tuple(
            t.value for t in self.terms if t.kind == "text" and not t.negate and "*" not in t.value
        )


def _split(text: str) -> list[str]:
    """Words of ``text``; quotes group words (an unclosed quote is taken literally)."""
    try:
        return shlex.split(text, posix=True)
    except ValueError:
        return text.split()


def parse(text: str) -> FilterQuery:
    """Parse a filter typed by the user.

    Args:
        text: The filter text.

    Returns:
        The parsed filter (empty for blank text).
    """
    terms: list[Term] = []
    for word in _split(text):
        negate = word.startswith("!") and len(word) > 1
        if negate:
            word = word[1:]
        if word.startswith("#") and len(word) > 1:
            terms.append(Term("tag", word[1:].lower(), negate=negate))
            continue
        name, colon, value = word.partition(":")
        if colon and value and _FIELD_NAME.fullmatch(name):
            terms.append(Term("field", value.lower(), field=name, negate=negate))
            continue
        terms.append(Term("text", word.lower(), negate=negate))
    return FilterQuery(tuple(terms))


def _value_matches(value: Any, pattern: str) -> bool:
    """True when ``value`` (or, for a list, any element) equals ``pattern``."""
    if value is None:
        return pattern in ("none", "null", "-", "")
    if isinstance(value, list | tuple):
        return any(_value_matches(v, pattern) for v in value)
    if isinstance(value, bool):
        text = "true" if value else "false"
    elif isinstance(value, Mapping):
        return False
    else:
        text = str(value).lower()
    if "*" in pattern:
        return fnmatchcase(text, pattern)
    return text == pattern


def _column_index(spec: ResourceSpec, name: str) -> int | None:
    """The column a field name means: by key, or by title (spaces as ``_``)."""
    wanted = name.lower()
    for index, column in enumerate(spec.columns):
        title = column.title.lower()
        if column.key.lower() == wanted or title in (wanted, wanted.replace("_", " ")):
            return index
    return None


ALIASES = {"status": "status_field", "label": "label_field", "id": "id_field"}
"""Field names that mean the spec's own field of that role (a tag's label is ``label``...)."""


@dataclass(frozen=True)
class FieldRef:
    """Where a ``field:value`` term looks: item fields (paths) and maybe a column's cells."""

    paths: tuple[str, ...]
    column: int | None


def resolve_field(spec: ResourceSpec, name: str) -> FieldRef:
    """What ``name`` in ``name:value`` refers to for ``spec``'s items."""
    paths: list[str] = [name]
    role = ALIASES.get(name.lower())
    if role:
        own = getattr(spec, role)
        if own and own not in paths:
            paths.append(own)
    column = _column_index(spec, name)
    if column is not None and spec.columns[column].key not in paths:
        paths.append(spec.columns[column].key)
    return FieldRef(tuple(paths), column)


Matcher = Callable[[Mapping[str, Any], Sequence[str], str], bool]
"""``(item, cells, haystack) -> bool``: the row's item, its shown cells and lower-cased text."""


def compile_query(query: FilterQuery, spec: ResourceSpec) -> Matcher:
    """A function telling whether a row passes ``query``.

    Args:
        query: The parsed filter.
        spec: The listed resource (its columns and status/label fields name fields).

    Returns:
        ``matcher(item, cells, haystack)``; ``haystack`` is the row's lower-cased search text.
    """
    checks = [(_check_for(term, spec), term.negate) for term in query.terms]
    if len(checks) == 1 and not checks[0][1]:
        return checks[0][0]  # one positive term: no loop per row

    def matcher(item: Mapping[str, Any], cells: Sequence[str], haystack: str) -> bool:
        # A plain loop, not all() over a generator: this runs for every row on each keystroke.
        for check, negate in checks:  # noqa: SIM110
            if check(item, cells, haystack) == negate:
                return False
        return True

    return matcher


def _equals(value: Any, pattern: str) -> bool:
    """:func:`_value_matches` for a pattern without wildcards, with a fast path for text."""
    if type(value) is str:
        return value.lower() == pattern
    return _value_matches(value, pattern)


def _check_for(term: Term, spec: ResourceSpec) -> Matcher:
    value = term.value
    wild = "*" in value
    if term.kind == "text":
        if wild:
            return lambda _i, cells, _h: any(fnmatchcase(c.lower(), f"*{value}*") for c in cells)
        return lambda _i, _c, haystack: value in haystack
    if term.kind == "tag":
        if wild:
            return lambda item, _c, _h: _value_matches(_tags(item), value)

        def has_tag(item: Mapping[str, Any], _c: Sequence[str], _h: str) -> bool:
            for tag in _tags(item):  # noqa: SIM110 (a loop: no generator per row)
                if type(tag) is str and tag.lower() == value:
                    return True
            return False

        return has_tag
    ref = resolve_field(spec, term.field)
    match = _value_matches if wild else _equals
    plain = tuple(p for p in ref.paths if "." not in p)
    dotted = tuple(p for p in ref.paths if "." in p)
    column = ref.column

    def check(item: Mapping[str, Any], cells: Sequence[str], _h: str) -> bool:
        for path in plain:
            if match(item.get(path), value):
                return True
        for path in dotted:
            if match(dig(item, path), value):
                return True
        return column is not None and column < len(cells) and match(cells[column], value)

    return check


def _tags(item: Mapping[str, Any]) -> list[Any]:
    tags = item.get("tags")
    return tags if type(tags) is list else []


def unknown_fields(
    query: FilterQuery, spec: ResourceSpec, sample: Sequence[Mapping[str, Any]]
) -> list[str]:
    """Field names of ``query`` that neither a column nor any sampled item has.

    A filter naming such a field matches nothing; the list says why instead of staying empty
    without a word.
    """
    unknown: list[str] = []
    for term in query.terms:
        if term.kind != "field" or term.field in unknown:
            continue
        ref = resolve_field(spec, term.field)
        if ref.column is not None:
            continue
        if not any(_has_path(item, path) for item in sample for path in ref.paths):
            unknown.append(term.field)
    return unknown


def _has_path(item: Mapping[str, Any], path: str) -> bool:
    head, _, rest = path.partition(".")
    if head not in item:
        return False
    return not rest or dig(item, path) is not None
