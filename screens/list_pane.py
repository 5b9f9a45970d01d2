"""A list of one spec's items: streams pages in, refreshes as a diff, filters, runs actions."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Hashable, Mapping
from typing import Any, ClassVar

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Input, Static

from screens.list_filter import ListFilter
from screens.list_marks import ListMarks
from screens.navigation import OpenItem
from screens.pane import PaletteAction, RefreshingPane, copy_item, show_json
from screens.shell import action_for_key, add_action_bindings, check_availability, start_action
from tui.api.errors import CloudError, NotFound
from tui.refresh import (
    Diff,
    RefreshMode,
    describe_error,
    diff_items_chunked,
    diff_polled,
    is_permanent,
    pick_polls,
    refresh_mode,
    settled_items,
)
from tui.resources.loader import fetch_all, fetch_item, is_paged, iter_chunks
from tui.resources.rows import item_key_of, table_row
from tui.resources.spec import Action
from tui.untrusted import shown
from widgets.resource_table import ResourceTable
from widgets.table_messages import CursorMoved, Selected, SortChanged

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


class ResourceListPane(ListFilter, ListMarks, RefreshingPane):
    """A list of one spec's items: header, table, message line.

    Bindings (besides the table's and the spec's actions):

    | Key | Id | Description |
    | :- | :- | :- |
    | / | list.filter | Filter as you type |
    | r | list.refresh | Refresh now |
    | y | list.copy | Copy the id, address or URL under the cursor |
    | J | list.json | Raw JSON of the item under the cursor |
    | f | list.quick_filter | Cycle the quick filter (kernels: architecture) |
    | ctrl+space | list.clear_marks | Shown as "N marked" while rows are marked; clears them |
    | M | list.mark_again | After a bulk action, mark the rows it ran on again |

    Actions declared ``bulk`` run on every marked row when rows are marked (see
    :mod:`screens.list_marks`); the filter language is :mod:`tui.resources.filter_query`.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("slash", "filter", "Filter", id="list.filter"),
        Binding("r", "refresh", "Refresh", id="list.refresh"),
        Binding("y", "copy", "Copy", id="list.copy"),
        Binding("J", "json", "JSON", id="list.json"),
        Binding("escape", "clear_filter", "Clear filter", show=False, id="list.clear_filter"),
    ]

    DEFAULT_CSS = """
    ResourceListPane { height: 1fr; }
    ResourceListPane .list-message {
        height: auto; max-height: 3; padding: 0 1; color: $text-muted;
    }
    ResourceListPane .list-message.-error { color: $text-error; }
    ResourceListPane .list-message.-hidden { display: none; }
    """

    def init_state(self) -> None:
        self.items: dict[Hashable, dict[str, Any]] = {}
        self.total: int | None = None
        self.fetching = False
        """True while a load or refresh runs (not Textual's ``loading``: that would hide the
        table behind a spinner and ignore keys for the whole refresh)."""
        self._quick: int = 0
        self.focus_query = ""  # an overview attention row's items (screens.attention)
        self._binding_state: tuple[Any, ...] | None = None
        self._full_at = 0.0
        self._polled_at: dict[Hashable, float] = {}
        self._transitional: set[Hashable] = set()
        """Keys of the items in a transitional status (kept up to date by loads and diffs:
        scanning 10,000 items for it costs about 15 ms per refresh)."""
        if self.spec.quick_filter:
            for binding in Binding.make_bindings([QUICK_FILTER_BINDING]):
                self._bindings.key_to_bindings.setdefault(binding.key, []).append(binding)
        add_action_bindings(self, self.spec.actions)
        self.init_marks()

    # -- composition ------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield from self.compose_list()
        yield Static(classes="list-message -hidden")

    def on_mount(self) -> None:
        # Textual also calls RefreshingPane.on_mount (handlers run along the MRO).
        self._update_header()

    # -- data -------------------------------------------------------------------------------

    @property
    def current_item(self) -> dict[str, Any] | None:
        """The item under the cursor."""
        key = self.table.cursor_key
        return self.items.get(key) if key is not None else None

    def _client(self) -> Any:
        return self.app.session.client  # type: ignore[attr-defined]

    async def _refresh(self) -> None:
        self.fetching = True
        self._update_header()
        cancelled = False
        try:
            if not self.loaded:
                await self._stream()
                self._full_at = time.monotonic()
            elif self.timed_refresh and self._refresh_mode() == "items":
                await self._poll_items()
            else:
                await self._apply(await fetch_all(self._client(), self.spec, self.params))
                self._full_at = time.monotonic()
            self.refresher.schedule.requests = self._listing_requests()
        except CloudError as error:
            self._failed(error, self._any_transitional())
        except asyncio.CancelledError:
            # Replaced by a newer refresh (exclusive worker). A cancelled first load must not
            # count as loaded, or its successor would fetch everything before showing a row.
            cancelled = True
            raise
        else:
            self._succeeded(self._any_transitional())
        finally:
            # Even a failed first load counts as loaded: the next refresh diffs what arrived.
            self.loaded = self.loaded or not cancelled
            self.fetching = False
            self._remember()
            self._update_header()
            self._update_message()

    async def _stream(self) -> None:
        """First load: show rows page by page as they arrive."""
        table = self.table
        async for chunk in iter_chunks(self._client(), self.spec, self.params):
            self.total = chunk.total
            rows = []
            for item in chunk.items:
                key = self.spec.item_key(item)
                self.items[key] = item
                if self.spec.is_transitional(item):
                    self._transitional.add(key)
                rows.append(table_row(self.spec, item))
            table.append_rows(rows)
            self._update_header()
        if self.total is None:
            self.total = len(self.items)

    async def _apply(
        self, fresh: list[dict[str, Any]] | None = None, *, diff: Diff | None = None
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
        self.items = new  # type: ignore[assignment]
        self.total = len(new)
        # Only added, changed and removed items can enter or leave a transitional status.
        self._transitional.difference_update(diff.removed)
        for k in dirty:
            if self.spec.is_transitional(new[k]):
                self._transitional.add(k)
            else:
                self._transitional.discard(k)
        self.table.update_rows(diff.order, upserts)
        notify = getattr(self.app, "notify_settled", None)
        for change in settled:
            if notify:
                notify(self.spec, change)
        self._refresh_bindings_if_changed()

    def _listing_requests(self) -> int:
        """Requests a full refresh of this list takes (its refresh budget is per request)."""
        count = getattr(self._client(), "listing_requests", None)
        if count is None or not is_paged(self.spec):
            return 1
        return int(count(self.spec.list_endpoint, len(self.items)))

    def _refresh_mode(self) -> RefreshMode:
        if not self.spec.view_endpoint or self.spec.adapter:
            return "full"
        return refresh_mode(
            self.refresher.schedule.policy,
            requests=self._listing_requests(),
            transitional=len(self._transitional),
            since_full=time.monotonic() - self._full_at,
        )

    async def _poll_items(self) -> None:
        """A long list's fast refresh: fetch only changing items (visible ones first)."""
        spec = self.spec
        changing = [k for k in self._transitional if k in self.items]
        chosen = pick_polls(
            changing,
            visible=set(self.table.visible_keys()),
            polled_at=self._polled_at,
            limit=self.refresher.schedule.policy.item_polls,
        )
        client = self._client()
        answers = await asyncio.gather(
            *(fetch_item(client, spec, self.items[k], self.params) for k in chosen),
            return_exceptions=True,
        )
        now = time.monotonic()
        self._polled_at = {k: t for k, t in self._polled_at.items() if k in changing}
        fresh: dict[Hashable, dict[str, Any]] = {}
        gone: set[Hashable] = set()
        for key, answer in zip(chosen, answers, strict=True):
            self._polled_at[key] = now
            if isinstance(answer, NotFound):
                gone.add(key)  # deleted meanwhile
            elif isinstance(answer, BaseException):
                raise answer
            else:
                fresh[key] = answer
        await self._apply(diff=diff_polled(self.items, fresh, gone))

    def _any_transitional(self) -> bool:
        # Every item of the shown list counts, filtered out or not: a filter is a view, and a
        # row that settles behind it should still be noticed quickly.
        return bool(self._transitional)

    def _remember(self) -> None:
        remember = getattr(self.app, "remember_items", None)
        if remember:
            remember(self.spec, self.params, self.items)

    # -- header and messages ----------------------------------------------------------------

    def _update_header(self) -> None:
        if not self.is_mounted:
            return
        table = self.table
        text = Text(self.spec.title, style="bold")
        held = len(self.items)
        on_screen = table.row_count
        if self.fetching and not self.loaded:
            total = f" of {self.total:,}" if self.total else ""
            text.append(f"  {held:,}{total} loading…", style="italic")
        else:
            text.append(f"  {held:,} result{'s' if held != 1 else ''}")
            if on_screen != held:
                text.append(f" · {on_screen:,} shown")
            if self.fetching:
                text.append("  ↻", style="italic")
        if table.marked:
            text.append(f"  {len(table.marked):,} marked", style="bold")
        if self.filter_text:
            text.append("  filter: ")
            text.append(shown(self.filter_text))  # what the user typed (or pasted)
        if self.focus_query:
            text.append(f"  showing {shown(self.focus_query)} (escape: all)")
        quick = self._quick_value()
        spec = self.spec
        if quick and spec.quick_filter:
            text.append(f"  {spec.quick_filter[0]}: {quick}")
        elif spec.quick_filter:
            text.append(f"  {spec.quick_filter[0]}: all")
        column, reverse = table.sort_state
        if column is not None:
            text.append(f"  sorted by {spec.columns[column].title} {'▼' if reverse else '▲'}")
        # One fixed-height line: no screen layout needed (it would cost ~20 ms per keystroke).
        self.query_one(".list-title", Static).update(text, layout=False)

    def _update_message(self) -> None:
        if not self.is_mounted:
            return
        message = self.query_one(".list-message", Static)
        text = ""
        error = False
        if self.error is not None:
            error = True
            text = describe_error(self.error)
            if self.items:
                text += " Showing the rows loaded before."
            if is_permanent(self.error):
                text += " Press r to try again."
            elif self.last_delay:
                text += f" Retrying in {self.last_delay:.0f} s."
        elif self.loaded and not self.items:
            text = self.spec.empty_hint
        elif self.loaded and self.table.row_count == 0:
            text = f"{self.filter_problem()} No rows match the filter. Press escape to clear it."
            text = text.strip()
        if text != getattr(message, "_shown_text", None):
            # Unchanged text (every keystroke, every refresh) skips an update and its layout.
            message._shown_text = text  # type: ignore[attr-defined]
            message.update(Text(shown(text)))
        message.set_class(not text, "-hidden")
        message.set_class(error, "-error")

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
            getattr(self.app, "user_version", 0),
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
            self.filter_input.add_class("-hidden")
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
            enabled, reason = check_availability(self.app, self.spec, action, self._target(action))
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
        return True

    def _target(self, action: Action) -> dict[str, Any] | None:
        return self.current_item if action.target == "item" else None

    def action_filter(self) -> None:
        """Show the filter input and focus it."""
        self.filter_input.remove_class("-hidden")
        self.filter_input.focus()

    def action_clear_filter(self) -> None:
        """Clear and hide the filter."""
        self.filter_input.value = ""
        self.filter_input.add_class("-hidden")
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
