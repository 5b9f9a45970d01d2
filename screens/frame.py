"""The frame every area screen shares: status bar, sidebar, content, footer.

Also what every screen and pane does with its workers' failures: they go up to the app as a
message (:class:`~screens.navigation.TaskFailed`), which shows them. Starting an action from a
screen is :mod:`screens.actions.start`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.message_pump import MessagePump
from textual.screen import Screen
from textual.widget import Widget
from textual.worker import Worker, WorkerState

from screens.app_surface import surface
from screens.navigation import BookmarkAsked, GoToArea, TaskFailed
from tui.home.areas import HOME_AREAS
from tui.resources.areas import AREAS, SPECS
from tui.resources.spec import ResourceSpec
from widgets.action_footer import ActionFooter
from widgets.sidebar import Sidebar
from widgets.status_bar import StatusBar


def forward_worker_state(node: MessagePump, event: Worker.StateChanged) -> None:
    """Tell the app that a worker of ``node`` failed (``Worker.StateChanged`` does not bubble).

    Posted to the app itself: the node may be gone by the time the message would climb.
    """
    worker = event.worker
    if worker.state == WorkerState.ERROR and worker.error is not None:
        node.app.post_message(TaskFailed(worker.error, worker.name))


def _shown(widget: Widget) -> bool:
    """True when ``widget`` and all its ancestors are displayed (not on a hidden tab)."""
    return all(node.display for node in (widget, *widget.ancestors) if isinstance(node, Widget))


def main_focus_target(candidates: Iterable[Widget]) -> Widget | None:
    """What the keys act on among ``candidates``: a table or detail panel, else the first
    focusable one."""
    from widgets.detail_panel import DetailPanel
    from widgets.resource_table import ResourceTable

    focusable = [w for w in candidates if w.focusable]
    preferred = [w for w in focusable if isinstance(w, ResourceTable | DetailPanel)]
    return (preferred or focusable or [None])[0]


class WorkerForwarding(MessagePump):
    """Reports this node's failed workers to the app (a base of screens and panes)."""

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        forward_worker_state(self, event)


class ShellScreen(WorkerForwarding, Screen[None]):
    """Status bar, sidebar of areas, the screen's content and the footer.

    Subclasses implement :meth:`compose_content`. ``tab`` moves between the sidebar and the
    content; ``escape`` goes back (and from an area's first screen, to the sidebar).
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "tab",
            "toggle_pane",
            "Areas",
            id="nav.toggle_pane",
            tooltip="Move between the sidebar of areas and the content",
        ),
        Binding("escape", "back", "Back", id="nav.back"),
        Binding("left_square_bracket", "cycle_tab(-1)", "Prev tab", show=False, id="nav.prev_tab"),
        Binding("right_square_bracket", "cycle_tab(1)", "Next tab", show=False, id="nav.next_tab"),
        Binding(
            "b",
            "bookmark",
            "Bookmark",
            show=False,
            id="app.bookmark",
            tooltip="Bookmark the item under the cursor (:watch lists them)",
        ),
    ]

    DEFAULT_CSS = """
    ShellScreen #shell { height: 1fr; }
    ShellScreen #content { height: 1fr; width: 1fr; }
    ShellScreen.-narrow #sidebar { display: none; }
    ShellScreen.-narrow.-sidebar-open #sidebar { display: block; }
    """

    NARROW_WIDTH = 100
    """Below this many columns the sidebar hides until ``tab`` shows it: the content needs the
    room (an 80-column terminal would otherwise lose a quarter of every table)."""

    def __init__(self, *, area_id: str | None = None, name: str | None = None) -> None:
        super().__init__(name=name)
        self.area_id = area_id

    def compose(self) -> ComposeResult:
        yield StatusBar(surface(self))
        with Horizontal(id="shell"):
            yield Sidebar(
                (*HOME_AREAS, *AREAS), current=self.area_id or self._mode_area(), id="sidebar"
            )
            with Vertical(id="content"):
                yield from self.compose_content()
        yield ActionFooter()

    def compose_content(self) -> ComposeResult:
        """The screen's own widgets (right of the sidebar)."""
        yield from ()

    def _mode_area(self) -> str | None:
        mode = self.app.current_mode
        return mode if mode in {a.id for a in (*HOME_AREAS, *AREAS)} else None

    def content_focus_target(self) -> Widget | None:
        """The widget that takes focus in the content pane: the shown table, else the first."""
        from textual.widgets import Tabs

        content = self.query_one("#content")
        # The tab bar is never the target: its keys (left/right) are not what the user came
        # for, and a pane without a table (statistics) must get the keys it shows.
        return main_focus_target(
            w for w in content.query("*") if _shown(w) and not isinstance(w, Tabs)
        )

    def action_cycle_tab(self, step: int) -> None:
        """Show the previous or next tab of the content and focus what it shows."""
        from textual.widgets import TabbedContent, TabPane

        tabs = self.query_one("#content").query(TabbedContent).first(TabbedContent)
        panes = [
            p.id
            for p in tabs.query(TabPane)
            if p.id and next(a for a in p.ancestors if isinstance(a, TabbedContent)) is tabs
        ]
        if tabs.active not in panes:
            return
        tabs.active = panes[(panes.index(tabs.active) + step) % len(panes)]
        self.call_after_refresh(self._focus_content)

    def _focus_content(self) -> None:
        target = self.content_focus_target()
        if target is not None:
            target.focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "back":
            return self._can_go_back() or isinstance(self.focused, Sidebar)
        if action == "cycle_tab":
            from textual.widgets import TabbedContent

            return bool(self.query_one("#content").query(TabbedContent))
        if action == "bookmark":
            return surface(self).state.watchlist is not None
        return True

    def on_resize(self, event: events.Resize) -> None:
        self.set_class(event.size.width < self.NARROW_WIDTH, "-narrow")

    def _open_sidebar(self, show: bool) -> None:
        self.set_class(show, "-sidebar-open")

    def action_toggle_pane(self) -> None:
        """Move focus between the sidebar and the content (showing it on narrow terminals)."""
        sidebar = self.query_one(Sidebar)
        if self.focused is sidebar:
            self._open_sidebar(False)
            target = self.content_focus_target()
            if target is not None:
                target.focus()
        else:
            self._open_sidebar(True)
            sidebar.focus()

    def on_descendant_blur(self, event: events.DescendantBlur) -> None:
        # On a narrow terminal the sidebar is a passing visitor: it goes when it loses focus.
        if isinstance(event.widget, Sidebar):
            self._open_sidebar(False)

    def _can_go_back(self) -> bool:
        return len(self.app.screen_stack) > 1 and self.app.screen is self

    def action_back(self) -> None:
        """Back to the previous screen of this area; from the sidebar, back to the content.

        On an area's first screen ``escape`` does nothing (and the footer does not offer it):
        sending the keys to the sidebar there left the user pressing list keys that did
        nothing. ``tab`` is the way to the areas.
        """
        if self._can_go_back():
            self.app.pop_screen()
        elif isinstance(self.focused, Sidebar):
            self._open_sidebar(False)
            self._focus_content()

    def on_sidebar_area_chosen(self, event: Sidebar.AreaChosen) -> None:
        event.stop()
        self._open_sidebar(False)
        if event.area_id != self.app.current_mode:
            self.post_message(GoToArea(event.area_id))
        else:
            # The area shown already: nothing switches, and the sidebar (hidden again on a
            # narrow terminal) must not keep the focus.
            self.call_after_refresh(self._focus_content)

    def action_bookmark(self) -> None:
        """Bookmark the item under the cursor (or remove its bookmark)."""
        self.post_message(BookmarkAsked(self))

    def help_title(self) -> str:
        """What the help screen calls this screen."""
        wanted = self.area_id or self._mode_area()
        area = next((a for a in (*HOME_AREAS, *AREAS) if a.id == wanted), None)
        return area.title if area else "cloudtui"

    def spec(self, spec_id: str) -> ResourceSpec:
        """A spec by id."""
        return SPECS[spec_id]
