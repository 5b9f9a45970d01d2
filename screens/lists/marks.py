"""Marked rows of a resource list: the "N marked" key, and bulk actions on the marks.

The list's :class:`Marks`. An action declared ``bulk`` in its spec runs on every marked row when
there are any (see :mod:`screens.actions.bulk`); it is offered while at least one marked item
allows it, and the others are listed as skipped.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Hashable, Mapping
from collections.abc import Set as AbstractSet
from typing import Any

from textual.binding import Binding
from textual.dom import DOMNode

from tui.resources.spec import Action
from widgets.textual_private import bind_first, rebind

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


class Marks:
    """The marks of one list beyond the table's own set: the keys the last bulk run went to
    (``M`` marks them again), and which bulk actions the marked rows offer.

    The table holds which rows are marked; this object holds what the list makes of them.
    """

    def __init__(self) -> None:
        self.last_run: frozenset[Hashable] = frozenset()
        """Keys of the rows the last bulk run was sent for."""
        self._offered: dict[str, bool] = {}
        self._offered_for: tuple[Any, ...] | None = None

    @staticmethod
    def bind_keys(node: DOMNode) -> None:
        """Bind the "N marked" and "mark again" keys on ``node``, first, so the footer shows
        them before the actions."""
        marks = [dataclasses.replace(MARKS_BINDING, key=key) for key in MARKS_KEYS]
        bind_first(node, [*marks, MARK_AGAIN_BINDING])

    @staticmethod
    def label_keys(node: DOMNode, count: int) -> None:
        """Say on the footer's key how many rows are marked ("3 marked")."""
        description = f"{count} marked" if count else "marked"
        for key in MARKS_KEYS:
            rebind(
                node, key, [dataclasses.replace(MARKS_BINDING, key=key, description=description)]
            )

    @staticmethod
    def marked_items(
        items: Mapping[Hashable, dict[str, Any]], marked: AbstractSet[Hashable]
    ) -> list[dict[str, Any]]:
        """The marked items, in the list's order (marks of vanished items are gone)."""
        return [item for key, item in items.items() if key in marked]

    def again(self, items: Mapping[Hashable, Any]) -> frozenset[Hashable]:
        """The rows of the last bulk run that are still listed."""
        return frozenset(k for k in self.last_run if k in items)

    def can_mark_again(self, items: Mapping[Hashable, Any], marked: AbstractSet[Hashable]) -> bool:
        """True when the last bulk run's rows are listed and not all marked now."""
        again = self.again(items)
        return bool(again) and marked != again

    @staticmethod
    def acts_on_marks(action: Action, marked: AbstractSet[Hashable]) -> bool:
        """True when ``action`` would run on the marked rows now."""
        return action.bulk and action.target == "item" and bool(marked)

    def offered(
        self, action: Action, context: tuple[Any, ...], allowed: Callable[[], bool]
    ) -> bool:
        """Whether at least one marked item allows ``action``, asked of ``allowed`` once per
        ``context`` (the marks, the items and the user: the answer holds while they do)."""
        if context != self._offered_for:
            self._offered_for = context
            self._offered = {}
        if action.id not in self._offered:
            self._offered[action.id] = allowed()
        return self._offered[action.id]
