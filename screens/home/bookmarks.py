"""``b`` on every area screen: bookmark the item under the cursor (or remove its bookmark).

The screen asks the app (:class:`~screens.navigation.BookmarkAsked`), which calls
:func:`bookmark_under_cursor`; ``:watch`` lists the bookmarks.
"""

from __future__ import annotations

from typing import Any

from textual.screen import Screen

from screens.app_surface import surface
from screens.details.resource_detail import ResourceDetailScreen
from screens.lists.list_pane import ResourceListPane
from screens.lists.pane_host import PaneHostScreen
from tui.resources.areas import open_target
from tui.resources.spec import ResourceSpec
from tui.untrusted import shown


def bookmark_target(
    screen: Screen[Any],
) -> tuple[ResourceSpec, dict[str, Any], dict[str, Any]] | None:
    """The item ``b`` bookmarks on ``screen``: the row under the cursor of the focused list,
    else the item a detail screen shows; as (spec that opens it, item, its parent params)."""
    focused = screen.focused
    pane = next(
        (
            n
            for n in (focused, *(focused.ancestors if focused else ()))
            if isinstance(n, ResourceListPane)
        ),
        None,
    )
    detail = screen if isinstance(screen, ResourceDetailScreen) else None
    if pane is None and detail is None and isinstance(screen, PaneHostScreen):
        shown_pane = screen.active_pane()  # a list screen: the list of the tab it shows
        pane = shown_pane if isinstance(shown_pane, ResourceListPane) else None
    if pane is not None and pane.current_item is not None:
        spec, item, params = pane.spec, pane.current_item, dict(pane.params)
    elif detail is not None and detail.item:
        spec, item, params = detail.resource, detail.item, dict(detail.params)
    else:
        return None
    target = open_target(spec, item)
    return target, dict(item), params if target is spec else {}


def bookmark_under_cursor(screen: Screen[Any]) -> None:
    """``b``: bookmark the item under the cursor (or remove its bookmark)."""
    app = screen.app
    state = surface(screen).state
    watchlist = state.watchlist
    found = bookmark_target(screen)
    if watchlist is None or found is None:
        app.notify("Nothing to bookmark here.", title="Watchlist", markup=False)
        return
    spec: ResourceSpec
    spec, item, params = found
    try:
        added = watchlist.toggle(spec, item, params, state.now())
    except OSError as exc:
        app.notify(f"Not saved: {shown(exc.strerror or exc)}", title="Watchlist", severity="error")
        return
    label = spec.display_label(item)
    verb = "Bookmarked" if added else "Bookmark removed"
    app.notify(f"{verb}: {spec.singular} {label}", title="Watchlist (:watch)", markup=False)
