"""What every pane shares: loading itself, refreshing while visible, copy and JSON views.

:class:`RefreshingPane` is the base of the generic list and singleton panes and of the
hand-written ones (statistics); :func:`copy_item` and :func:`show_json` are the ``y`` and ``J``
keys of panes and detail screens.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from textual.containers import Vertical

from screens.commands_modal import copy_text
from screens.refresh_timer import RefreshTimer
from screens.shell import WorkerForwarding, main_focus_target
from tui.api.errors import CloudError
from tui.resources.format import copy_value, field_title, is_secret_field
from tui.resources.spec import Action, ResourceSpec
from tui.untrusted import Shown, shown

PaletteAction = tuple[ResourceSpec, Action, dict[str, Any] | None, dict[str, Any]]
"""(spec, action, item or None, path parameters) offered by the palette."""


def copy_item(
    node: Any, spec: ResourceSpec, item: Mapping[str, Any] | None, *, reveal_key: str = ""
) -> None:
    """Copy the id, address or URL of ``item`` with OSC 52 and say what was copied.

    A secret is never shown in the notification: it says where the secret went and, for a
    terminal that ignores OSC 52, which key (``reveal_key``) shows it on screen instead.
    """
    if not item:
        node.app.notify("Nothing selected to copy.", title="Copy")
        return
    found = copy_value(spec, item)
    if found is None:
        node.app.notify("This item has nothing to copy.", title="Copy")
        return
    key, value = found
    if is_secret_field(spec, key):
        fallback = f"press {shown(reveal_key)} to show it here" if reveal_key else "it stays hidden"
        copy_text(node.app, value, field_title(spec, key), fallback=fallback)
        return
    node.app.copy_to_clipboard(value)
    # Over tmux the user needs `set -g set-clipboard on`; showing the value covers that case too.
    node.app.notify(f"{field_title(spec, key)}: {shown(value)}", title="Copied", markup=False)
    if hasattr(node.app, "last_copied"):
        node.app.last_copied = value


def show_json(node: Any, title: Shown, item: Mapping[str, Any] | None) -> None:
    """Open the raw JSON of ``item``."""
    from screens.json_view import JsonViewScreen

    if not item:
        node.app.notify("Nothing selected.", title="JSON")
        return
    node.app.push_screen(JsonViewScreen(title, item))


class RefreshingPane(WorkerForwarding, Vertical):
    """A pane that loads itself and refreshes on a one-shot timer while it is visible.

    Args:
        spec: What the pane shows.
        params: Path parameters of its endpoints (the parent's id for nested resources).
        lazy: Start hidden: load when first shown, not when mounted.
        id: Widget id.
    """

    def __init__(
        self,
        spec: ResourceSpec,
        params: Mapping[str, Any] | None = None,
        *,
        lazy: bool = False,
        id: str | None = None,
    ) -> None:
        super().__init__(id=id)
        self.spec = spec
        self.params: dict[str, Any] = dict(params or {})
        self._live = not lazy
        self._suspended = False
        self.refresher = RefreshTimer(self, self._timer_fired)
        self.timed_refresh = False
        """True when the running refresh was started by the timer, not asked for: a long list
        may then fetch only its changing items (see :func:`tui.refresh.refresh_mode`)."""
        self.refresher.visible = not lazy
        self.loaded = False
        self.error: CloudError | None = None
        self._seen_changes = 0
        """The app's change count when this pane last refreshed."""
        self.focus_when_mounted = False
        """Take the focus once composed (a tab's pane created as its tab is shown)."""
        self.init_state()

    def init_state(self) -> None:
        """Set up a subclass's own state (called at the end of ``__init__``)."""

    def on_mount(self) -> None:
        self.refresher.configure()
        if self._live:
            self.refresh_now()
        if self.focus_when_mounted:
            self.focus_main()

    def focus_main(self) -> None:
        """Focus what the keys act on: the table or the detail panel, else the first input."""
        # Not ShellScreen.content_focus_target: that skips widgets not displayed, and a pane
        # mounted as its tab is being shown runs this before the tab counts as displayed.
        # A hand-written pane (statistics) draws without focusable children: its keys are its
        # own, so it takes the focus itself.
        target = main_focus_target(self.query("*")) or main_focus_target([self])
        if target is not None:
            target.focus()

    @property
    def last_delay(self) -> float:
        """Delay chosen after the last refresh."""
        return self.refresher.last_delay

    @property
    def visible_now(self) -> bool:
        """True while the pane is on the shown tab of the active screen."""
        return self._live and not self._suspended

    def set_live(self, live: bool) -> None:
        """The pane's tab became shown (True) or hidden (False)."""
        self._live = live
        self._visibility_changed()

    def set_suspended(self, suspended: bool) -> None:
        """The pane's screen was covered or switched away (True), or came back (False)."""
        self._suspended = suspended
        self._visibility_changed()

    def _visibility_changed(self) -> None:
        if not self.is_mounted or not self.app.is_running:
            return
        if self.visible_now and self.loaded and self._changed_elsewhere():
            # Something was created or changed while this list was out of sight: show it now
            # rather than at the next timer.
            self.refresher.visible = True
            self.refresh_now()
            return
        self.refresher.set_visible(self.visible_now, loaded=self.loaded)

    def _changed_elsewhere(self) -> bool:
        return int(getattr(self.app, "changes", 0)) != self._seen_changes

    def _timer_fired(self) -> None:
        self.refresh_now()
        self.timed_refresh = True

    def refresh_now(self) -> None:
        """Refresh at once (the timer is re-armed when it completes)."""
        self.timed_refresh = False
        self._seen_changes = int(getattr(self.app, "changes", 0))
        self.refresher.stop()
        # The function, not a coroutine: an exclusive worker cancelled before it starts must
        # not leave an un-awaited coroutine behind.
        self.run_worker(self._refresh, group="refresh", exclusive=True, exit_on_error=False)  # type: ignore[arg-type]

    async def _refresh(self) -> None:
        raise NotImplementedError

    def _succeeded(self, transitional: bool) -> None:
        self.error = None
        self.refresher.succeeded(transitional=transitional)

    def _failed(self, error: CloudError, transitional: bool) -> None:
        self.error = error
        self.refresher.failed(error, transitional=transitional)

    def on_unmount(self) -> None:
        self.refresher.stop()
