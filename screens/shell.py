"""The frame every area screen shares: status bar, sidebar, content, footer.

Also the small glue every generic screen needs: asking ``availability`` whether an action is
allowed, running an action through ``screens.actions.run_action``, and forwarding worker state
changes to the app's single handler.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any, ClassVar

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.dom import DOMNode
from textual.screen import Screen
from textual.widget import Widget
from textual.worker import Worker

from tui.home.areas import HOME_AREAS
from tui.resources.areas import AREAS, SPECS
from tui.resources.availability import UserContext, availability
from tui.resources.spec import Action, ResourceSpec
from tui.untrusted import Shown, shown
from widgets.action_footer import ActionFooter
from widgets.sidebar import Sidebar
from widgets.status_bar import StatusBar

if TYPE_CHECKING:
    from textual.app import App


def check_availability(
    app: App[Any], spec: ResourceSpec, action: Action, item: Mapping[str, Any] | None
) -> tuple[bool, Shown]:
    """Whether ``action`` is allowed on ``item`` for the signed-in user, and why not.

    Until the user is known (the profile is still loading) only the item's own conditions
    apply, and the API has the last word. The reason is display text (it may quote a status
    or a value of the item).
    """
    user = getattr(app, "user_context", None) or UserContext()
    if getattr(app, "read_only", False) and not user.read_only:
        user = replace(user, read_only=True)  # before the profile is loaded
    allowed, reason = availability(spec, action, dict(item) if item else None, user)
    return bool(allowed), shown(reason)


def binding_for(action: Action) -> Binding:
    """The key binding of a spec action (its id doubles as the keymap id)."""
    return Binding(
        action.key or "",
        f"run_action('{action.id}')",
        action.label,
        id=action.id,
        tooltip=action.description,
    )


def add_action_bindings(node: DOMNode, actions: Iterable[Action]) -> None:
    """Bind every keyed action on ``node`` (instance-level: specs differ per screen).

    The actions come before the node's own keys, so the footer shows them first: on an
    80-column terminal it has room for about seven keys, and "New", "Edit", "Delete" and the
    power actions matter more there than Copy or JSON (all are in ``?`` help and the palette).
    """
    own = node._bindings.key_to_bindings
    merged: dict[str, list[Binding]] = {}
    for action in actions:
        if not action.key:
            continue
        for binding in Binding.make_bindings([binding_for(action)]):
            merged.setdefault(binding.key, []).append(binding)
    for key, bindings in own.items():
        merged.setdefault(key, []).extend(bindings)
    own.clear()
    own.update(merged)


def action_for_key(node: DOMNode, key: str) -> str | None:
    """The spec action id ``key`` triggers on ``node`` after the user's keymap, if any."""
    bindings = node._bindings.copy()
    keymap = getattr(node.app, "_keymap", None)
    if keymap:
        bindings.apply_keymap(keymap)
    for binding in bindings.key_to_bindings.get(key, []):
        if binding.action.startswith("run_action("):
            return binding.action[len("run_action('") : -2]
    return None


async def perform_action(
    host: Screen[Any],
    spec: ResourceSpec,
    action: Action,
    item: Mapping[str, Any] | None,
    params: Mapping[str, Any],
) -> bool:
    """Run one action (form, confirmation, call); an unavailable action is explained instead.

    Returns:
        True when something changed (the caller refreshes).
    """
    enabled, reason = check_availability(host.app, spec, action, item)
    if not enabled:
        host.app.notify(reason, title=f"{action.label}: not available", markup=False)
        return False
    from screens.actions import run_action  # imported on first use: start-up stays lean

    return bool(await run_action(host, spec, action, dict(item) if item else None, dict(params)))


def start_action(
    node: DOMNode,
    host: Screen[Any],
    spec: ResourceSpec,
    action: Action,
    item: Mapping[str, Any] | None,
    params: Mapping[str, Any],
    then: Callable[[bool], Any] | None = None,
    run: Callable[[], Awaitable[bool]] | None = None,
) -> None:
    """Run an action in a worker of ``node``; ``host`` gets no keys until its dialog is up.

    Args:
        node: Whose worker runs the action (its state goes to the app's handler).
        host: The screen the action was started from (gated by the app's key gate).
        spec: The resource the action belongs to.
        action: The action.
        item: The item it acts on (None: the collection).
        params: Path parameters.
        then: Called with True when something changed (the caller refreshes), else False.
        run: Runs the action instead of the single-item flow (a bulk run on the marked rows);
            the key gate applies the same.
    """
    gate = getattr(node.app, "key_gate", None)
    token = gate.begin(host) if gate is not None else None

    async def work() -> None:
        try:
            if run is not None:
                changed = await run()
            else:
                changed = await perform_action(host, spec, action, item, params)
        finally:
            if gate is not None:
                gate.end(token)
        if then is not None:
            then(changed)

    node.run_worker(work(), group="action", exit_on_error=False)


def forward_worker_state(node: DOMNode, event: Worker.StateChanged) -> None:
    """Hand a worker state change to the app's single handler (the message does not bubble)."""
    handler = getattr(node.app, "handle_worker_state", None)
    if handler is not None:
        handler(event.worker)


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


class WorkerForwarding:
    """Mixin: route this node's worker state changes to the app."""

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        forward_worker_state(self, event)  # type: ignore[arg-type]


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
        yield StatusBar()
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
        mode = getattr(self.app, "current_mode", None)
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
            return getattr(self.app, "watchlist", None) is not None
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
        switch = getattr(self.app, "go_to_area", None)
        if switch is not None:
            switch(event.area_id)
        if self.app.screen is self:
            # The area shown already: nothing switched, and the sidebar (hidden again on a
            # narrow terminal) must not keep the focus.
            self.call_after_refresh(self._focus_content)

    def action_bookmark(self) -> None:
        """Bookmark the item under the cursor (or remove its bookmark)."""
        bookmark = getattr(self.app, "bookmark_under_cursor", None)
        if bookmark is not None:
            bookmark(self)

    def help_title(self) -> str:
        """What the help screen calls this screen."""
        wanted = self.area_id or self._mode_area()
        area = next((a for a in (*HOME_AREAS, *AREAS) if a.id == wanted), None)
        return area.title if area else "cloudtui"

    def spec(self, spec_id: str) -> ResourceSpec:
        """A spec by id."""
        return SPECS[spec_id]
