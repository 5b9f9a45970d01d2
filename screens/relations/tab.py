"""The Relations tab of a detail screen: what the object uses and what uses it.

Each row names the other object and how it is related (``DNS record pointing at it``,
``app.example.com A``, via ``192.0.2.2``); enter opens it. The rows come from the account's
relations index (:mod:`tui.relations`), built the first time from the lists the app loaded and
what else it fetches concurrently, with its progress shown; afterwards the tab reads what the
index holds (brought up to date first, which costs nothing when nothing is old). A DNS record or
a balancer node pointing at an address no object of the account owns says so in its own row.

Bindings:

| Key | Id | Description |
| :- | :- | :- |
| enter | relations.open | Open the object of the row |
| r | relations.refresh | List the relations again |
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import DataTable, Static

from screens.lists.pane import RefreshingPane
from screens.relations.loading import cache_of, open_ref, ready_index
from tui.api.errors import CloudError
from tui.refresh import describe_error
from tui.relations.answers import Dangling, Relations
from tui.relations.cache import RelationCache, kind_of
from tui.relations.graph import Ref
from tui.relations.index import RelationIndex
from tui.relations.table import RELATIONS
from tui.resources.spec import ResourceSpec
from tui.untrusted import Shown, shown

COLUMNS = ("", "How", "What", "Name", "Via")
"""The table's columns: direction (``uses`` / ``used by``), the link in words, the other
object's kind and name, and the values that matched."""

DIRECTION = {"uses": "uses", "used_by": "used by"}

DANGLING_SOURCES = frozenset(r.source for r in RELATIONS if r.dangling)
"""Kinds that may point at what no object owns (DNS records, balancer nodes)."""


ROWS_SHOWN = 1000
"""Rows the table holds at most (a tag may be carried by thousands of objects: the table
measures every row before its first frame); the rest are counted in a last row."""

Cells = tuple[Shown, ...]
"""One row's cells, in the order of :data:`COLUMNS`."""


def relation_rows(answer: Relations, dangling: list[Dangling]) -> list[tuple[Ref | None, Cells]]:
    """The rows of the tab: ``(the other object, or None for an address nobody owns; cells)``."""
    rows: list[tuple[Ref | None, Cells]] = []
    for related in (*answer.uses, *answer.used_by):
        other = related.other
        cells = (DIRECTION[related.direction], related.phrase, other.noun, other.label, related.via)
        rows.append((other, cells))
    for loose in dangling:
        values = ", ".join(loose.values)
        rows.append((None, ("uses", "points at", "address", "owned by no object", values)))
    return rows


def relations_tab(
    spec: ResourceSpec, item: Mapping[str, Any], params: Mapping[str, Any], pane_id: str
) -> RelationsPane | None:
    """The Relations tab's pane for an object of ``spec`` (None when the index holds no
    objects of its kind)."""
    if kind_of(spec.id) is None:
        return None
    return RelationsPane(spec, item, params, id=pane_id)


class RelationsTable(DataTable[Text]):
    """The rows; enter opens the row's object (said in the footer)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "select_cursor", "Open", id="relations.open"),
    ]


class RelationsPane(RefreshingPane):
    """The Relations tab; see the module docstring.

    Args:
        spec: The object's resource spec.
        item: The object as listed.
        params: Its parent's path parameters.
        id: Widget id.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "refresh_relations", "Refresh", id="relations.refresh"),
    ]

    DEFAULT_CSS = """
    RelationsPane { height: 1fr; }
    RelationsPane #relations-status { height: auto; padding: 0 1; color: $text-muted; }
    RelationsPane DataTable { height: 1fr; }
    """

    def __init__(
        self,
        spec: ResourceSpec,
        item: Mapping[str, Any],
        params: Mapping[str, Any] | None = None,
        *,
        id: str | None = None,
    ) -> None:
        super().__init__(spec, params, lazy=True, id=id)
        self.item = dict(item)
        self.refs: list[Ref | None] = []
        self.lines: list[Shown] = []
        """The rows as text, cells two spaces apart (what the table shows)."""
        self.status: Shown = ""
        self.index: RelationIndex | None = None
        self._force = False
        """The next refresh lists everything again (``r``)."""

    def compose(self) -> ComposeResult:
        yield Static(id="relations-status")
        table = RelationsTable(cursor_type="row", zebra_stripes=False)
        table.add_columns(*COLUMNS)
        yield table

    def _say(self, text: Shown) -> None:
        self.status = text
        if self.is_mounted:
            self.query_one("#relations-status", Static).update(Text(text))

    async def _refresh(self) -> None:
        found = cache_of(self)
        if found is None:
            return
        cache, session = found
        try:
            force, self._force = self._force, False
            index = await ready_index(self, cache, session, self._say, force=force)
            subject = cache.subject(self.spec.id, self.item)
            if subject is not None:
                await index.ensure(session.client, subject)
        except CloudError as error:
            self._failed(error, False)
            self._say(describe_error(error))
            return
        self.index = index
        self._show(cache, index)
        self.loaded = True
        self._succeeded(False)

    def _show(self, cache: RelationCache, index: RelationIndex) -> None:
        subject = cache.subject(self.spec.id, self.item)
        if subject is None:
            self._rows([])
            self._say(f"This {self.spec.singular} is not among the objects listed.")
            return
        answer = index.relations(subject)
        loose = []
        if subject.kind in DANGLING_SOURCES:  # a search of the whole index: only where it can
            loose = [d for d in index.dangling() if d.source == subject]
        self._rows(relation_rows(answer, loose))
        self._say(_summary(answer, len(loose), len(index.failures)))

    def _rows(self, rows: list[tuple[Ref | None, Cells]]) -> None:
        table = self.query_one(DataTable)
        row = table.cursor_row
        table.clear()
        if len(rows) > ROWS_SHOWN:
            more = f"{len(rows) - ROWS_SHOWN:,} more"
            rows = [*rows[:ROWS_SHOWN], (None, ("", f"… and {more}", "", "", ""))]
        self.refs = [ref for ref, _ in rows]
        self.lines = ["  ".join(cells) for _, cells in rows]
        for _, cells in rows:
            table.add_row(*(Text(shown(cell)) for cell in cells))
        if rows:
            table.move_cursor(row=min(row, len(rows) - 1))

    # -- keys -------------------------------------------------------------------------------

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        """Enter on a row (the table's select) opens its object."""
        event.stop()
        self.action_open_row()

    def action_open_row(self) -> None:
        """Open the object of the row under the cursor."""
        table = self.query_one(DataTable)
        row = table.cursor_row
        ref = self.refs[row] if 0 <= row < len(self.refs) else None
        if ref is None or self.index is None or not open_ref(self, self.index, ref):
            self.app.notify("Nothing to open on this row.", title="Relations")

    def action_refresh_relations(self) -> None:
        """List the relations again (every listing, concurrently)."""
        self._force = True
        self.refresh_now()


def _summary(answer: Relations, dangling: int, unchecked: int) -> Shown:
    """The status line: counts, the object's addresses, what could not be read."""
    parts = [f"uses {len(answer.uses)}", f"used by {len(answer.used_by)}"]
    if answer.addresses:
        parts.append(f"addresses {', '.join(answer.addresses)}")
    if dangling:
        parts.append("points at an address no object of the account owns")
    if unchecked:
        parts.append(f"{unchecked} listing(s) could not be read")
    return " · ".join(parts) + " · enter opens a row"
