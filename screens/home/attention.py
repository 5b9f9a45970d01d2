"""Jumping from an overview attention row to the list filtered to those items.

:func:`apply_list_query` is the one place a list is narrowed to an attention row: the row's
query (``status:offline``) names the items for the user, and its keys are the exact items the
overview counted, so the list shows the same number the overview did.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from tui.home.overview import Attention


def apply_list_query(
    pane: Any, query: str, keys: frozenset[Hashable], *, filterable: bool = False
) -> None:
    """Show only ``keys`` in a list pane, described by ``query`` (escape shows all again).

    When the list has the ``/`` filter language (``show_filter``) and ``query`` is
    written in it, the query becomes the list's filter: the user sees and edits it like one
    they typed. Otherwise the exact items are shown and the query names them in the header.

    Args:
        pane: A :class:`screens.lists.list_pane.ResourceListPane`.
        query: The filter as the user would type it (``status:offline``).
        keys: Keys of the rows to show.
        filterable: ``query`` is valid filter language (a plain ``field:value``).
    """
    show_filter = getattr(pane, "show_filter", None)
    if filterable and show_filter is not None:
        show_filter(query)
        pane.table.focus()
        return
    pane.focus_query = query
    pane.table.set_predicate(lambda row: row.key in keys)
    pane._update_header()
    pane._update_message()
    pane.table.focus()


def show_attention(app: Any, item: Attention) -> None:
    """Open the list of ``item``'s area, filtered to its items."""
    from screens.lists.resource_list import ResourceListScreen

    app.switch_mode(item.area_id)

    def narrow() -> None:
        while len(app.screen_stack) > 1 and not isinstance(app.screen, ResourceListScreen):
            app.pop_screen()
        screen = app.screen
        if not isinstance(screen, ResourceListScreen) or not screen.show_spec(item.spec_id):
            return
        apply_list_query(screen.pane, item.query, item.keys, filterable=item.filterable)

    app.call_after_refresh(narrow)
