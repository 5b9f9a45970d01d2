"""Generic list screens: any spec's collection as a streaming, refreshing, filterable table.

:class:`ResourceListPane` is the reusable part (an area's list, or a child list in a detail tab):
it streams pages in, refreshes on an adaptive one-shot timer while visible, applies refreshes as
a diff keyed by id, and runs the spec's actions. :class:`SingletonPane` shows one object (a
transfer summary, a kubeconfig ...). :class:`ResourceListScreen` frames panes in the shell.
"""

from __future__ import annotations

import asyncio
import importlib
import time
from collections.abc import Callable, Hashable, Mapping
from typing import Any, ClassVar

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.timer import Timer
from textual.widgets import Input, Static, TabbedContent, TabPane

from screens.shell import (
    ShellScreen,
    WorkerForwarding,
    action_for_key,
    add_action_bindings,
    check_availability,
    perform_action,
)
from tui.api.errors import CloudError, NotFound
from tui.refresh import (
    Diff,
    RefreshMode,
    RefreshPolicy,
    RefreshSchedule,
    describe_error,
    diff_items_chunked,
    diff_polled,
    is_permanent,
    pick_polls,
    refresh_mode,
    settled_items,
)
from tui.resources.areas import SPECS, open_target
from tui.resources.format import (
    column_cells,
    column_sort_keys,
    copy_value,
    field_title,
    is_secret_field,
    search_text,
    status_tone,
)
from tui.resources.loader import fetch_all, fetch_item, is_paged, iter_chunks
from tui.resources.spec import Action, ResourceSpec, dig
from widgets.detail_panel import DetailPanel
from widgets.resource_table import ResourceTable, TableColumn, TableRow

FORMAT_CHUNK = 200
"""Rows formatted between two yields to the event loop during a refresh (about 10 ms)."""

PaletteAction = tuple[ResourceSpec, Action, dict[str, Any] | None, dict[str, Any]]
"""(spec, action, item or None, path parameters) offered by the palette."""


def table_columns(spec: ResourceSpec) -> list[TableColumn]:
    """Table columns of a spec."""
    return [
        TableColumn(
            c.title,
            c.width,
            status=c.kind == "status",
            numeric=c.kind in ("int", "bytes", "mb", "gb"),
        )
        for c in spec.columns
    ]


def item_key_of(spec: ResourceSpec) -> Callable[[Mapping[str, Any]], Hashable]:
    """``spec.item_key`` as a fast function for plain (undotted) id and label fields.

    A refresh keys every item of the list (10,000 calls); the generic path through ``dig``
    costs about 2.5 µs a call, this one well under 1. Same result for every dict item.
    """
    id_field, label_field = spec.id_field, spec.label_field
    if "." in id_field or "." in label_field:
        return spec.item_key

    def key(item: Mapping[str, Any]) -> Hashable:
        if type(item) is not dict:
            return spec.item_key(item)
        value = item.get(id_field)
        return str(item.get(label_field) if value is None else value)

    return key


def table_row(spec: ResourceSpec, item: Mapping[str, Any]) -> TableRow:
    """One formatted table row of ``item``."""
    cells = column_cells(spec, item)
    status = spec.status_of(item)
    return TableRow(
        spec.item_key(item),
        cells,
        column_sort_keys(spec, item),
        status_tone(status, spec.transitional) if status is not None else None,
        search_text(cells),
    )


def copy_item(node: Any, spec: ResourceSpec, item: Mapping[str, Any] | None) -> None:
    """Copy the id, address or URL of ``item`` with OSC 52 and say what was copied."""
    if not item:
        node.app.notify("Nothing selected to copy.", title="Copy")
        return
    found = copy_value(spec, item)
    if found is None:
        node.app.notify("This item has nothing to copy.", title="Copy")
        return
    key, value = found
    node.app.copy_to_clipboard(value)
    shown = "(hidden)" if is_secret_field(spec, key) else value
    # Over tmux the user needs `set -g set-clipboard on`; showing the value covers that case too.
    node.app.notify(f"{field_title(spec, key)}: {shown}", title="Copied", markup=False)
    if hasattr(node.app, "last_copied"):
        node.app.last_copied = value


def show_json(node: Any, title: str, item: Mapping[str, Any] | None) -> None:
    """Open the raw JSON of ``item``."""
    from screens.json_view import JsonViewScreen

    if not item:
        node.app.notify("Nothing selected.", title="JSON")
        return
    node.app.push_screen(JsonViewScreen(title, item))


class RefreshTimer:
    """The one-shot refresh timer of one node (a list pane, a detail screen).

    After each refresh the owner reports success or failure; the timer is re-armed with the
    fast, slow or backed-off delay. While the owner is hidden the timer is stopped; when it is
    shown again it refreshes at once if the refresh was due meanwhile, else waits the rest.

    Args:
        node: The widget or screen whose ``set_timer`` runs the timer.
        refresh: Starts a refresh (the owner's worker).
    """

    def __init__(self, node: Any, refresh: Callable[[], None]) -> None:
        self.node = node
        self._refresh = refresh
        self.schedule = RefreshSchedule(RefreshPolicy())
        self.visible = True
        self.last_delay = 0.0
        """Delay chosen after the last refresh."""
        self._timer: Timer | None = None
        self._due_at = 0.0

    def configure(self) -> None:
        """Take the intervals from the session's settings (call once mounted)."""
        settings = getattr(getattr(self.node.app, "session", None), "settings", None)
        if settings is not None:
            self.schedule.policy = RefreshPolicy.from_settings(settings.refresh)

    def stop(self) -> None:
        """Cancel the pending refresh, if any."""
        if self._timer is not None:
            self._timer.stop()
            self._timer = None

    def _arm(self, delay: float) -> None:
        self.stop()
        self._due_at = time.monotonic() + delay
        if self.visible and self.node.is_mounted:
            self._timer = self.node.set_timer(delay, self.fire)

    def fire(self) -> None:
        """What the timer does when it fires (tests call it instead of waiting)."""
        self._timer = None
        if self.visible:
            self._refresh()

    def succeeded(self, *, transitional: bool) -> None:
        """A refresh got its answer: tell the app and re-arm fast or slow."""
        note = getattr(self.node.app, "api_succeeded", None)
        if note:
            note()
        self.last_delay = self.schedule.succeeded(transitional=transitional)
        self._arm(self.last_delay)

    def failed(self, error: CloudError, *, transitional: bool) -> None:
        """A refresh failed: tell the app and re-arm with backoff (honouring Retry-After)."""
        note = getattr(self.node.app, "api_failed", None)
        if note:
            note(error)
        self.last_delay = self.schedule.failed(error, transitional=transitional)
        self._arm(self.last_delay)

    def set_visible(self, visible: bool, *, loaded: bool) -> None:
        """The owner was shown or hidden."""
        self.visible = visible
        if not visible:
            self.stop()
        elif not loaded or time.monotonic() >= self._due_at:
            self._refresh()
        elif self._timer is None:
            self._arm(self._due_at - time.monotonic())


class RefreshingPane(WorkerForwarding, Vertical):
    """A pane that loads itself and refreshes on a one-shot timer while it is visible.

    Args:
        spec: What the pane shows.
        params: Path parameters of its endpoints (the parent's id for nested resources).
        lazy: Start hidden: load when first shown, not when mounted.
        id: Widget id.
    """

    def __init__(
        self,
        spec: ResourceSpec,
        params: Mapping[str, Any] | None = None,
        *,
        lazy: bool = False,
        id: str | None = None,
    ) -> None:
        super().__init__(id=id)
        self.spec = spec
        self.params: dict[str, Any] = dict(params or {})
        self._live = not lazy
        self._suspended = False
        self.refresher = RefreshTimer(self, self._timer_fired)
        self.timed_refresh = False
        """True when the running refresh was started by the timer, not asked for: a long list
        may then fetch only its changing items (see :func:`tui.refresh.refresh_mode`)."""
        self.refresher.visible = not lazy
        self.loaded = False
        self.error: CloudError | None = None
        self._seen_changes = 0
        """The app's change count when this pane last refreshed."""
        self.focus_when_mounted = False
        """Take the focus once composed (a tab's pane created as its tab is shown)."""
        self.init_state()

    def init_state(self) -> None:
        """Set up a subclass's own state (called at the end of ``__init__``)."""

    def on_mount(self) -> None:
        self.refresher.configure()
        if self._live:
            self.refresh_now()
        if self.focus_when_mounted:
            self.focus_main()

    def focus_main(self) -> None:
        """Focus what the keys act on: the table or the detail panel, else the first input."""
        # Not ShellScreen.content_focus_target: that skips widgets not displayed, and a pane
        # mounted as its tab is being shown runs this before the tab counts as displayed.
        main = [w for w in self.query("*") if w.focusable]
        preferred = [w for w in main if isinstance(w, ResourceTable | DetailPanel)]
        target = (preferred or main or [None])[0]
        if target is not None:
            target.focus()

    @property
    def last_delay(self) -> float:
        """Delay chosen after the last refresh."""
        return self.refresher.last_delay

    @property
    def visible_now(self) -> bool:
        """True while the pane is on the shown tab of the active screen."""
        return self._live and not self._suspended

    def set_live(self, live: bool) -> None:
        """The pane's tab became shown (True) or hidden (False)."""
        self._live = live
        self._visibility_changed()

    def set_suspended(self, suspended: bool) -> None:
        """The pane's screen was covered or switched away (True), or came back (False)."""
        self._suspended = suspended
        self._visibility_changed()

    def _visibility_changed(self) -> None:
        if not self.is_mounted or not self.app.is_running:
            return
        if self.visible_now and self.loaded and self._changed_elsewhere():
            # Something was created or changed while this list was out of sight: show it now
            # rather than at the next timer.
            self.refresher.visible = True
            self.refresh_now()
            return
        self.refresher.set_visible(self.visible_now, loaded=self.loaded)

    def _changed_elsewhere(self) -> bool:
        return int(getattr(self.app, "changes", 0)) != self._seen_changes

    def _timer_fired(self) -> None:
        self.refresh_now()
        self.timed_refresh = True

    def refresh_now(self) -> None:
        """Refresh at once (the timer is re-armed when it completes)."""
        self.timed_refresh = False
        self._seen_changes = int(getattr(self.app, "changes", 0))
        self.refresher.stop()
        # The function, not a coroutine: an exclusive worker cancelled before it starts must
        # not leave an un-awaited coroutine behind.
        self.run_worker(self._refresh, group="refresh", exclusive=True, exit_on_error=False)  # type: ignore[arg-type]

    async def _refresh(self) -> None:
        raise NotImplementedError

    def _succeeded(self, transitional: bool) -> None:
        self.error = None
        self.refresher.succeeded(transitional=transitional)

    def _failed(self, error: CloudError, transitional: bool) -> None:
        self.error = error
        self.refresher.failed(error, transitional=transitional)

    def on_unmount(self) -> None:
        self.refresher.stop()


class ResourceListPane(RefreshingPane):
    """A list of one spec's items: header, table, message line.

    Bindings (besides the table's and the spec's actions):

    | Key | Id | Description |
    | :- | :- | :- |
    | / | list.filter | Filter as you type |
    | r | list.refresh | Refresh now |
    | y | list.copy | Copy the id, address or URL under the cursor |
    | J | list.json | Raw JSON of the item under the cursor |
    | f | list.quick_filter | Cycle the quick filter (kernels: architecture) |
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
    ResourceListPane .list-header { height: 1; padding: 0 1; background: $boost; }
    ResourceListPane .list-title { width: 1fr; height: 1; text-style: bold; }
    ResourceListPane .list-filter { width: 30; height: 1; border: none; padding: 0 1; }
    ResourceListPane .list-filter.-hidden { display: none; }
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
        self._binding_state: tuple[Any, ...] | None = None
        self._full_at = 0.0
        self._polled_at: dict[Hashable, float] = {}
        self._transitional: set[Hashable] = set()
        """Keys of the items in a transitional status (kept up to date by loads and diffs:
        scanning 10,000 items for it costs about 15 ms per refresh)."""
        if self.spec.quick_filter:
            for binding in Binding.make_bindings(
                [Binding("f", "quick_filter", "Arch", id="list.quick_filter")]
            ):
                self._bindings.key_to_bindings.setdefault(binding.key, []).append(binding)
        add_action_bindings(self, self.spec.actions)

    # -- composition ------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with Horizontal(classes="list-header"):
            yield Static(classes="list-title")
            yield Input(placeholder="filter…", classes="list-filter -hidden", compact=True)
        yield ResourceTable(table_columns(self.spec), classes="list-table")
        yield Static(classes="list-message -hidden")

    @property
    def table(self) -> ResourceTable:
        """The table."""
        return self.query_one(ResourceTable)

    @property
    def filter_input(self) -> Input:
        """The filter input."""
        return self.query_one(".list-filter", Input)

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
        shown = table.row_count
        if self.fetching and not self.loaded:
            total = f" of {self.total:,}" if self.total else ""
            text.append(f"  {held:,}{total} loading…", style="italic")
        else:
            text.append(f"  {held:,} result{'s' if held != 1 else ''}")
            if shown != held:
                text.append(f" · {shown:,} shown")
            if self.fetching:
                text.append("  ↻", style="italic")
        if table.filter_text:
            text.append("  filter: ")
            text.append(table.filter_text)  # literal: what the user typed
        quick = self._quick_value()
        if quick:
            text.append(f"  {self.spec.quick_filter[0]}: {quick}")  # type: ignore[index]
        elif self.spec.quick_filter:
            text.append(f"  {self.spec.quick_filter[0]}: all")
        column, reverse = table.sort_state
        if column is not None:
            text.append(f"  sorted by {self.spec.columns[column].title} {'▼' if reverse else '▲'}")
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
            text = "No rows match the filter. Press escape to clear it."
        if text != getattr(message, "_shown_text", None):
            # Unchanged text (every keystroke, every refresh) skips an update and its layout.
            message._shown_text = text  # type: ignore[attr-defined]
            message.update(Text(text))
        message.set_class(not text, "-hidden")
        message.set_class(error, "-error")

    # -- events -----------------------------------------------------------------------------

    @on(ResourceTable.CursorMoved)
    def _cursor_moved(self, event: ResourceTable.CursorMoved) -> None:
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
            *(self.check_action("run_action", (a.id,)) for a in self.spec.actions),
        )

    @on(ResourceTable.SortChanged)
    def _sort_changed(self, event: ResourceTable.SortChanged) -> None:
        self._update_header()

    @on(ResourceTable.Selected)
    def _selected(self, event: ResourceTable.Selected) -> None:
        event.stop()
        item = self.items.get(event.key)
        if item is not None:
            self.open_item(item)

    def open_item(self, item: Mapping[str, Any]) -> None:
        """Open the detail screen of ``item``."""
        from screens.resource_detail import ResourceDetailScreen

        target = open_target(self.spec, item)
        params = self.params if target is self.spec else {}
        self.app.push_screen(ResourceDetailScreen(target, dict(item), params))

    @on(Input.Changed, ".list-filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        event.stop()
        self.table.set_filter(event.value)
        self._update_header()
        self._update_message()

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
        enabled, reason = check_availability(self.app, self.spec, action, self._target(action))
        if not enabled:
            event.stop()
            self.app.notify(reason, title=f"{action.label}: not available", markup=False)

    # -- actions ----------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "run_action" and parameters:
            spec_action = self.spec.action(str(parameters[0]))
            if spec_action is None:
                return False
            enabled, _ = check_availability(
                self.app, self.spec, spec_action, self._target(spec_action)
            )
            return True if enabled else None
        if action == "clear_filter":
            return self.filter_input.has_focus or bool(self.table.filter_text)
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
        self.table.set_filter("")
        self.table.focus()
        self._update_header()
        self._update_message()

    def action_refresh(self) -> None:
        """Refresh now."""
        self.refresh_now()

    def action_copy(self) -> None:
        """Copy what identifies the item under the cursor."""
        copy_item(self, self.spec, self.current_item)

    def action_json(self) -> None:
        """Show the raw JSON of the item under the cursor."""
        item = self.current_item
        show_json(self, f"{self.spec.singular} {self.spec.label_of(item or {})}", item)

    def _quick_value(self) -> str | None:
        if not self.spec.quick_filter or self._quick == 0:
            return None
        return self.spec.quick_filter[1][self._quick - 1]

    def action_quick_filter(self) -> None:
        """Cycle the quick filter: all, then each value."""
        if not self.spec.quick_filter:
            return
        values = self.spec.quick_filter[1]
        self._quick = (self._quick + 1) % (len(values) + 1)
        self.set_quick_filter(self._quick_value())

    def set_quick_filter(self, value: str | None) -> None:
        """Show only items whose quick-filter field equals ``value`` (None: all)."""
        if not self.spec.quick_filter:
            return
        field, values = self.spec.quick_filter
        self._quick = values.index(value) + 1 if value in values else 0
        if value is None:
            self.table.set_predicate(None)
        else:
            items = self.items
            self.table.set_predicate(lambda row: str(dig(items.get(row.key, {}), field)) == value)
        self._update_header()
        self._update_message()

    def action_run_action(self, action_id: str) -> None:
        """Run a spec action on the item under the cursor (or on the collection)."""
        action = self.spec.action(action_id)
        if action is None:
            return
        item = self._target(action)
        params = self.spec.params_for(item, self.params) if item else dict(self.params)
        self.run_worker(self._run(action, item, params), group="action", exit_on_error=False)

    async def _run(
        self, action: Action, item: dict[str, Any] | None, params: dict[str, Any]
    ) -> None:
        if await perform_action(self.screen, self.spec, action, item, params):
            self.refresh_now()

    def palette_actions(self) -> list[PaletteAction]:
        """Actions the palette offers here, with the item and parameters each applies to."""
        out: list[PaletteAction] = []
        for action in self.spec.actions:
            item = self._target(action)
            params = self.spec.params_for(item, self.params) if item else dict(self.params)
            out.append((self.spec, action, item, params))
        return out


class SingletonPane(RefreshingPane):
    """One object (transfer summary, kubeconfig, stats ...) as sections of fields."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "refresh", "Refresh", id="list.refresh"),
        Binding("y", "copy", "Copy", id="list.copy"),
        Binding("J", "json", "JSON", id="list.json"),
    ]

    DEFAULT_CSS = """
    SingletonPane { height: 1fr; }
    SingletonPane .list-message { height: auto; padding: 0 1; color: $text-error; }
    SingletonPane .list-message.-hidden { display: none; }
    """

    def init_state(self) -> None:
        self.item: dict[str, Any] = {}
        add_action_bindings(self, self.spec.actions)

    def compose(self) -> ComposeResult:
        yield Static(classes="list-message -hidden")
        yield DetailPanel(self.spec.sections, {}, transitional=self.spec.transitional)

    async def _refresh(self) -> None:
        try:
            self.item = await fetch_item(self.app.session.client, self.spec, {}, self.params)  # type: ignore[attr-defined]
        except CloudError as error:
            self._failed(error, False)
        else:
            self.query_one(DetailPanel).show(self.item)
            self.loaded = True
            self._succeeded(self.spec.is_transitional(self.item))
        message = self.query_one(".list-message", Static)
        message.update(Text(describe_error(self.error) if self.error else ""))
        message.set_class(self.error is None, "-hidden")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "run_action" and parameters:
            spec_action = self.spec.action(str(parameters[0]))
            if spec_action is None:
                return False
            enabled, _ = check_availability(self.app, self.spec, spec_action, self.item)
            return True if enabled else None
        return True

    def action_refresh(self) -> None:
        """Refresh now."""
        self.refresh_now()

    def action_copy(self) -> None:
        """Copy the object's main value."""
        copy_item(self, self.spec, self.item)

    def action_json(self) -> None:
        """Show the raw JSON."""
        show_json(self, self.spec.title, self.item)

    def action_run_action(self, action_id: str) -> None:
        """Run one of the object's actions."""
        action = self.spec.action(action_id)
        if action is not None:
            self.run_worker(self._run(action), group="action", exit_on_error=False)

    async def _run(self, action: Action) -> None:
        if await perform_action(self.screen, self.spec, action, self.item, self.params):
            self.refresh_now()

    def palette_actions(self) -> list[PaletteAction]:
        """Actions the palette offers here."""
        return [(self.spec, a, self.item, dict(self.params)) for a in self.spec.actions]


def _nearest(node: Any, cls: type) -> Any:
    """The closest ancestor of ``node`` of type ``cls``."""
    return next((a for a in node.ancestors if isinstance(a, cls)), None)


CUSTOM_PANES: dict[str, str] = {
    "compute.stats": "screens.stats:StatsPane",
    "compute.transfer": "screens.stats:TransferPane",
}
"""Spec id -> ``"module:Class"`` of a hand-written pane (same constructor as the generic ones)."""


def make_pane(
    spec: ResourceSpec, params: Mapping[str, Any] | None = None, *, lazy: bool, id: str
) -> RefreshingPane:
    """A hand-written pane, a list pane, or a singleton pane for one-object specs."""
    custom = CUSTOM_PANES.get(spec.id)
    if custom is not None:
        module_name, _, class_name = custom.partition(":")
        pane_class = getattr(importlib.import_module(module_name), class_name)
        pane: RefreshingPane = pane_class(spec, params, lazy=lazy, id=id)
        return pane
    if spec.singleton:
        return SingletonPane(spec, params, lazy=lazy, id=id)
    return ResourceListPane(spec, params, lazy=lazy, id=id)


class PaneHost:
    """Mixin for screens holding panes: suspend them with the screen, track the shown tab."""

    def on_screen_suspend(self) -> None:
        for pane in self.query(RefreshingPane):  # type: ignore[attr-defined]
            pane.set_suspended(True)

    def on_screen_resume(self) -> None:
        for pane in self.query(RefreshingPane):  # type: ignore[attr-defined]
            pane.set_suspended(False)

    # A naming-convention handler, not @on: decorated handlers of plain mixins are not collected.
    def on_tabbed_content_tab_activated(self, event: TabbedContent.TabActivated) -> None:
        for pane in event.tabbed_content.query(RefreshingPane):
            owner = _nearest(pane, TabPane)
            # Only panes of this TabbedContent's own tabs change; nested ones follow their tab.
            if owner is not None and _nearest(owner, TabbedContent) is event.tabbed_content:
                pane.set_live(owner is event.pane)

    def refresh_all(self) -> None:
        """Refresh every pane that is shown."""
        for pane in self.query(RefreshingPane):  # type: ignore[attr-defined]
            if pane.visible_now:
                pane.refresh_now()

    def active_pane(self) -> RefreshingPane | None:
        """The pane the user is looking at (the focused one, else the shown tab's)."""
        focused = self.focused  # type: ignore[attr-defined]
        if focused is not None:
            for node in (focused, *focused.ancestors):
                if isinstance(node, RefreshingPane):
                    return node
        for pane in self.query(RefreshingPane):  # type: ignore[attr-defined]
            if pane.visible_now:
                return pane
        return None


class ResourceListScreen(PaneHost, ShellScreen):
    """An area's list (with further top-level resources of the area as tabs).

    Args:
        spec: The resource listed.
        params: Path parameters (for child resources opened on their own).
        tabs: Further spec ids shown as tabs beside ``spec``.
        area_id: The area (mode) the screen belongs to.
    """

    def __init__(
        self,
        spec: ResourceSpec,
        params: Mapping[str, Any] | None = None,
        *,
        tabs: tuple[str, ...] = (),
        area_id: str | None = None,
    ) -> None:
        super().__init__(area_id=area_id)
        self.resource = spec
        self.params = dict(params or {})
        self.tabs = tuple(t for t in tabs if t in SPECS)

    def compose_content(self) -> ComposeResult:
        if not self.tabs:
            yield make_pane(self.resource, self.params, lazy=False, id="pane-0")
            return
        with TabbedContent(id="area-tabs"):
            with TabPane(self.resource.title, id="tab-0"):
                yield make_pane(self.resource, self.params, lazy=False, id="pane-0")
            for index, spec_id in enumerate(self.tabs, start=1):
                # Empty until first shown (see ensure_pane): styling the hidden tabs' tables,
                # inputs and headers cost the first frame of the area ~50 ms.
                yield TabPane(SPECS[spec_id].title, id=f"tab-{index}")

    def ensure_pane(self, index: int, *, focus: bool = False) -> RefreshingPane:
        """The pane of tab ``index``, mounted (and so loading) now if it is not yet.

        Args:
            index: Tab index (0 is the area's own list).
            focus: Give the pane the keys (once it is composed, for a new one).
        """
        found = self.query(f"#pane-{index}")
        if found:
            pane = found.first(RefreshingPane)
            if focus:
                pane.focus_main()
            return pane
        spec = SPECS[(self.resource.id, *self.tabs)[index]]
        pane = make_pane(spec, {}, lazy=False, id=f"pane-{index}")
        pane.focus_when_mounted = focus
        self.query_one(f"#tab-{index}", TabPane).mount(pane)
        return pane

    def on_tabbed_content_tab_activated(self, event: TabbedContent.TabActivated) -> None:
        # Runs before PaneHost's handler (next in the MRO), which marks the live panes.
        pane_id = event.pane.id or ""
        if event.tabbed_content.id == "area-tabs" and pane_id.startswith("tab-"):
            index = int(pane_id.removeprefix("tab-"))
            if not self.query(f"#pane-{index}"):
                # Shown for the first time (tab key, mouse, ``[``/``]``): a tab switch focuses
                # what it shows, and this pane was not there to be focused.
                self.ensure_pane(index, focus=True)

    def on_mount(self) -> None:
        target = self.content_focus_target()
        if target is not None:
            target.focus()

    @property
    def pane(self) -> RefreshingPane:
        """The pane shown now."""
        return self.active_pane() or self.query_one("#pane-0", RefreshingPane)

    def show_spec(self, spec_id: str) -> bool:
        """Show the tab of ``spec_id`` (``:keys`` in object storage); False if not here."""
        ids = (self.resource.id, *self.tabs)
        if spec_id not in ids:
            return False
        index = ids.index(spec_id)
        if self.tabs:
            self.query_one("#area-tabs", TabbedContent).active = f"tab-{index}"
        self.ensure_pane(index, focus=True)
        return True

    def help_title(self) -> str:
        """What the help screen calls this screen."""
        return self.pane.spec.title

    def palette_actions(self) -> list[PaletteAction]:
        """Actions of the shown pane."""
        return self.pane.palette_actions()  # type: ignore[attr-defined]
