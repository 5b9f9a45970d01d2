"""The ``/`` filter of a list (the language of :mod:`tui.resources.filter_query`) and its
quick filter (kernels by architecture).

:class:`RowFilter` turns what the user typed into the table's row predicate and highlights, and
says when a field named in the filter exists nowhere. The resource lists and the list across
accounts each hold one, and name their header and table through :class:`FilteredTableParts`.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping
from itertools import islice
from typing import Any

from textual.widget import Widget
from textual.widgets import Input

from tui.resources.filter_query import (
    FilterQuery,
    compile_query,
    parse,
    resolve_field,
    unknown_fields,
)
from tui.resources.rows import TableRow
from tui.resources.spec import ResourceSpec, dig
from tui.untrusted import Shown, shown
from widgets.list_lines import ListHeader
from widgets.resource_table import ResourceTable

SAMPLE = 50
"""Items looked at to tell whether a field named in the filter exists."""


def column_highlights(query: FilterQuery, spec: ResourceSpec) -> list[list[str]]:
    """Words to highlight per column: plain words everywhere, a ``field:value`` in its column,
    a ``#tag`` in the tags column (negated and wildcard terms highlight nothing)."""
    words = [list(query.highlights()) for _ in spec.columns]
    keys = [c.key for c in spec.columns]
    for term in query.terms:
        if term.negate or "*" in term.value or term.kind == "text":
            continue
        if term.kind == "tag":
            index = keys.index("tags") if "tags" in keys else None
        else:
            ref = resolve_field(spec, term.field)
            index = ref.column
            if index is None:
                index = next((i for i, k in enumerate(keys) if k in ref.paths), None)
        if index is not None:
            words[index].append(term.value)
    return words


class RowFilter:
    """What a list shows of its items: the ``/`` filter as typed and parsed, and the quick
    filter (one value of one field, cycled by a key).

    It owns no widget: :meth:`apply` hands the table its row predicate and highlights.

    Args:
        spec: What the list shows (its columns, its quick filter).
    """

    def __init__(self, spec: ResourceSpec) -> None:
        self.spec = spec
        self.text = ""
        """The filter as typed."""
        self.query = FilterQuery()
        """The filter as parsed."""
        self._quick = 0
        """0: the quick filter shows every row; n: only rows of its n-th value."""

    def set_text(self, text: str) -> None:
        """Filter by ``text`` (``#tag field:value words``; empty: every row)."""
        self.text = text
        self.query = parse(text)

    @property
    def quick_value(self) -> Shown | None:
        """The value the quick filter shows (None: every row, or no quick filter)."""
        if not self.spec.quick_filter or self._quick == 0:
            return None
        return shown(self.spec.quick_filter[1][self._quick - 1])

    @property
    def quick_label(self) -> Shown:
        """What the title says of the quick filter (``architecture: arm64``; '' without one)."""
        if not self.spec.quick_filter:
            return ""
        return f"{self.spec.quick_filter[0]}: {self.quick_value or 'all'}"

    def cycle_quick(self) -> None:
        """The quick filter's next value (after the last one: every row again)."""
        if self.spec.quick_filter:
            self._quick = (self._quick + 1) % (len(self.spec.quick_filter[1]) + 1)

    def set_quick(self, value: str | None) -> None:
        """Show only items whose quick-filter field equals ``value`` (None: all)."""
        if self.spec.quick_filter:
            values = self.spec.quick_filter[1]
            self._quick = values.index(value) + 1 if value in values else 0

    def missing_fields_note(self, items: Iterable[Mapping[str, Any]]) -> Shown:
        """Why the filter may match nothing (a field none of ``items`` has), or ""."""
        if self.query.empty:
            return ""
        sample = list(islice(items, SAMPLE))
        unknown = unknown_fields(self.query, self.spec, sample)
        if not unknown:
            return ""
        return shown(f"No {self.spec.singular} has the field {', '.join(unknown)}.")

    def apply(self, table: ResourceTable, item_of: Callable[[Hashable], Mapping[str, Any]]) -> None:
        """Make ``table`` show the rows that pass, with their matches highlighted.

        Args:
            table: The list's table.
            item_of: The item of a row's key, read when the table filters (a refresh replaces
                the items before the table filters again).
        """
        query, quick = self.query, self.quick_value
        simple = query.text_only and len(query.terms) <= 1
        # One plain word: the table's own substring filter (its fast path); else a predicate.
        table.set_filter(query.terms[0].value if simple and query.terms else "")
        matcher = None if simple else compile_query(query, self.spec)
        if matcher is None and quick is None:
            table.set_predicate(None)
        else:
            field = self.spec.quick_filter[0] if self.spec.quick_filter else ""

            def predicate(row: TableRow) -> bool:
                item = item_of(row.key)
                if quick is not None and str(dig(item, field)) != quick:
                    return False
                return matcher is None or matcher(item, row.cells, row.haystack)

            table.set_predicate(predicate)
        table.set_highlights(column_highlights(query, self.spec))


class FilteredTableParts(Widget):
    """The parts a filtered list composes (a :class:`ListHeader` with the filter input over a
    :class:`ResourceTable`), named once for the resource lists and the list across accounts.

    A subclass composes both widgets and holds a :class:`RowFilter` as ``self.filter``. It
    names this class last among its bases: Textual takes a widget's styles and CSS type names
    from its first base that is a DOM node only (``DOMNode._css_bases``), so placed first this
    class would cut the pane off from its container's styles (a lazy child list then never
    loaded when its tab was shown).
    """

    filter: RowFilter

    @property
    def table(self) -> ResourceTable:
        """The table of items."""
        return self.query_one(ResourceTable)

    @property
    def header(self) -> ListHeader:
        """The title line and the filter input."""
        return self.query_one(ListHeader)

    @property
    def filter_input(self) -> Input:
        """The filter input."""
        return self.header.filter_input

    @property
    def filter_text(self) -> str:
        """The filter as typed."""
        return self.filter.text
