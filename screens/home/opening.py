"""Opening the operator's home: the account's activity log, watchlist and undo journal, and
the first screen of each home area.

The app calls :func:`open_home_state` once signed in and after each switch of account: it opens
the account's logs into its :class:`~tui.accounts.state.AccountState` and attaches the activity
log to the client's change observers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from screens.app_surface import surface
from tui.untrusted import shown

if TYPE_CHECKING:
    from textual.app import App
    from textual.screen import Screen

    from tui.api.changes import ChangeEvent
    from tui.home.activity import ActivityLog
    from tui.resources.spec import Area


def open_home_state(app: App[Any]) -> None:
    """Open the account's activity log, watchlist, undo journal and check silences (into its
    state).

    A data folder that cannot be written is reported once; the app works without them. The
    demo's are in a folder of their own, new on each run.
    """
    from tui.check.silences import Silences
    from tui.history.commands import CommandHistory
    from tui.home.activity import ActivityLog
    from tui.home.undo import UndoJournal
    from tui.home.watchlist import Watchlist
    from tui.session.datadir import demo_dir

    state = surface(app).state
    account = state.account
    assert account is not None  # signed in
    session = account.session
    account.undo_journal = UndoJournal()
    try:
        # Kept across runs in the demo too: a command names no object of the demo's data.
        account.commands = CommandHistory(session.profile_name)
    except OSError:
        account.commands = None  # reported with the other files below
    try:
        # The demo's objects exist for one run only: its state must not outlive it.
        folder = demo_dir(session.demo_user or "demo") if session.demo else None
        activity = ActivityLog(session.profile_name, clock=account.now, folder=folder)
        watchlist = Watchlist(session.profile_name, folder=folder)
    except OSError as exc:
        app.notify(
            f"Bookmarks and the activity log are off: {shown(exc.strerror or exc)}",
            title="Data folder",
            severity="warning",
            markup=False,
        )
        return
    account.activity, account.watchlist = activity, watchlist
    account.check_silences = Silences(session.profile_name, folder=folder)
    session.client.change_observers.append(_log_change(app, activity))
    previous = activity.previous[:3]
    if previous and state.settings.start_area != "overview":
        # The overview lists them; a user who starts elsewhere is told once.
        app.notify(
            "\n".join(shown(entry.summary()) for entry in previous),
            title="Last changes of the previous session (:log)",
            markup=False,
        )
    if watchlist.problem:
        app.notify(
            "The watchlist file could not be read and is left as it is: "
            f"{shown(watchlist.problem)}",
            title="Watchlist",
            severity="warning",
            markup=False,
        )


def _log_change(app: App[Any], activity: ActivityLog) -> Callable[[ChangeEvent], None]:
    """Record each change of the account's client in that account's log."""

    def record(event: ChangeEvent) -> None:
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
        from screens.home.watchlist import WatchlistScreen

        return WatchlistScreen(area_id=area.id)
    if area.id == "log":
        from screens.home.activity_log import ActivityLogScreen

        return ActivityLogScreen(area_id=area.id)
    if area.id == "check":
        from screens.home.check import CheckScreen

        return CheckScreen(area_id=area.id)
    from screens.home.overview import OverviewScreen

    return OverviewScreen(area_id=area.id)
