"""Jumping from an overview attention row to the list filtered to those items.

:func:`apply_list_query` is the one place a list is narrowed to an attention row: the row's
query (``status:offline``) names the items for the user, and its keys are the exact items the
overview counted, so the list shows the same number the overview did.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING, Any, Protocol

from tui.home.overview import Attention

if TYPE_CHECKING:
    from textual.app import App

    from widgets.resource_table import ResourceTable


class Narrowable(Protocol):
    """A list an attention row narrows (:class:`screens.lists.list_pane.ResourceListPane`)."""

    @property
    def table(self) -> ResourceTable:
        """The list's table."""
        ...

    def show_filter(self, text: str) -> None:
        """Filter by ``text`` and show it in the filter line."""
        ...

    def show_only(self, query: str, keys: frozenset[Hashable]) -> None:
        """Show only the rows of ``keys``, chosen by ``query``."""
        ...


def apply_list_query(
    pane: Narrowable, query: str, keys: frozenset[Hashable], *, filterable: bool
) -> None:
    """Narrow the list ``pane`` to an attention row's items.

    Args:
        pane: The list of the row's area.
        query: The filter as the user would type it (``status:offline``).
        keys: Keys of the rows to show.
        filterable: ``query`` is valid filter language (a plain ``field:value``): it becomes
            the list's filter; else the list shows ``keys`` and names ``query``.
    """
    if filterable:
        pane.show_filter(query)
    else:
        pane.show_only(query, keys)
    pane.table.focus()


def show_attention(app: App[Any], item: Attention) -> None:
    """Open the list of ``item``'s area, filtered to its items."""
    from screens.lists.list_pane import ResourceListPane
    from screens.lists.resource_list import ResourceListScreen

    app.switch_mode(item.area_id)

    def narrow() -> None:
        while len(app.screen_stack) > 1 and not isinstance(app.screen, ResourceListScreen):
            app.pop_screen()
        screen = app.screen
        if not isinstance(screen, ResourceListScreen) or not screen.show_spec(item.spec_id):
            return
        if isinstance(screen.pane, ResourceListPane):
            apply_list_query(screen.pane, item.query, item.keys, filterable=item.filterable)

    app.call_after_refresh(narrow)
