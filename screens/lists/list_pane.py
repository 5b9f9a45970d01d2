"""A list of one spec's items: streams pages in, refreshes as a diff, filters, runs actions."""

from __future__ import annotations

import asyncio
from collections.abc import Hashable, Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Input

from screens.actions.edit_as_text import LIST_BINDING, pane_text_action, start_text_edit
from screens.actions.plugin_keys import bind_plugins, start_plugin
from screens.actions.start import (
    action_for_key,
    add_action_bindings,
    check_availability,
    start_action,
)
from screens.app_surface import signed_in, surface
from screens.lists.changing import ChangingItems
from screens.lists.filter import FilteredTableParts, RowFilter
from screens.lists.marks import Marks
from screens.lists.pane import PaletteAction, RefreshingPane, copy_item, show_json
from screens.navigation import OpenItem
from tui.api.errors import CloudError
from tui.refresh import (
    Diff,
    RefreshMode,
    describe_error,
    diff_items_chunked,
    is_permanent,
    settled_items,
)
from tui.resources.loader import fetch_all, is_paged, iter_chunks
from tui.resources.rows import item_key_of, table_columns, table_row
from tui.resources.spec import Action
from tui.untrusted import Shown, shown
from widgets.list_lines import ListHeader, ListMessage
from widgets.resource_table import ResourceTable
from widgets.table_messages import CursorMoved, MarksChanged, Selected, SortChanged
from widgets.textual_private import bind_last

if TYPE_CHECKING:
    from tui.api.client import ApiClient

FORMAT_CHUNK = 200
"""Rows formatted between two yields to the event loop during a refresh (about 10 ms)."""


QUICK_FILTER_BINDING = Binding(
    "f",
    "quick_filter",
    "Arch",
    id="list.quick_filter",
    tooltip="Show one architecture, the next, then all again (kernels)",
)
"""Bound on lists whose spec has a quick filter (the instance types' architecture)."""


class ResourceListPane(FilteredTableParts, RefreshingPane):
    """A list of one spec's items: header, table, message line.

    Bindings (besides the table's and the spec's actions):

    | Key | Id | Description |
    | :- | :- | :- |
    | / | list.filter | Filter as you type |
    | r | list.refresh | Refresh now |
    | y | list.copy | Copy the id, address or URL under the cursor |
    | J | list.json | Raw JSON of the item under the cursor |
    | E | list.edit_text | Edit the row, or the marked rows, as TOML in $EDITOR |
    | f | list.quick_filter | Cycle the quick filter (kernels: architecture) |
    | ctrl+space | list.clear_marks | Shown as "N marked" while rows are marked; clears them |
    | M | list.mark_again | After a bulk action, mark the rows it ran on again |

    Actions declared ``bulk`` run on every marked row when rows are marked (see
    :mod:`screens.lists.marks`); the filter language is :mod:`tui.resources.filter_query`
    (:mod:`screens.lists.filter`).
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("slash", "filter", "Filter", id="list.filter"),
        Binding("r", "refresh", "Refresh", id="list.refresh"),
        Binding("y", "copy", "Copy", id="list.copy"),
        Binding("J", "json", "JSON", id="list.json"),
        LIST_BINDING,
        Binding("escape", "clear_filter", "Clear filter", show=False, id="list.clear_filter"),
    ]

    DEFAULT_CSS = """
    ResourceListPane { height: 1fr; }
    """

    def init_state(self) -> None:
        self.items: Mapping[Hashable, dict[str, Any]] = {}
        self.total: int | None = None
        self.fetching = False
        self._version = 0
        """Bumped whenever the rows change (the relations index is fed only what is new)."""
        self._fed: tuple[object, int] | None = None
        """The relations cache last fed and the version it was fed."""
        """True while a load or refresh runs (not Textual's ``loading``: that would hide the
        table behind a spinner and ignore keys for the whole refresh)."""
        self.filter = RowFilter(self.spec)
        self.marks = Marks()
        self.focus_query = ""
        """What an overview attention row's items were chosen by (:meth:`show_only`)."""
        self._binding_state: tuple[Any, ...] | None = None
        self.changing = ChangingItems(self.spec)
        if self.spec.quick_filter:
            bind_last(self, Binding.make_bindings([QUICK_FILTER_BINDING]))
        add_action_bindings(self, self.spec.actions)
        Marks.bind_keys(self)

    # -- composition ------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield ListHeader(classes="list-header")
        yield ResourceTable(table_columns(self.spec), classes="list-table")
        yield ListMessage()

    def on_mount(self) -> None:
        # Textual also calls RefreshingPane.on_mount (handlers run along the MRO).
        self._update_header()
        bind_plugins(self, self.spec)  # the config's [[plugins]] of this area

    # -- data -------------------------------------------------------------------------------

    @property
    def current_item(self) -> dict[str, Any] | None:
        """The item under the cursor."""
        key = self.table.cursor_key
        return self.items.get(key) if key is not None else None

    def _client(self) -> ApiClient:
        return signed_in(self).client

    async def _refresh(self) -> None:
        self.fetching = True
        self._update_header()
        cancelled = False
        whole = False
        try:
            if not self.loaded:
                await self._stream()
                self.changing.listed_whole()
            elif self.timed_refresh and self._refresh_mode() == "items":
                await self._poll_items()
            else:
                await self._apply(await fetch_all(self._client(), self.spec, self.params))
                self.changing.listed_whole()
            self.refresher.schedule.requests = self._listing_requests()
        except CloudError as error:
            self._failed(error, bool(self.changing))
        except asyncio.CancelledError:
            # Replaced by a newer refresh (exclusive worker). A cancelled first load must not
            # count as loaded, or its successor would fetch everything before showing a row.
            cancelled = True
            raise
        else:
            self._succeeded(bool(self.changing))
            whole = True
        finally:
            # Even a failed first load counts as loaded: the next refresh diffs what arrived.
            self.loaded = self.loaded or not cancelled
            self.fetching = False
            self._remember()
            self._update_header()
            self._update_message()
        cache = surface(self).state.relation_cache() if whole else None
        if cache is not None and self._fed != (cache, self._version):
            # The whole list goes to the account's relations index (it lists nothing twice),
            # once per change: a poll of a few busy items changes nothing most of the time.
            self._fed = (cache, self._version)
            await cache.feed(self.spec.id, self.params, list(self.items.values()))

    async def _stream(self) -> None:
        """First load: show rows page by page as they arrive."""
        table = self.table
        self.items = streamed = dict(self.items)
        async for chunk in iter_chunks(self._client(), self.spec, self.params):
            self.total = chunk.total
            rows = []
            for item in chunk.items:
                key = self.spec.item_key(item)
                streamed[key] = item
                self.changing.arrived(key, item)
                rows.append(table_row(self.spec, item))
            table.append_rows(rows)
            self._update_header()
        if self.total is None:
            self.total = len(self.items)
        self._version += 1

    async def _apply(
        self, fresh: list[dict[str, Any]] | None = None, *, diff: Diff[dict[str, Any]] | None = None
    ) -> None:
        """A refresh: update changed rows, add and remove others; the cursor stays put.

        The diff and the formatting run in chunks that yield to the event loop, so keys stay
        responsive however long the list is (10,000 items: about 5 ms per chunk here).

        Args:
            fresh: The whole list as just fetched (diffed here against the current items).
            diff: Or the changes, already known (items polled one by one).
        """
        if diff is None:
            diff = await diff_items_chunked(self.items, fresh or [], item_key_of(self.spec))
        new = diff.items
        settled = settled_items(
            self.items,
            new,
            status=self.spec.status_of,
            transitional=self.spec.is_transitional_status,
            label=self.spec.label_of,
            keys=diff.changed,
        )
        # Only new and changed rows are formatted; the table itself skips a no-op.
        dirty = (*diff.added, *diff.changed)
        upserts = []
        for start in range(0, len(dirty), FORMAT_CHUNK):
            upserts += [table_row(self.spec, new[k]) for k in dirty[start : start + FORMAT_CHUNK]]
            if start + FORMAT_CHUNK < len(dirty):
                await asyncio.sleep(0)
        self.items = new
        self.total = len(new)
        if diff.added or diff.removed or diff.changed:
            self._version += 1
        self.changing.applied(diff)
        self.table.update_rows(diff.order, upserts)
        for change in settled:
            # "web-1 is now running"
            self.app.notify(change.message, title=self.spec.title, markup=False)
        self._refresh_bindings_if_changed()

    def _listing_requests(self) -> int:
        """Requests a full refresh of this list takes (its refresh budget is per request)."""
        if not is_paged(self.spec):
            return 1
        return self._client().listing_requests(self.spec.list_endpoint, len(self.items))

    def _refresh_mode(self) -> RefreshMode:
        return self.changing.mode(self.refresher.schedule.policy, self._listing_requests())

    async def _poll_items(self) -> None:
        """A long list's fast refresh: fetch only changing items (visible ones first)."""
        diff = await self.changing.poll(
            self._client(),
            self.items,
            self.params,
            visible=set(self.table.visible_keys()),
            limit=self.refresher.schedule.policy.item_polls,
        )
        await self._apply(diff=diff)

    def _remember(self) -> None:
        surface(self).state.remember_items(self.spec, self.params, dict(self.items))

    # -- header and messages ----------------------------------------------------------------

    def _update_header(self) -> None:
        if self.is_mounted:
            self.header.title_text = self._title()

    def _title(self) -> Text:
        """The list's name, its counts (held, shown, loading), the marks, the filters and the
        sort."""
        table = self.table
        spec = self.spec
        text = Text(spec.title, style="bold")
        held = len(self.items)
        if self.fetching and not self.loaded:
            total = f" of {self.total:,}" if self.total else ""
            text.append(f"  {held:,}{total} loading…", style="italic")
        else:
            text.append(f"  {held:,} result{'s' if held != 1 else ''}")
            if table.row_count != held:
                text.append(f" · {table.row_count:,} shown")
            if self.fetching:
                text.append("  ↻", style="italic")
        if table.marked:
            text.append(f"  {len(table.marked):,} marked", style="bold")
        if self.filter.text:
            text.append("  filter: ")
            text.append(shown(self.filter.text))  # what the user typed (or pasted)
        if self.focus_query:
            text.append(f"  showing {shown(self.focus_query)} (escape: all)")
        quick = self.filter.quick_label
        if quick:
            text.append(f"  {shown(quick)}")
        column, reverse = table.sort_state
        if column is not None:
            text.append(f"  sorted by {spec.columns[column].title} {'▼' if reverse else '▲'}")
        return text

    def _update_message(self) -> None:
        if not self.is_mounted:
            return
        message = self.query_one(ListMessage)
        if self.error is not None:
            message.say(self._error_text(self.error), error=True)
        elif self.loaded and not self.items:
            message.say(shown(self.spec.empty_hint))
        elif self.loaded and self.table.row_count == 0:
            problem = self.filter.missing_fields_note(self.items.values())
            text = f"{problem} No rows match the filter. Press escape to clear it."
            message.say(shown(text.strip()))
        else:
            message.say("")

    def _error_text(self, error: CloudError) -> Shown:
        text = describe_error(error)
        if self.items:
            text += " Showing the rows loaded before."
        if is_permanent(error):
            text += " Press r to try again."
        elif self.last_delay:
            text += f" Retrying in {self.last_delay:.0f} s."
        return text

    # -- filters ----------------------------------------------------------------------------

    def set_filter_text(self, text: str) -> None:
        """Filter the list by ``text`` (``#tag field:value words``; empty: every row)."""
        self.filter.set_text(text)
        self._filters_changed()

    def show_filter(self, text: str) -> None:
        """Filter by ``text`` and show it in the filter line (links from other screens:
        ``status:offline``, ``#production``)."""
        self.header.show_filter(text, focus=False)
        self.filter_input.set_class(not text, "-hidden")
        self.set_filter_text(text)

    def show_only(self, query: str, keys: frozenset[Hashable]) -> None:
        """Show only the rows of ``keys``, chosen by ``query`` (an overview attention row whose
        query the filter language cannot say); escape shows every row again."""
        self.focus_query = query
        self.table.set_predicate(lambda row: row.key in keys)
        self._update_header()
        self._update_message()

    def filter_problem(self) -> Shown:
        """Why the filter may match nothing (a field no item has), or ""."""
        return self.filter.missing_fields_note(self.items.values())

    def action_quick_filter(self) -> None:
        """Cycle the quick filter: all, then each value."""
        if self.spec.quick_filter:
            self.filter.cycle_quick()
            self._filters_changed()

    def set_quick_filter(self, value: str | None) -> None:
        """Show only items whose quick-filter field equals ``value`` (None: all)."""
        if self.spec.quick_filter:
            self.filter.set_quick(value)
            self._filters_changed()

    def _filters_changed(self) -> None:
        self.filter.apply(self.table, lambda key: self.items.get(key, {}))
        self._update_header()
        self._update_message()

    # -- marks ------------------------------------------------------------------------------

    @property
    def marked_count(self) -> int:
        """How many rows are marked."""
        return len(self.table.marked)

    def marked_items(self) -> list[dict[str, Any]]:
        """The marked items, in the list's order (marks of vanished items are gone)."""
        return Marks.marked_items(self.items, self.table.marked)

    def on_resource_table_marks_changed(self, event: MarksChanged) -> None:
        event.stop()
        self.marks_changed()

    def marks_changed(self) -> None:
        """Say how many rows are marked (footer key and header) and re-judge the actions."""
        Marks.label_keys(self, self.marked_count)
        self._update_header()
        self._binding_state = None  # the footer's labels changed, not only states
        self._refresh_bindings_if_changed()

    def action_clear_marks(self) -> None:
        """Unmark every row."""
        self.table.action_clear_marks()

    def can_mark_again(self) -> bool:
        """True when the last bulk run's rows are listed and not all marked now."""
        return self.marks.can_mark_again(self.items, self.table.marked)

    def action_mark_again(self) -> None:
        """Mark the rows of the last bulk run again (those still listed), and only those."""
        again = self.marks.again(self.items)
        if again:
            self.table.set_marks(again)

    def acts_on_marks(self, action: Action) -> bool:
        """True when ``action`` would run on the marked rows now."""
        return Marks.acts_on_marks(action, self.table.marked)

    def bulk_available(self, action: Action) -> bool:
        """True when at least one marked item allows ``action`` (asked once per marks, data
        and user)."""
        context = (self.table.marked, id(self.items), surface(self).state.user_context)
        return self.marks.offered(
            action,
            context,
            lambda: any(
                check_availability(self, self.spec, action, item)[0] for item in self.marked_items()
            ),
        )

    def start_bulk(self, action: Action) -> None:
        """Run ``action`` on every marked row (one confirmation, live progress, summary)."""
        items = self.marked_items()
        ran_on = frozenset(self.table.marked)
        spec, params, screen = self.spec, self.params, self.screen

        def check(item: Mapping[str, Any]) -> tuple[bool, str]:
            return check_availability(self, spec, action, item)

        def set_marks(keys: set[Hashable]) -> None:
            self.marks.last_run = ran_on  # the run happened: M marks this set again
            self.table.set_marks(keys)

        async def run() -> bool:
            from screens.actions.bulk import run_bulk

            return await run_bulk(screen, spec, action, items, params, check, set_marks)

        start_action(self, screen, spec, action, None, params, self._after_action, run)

    # -- events -----------------------------------------------------------------------------

    @on(ResourceTable.CursorMoved)
    def _cursor_moved(self, event: CursorMoved) -> None:
        self._refresh_bindings_if_changed()

    def _refresh_bindings_if_changed(self) -> None:
        # Refreshing bindings makes Textual's footer rebuild every key (about 100 ms of CPU
        # here), so it is done only when what the footer shows for the new row differs.
        state = self._footer_state()
        if state != self._binding_state:
            self._binding_state = state
            self.refresh_bindings()

    def _footer_state(self) -> tuple[Any, ...]:
        """What the footer shows for the row under the cursor (and the user's grants)."""
        return (
            surface(self).state.user_context,
            self.marked_count,
            self.can_mark_again(),
            *(self.check_action("run_action", (a.id,)) for a in self.spec.actions),
        )

    @on(ResourceTable.SortChanged)
    def _sort_changed(self, event: SortChanged) -> None:
        self._update_header()

    @on(ResourceTable.Selected)
    def _selected(self, event: Selected) -> None:
        event.stop()
        item = self.items.get(event.key)
        if item is not None:
            self.open_item(item)

    def open_item(self, item: Mapping[str, Any]) -> None:
        """Ask for the detail screen of ``item`` (the app opens it)."""
        self.post_message(OpenItem(self.spec, item, self.params))

    @on(Input.Changed, ".list-filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        event.stop()
        self.set_filter_text(event.value)

    @on(Input.Submitted, ".list-filter")
    def _filter_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if not event.value:
            self.header.hide_filter()
        self.table.focus()

    def on_key(self, event: events.Key) -> None:
        # A disabled action's key is greyed in the footer; pressing it still says why.
        action_id = action_for_key(self, event.key)
        action = self.spec.action(action_id) if action_id else None
        if action is None:
            return
        if self.acts_on_marks(action):
            enabled, reason = self.bulk_available(action), "no marked row allows it"
        else:
            enabled, reason = check_availability(self, self.spec, action, self._target(action))
        if not enabled:
            event.stop()
            self.app.notify(
                shown(reason), title=f"{shown(action.label)}: not available", markup=False
            )

    # -- actions ----------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "run_action" and parameters:
            spec_action = self.spec.action(str(parameters[0]))
            if spec_action is None:
                return False
            if self.acts_on_marks(spec_action):
                return True if self.bulk_available(spec_action) else None
            enabled, _ = check_availability(
                self.app, self.spec, spec_action, self._target(spec_action)
            )
            return True if enabled else None
        if action == "clear_filter":
            return self.filter_input.has_focus or bool(self.filter_text or self.focus_query)
        if action == "clear_marks":
            return self.marked_count > 0
        if action == "mark_again":
            return self.can_mark_again()
        if action == "edit_text":
            return pane_text_action(self, self.spec) is not None
        return True

    def _target(self, action: Action) -> dict[str, Any] | None:
        return self.current_item if action.target == "item" else None

    def action_filter(self) -> None:
        """Show the filter input and focus it."""
        self.header.show_filter()

    def action_clear_filter(self) -> None:
        """Clear and hide the filter."""
        self.header.hide_filter(clear=True)
        self.focus_query = ""  # an overview attention row's items: the filter shows all again
        self.set_filter_text("")
        self.table.focus()

    def action_refresh(self) -> None:
        """Refresh now."""
        self.refresh_now()

    def action_copy(self) -> None:
        """Copy what identifies the item under the cursor."""
        copy_item(self, self.spec, self.current_item)

    def action_json(self) -> None:
        """Show the raw JSON of the item under the cursor."""
        item = self.current_item
        show_json(self, f"{self.spec.singular} {self.spec.display_label(item or {})}", item)

    def action_run_action(self, action_id: str) -> None:
        """Run a spec action on the item under the cursor (or on the collection)."""
        action = self.spec.action(action_id)
        if action is None:
            return
        if self.acts_on_marks(action):
            self.start_bulk(action)
            return
        item = self._target(action)
        params = self.spec.params_for(item, self.params) if item else dict(self.params)
        start_action(self, self.screen, self.spec, action, item, params, self._after_action)

    def action_plugin(self, index: int) -> None:
        """Run the config file's plugin ``index`` on the item under the cursor."""
        start_plugin(self, self.screen, self.spec, self.current_item, index)

    def action_edit_text(self) -> None:
        """Edit the marked rows (else the row under the cursor) as one TOML document."""
        marked = self.marked_items()
        items = marked or ([self.current_item] if self.current_item else [])
        start_text_edit(self, self.screen, self.spec, items, self.params, self._after_action)

    def _after_action(self, changed: bool) -> None:
        if changed:
            self.refresh_now()

    def palette_actions(self) -> list[PaletteAction]:
        """Actions the palette offers here, with the item and parameters each applies to."""
        out: list[PaletteAction] = []
        for action in self.spec.actions:
            item = self._target(action)
            params = self.spec.params_for(item, self.params) if item else dict(self.params)
            out.append((self.spec, action, item, params))
        return out
