"""``:watch``: bookmarked items of every kind with their live status; what changed since.

An item whose fields changed since it was bookmarked (or since the user last looked at its
difference) is marked ``✱``; ``J`` shows the difference and makes the live item the new
reference.

Bindings:

| Key | Id | Description |
| :- | :- | :- |
| enter | table.select | Open the item |
| J | watch.diff | What changed since the last look |
| d | watch.remove | Remove the bookmark |
| r | watch.refresh | Fetch every bookmarked item again |
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Mapping
from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Static

from screens.refresh_timer import RefreshTimer
from screens.shell import ShellScreen
from screens.text_modal import TextModal
from tui.api.errors import CloudError, NotFound
from tui.home.watchlist import Bookmark, differences
from tui.refresh import describe_error
from tui.resources.areas import SPECS
from tui.resources.format import redact
from tui.resources.loader import fetch_item
from tui.resources.rows import TableColumn, TableRow
from tui.untrusted import Shown, shown
from widgets.resource_table import ResourceTable
from widgets.table_messages import Selected

COLUMNS = (
    TableColumn("", 1),
    TableColumn("Kind", 16),
    TableColumn("Label"),
    TableColumn("Status", status=True),
    TableColumn("Changed"),
)

FETCH_CONCURRENCY = 4


def _value(value: Any) -> Shown:
    if isinstance(value, str):
        return shown(value)
    return shown(
        json.dumps(redact(value) if isinstance(value, dict) else value, ensure_ascii=False)
    )


def diff_text(changes: list[tuple[str, Any, Any]]) -> Text:
    """``field: before → now`` lines (literal text, secrets masked)."""
    text = Text()
    for name, before, after in changes:
        text.append(f"{shown(name)}\n", style="bold")
        text.append(f"  was  {_value(before)}\n")
        text.append(f"  now  {_value(after)}\n")
    return text


class DiffScreen(TextModal):
    """What changed in a bookmarked item."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,J", "dismiss", "Close", id="diff.close"),
    ]

    def __init__(self, title: str, changes: list[tuple[str, Any, Any]]) -> None:
        body = diff_text(changes) if changes else Text("Nothing changed.")
        super().__init__(f"Changed: {title}", body, "escape close · this is now the reference")
        self.title_text = title
        self.changes = changes


class WatchlistScreen(ShellScreen):
    """Bookmarked items with their live status."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("J", "diff", "Changes", id="watch.diff"),
        Binding("d", "remove", "Remove", id="watch.remove"),
        Binding("r", "refresh", "Refresh", id="watch.refresh"),
    ]

    DEFAULT_CSS = """
    WatchlistScreen .watch-title { height: 1; padding: 0 1; background: $boost; text-style: bold; }
    WatchlistScreen .watch-message { height: auto; padding: 0 1; color: $text-muted; }
    """

    def compose_content(self) -> ComposeResult:
        yield Static(classes="watch-title")
        yield ResourceTable(COLUMNS, classes="watch-table")
        yield Static(classes="watch-message")

    @property
    def table(self) -> ResourceTable:
        """The table of bookmarks."""
        return self.query_one(ResourceTable)

    def on_mount(self) -> None:
        self.live: dict[tuple[str, str], dict[str, Any]] = {}
        self.problems: dict[tuple[str, str], str] = {}
        self.loaded = False
        # Live status on the usual policy: fast while a watched item changes state.
        self.refresher = RefreshTimer(self, self.action_refresh)
        self.refresher.configure()
        self.action_refresh()
        self.table.focus()

    def on_screen_suspend(self) -> None:
        self.refresher.set_visible(False, loaded=self.loaded)

    def on_screen_resume(self) -> None:
        self._show()  # bookmarks added elsewhere show at once
        self.refresher.set_visible(True, loaded=False)

    @property
    def bookmarks(self) -> dict[tuple[str, str], Bookmark]:
        """The profile's bookmarks (empty when the watchlist is off)."""
        watchlist: Any = getattr(self.app, "watchlist", None)
        return watchlist.bookmarks if watchlist is not None else {}

    def changes_of(self, ident: tuple[str, str]) -> list[tuple[str, Any, Any]]:
        """Fields of a bookmarked item that changed since the last look ([] until fetched)."""
        mark = self.bookmarks.get(ident)
        live = self.live.get(ident)
        if mark is None or live is None:
            return []
        return differences(mark.item, live)

    def _row(self, ident: tuple[str, str], mark: Bookmark) -> TableRow:
        spec = SPECS.get(mark.spec_id)
        live = self.live.get(ident)
        changes = self.changes_of(ident)
        if ident in self.problems:
            status, tone = self.problems[ident], "error"
        elif live is None:
            status, tone = "…", "muted"
        else:
            status = (spec.status_of(live) if spec else None) or "—"
            tone = "warn" if changes else "ok"
        label = spec.label_of(live) if spec and live else mark.label
        changed = ", ".join(name for name, _a, _b in changes[:4])
        if len(changes) > 4:
            changed += f" +{len(changes) - 4}"
        kind = spec.singular if spec else mark.spec_id
        cells = ("✱" if changes else " ", shown(kind), shown(label), shown(status), shown(changed))
        return TableRow(
            "\x1f".join(ident), cells, (not changes, kind, label, status, changed), tone,
            " ".join(cells).lower(),
        )  # fmt: skip

    def _show(self) -> None:
        marks = self.bookmarks
        self.table.update_rows(
            ["\x1f".join(i) for i in marks], [self._row(i, m) for i, m in marks.items()]
        )
        changed = sum(1 for i in marks if self.changes_of(i))
        title = Text(f"Watchlist  {len(marks):,} bookmarked")
        if changed:
            title.append(f" · {changed:,} changed ✱")
        self.query_one(".watch-title", Static).update(title)
        if getattr(self.app, "watchlist", None) is None:
            hint = "Bookmarks are off (the data folder cannot be written)."
        elif not marks:
            hint = "Nothing bookmarked yet. Press b on any item of any area to watch it here."
        else:
            hint = "✱ changed since you last looked: J shows what changed · enter opens"
        self.query_one(".watch-message", Static).update(Text(hint))

    def _ident_under_cursor(self) -> tuple[str, str] | None:
        key = self.table.cursor_key
        if not isinstance(key, str):
            return None
        spec_id, _, item_key = key.partition("\x1f")
        return spec_id, item_key

    def action_refresh(self) -> None:
        """Fetch every bookmarked item again."""
        self._show()
        self.run_worker(self._fetch_all, group="watch", exclusive=True, exit_on_error=False)  # type: ignore[arg-type]

    async def _fetch_all(self) -> None:
        bound = asyncio.Semaphore(FETCH_CONCURRENCY)
        client = self.app.session.client  # type: ignore[attr-defined]

        async def one(ident: tuple[str, str], mark: Bookmark) -> None:
            spec = SPECS.get(mark.spec_id)
            if spec is None:
                self.problems[ident] = "unknown kind"
                return
            async with bound:
                try:
                    self.live[ident] = await fetch_item(client, spec, mark.item, mark.params)
                    self.problems.pop(ident, None)
                except NotFound:
                    self.problems[ident] = "gone"
                except CloudError as error:
                    self.problems[ident] = describe_error(error)[:40]
            self._show()

        await asyncio.gather(*(one(i, m) for i, m in list(self.bookmarks.items())))
        self.loaded = True
        busy = any(
            spec.is_transitional(item)
            for ident, item in self.live.items()
            if (spec := SPECS.get(ident[0])) is not None
        )
        self.refresher.succeeded(transitional=busy)

    def action_diff(self) -> None:
        """Show what changed in the item under the cursor; it becomes the new reference."""
        ident = self._ident_under_cursor()
        mark = self.bookmarks.get(ident) if ident else None
        if ident is None or mark is None:
            return
        changes = self.changes_of(ident)
        spec = SPECS.get(mark.spec_id)
        title = f"{spec.singular if spec else mark.spec_id} {mark.label}"
        self.app.push_screen(DiffScreen(title, changes))
        live = self.live.get(ident)
        watchlist: Any = getattr(self.app, "watchlist", None)
        if live is not None and changes and watchlist is not None:
            watchlist.seen(ident, live, self.app.now())  # type: ignore[attr-defined]
        self._show()

    def action_remove(self) -> None:
        """Remove the bookmark under the cursor."""
        ident = self._ident_under_cursor()
        watchlist: Any = getattr(self.app, "watchlist", None)
        mark = self.bookmarks.get(ident) if ident else None
        if mark is None or watchlist is None:
            return
        spec = SPECS.get(mark.spec_id)
        if spec is not None:
            watchlist.toggle(spec, mark.item, mark.params, 0.0)
        self._show()
        self.app.notify(f"Bookmark removed: {shown(mark.label)}", title="Watchlist", markup=False)

    @on(ResourceTable.Selected)
    def _selected(self, event: Selected) -> None:
        event.stop()
        ident = self._ident_under_cursor()
        mark = self.bookmarks.get(ident) if ident else None
        spec = SPECS.get(mark.spec_id) if mark else None
        if mark is None or spec is None or ident is None:
            return
        item: Mapping[str, Any] = self.live.get(ident) or mark.item
        self.app.open_detail(spec, item, mark.params)  # type: ignore[attr-defined]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("diff", "remove"):
            return self._ident_under_cursor() is not None
        return super().check_action(action, parameters)
