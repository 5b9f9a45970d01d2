"""Glue of the operator's home: per-profile state, read-only toggling, bookmarking.

The app calls these so that ``tui/app.py`` stays wiring: :func:`open_home_state` attaches the
activity log to the client's change observers and loads the watchlist once signed in;
:func:`toggle_read_only` turns a read-only session on at once and off only after a confirmation;
:func:`bookmark_under_cursor` is ``b`` on every area screen.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from tui.resources.areas import open_target
from tui.resources.spec import Area, ResourceSpec
from tui.untrusted import shown

if TYPE_CHECKING:
    from textual.app import App
    from textual.screen import Screen


def open_home_state(app: Any) -> None:
    """Open the profile's activity log, watchlist and undo journal; apply the read-only flag.

    A data folder that cannot be written is reported once; the app works without them. The
    demo's are in a folder of their own, new on each run.
    """
    from tui.home.activity import ActivityLog
    from tui.home.undo import UndoJournal
    from tui.home.watchlist import Watchlist
    from tui.session.datadir import demo_dir

    session = app.session
    session.client.read_only = app.read_only
    app.undo_journal = UndoJournal()
    try:
        # The demo's objects exist for one run only: its state must not outlive it.
        folder = demo_dir(session.demo_user or "demo") if session.demo else None
        app.activity = ActivityLog(session.profile_name, clock=app.now, folder=folder)
        app.watchlist = Watchlist(session.profile_name, folder=folder)
    except OSError as exc:
        app.notify(
            f"Bookmarks and the activity log are off: {shown(exc.strerror or exc)}",
            title="Data folder",
            severity="warning",
            markup=False,
        )
        return
    session.client.change_observers.append(_log_change(app))
    previous = app.activity.previous[:3]
    if previous and app.settings.start_area != "overview":
        # The overview lists them; a user who starts elsewhere is told once.
        app.notify(
            "\n".join(shown(entry.summary()) for entry in previous),
            title="Last changes of the previous session (:log)",
            markup=False,
        )
    if app.watchlist.problem:
        app.notify(
            "The watchlist file could not be read and is left as it is: "
            f"{shown(app.watchlist.problem)}",
            title="Watchlist",
            severity="warning",
            markup=False,
        )


def _log_change(app: Any) -> Any:
    def record(event: Any) -> None:
        try:
            app.activity.record(event)
        except OSError as exc:  # a full disk must not fail the change itself
            app.notify(
                f"Not logged: {shown(exc.strerror or exc)}", title="Activity log", markup=False
            )

    return record


def home_screen(area: Area) -> Screen[Any]:
    """The screen of a home area."""
    if area.id == "watch":
        from screens.watchlist import WatchlistScreen

        return WatchlistScreen(area_id=area.id)
    if area.id == "log":
        from screens.activity_log import ActivityLogScreen

        return ActivityLogScreen(area_id=area.id)
    from screens.overview import OverviewScreen

    return OverviewScreen(area_id=area.id)


def set_read_only(app: Any, on: bool) -> None:
    """Make the session read-only (or not): actions re-check, the status bar says so."""
    app.read_only = on
    session = getattr(app, "session", None)
    if session is not None:
        session.client.read_only = on
    if app.user_context is not None:
        app.user_context = dataclasses.replace(app.user_context, read_only=on)
    app.user_version += 1
    app.screen.refresh_bindings()


def toggle_read_only(app: App[Any]) -> None:
    """``:read-only``: on at once; off only after the user confirms on a dialog."""
    if not getattr(app, "read_only", False):
        set_read_only(app, True)
        app.notify(
            "Nothing can be changed from this session. Type :read-only again to leave it.",
            title="Read-only session",
            markup=False,
        )
        return
    from screens.confirm import ConfirmModal

    def answered(confirmed: bool | None) -> None:
        if confirmed:
            set_read_only(app, False)
            app.notify("Changes are possible again.", title="Read-only session ended")

    app.push_screen(
        ConfirmModal(
            "Leave the read-only session?",
            "Actions that change resources become available again in this session.",
            "(no request is sent)",
            confirm_label="Leave read-only",
        ),
        answered,
    )


def bookmark_target(
    screen: Screen[Any],
) -> tuple[ResourceSpec, dict[str, Any], dict[str, Any]] | None:
    """The item ``b`` bookmarks on ``screen``: the row under the cursor of the focused list,
    else the item a detail screen shows; as (spec that opens it, item, its parent params)."""
    from screens.list_pane import ResourceListPane

    focused = screen.focused
    pane = next(
        (
            n
            for n in (focused, *(focused.ancestors if focused else ()))
            if isinstance(n, ResourceListPane)
        ),
        None,
    )
    if pane is None and not hasattr(screen, "subject"):  # a detail screen: its own item
        host_pane = getattr(screen, "active_pane", lambda: None)()
        pane = host_pane if isinstance(host_pane, ResourceListPane) else None
    if pane is not None and pane.current_item is not None:
        spec, item, params = pane.spec, pane.current_item, dict(pane.params)
    else:
        subject = getattr(screen, "subject", lambda: None)()
        if subject is None:
            return None
        spec, item = subject
        params = dict(getattr(screen, "params", {}) or {})
    target = open_target(spec, item)
    return target, dict(item), params if target is spec else {}


def bookmark_under_cursor(screen: Screen[Any]) -> None:
    """``b``: bookmark the item under the cursor (or remove its bookmark)."""
    app: Any = screen.app
    watchlist = getattr(app, "watchlist", None)
    found = bookmark_target(screen)
    if watchlist is None or found is None:
        app.notify("Nothing to bookmark here.", title="Watchlist", markup=False)
        return
    spec: ResourceSpec
    spec, item, params = found
    try:
        added = watchlist.toggle(spec, item, params, app.now())
    except OSError as exc:
        app.notify(f"Not saved: {shown(exc.strerror or exc)}", title="Watchlist", severity="error")
        return
    label = spec.display_label(item)
    verb = "Bookmarked" if added else "Bookmark removed"
    app.notify(f"{verb}: {spec.singular} {label}", title="Watchlist (:watch)", markup=False)
