"""Marked rows of a resource list: the "N marked" key, and bulk actions on the marks.

A mixin of :class:`~screens.list_pane.ResourceListPane`. An action declared ``bulk`` in its
spec runs on every marked row when there are any (see :mod:`screens.bulk_actions`); it is
offered while at least one marked item allows it, and the others are listed as skipped.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Hashable, Mapping
from typing import TYPE_CHECKING, Any

from textual.binding import Binding

from screens.shell import check_availability, start_action
from tui.resources.spec import Action

if TYPE_CHECKING:
    from widgets.table_messages import MarksChanged

MARKS_KEYS = ("ctrl+space", "ctrl+@")
"""A terminal sends ctrl+space as NUL, which Textual names ctrl+@: both clear the marks."""
MARKS_BINDING = Binding(
    MARKS_KEYS[0], "clear_marks", "marked", id="list.clear_marks", tooltip="Clear the marks"
)
"""Shown in the footer while rows are marked ("3 marked"); pressing it clears the marks.
Bound on the pane, not the table: the focused table's binding of the same key would hide it
from the footer."""
MARK_AGAIN_BINDING = Binding("M", "mark_again", "Mark again", id="list.mark_again")
"""After a bulk run, marks the rows it ran on again (those still listed), so one set can be
rebooted, then shut down, then deleted without marking it three times."""


class ListMarks:
    """Marks and bulk actions of a list pane (uses its ``spec``, ``items`` and ``table``)."""

    _bulk_cache: dict[str, bool]
    _bulk_cache_key: tuple[Any, ...] | None
    _last_run: frozenset[Hashable]
    """Keys of the rows the last bulk run was sent for (``M`` marks them again)."""

    def init_marks(self) -> None:
        """Bind the "N marked" and "mark again" keys first, so the footer shows them before
        the actions."""
        self._bulk_cache = {}
        self._bulk_cache_key = None
        self._last_run = frozenset()
        own: dict[str, list[Binding]] = self._pane._bindings.key_to_bindings
        existing = dict(own)
        own.clear()
        for key in MARKS_KEYS:
            own[key] = [dataclasses.replace(MARKS_BINDING, key=key)]
        own[MARK_AGAIN_BINDING.key] = [MARK_AGAIN_BINDING]
        own.update(existing)

    @property
    def _pane(self) -> Any:
        return self

    @property
    def marked_count(self) -> int:
        """How many rows are marked."""
        return len(self._pane.table.marked)

    def marked_items(self) -> list[dict[str, Any]]:
        """The marked items, in the list's order (marks of vanished items are gone)."""
        pane = self._pane
        marked = pane.table.marked
        return [item for key, item in pane.items.items() if key in marked]

    def on_resource_table_marks_changed(self, event: MarksChanged) -> None:
        event.stop()
        self.marks_changed()

    def marks_changed(self) -> None:
        """Say how many rows are marked (footer key and header) and re-judge the actions."""
        pane = self._pane
        count = self.marked_count
        description = f"{count} marked" if count else "marked"
        for key in MARKS_KEYS:
            pane._bindings.key_to_bindings[key] = [
                dataclasses.replace(MARKS_BINDING, key=key, description=description)
            ]
        pane._update_header()
        pane._binding_state = None  # the footer's labels changed, not only states
        pane._refresh_bindings_if_changed()

    def action_clear_marks(self) -> None:
        """Unmark every row."""
        self._pane.table.action_clear_marks()

    def last_run_keys(self) -> frozenset[Hashable]:
        """The rows of the last bulk run that are still listed."""
        items = self._pane.items
        return frozenset(k for k in self._last_run if k in items)

    def can_mark_again(self) -> bool:
        """True when the last bulk run's rows are listed and not all marked now."""
        again = self.last_run_keys()
        return bool(again) and self._pane.table.marked != again

    def action_mark_again(self) -> None:
        """Mark the rows of the last bulk run again (those still listed), and only those."""
        again = self.last_run_keys()
        if again:
            self._pane.table.set_marks(again)

    def acts_on_marks(self, action: Action) -> bool:
        """True when ``action`` would run on the marked rows now."""
        return action.bulk and action.target == "item" and self.marked_count > 0

    def bulk_available(self, action: Action) -> bool:
        """True when at least one marked item allows ``action`` (cached per marks and data)."""
        pane = self._pane
        key = (pane.table.marked, id(pane.items), getattr(pane.app, "user_version", 0))
        if key != self._bulk_cache_key:
            self._bulk_cache_key = key
            self._bulk_cache = {}
        if action.id not in self._bulk_cache:
            self._bulk_cache[action.id] = any(
                check_availability(pane.app, pane.spec, action, item)[0]
                for item in self.marked_items()
            )
        return self._bulk_cache[action.id]

    def start_bulk(self, action: Action) -> None:
        """Run ``action`` on every marked row (one confirmation, live progress, summary)."""
        pane = self._pane
        items = self.marked_items()
        ran_on = frozenset(pane.table.marked)

        def check(item: Mapping[str, Any]) -> tuple[bool, str]:
            return check_availability(pane.app, pane.spec, action, item)

        def set_marks(keys: set[Hashable]) -> None:
            self._last_run = ran_on  # the run happened: M marks this set again
            pane.table.set_marks(keys)

        async def run() -> bool:
            from screens.bulk_actions import run_bulk

            return await run_bulk(
                pane.screen, pane.spec, action, items, pane.params, check, set_marks
            )

        start_action(
            pane, pane.screen, pane.spec, action, None, pane.params, pane._after_action, run
        )
