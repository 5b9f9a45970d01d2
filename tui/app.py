"""CloudApp: areas as Textual modes, global bindings, theme, keymap, and the session's lifetime.

This module is wiring. Listing, refreshing and actions live in ``screens``; formatting, specs and
refresh policy in headless modules under ``tui``. Screens read the app through
:class:`~screens.app_surface.AppSurface` (its :attr:`CloudApp.state`, its signals, the key gate)
and ask it for things with the messages of :mod:`screens.navigation`.
"""

from __future__ import annotations

import contextlib
import gc
import os
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any, ClassVar

from textual import events, work
from textual.app import App, ScreenStackError
from textual.binding import Binding, BindingType
from textual.filter import LineFilter
from textual.screen import Screen
from textual.signal import Signal
from textual.worker import Worker, WorkerState

from screens.app_surface import Change, Runner
from screens.keys.gate import KeyGate
from screens.keys.on_buttons import KeysOnButtons
from screens.lists.resource_list import ResourceListScreen
from screens.navigation import (
    AccountOpened,
    BookmarkAsked,
    GoToArea,
    HelpAsked,
    OpenItem,
    TaskFailed,
)
from screens.shell.hotkeys import bind_hotkeys, hotkey_command
from screens.shell.palette import PROVIDERS
from screens.shell.places import Places
from tui.accounts.read_only import ReadOnlyRules
from tui.accounts.state import AccountState, AppState, StateChange
from tui.accounts.switch import open_account
from tui.api import collector
from tui.api.errors import CloudError
from tui.home.areas import HOME_AREAS, HOME_BY_ID
from tui.refresh import describe_error, error_title
from tui.resources.areas import AREA_BY_ID, AREA_OF_SPEC, AREAS, SPECS, open_target
from tui.resources.availability import UserContext
from tui.resources.spec import Area, ResourceSpec
from tui.session.config import Settings
from tui.session.runtime import Session
from tui.untrusted import shown
from widgets.key_names import key_label
from widgets.textual_private import ResilientApp
from widgets.toast_place import follow_layout
from widgets.visible_controls import VisibleControls

if TYPE_CHECKING:
    from screens.app_surface import AppSurface

ENDPOINTS: tuple[str, ...] = ("profile.view", "profile.grants")
"""Operations this module calls by name (the coverage test checks they are reachable)."""


class CloudApp(ResilientApp[int]):
    """The cloudtui application.

    Screens read what :class:`~screens.app_surface.AppSurface` says of it: its :attr:`state`
    (settings, read-only rules, the account and everything that belongs to it), two signals
    and the key gate.

    Args:
        settings: Loaded settings (theme, keymap, refresh intervals ...).
        session: A ready session, or None to show the login screen first.
        profile_name: Profile to sign in to when ``session`` is None.
        base_url: Base URL to prefill on the login screen.
        read_only: ``--read-only`` was given: every account of the run is read-only (see
            :mod:`tui.accounts.read_only`; a profile's own ``read_only`` comes from settings).
    """

    CSS_PATH = "app.tcss"
    TITLE = "cloudtui"
    COMMANDS = App.COMMANDS | set(PROVIDERS)
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "quit", "Quit", id="app.quit", priority=True),
        Binding(
            "colon",
            "command_line",
            ":cmd",
            id="app.command_line",
            tooltip="Command line: :in, :vol, :watch, :log, :account ... (tab completes)",
        ),
        Binding("question_mark", "help", "Help", id="app.help"),
        Binding(
            "alt+left",
            "go_back",
            "Back",
            show=False,
            id="app.back",
            tooltip="Back to the screen visited before, like a browser",
        ),
        Binding("alt+right", "go_forward", "Forward", show=False, id="app.forward"),
        Binding(
            "ctrl+p",
            "command_palette",
            "Palette",
            show=False,
            priority=True,
            id="app.palette",
            tooltip="Actions, areas and resources by label",
        ),
    ]

    def __init__(
        self,
        settings: Settings,
        session: Session | None,
        *,
        profile_name: str = "default",
        base_url: str | None = None,
        read_only: bool = False,
    ) -> None:
        # NO_COLOR means no colour codes at all. Textual's default for it is a monochrome filter
        # that still paints 256-colour greys; with native ANSI colour it strips every colour
        # instead, and the "-no-color" class lets the CSS mark focus and cursors with reverse.
        no_color = "NO_COLOR" in os.environ
        super().__init__(ansi_color=True if no_color else None)
        self.set_class(no_color, "-no-color")
        self.profile_name = profile_name
        self.base_url = base_url
        rules = ReadOnlyRules(settings, command_line=read_only)
        self.state = AppState(settings, rules, open_account, self._account_changed)
        """The app's state: settings, read-only rules, the account and everything it holds
        (:meth:`adopt_account` replaces the account whole)."""
        self.change_signal: Signal[Change] = Signal(self, "change")
        """Published when a change was sent through the app (lists out of sight refresh when
        they are shown again)."""
        self.account_signal: Signal[StateChange] = Signal(self, "account")
        """Published when the account's health, user or read-only mode changed (the status bar
        repaints, actions are checked again)."""
        if session is not None:
            self.adopt_account(session)
        self.notification_log: list[tuple[str, str]] = []
        """(title, message) of every notification, oldest first."""
        self.last_copied: str | None = None
        """What was last copied to the clipboard (a headless app has no clipboard to read)."""
        self.handoff_runner: Runner | None = None
        """Runs a hand-off's program instead of the terminal (tests set it)."""
        self.visible_controls = VisibleControls()
        """The render filter that keeps control characters off the terminal (see the module)."""
        self._first_frame_pending = False
        self._first_frame_seen = False
        self.resume_collector_after_first_frame = False
        """Set by :func:`run_app` when the command line paused the cyclic collector for the
        start: it is frozen and resumed once the first frame is on the terminal."""
        self.stops_on_signals = False
        """Set by :func:`run_app`: SIGTERM and SIGHUP end the app as quitting does (see
        :mod:`tui.session.stop_signals`); a test's app leaves the process's signals alone."""
        self.key_gate = KeyGate(self)
        """Holds keys typed while an action opens its dialog (see :mod:`screens.keys.gate`)."""
        self.keys_on_buttons = KeysOnButtons(self)
        """Places or explains characters typed on a button (see :mod:`screens.keys.on_buttons`)."""
        self.places = Places(self)
        """The screens visited: back and forward (see :mod:`screens.shell.places`)."""
        self.add_area_modes()
        self.set_keymap(settings.keymap)

    async def on_event(self, event: events.Event) -> None:
        # Keys are offered to the gate twice: as typed (before the focused widget sees them)
        # and as they come back up to the app's bindings (a key typed just before an action
        # key was read may reach the bindings after the action started).
        if not isinstance(event, events.Key):
            await super().on_event(event)
            return
        came_back = event.is_forwarded  # read first: forwarding it marks it forwarded
        if self.key_gate.take(event):
            return
        if came_back and self.keys_on_buttons.take(event):
            self.key_gate.back_at_app(event)  # a character typed on a button: placed or told
            return
        if not self.screen_stack:  # shutting down: no screen to hand it to, nothing to follow
            await super().on_event(event)
            return
        target = self.focused or self.screen  # where Textual hands a typed key
        await super().on_event(event)
        if came_back:
            self.key_gate.back_at_app(event)
        else:
            self.key_gate.sent(event, target)

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        self.keys_on_buttons.focused(event.widget)  # each screen's last text field

    # -- start-up ---------------------------------------------------------------------------

    def on_mount(self) -> None:
        if self.stops_on_signals:
            from tui.session.stop_signals import stop_on_signals

            stop_on_signals(lambda status: self.exit(return_code=status))
        self.key_gate.watch_screens()
        self.places.watch()
        bind_hotkeys(self)
        if self.state.settings.theme in self.available_themes:
            self.theme = self.state.settings.theme
        else:
            self.notify(
                f"Unknown theme {shown(self.state.settings.theme)!r}; using {shown(self.theme)}.",
                title="Config file",
                markup=False,
            )
        from screens.shell.config_notes import announce_unknown_keys

        self.call_after_refresh(announce_unknown_keys, self)
        if self.state.session is None:
            from screens.shell.login import LoginScreen

            self.push_screen(
                LoginScreen(self.state.settings, self.profile_name, self.base_url), self._signed_in
            )
        else:
            self._start()

    def _signed_in(self, session: Session | None) -> None:
        if session is not None:
            self.adopt_account(session)
            self._start()

    def _start(self) -> None:
        session = self.state.session
        assert session is not None
        from screens.home.opening import open_home_state

        open_home_state(self)
        # Nothing that can wait competes with the first frame: the demo's simulator is built
        # (in a thread) once the first screen is on the terminal; requests queue until then.
        session.hold_backend()
        self._first_frame_pending = True
        self.set_timer(1.0, self._after_first_frame)  # in case no frame is ever drawn
        self.switch_mode(self.start_mode())

    def start_mode(self) -> str:
        """The area the app opens on: the config's ``start_area`` when it names one."""
        start = self.state.settings.start_area
        return start if start in AREA_BY_ID or start in HOME_BY_ID else AREAS[0].id

    def area_modes(self) -> list[str]:
        """The mode ids of the areas (one per home area and resource area)."""
        return [area.id for area in (*HOME_AREAS, *AREAS)]

    def add_area_modes(self) -> None:
        """Register one mode per area; each builds its first screen when first shown."""
        for area in (*HOME_AREAS, *AREAS):
            self.add_mode(area.id, partial(self.area_root, area))

    # -- the account ------------------------------------------------------------------------

    def adopt_account(self, session: Session) -> AccountState:
        """Make ``session``'s account the app's (:meth:`AppState.adopt`: a new state replaces
        the old one whole). Used at sign-in and by a switch (:meth:`move_to_account`)."""
        account = self.state.adopt(session)
        self._account_changed("user")
        self._account_changed("health")
        return account

    def _account_changed(self, what: StateChange) -> None:
        self.account_signal.publish(what)

    def post_display_hook(self) -> None:
        # Textual calls this after each frame is written. The first frames are partial (the
        # table's header comes a layout pass later): what was held starts once the screen has
        # settled, i.e. after the refresh that follows the first frame.
        if self._first_frame_pending and not self._first_frame_seen:
            self._first_frame_seen = True
            self.call_after_refresh(self._after_first_frame)

    def _after_first_frame(self) -> None:
        """Start what was held back for the first frame (see :meth:`_start`)."""
        if not self._first_frame_pending:
            return
        self._first_frame_pending = False
        if self.resume_collector_after_first_frame:
            self.resume_collector_after_first_frame = False
            freeze_startup_heap()
            collector.resume()  # now, or when a listing that holds it off ends
        if self.state.session is not None:
            self.state.session.release_backend()
            self.load_user()  # its models are imported on first use: after the first frame

    def area_root(self, area: Area) -> Screen[Any]:
        """The first screen of an area: its root resource's list (or detail, for the profile)."""
        if area.id in HOME_BY_ID:
            from screens.home.opening import home_screen

            return home_screen(area)
        spec = SPECS[area.root]
        if spec.singleton:
            from screens.details.resource_detail import ResourceDetailScreen

            return ResourceDetailScreen(spec, {}, {}, area_id=area.id)
        return ResourceListScreen(spec, tabs=area.tabs, area_id=area.id)

    def load_user(self) -> None:
        """Fetch the profile and grants for the status bar and action availability."""
        self._load_user()

    @work(group="user", exclusive=True, exit_on_error=False, name="loading the user")
    async def _load_user(self) -> None:
        from tui.models.profile import Profile  # on first use: not needed for the first frame

        state = self.state.account  # what arrives belongs to this account, even after a switch
        assert state is not None
        client = state.session.client
        profile = await client.call("profile.view", model=Profile)
        state.answered()
        restricted = bool(profile.restricted)
        # Availability rules read the grants as JSON, the shape the API documents.
        grants = await client.call("profile.grants", model=dict) if restricted else None
        state.set_user(
            UserContext(
                username=profile.username or "",
                email=profile.email or "",
                restricted=restricted,
                grants=grants or None,
                scopes=state.session.token_scopes,
            )
        )
        if state is self.state.account:
            self.screen.refresh_bindings()

    # -- what the app shows ----------------------------------------------------------------

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: Any = "information",
        timeout: float | None = None,
        markup: bool = False,
    ) -> None:
        """Show a toast and keep it in :attr:`notification_log`.

        Every toast's text passes the text boundary here once more, and is never read as
        markup: callers hand in display text already (the structure test of the text boundary
        holds them to it), and a toast is where a forged message would be most believed.
        """
        text, heading = shown(message, lines=True), shown(title)
        self.notification_log.append((heading, text))
        del self.notification_log[:-200]
        super().notify(text, title=heading, severity=severity, timeout=timeout, markup=False)
        # The toast is mounted and sized in a later layout: placed after each layout.
        with contextlib.suppress(ScreenStackError):
            follow_layout(self.screen)

    def get_line_filters(self) -> Sequence[LineFilter]:
        """Textual's filters (NO_COLOR), then the one that draws control characters as
        pictures: the last line of the text boundary."""
        return [*super().get_line_filters(), self.visible_controls]

    def get_key_display(self, binding: Binding) -> str:
        """A key as pressed, ctrl written ``^`` (the footer): see :mod:`widgets.key_names`."""
        return binding.key_display or key_label(binding.key, compact=True)

    def copy_to_clipboard(self, text: str) -> None:
        """Copy ``text`` with OSC 52 and keep it in :attr:`last_copied`."""
        super().copy_to_clipboard(text)
        self.last_copied = text

    # -- errors -----------------------------------------------------------------------------

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        self.handle_worker_state(event.worker)

    def handle_worker_state(self, worker: Worker[Any]) -> None:
        """The one place worker failures end up: API errors notify, others open the error modal.

        Screens and panes forward their workers' state changes here (the message does not
        bubble). The app never exits because of an API or network error.
        """
        if worker.state != WorkerState.ERROR or worker.error is None:
            return
        self.show_failure(worker.error, worker.name)

    def show_failure(self, error: BaseException, where: str = "") -> None:
        """API and network errors become a titled notification, anything else the error modal."""
        if isinstance(error, CloudError):
            self.state.api_failed(error)
            self.notify(
                describe_error(error), title=error_title(error), severity="error", markup=False
            )
            return
        from screens.dialogs.error import ErrorScreen

        self.push_screen(ErrorScreen(f"Unexpected error in {shown(where) or 'a task'}", error))

    def worker_failed(self, error: BaseException) -> None:
        """A worker that would have ended the app failed: shown like any other failure."""
        self.show_failure(error)

    def on_task_failed(self, message: TaskFailed) -> None:
        """A worker of a screen or a pane failed."""
        self.show_failure(message.error, message.where)

    # -- navigation -------------------------------------------------------------------------

    def go_to_area(self, area_id: str, spec_id: str | None = None) -> None:
        """Switch to an area (keeping its navigation stack); ``spec_id`` picks one of its tabs.

        Without ``spec_id`` (the sidebar) the area shows what it showed last; a ``:`` command
        names what it wants, and ``:in`` after a look at the Regions tab means the instances.
        """
        area = AREA_BY_ID.get(area_id) or HOME_BY_ID.get(area_id)
        if area is None:
            return
        self.switch_mode(area_id)
        if spec_id and (spec_id != area.root or area.tabs):
            self.call_after_refresh(self._show_tab, spec_id)

    def _show_tab(self, spec_id: str) -> None:
        while len(self.screen_stack) > 1 and not isinstance(self.screen, ResourceListScreen):
            self.pop_screen()
        screen = self.screen
        if isinstance(screen, ResourceListScreen):
            screen.show_spec(spec_id)

    def open_detail(
        self, spec: ResourceSpec, item: Mapping[str, Any], params: Mapping[str, Any]
    ) -> None:
        """Push the detail screen of ``item`` (listed as ``spec`` under path ``params``)."""
        from screens.details.resource_detail import ResourceDetailScreen

        target = open_target(spec, item)
        self.push_screen(
            ResourceDetailScreen(target, dict(item), dict(params) if target is spec else {})
        )

    def on_open_item(self, message: OpenItem) -> None:
        """A screen asked for an item's detail screen (in the item's area, from the palette)."""
        if message.in_its_area:
            area_id = AREA_OF_SPEC.get(message.spec.id)
            if area_id is not None:
                self.switch_mode(area_id)
        self.open_detail(message.spec, message.item, message.params)

    def on_go_to_area(self, message: GoToArea) -> None:
        """The sidebar, the palette or the command line asked for an area."""
        self.go_to_area(message.area_id, message.spec_id)

    def on_bookmark_asked(self, message: BookmarkAsked) -> None:
        """``b`` on an area screen: bookmark the item under the cursor (or remove it)."""
        from screens.home.bookmarks import bookmark_under_cursor

        bookmark_under_cursor(message.screen)

    # -- the account switch -----------------------------------------------------------------

    def on_account_opened(self, message: AccountOpened) -> None:
        """Move onto the account just opened (``:account``, a row of another account)."""
        self.run_worker(
            self.move_to_account(message.session, message.then),
            group="account-switch",
            exclusive=True,
            exit_on_error=False,
        )

    async def move_to_account(
        self, session: Session, then: Callable[[], object] | None = None
    ) -> None:
        """Drop every screen of the old account (an open dialog is cancelled with its screen:
        nothing it would have sent reaches either account), open the areas on ``session``'s,
        then call ``then``."""
        from screens.accounts.switch import SWITCH_MODE, SwitchingScreen
        from screens.home.opening import open_home_state

        old = self.state.session
        area = self.current_mode
        self.add_mode(SWITCH_MODE, SwitchingScreen)
        await self.switch_mode(SWITCH_MODE)
        self.clear_notifications()
        for worker in list(self.workers):
            # The app's own background work of the old account (prefetches, the user's profile).
            if worker.node is self and worker.group != "account-switch":
                worker.cancel()
        for mode in self.area_modes():
            await self.remove_mode(mode)  # its screens and their workers (open dialogs) go too
        self.add_area_modes()
        self.adopt_account(session)  # the old account's state goes as a whole
        self.places.forget_all()
        if old is not None:
            await old.aclose()
        open_home_state(self)
        self.load_user()
        await self.switch_mode(area if area in self.area_modes() else self.start_mode())
        await self.remove_mode(SWITCH_MODE)
        self.notify(f"Now on {shown(session.profile_name)}.", title="Accounts", markup=False)
        if then is not None:
            then()

    # -- global actions ---------------------------------------------------------------------

    def action_command_line(self) -> None:
        """Open the ``:`` command line."""
        from screens.shell.command_line import CommandLineScreen  # not needed for a first frame

        self.push_screen(CommandLineScreen(), self.run_command)

    def run_command(self, text: str | None) -> None:
        """Run a ``:`` command (see :func:`screens.shell.command_line.run_command`)."""
        from screens.shell.command_line import run_command

        run_command(self, text)

    def action_hotkey(self, key: str) -> None:
        """A hotkey of the config file: run its ``:`` command."""
        self.run_command(hotkey_command(self, key))

    def action_go_back(self) -> None:
        """Back to the screen visited before."""
        if not self.places.back():
            self.bell()

    def action_go_forward(self) -> None:
        """Forward to the screen left by going back."""
        if not self.places.forward():
            self.bell()

    def action_help(self) -> None:
        """Show every binding of the current screen."""
        screen = self.screen
        title = getattr(screen, "help_title", lambda: screen.__class__.__name__)()
        from screens.shell.help import HelpScreen, binding_rows

        self.push_screen(HelpScreen(binding_rows(screen), shown(title)))

    def on_help_asked(self, message: HelpAsked) -> None:
        """``:help``: the same as ``?``."""
        self.action_help()

    async def on_unmount(self) -> None:
        if self.state.session is not None:
            await self.state.session.aclose()


def run_app(
    settings: Settings,
    session: Session | None,
    *,
    profile_name: str = "default",
    base_url: str | None = None,
    read_only: bool = False,
) -> int:
    """Run the app until the user quits.

    Args:
        settings: Loaded settings.
        session: A ready session, or None for the login screen.
        profile_name: Profile to sign in to when ``session`` is None.
        base_url: Base URL to prefill on the login screen.
        read_only: ``--read-only``: every account of the run is read-only.

    Returns:
        The exit status.
    """
    app = CloudApp(
        settings, session, profile_name=profile_name, base_url=base_url, read_only=read_only
    )
    # The command line pauses the cyclic collector while it imports (full passes over a
    # growing heap, 10-15% of the start's CPU); it resumes after the first frame.
    paused = not gc.isenabled()
    app.resume_collector_after_first_frame = paused and session is not None
    app.stops_on_signals = True
    freeze_startup_heap()
    if paused and session is None:
        collector.resume()  # the login screen comes first: nothing is held for a first frame
    result = app.run()
    return app.return_code or int(result or 0)  # 128 + N when signal N ended it


def freeze_startup_heap() -> None:
    """Exempt everything allocated so far from the cyclic garbage collector's full passes.

    Modules, settings and (in demo mode) the simulator's data live as long as the program; a
    full collection rescans all of them (about 210,000 objects with a 10,000-instance demo:
    140 ms with the screen frozen). Frozen, a full pass only scans what the app allocates
    later (about 55 ms with 10,000 instances listed). Reference counting still frees them.
    """
    gc.freeze()


if TYPE_CHECKING:
    _IMPLEMENTS: type[AppSurface] = CloudApp
    """mypy checks here that the app implements what screens read of it."""
