"""The ``/`` filter of a resource list (the language of :mod:`tui.resources.filter_query`) and
its quick filter (kernels by architecture).

A mixin of :class:`~screens.list_pane.ResourceListPane`: it turns what the user typed into the
table's row predicate and highlights, and says when a field named in the filter exists nowhere.
"""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Input, Static

from tui.resources.filter_query import (
    FilterQuery,
    compile_query,
    parse,
    resolve_field,
    unknown_fields,
)
from tui.resources.rows import TableRow, table_columns
from tui.resources.spec import ResourceSpec, dig
from tui.untrusted import Shown, shown
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


class ListHeader(Horizontal):
    """A list's title line: its title, then the filter input (hidden until ``/``)."""

    DEFAULT_CSS = """
    ListHeader { height: 1; padding: 0 1; background: $boost; }
    ListHeader .list-title { width: 1fr; height: 1; text-style: bold; }
    ListHeader .list-filter { width: 30; height: 1; border: none; padding: 0 1; }
    ListHeader .list-filter.-hidden { display: none; }
    """


class ListFilter:
    """Filter state of a list pane, and its title line, filter input and table (uses its
    ``spec`` and ``items``)."""

    _quick: int
    filter_text: str = ""
    """The filter as typed."""
    filter_query: FilterQuery = FilterQuery()
    """The filter as parsed."""

    @property
    def _pane(self) -> Any:
        return self

    def compose_list(self) -> ComposeResult:
        """The title line with its filter input (hidden until ``/``), then the table."""
        with ListHeader(classes="list-header"):
            yield Static(classes="list-title")
            yield Input(placeholder="filter…", classes="list-filter -hidden", compact=True)
        yield ResourceTable(table_columns(self._pane.spec), classes="list-table")

    @property
    def table(self) -> ResourceTable:
        """The table."""
        return self._pane.query_one(ResourceTable)

    @property
    def filter_input(self) -> Input:
        """The filter input."""
        return self._pane.query_one(".list-filter", Input)

    def set_filter_text(self, text: str) -> None:
        """Filter the list by ``text`` (``#tag field:value words``; empty: every row)."""
        pane = self._pane
        self.filter_text = text
        self.filter_query = parse(text)
        self._apply_filters()
        pane._update_header()
        pane._update_message()

    def show_filter(self, text: str) -> None:
        """Filter by ``text`` and show it in the filter line (links from other screens:
        ``status:offline``, ``#production``)."""
        pane = self._pane
        field = pane.filter_input
        field.value = text
        field.set_class(not text, "-hidden")
        self.set_filter_text(text)

    def filter_problem(self) -> Shown:
        """Why the filter may match nothing (a field no item has), or ""."""
        if self.filter_query.empty:
            return ""
        sample = list(self._pane.items.values())[:SAMPLE]
        unknown = unknown_fields(self.filter_query, self._pane.spec, sample)
        if not unknown:
            return ""
        return shown(f"No {self._pane.spec.singular} has the field {', '.join(unknown)}.")

    def _apply_filters(self) -> None:
        pane = self._pane
        table = pane.table
        query = self.filter_query
        quick = self._quick_value()
        simple = query.text_only and len(query.terms) <= 1
        # One plain word: the table's own substring filter (its fast path); else a predicate.
        table.set_filter(query.terms[0].value if simple and query.terms else "")
        matcher = None if simple else compile_query(query, pane.spec)
        if matcher is None and quick is None:
            table.set_predicate(None)
        else:
            field = pane.spec.quick_filter[0] if quick is not None else ""

            def predicate(row: TableRow) -> bool:
                # Read at call time: a refresh replaces the items before the table re-filters.
                item = pane.items.get(row.key, {})
                if quick is not None and str(dig(item, field)) != quick:
                    return False
                return matcher is None or matcher(item, row.cells, row.haystack)

            table.set_predicate(predicate)
        table.set_highlights(column_highlights(query, pane.spec))

    def _quick_value(self) -> Shown | None:
        spec = self._pane.spec
        if not spec.quick_filter or self._quick == 0:
            return None
        return shown(spec.quick_filter[1][self._quick - 1])

    def action_quick_filter(self) -> None:
        """Cycle the quick filter: all, then each value."""
        spec = self._pane.spec
        if not spec.quick_filter:
            return
        values = spec.quick_filter[1]
        self._quick = (self._quick + 1) % (len(values) + 1)
        self.set_quick_filter(self._quick_value())

    def set_quick_filter(self, value: str | None) -> None:
        """Show only items whose quick-filter field equals ``value`` (None: all)."""
        pane = self._pane
        if not pane.spec.quick_filter:
            return
        values = pane.spec.quick_filter[1]
        self._quick = values.index(value) + 1 if value in values else 0
        self._apply_filters()
        pane._update_header()
        pane._update_message()
