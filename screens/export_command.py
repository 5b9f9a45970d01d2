"""``:export``: write the list on screen to a file (see :mod:`tui.export`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tui.export import USAGE, parse_export, write_export
from tui.untrusted import shown

if TYPE_CHECKING:
    from textual.app import App

    from tui.resources.spec import ResourceSpec


def run_export(app: App[Any], text: str) -> None:
    """Run ``:export ...`` on the list the user is looking at, and say where it went."""
    from screens.list_pane import ResourceListPane
    from screens.pane_host import PaneHost

    try:
        request = parse_export(text)
    except ValueError as error:
        app.notify(shown(error), title=":export", severity="warning", markup=False)
        return
    screen = app.screen
    pane = screen.active_pane() if isinstance(screen, PaneHost) else None
    if not isinstance(pane, ResourceListPane):
        app.notify(
            f"Open a list first: {USAGE} writes the list on screen.",
            title=":export",
            severity="warning",
            markup=False,
        )
        return
    if request.which == "marked":
        items = pane.marked_items()
        if not items:
            app.notify("No row is marked (space marks one, * every shown row).", title=":export")
            return
    else:
        items = [pane.items[k] for k in pane.table.keys if k in pane.items]
    try:
        path = write_export(request, pane.spec, items)
    except FileExistsError as error:
        app.notify(
            f"{shown(error.filename)} exists already; give another path.",
            title=":export",
            severity="warning",
            markup=False,
        )
        return
    except OSError as error:
        app.notify(
            f"Could not write {shown(error.filename or request.path)}: "
            f"{shown(error.strerror or error)}.",
            title=":export",
            severity="error",
            markup=False,
        )
        return
    spec: ResourceSpec = pane.spec
    noun = spec.singular if len(items) == 1 else spec.title.lower()
    app.notify(
        f"{len(items)} {noun} ({request.which}) written to {shown(path)}",
        title=f":export {request.format}",
        markup=False,
    )
