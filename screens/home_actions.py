"""Glue of the operator's home: per-profile state, read-only toggling, bookmarking.

The app calls these so that ``tui/app.py`` stays wiring: :func:`open_home_state` attaches the
activity log to the client's change observers and loads the watchlist once signed in;
:func:`toggle_read_only` turns the account's read-only mode on at once and off only after a
confirmation (never one the command line or the config file set: see
:mod:`tui.accounts.read_only`); :func:`bookmark_under_cursor` is ``b`` on every area screen.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tui.resources.areas import open_target
from tui.resources.spec import Area, ResourceSpec
from tui.untrusted import shown

if TYPE_CHECKING:
    from textual.app import App
    from textual.screen import Screen


def open_home_state(app: Any) -> None:
    """Open the account's activity log, watchlist and undo journal (into ``app.account``).

    A data folder that cannot be written is reported once; the app works without them. The
    demo's are in a folder of their own, new on each run.
    """
    from tui.home.activity import ActivityLog
    from tui.home.undo import UndoJournal
    from tui.home.watchlist import Watchlist
    from tui.session.datadir import demo_dir

    state = app.account
    session = state.session
    state.undo_journal = UndoJournal()
    try:
        # The demo's objects exist for one run only: its state must not outlive it.
        folder = demo_dir(session.demo_user or "demo") if session.demo else None
        state.activity = ActivityLog(session.profile_name, clock=state.now, folder=folder)
        state.watchlist = Watchlist(session.profile_name, folder=folder)
    except OSError as exc:
        app.notify(
            f"Bookmarks and the activity log are off: {shown(exc.strerror or exc)}",
            title="Data folder",
            severity="warning",
            markup=False,
        )
        return
    session.client.change_observers.append(_log_change(app, state.activity))
    previous = state.activity.previous[:3]
    if previous and app.settings.start_area != "overview":
        # The overview lists them; a user who starts elsewhere is told once.
        app.notify(
            "\n".join(shown(entry.summary()) for entry in previous),
            title="Last changes of the previous session (:log)",
            markup=False,
        )
    if state.watchlist.problem:
        app.notify(
            "The watchlist file could not be read and is left as it is: "
            f"{shown(state.watchlist.problem)}",
            title="Watchlist",
            severity="warning",
            markup=False,
        )


def _log_change(app: Any, activity: Any) -> Any:
    """Record each change of the account's client in that account's log."""

    def record(event: Any) -> None:
        try:
            activity.record(event)
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
    """Turn the run-time read-only mode of the app's account on or off (what the command line
    and the config file say stays): actions re-check, the status bar says so."""
    state = app.account
    if state is None:
        return
    state.set_read_only(app.read_only_rules.toggle(state.name, on))
    app.screen.refresh_bindings()


def toggle_read_only(app: App[Any]) -> None:
    """``:read-only``: on at once; off only after the user confirms on a dialog, and never
    when the command line or the profile made the account read-only (it says why)."""
    state: Any = getattr(app, "account", None)
    if state is None:
        return
    if not state.read_only.on:
        set_read_only(app, True)
        app.notify(
            f"Nothing can be changed on {shown(state.name)} now. "
            "Type :read-only again to leave it.",
            title="Read-only session",
            markup=False,
        )
        return
    held = state.read_only.held_by()
    if held:
        app.notify(
            f"{shown(state.name)} stays read-only: {shown(held)}.",
            title="Read-only session",
            severity="warning",
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
