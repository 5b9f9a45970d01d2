"""CloudApp: areas as Textual modes, global bindings, theme, keymap, and the session's lifetime.

This module is wiring. Listing, refreshing and actions live in ``screens``; formatting, specs and
refresh policy in headless modules under ``tui``.
"""

from __future__ import annotations

import contextlib
import gc
import os
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any, ClassVar

from textual import events
from textual.app import App, ScreenStackError
from textual.binding import Binding, BindingType
from textual.filter import LineFilter
from textual.reactive import reactive
from textual.screen import Screen
from textual.worker import Worker, WorkerFailed, WorkerState

from screens.command_line import CommandLineScreen
from screens.error import ErrorScreen
from screens.help import HelpScreen, binding_rows
from screens.key_gate import KeyGate
from screens.keys_on_buttons import KeysOnButtons
from screens.navigation import OpenItem
from screens.palette import PROVIDERS
from screens.pane_host import PaneHost
from screens.resource_detail import ResourceDetailScreen
from screens.resource_list import ResourceListScreen
from screens.shell import start_action
from tui.accounts.read_only import ReadOnlyRules
from tui.accounts.state import AccountState, OnAccount, StateChange
from tui.accounts.switch import open_account
from tui.api import collector
from tui.api.errors import CloudError
from tui.home.areas import HOME_AREAS, HOME_BY_ID
from tui.refresh import Settled, describe_error, error_title
from tui.resources.areas import (
    AREA_BY_ID,
    AREA_OF_SPEC,
    AREAS,
    SPECS,
    open_target,
)
from tui.resources.availability import UserContext
from tui.resources.loader import iter_chunks
from tui.resources.spec import Action, Area, ResourceSpec
from tui.session.config import Settings
from tui.session.runtime import Session
from tui.untrusted import shown
from widgets.key_names import key_label
from widgets.toast_place import follow_layout
from widgets.visible_controls import VisibleControls

ENDPOINTS: tuple[str, ...] = ("profile.view", "profile.grants")
"""Operations this module calls by name (the coverage test checks they are reachable)."""


class CloudApp(OnAccount, App[int]):
    """The cloudtui application (what it says of its account: :class:`OnAccount`).

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
            "ctrl+p",
            "command_palette",
            "Palette",
            show=False,
            priority=True,
            id="app.palette",
            tooltip="Actions, areas and resources by label",
        ),
    ]

    status_version: reactive[int] = reactive(0)
    """Bumped when the account's API health or last refresh changes (the status bar repaints)."""
    user_version: reactive[int] = reactive(0)
    """Bumped when the account, its user or its read-only mode changes (screens re-check
    actions)."""

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
        self.settings = settings
        self.profile_name = profile_name
        self.base_url = base_url
        self.read_only_rules = ReadOnlyRules(settings, command_line=read_only)
        """Which accounts of this run are read-only (command line, profiles, ``:read-only``)."""
        self.account_opener: Callable[[Settings, str], Session] = open_account
        """Opens another profile's session (``:account``, ``:fanout``; tests pass their own)."""
        self.account: AccountState | None = None
        """The account the app is on and everything that belongs to it (None until signed
        in); :meth:`adopt_account` replaces it whole."""
        if session is not None:
            self.adopt_account(session)
        self.notification_log: list[tuple[str, str]] = []
        """(title, message) of every notification, oldest first."""
        self.changes = 0
        """Successful changes made through actions; a list shown again after one refreshes."""
        self.last_copied: str | None = None
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
        """Holds keys typed while an action opens its dialog (see :mod:`screens.key_gate`)."""
        self.keys_on_buttons = KeysOnButtons(self)
        """Places or explains characters typed on a button (see :mod:`screens.keys_on_buttons`)."""
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
        if self.settings.theme in self.available_themes:
            self.theme = self.settings.theme
        else:
            self.notify(
                f"Unknown theme {shown(self.settings.theme)!r}; using {shown(self.theme)}.",
                title="Config file",
                markup=False,
            )
        from screens.config_notes import announce_unknown_keys

        self.call_after_refresh(announce_unknown_keys, self)
        if self.session is None:
            from screens.login import LoginScreen

            self.push_screen(
                LoginScreen(self.settings, self.profile_name, self.base_url), self._signed_in
            )
        else:
            self._start()

    def _signed_in(self, session: Session | None) -> None:
        if session is not None:
            self.adopt_account(session)
            self._start()

    def _start(self) -> None:
        assert self.session is not None
        from screens.home_actions import open_home_state

        open_home_state(self)
        # Nothing that can wait competes with the first frame: the demo's simulator is built
        # (in a thread) once the first screen is on the terminal; requests queue until then.
        self.session.hold_backend()
        self._first_frame_pending = True
        self.set_timer(1.0, self._after_first_frame)  # in case no frame is ever drawn
        self.switch_mode(self.start_mode())

    def start_mode(self) -> str:
        """The area the app opens on: the config's ``start_area`` when it names one."""
        start = self.settings.start_area
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
        """Make ``session``'s account the app's: a new :class:`AccountState` replaces the old
        one whole (its read-only mode from :attr:`read_only_rules`), and the old one is
        detached. Used at sign-in and by a switch (:mod:`screens.accounts`)."""
        if self.account is not None:
            self.account.detach()
        mode = self.read_only_rules.mode(session.profile_name)
        self.account = AccountState.open(session, mode, self._account_changed)
        self._account_changed("user")
        self._account_changed("health")
        return self.account

    def _account_changed(self, what: StateChange) -> None:
        if what == "user":
            self.user_version += 1
        else:
            self.status_version += 1

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
        if self.session is not None:
            self.session.release_backend()
            self.load_user()  # its models are imported on first use: after the first frame

    def area_root(self, area: Area) -> Screen[Any]:
        """The first screen of an area: its root resource's list (or detail, for the profile)."""
        if area.id in HOME_BY_ID:
            from screens.home_actions import home_screen

            return home_screen(area)
        spec = SPECS[area.root]
        if spec.singleton:
            return ResourceDetailScreen(spec, {}, {}, area_id=area.id)
        return ResourceListScreen(spec, tabs=area.tabs, area_id=area.id)

    def load_user(self) -> None:
        """Fetch the profile and grants for the status bar and action availability."""
        self.run_worker(self._load_user(), group="user", exclusive=True, exit_on_error=False)

    async def _load_user(self) -> None:
        from tui.models.profile import Profile  # on first use: not needed for the first frame

        state = self.account  # what arrives belongs to this account, even after a switch
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
                restricted=restricted,
                grants=grants or None,
                scopes=state.session.token_scopes,
            )
        )
        if state is self.account:
            self.screen.refresh_bindings()

    # -- state other screens report ---------------------------------------------------------

    def refresh_covered_lists(self) -> None:
        """Refresh the panes under the top screen (a change was sent and its answer lost)."""
        from screens.pane import RefreshingPane

        for screen in self.screen_stack[:-1]:
            for pane in screen.query(RefreshingPane):
                if pane.loaded:
                    pane.refresh_now()

    def notify_settled(self, spec: ResourceSpec, settled: Settled) -> None:
        """Say that an item left a transitional status ("web-1 is now running")."""
        self.notify(settled.message, title=spec.title, markup=False)

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
            self.api_failed(error)
            self.notify(
                describe_error(error), title=error_title(error), severity="error", markup=False
            )
            return
        self.push_screen(ErrorScreen(f"Unexpected error in {shown(where) or 'a task'}", error))

    def _handle_exception(self, error: Exception) -> None:
        # A worker started with the default exit_on_error=True would take the whole app down;
        # its failure is shown like any other instead (the app never exits on an API error).
        if isinstance(error, WorkerFailed) and self.is_running:
            self.show_failure(error.error)
            return
        super()._handle_exception(error)

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

    def jump_to_resource(
        self, spec: ResourceSpec, item: Mapping[str, Any], params: Mapping[str, Any]
    ) -> None:
        """Open ``item``'s detail screen in its area (from the palette)."""
        area_id = AREA_OF_SPEC.get(spec.id)
        if area_id is not None:
            self.switch_mode(area_id)
        self.open_detail(spec, item, params)

    def open_detail(
        self, spec: ResourceSpec, item: Mapping[str, Any], params: Mapping[str, Any]
    ) -> None:
        """Push the detail screen of ``item`` (listed as ``spec`` under path ``params``)."""
        target = open_target(spec, item)
        self.push_screen(
            ResourceDetailScreen(target, dict(item), dict(params) if target is spec else {})
        )

    def on_open_item(self, message: OpenItem) -> None:
        """A pane asked for an item's detail screen."""
        self.open_detail(message.spec, message.item, message.params)

    def prefetch_for_palette(self) -> None:
        """Fetch the first page of every area never opened, so the palette can find it."""
        if self.session is None:
            return
        for area in AREAS:
            spec = SPECS[area.root]
            if not spec.singleton and (spec.id, ()) not in self.resource_index:
                self.run_worker(
                    self._prefetch(spec),
                    group=f"prefetch-{spec.id}",
                    exclusive=True,
                    exit_on_error=False,
                )

    async def _prefetch(self, spec: ResourceSpec) -> None:
        state = self.account  # what arrives belongs to this account, even after a switch
        assert state is not None
        try:
            async for chunk in iter_chunks(state.session.client, spec, {}):
                items = {spec.item_key(i): i for i in chunk.items}
                if (spec.id, ()) not in state.resource_index:
                    state.remember(spec.id, {}, items)
                return
        except CloudError:
            return  # an area this user cannot list is simply not searchable

    def run_palette_action(
        self,
        screen: Screen[Any],
        spec: ResourceSpec,
        action: Action,
        item: dict[str, Any] | None,
        params: dict[str, Any],
    ) -> None:
        """Run an action chosen in the palette, then refresh the screen it was chosen on."""

        def after(changed: bool) -> None:
            if changed and isinstance(screen, PaneHost):
                screen.refresh_all()

        start_action(screen, screen, spec, action, item, params, after)

    def bookmark_under_cursor(self, screen: Screen[Any]) -> None:
        """``b`` on an area screen: bookmark the item under the cursor (or remove it)."""
        from screens.home_actions import bookmark_under_cursor

        bookmark_under_cursor(screen)

    # -- global actions ---------------------------------------------------------------------

    def action_command_line(self) -> None:
        """Open the ``:`` command line."""
        self.push_screen(CommandLineScreen(), self.run_command)

    def run_command(self, text: str | None) -> None:
        """Run a ``:`` command (see :func:`screens.command_line.run_command`)."""
        from screens.command_line import run_command

        run_command(self, text)

    def action_help(self) -> None:
        """Show every binding of the current screen."""
        screen = self.screen
        title = getattr(screen, "help_title", lambda: screen.__class__.__name__)()
        self.push_screen(HelpScreen(binding_rows(screen), shown(title)))

    async def on_unmount(self) -> None:
        if self.session is not None:
            await self.session.aclose()


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
