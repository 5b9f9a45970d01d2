"""The generic detail screen: sections of fields, child resources as tabs, actions.

The item refreshes itself on the same adaptive timer as lists (fast while its status is
transitional); child tabs load when first shown and refresh only while shown. Actions are in the
footer (greyed when not allowed), listed with the reason on the Overview tab, and in the palette.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from functools import partial
from typing import Any, ClassVar

from rich.table import Table
from rich.text import Text
from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widget import Widget
from textual.widgets import Static, TabbedContent, TabPane

from screens.actions.edit_as_text import DETAIL_BINDING, start_text_edit, text_action
from screens.actions.plugin_keys import bind_plugins, start_plugin
from screens.actions.start import (
    action_for_key,
    add_action_bindings,
    check_availability,
    start_action,
)
from screens.app_surface import signed_in, surface
from screens.lists.pane import PaletteAction, RefreshingPane, copy_item, show_json
from screens.lists.pane_host import PaneHostScreen, make_pane
from screens.refresh_timer import RefreshTimer
from tui.accounts.state import StateChange
from tui.api.endpoints import REGISTRY
from tui.api.errors import CloudError, NotFound
from tui.refresh import describe_error, settled_items
from tui.resources.areas import SPECS
from tui.resources.loader import fetch_item
from tui.resources.spec import Action, ChildSpec, ResourceSpec, dig
from tui.untrusted import Shown, shown
from widgets.detail_panel import DetailPanel
from widgets.key_names import action_key_label
from widgets.status_badge import StatusBadge


def child_params(
    spec: ResourceSpec, item: Mapping[str, Any], params: Mapping[str, Any], child: ChildSpec
) -> dict[str, Any]:
    """Path parameters of a child tab: the item's own plus the child's mapping."""
    out = spec.params_for(item, params)
    for param, item_field in child.params.items():
        value = dig(item, item_field)
        if value is not None:
            out[param] = value
    return out


ExtraTab = Callable[
    [ResourceSpec, Mapping[str, Any], Mapping[str, Any], str], RefreshingPane | None
]
"""Makes a tab's pane for an item (spec, item, parent params, pane id), or None where the tab
does not apply."""

EXTRA_TABS: tuple[tuple[str, str, str], ...] = (
    ("Relations", "relations", "screens.relations.tab:relations_tab"),
)
"""Tabs every detail screen has after its child tabs, where they apply: (title, id,
``"module:function"`` of its :data:`ExtraTab` maker, imported on first use)."""


def extra_tab(target: str) -> ExtraTab:
    """The maker ``"module:function"`` names."""
    module_name, _, function = target.partition(":")
    maker: ExtraTab = getattr(importlib.import_module(module_name), function)
    return maker


class ActionsPanel(Static):
    """Every action of the resource: key, label, and why it is not available when it is not."""

    DEFAULT_CSS = """
    ActionsPanel { height: auto; padding: 1 0 0 0; }
    """

    def show(self, rows: list[tuple[Action, bool, str]]) -> None:
        """Render ``(action, enabled, reason)`` rows."""
        self.rows = rows
        grid = Table.grid(padding=(0, 2))
        grid.add_column(no_wrap=True, style="bold")
        grid.add_column(no_wrap=True)
        grid.add_column()
        title = Text("Actions", style="bold")
        action: Action
        for action, enabled, reason in rows:
            key = action_key_label(self.app, action) or "palette"
            if enabled:
                grid.add_row(Text(key), Text(action.label), Text(action.description, style="dim"))
            else:
                grid.add_row(
                    Text(key, style="dim strike"),
                    Text(action.label, style="dim"),
                    Text(f"not available: {shown(reason)}", style="italic"),
                )
        from rich.console import Group

        self.update(Group(title, grid) if rows else Text(""))

    rows: list[tuple[Action, bool, str]] = []

    def text(self) -> str:
        """The panel as plain text, a line per action."""
        lines = []
        for action, enabled, reason in self.rows:
            detail = action.description if enabled else f"not available: {reason}"
            key = action_key_label(self.app, action) or "palette"
            lines.append(f"{key}  {action.label}  {detail}")
        return "\n".join(lines)


class ResourceDetailScreen(PaneHostScreen):
    """One item: its sections, child tabs and actions.

    Args:
        spec: The item's resource spec.
        item: The item as listed (refreshed through the view endpoint at once).
        params: The parent's path parameters (child resources).
        area_id: The area (mode) the screen belongs to.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "refresh", "Refresh", id="detail.refresh"),
        Binding("y", "copy", "Copy", id="detail.copy"),
        Binding("J", "json", "JSON", id="detail.json"),
        Binding("ctrl+d", "scroll_page(1)", "Scroll", show=False, id="detail.scroll_down"),
        Binding("ctrl+u", "scroll_page(-1)", "Scroll up", show=False, id="detail.scroll_up"),
        DETAIL_BINDING,
    ]

    DEFAULT_CSS = """
    ResourceDetailScreen #detail-title { height: 1; padding: 0 1; background: $boost; }
    ResourceDetailScreen #detail-label { width: auto; text-style: bold; }
    ResourceDetailScreen #detail-message { height: auto; padding: 0 1; color: $text-error; }
    ResourceDetailScreen #detail-message.-hidden { display: none; }
    ResourceDetailScreen #detail-tabs { height: 1fr; }
    ResourceDetailScreen #overview-panel { height: 1fr; }
    """

    def __init__(
        self,
        spec: ResourceSpec,
        item: Mapping[str, Any] | None = None,
        params: Mapping[str, Any] | None = None,
        *,
        area_id: str | None = None,
    ) -> None:
        super().__init__(area_id=area_id)
        self.resource = spec
        self.item: dict[str, Any] = dict(item or {})
        self.params: dict[str, Any] = dict(params or {})
        self.error: CloudError | None = None
        self.gone = False
        self.refresher = RefreshTimer(self, self.refresh_item)
        add_action_bindings(self, spec.actions)

    # -- composition ------------------------------------------------------------------------

    def compose_content(self) -> ComposeResult:
        spec = self.resource
        with Horizontal(id="detail-title"):
            yield Static(id="detail-label")
            yield StatusBadge(spec.status_of(self.item), spec.transitional, id="detail-status")
        yield Static(id="detail-message", classes="-hidden")
        with TabbedContent(id="detail-tabs"):
            with TabPane("Overview", id="tab-overview"):
                # The actions scroll with the fields, so they are reachable on a short terminal.
                yield DetailPanel(
                    spec.sections,
                    self.item,
                    transitional=spec.transitional,
                    after=(ActionsPanel(id="actions-panel"),),
                    id="overview-panel",
                )
            for index, child in enumerate(spec.children):
                child_spec = SPECS.get(child.resource)
                if child_spec is None:
                    continue
                with TabPane(child.title, id=f"tab-child-{index}"):
                    yield make_pane(
                        child_spec,
                        child_params(spec, self.item, self.params, child),
                        lazy=True,
                        id=f"child-{index}",
                    )
            for title, tab_id, maker in EXTRA_TABS:
                pane = extra_tab(maker)(spec, self.item, self.params, f"pane-{tab_id}")
                if pane is not None:
                    with TabPane(title, id=f"tab-{tab_id}"):
                        yield pane

    def on_mount(self) -> None:
        bind_plugins(self, self.resource)  # the config's [[plugins]] of this area
        self.refresher.configure()
        self._show_item()
        self.query_one(DetailPanel).focus()
        surface(self).account_signal.subscribe(self, self._account_changed, immediate=True)
        self.refresh_item()

    def _account_changed(self, what: StateChange) -> None:
        if what == "user":  # the user or the read-only mode: the actions are judged again
            self._show_actions()

    # -- refresh ----------------------------------------------------------------------------

    def refresh_item(self) -> None:
        """Fetch the item now (the timer is re-armed when it completes)."""
        self.refresher.stop()
        self._refresh()

    @work(group="item", exclusive=True, exit_on_error=False, name="refreshing the item")
    async def _refresh(self) -> None:
        before = self.item
        try:
            fresh = await fetch_item(signed_in(self).client, self.resource, self.item, self.params)
        except NotFound as error:
            self.error = error
            self.gone = True
            self._message(
                f"This {self.resource.singular} no longer exists. Press escape to go back."
            )
            return
        except CloudError as error:
            self.error = error
            self._message(describe_error(error) + " Showing what was loaded before.")
            self.refresher.failed(error, transitional=self.resource.is_transitional(before))
            return
        self.error = None
        self._message("")
        self.item = fresh
        self._notify_settled(before, fresh)
        self._show_item()
        self.refresher.succeeded(transitional=self.resource.is_transitional(fresh))

    def _notify_settled(self, before: Mapping[str, Any], after: Mapping[str, Any]) -> None:
        spec = self.resource
        key = spec.item_key(after)
        for change in settled_items(
            {key: before},
            {key: after},
            status=spec.status_of,
            transitional=spec.is_transitional_status,
            label=spec.label_of,
        ):
            # "web-1 is now running"
            self.app.notify(change.message, title=spec.title, markup=False)

    @property
    def last_delay(self) -> float:
        """Delay chosen after the last refresh of the item."""
        return self.refresher.last_delay

    def on_screen_suspend(self) -> None:
        # PaneHostScreen.on_screen_suspend runs too (Textual calls handlers along the MRO).
        self.refresher.set_visible(False, loaded=True)

    def on_screen_resume(self) -> None:
        if not self.gone:
            self.refresher.set_visible(True, loaded=True)

    def on_unmount(self) -> None:
        self.refresher.stop()

    # -- display ----------------------------------------------------------------------------

    def _message(self, text: Shown) -> None:
        message = self.query_one("#detail-message", Static)
        message.update(Text(text))
        message.set_class(not text, "-hidden")

    def _show_item(self) -> None:
        spec = self.resource
        label = spec.display_label(self.item)
        title = Text(spec.singular[:1].upper() + spec.singular[1:], style="bold")
        if label:
            title.append(" ")
            title.append(label)  # other people's text: never markup, never a control character
        self.query_one("#detail-label", Static).update(title)
        self.query_one("#detail-status", StatusBadge).set_status(spec.status_of(self.item))
        self.query_one(DetailPanel).show(self.item)
        self._show_actions()
        self.refresh_bindings()

    def action_rows(self) -> list[tuple[Action, bool, str]]:
        """Every action with whether it is allowed now and why not."""
        rows = []
        for action in self.resource.actions:
            item = self.item if action.target == "item" else None
            enabled, reason = check_availability(self, self.resource, action, item)
            rows.append((action, enabled, reason))
        return rows

    def _show_actions(self) -> None:
        self.query_one(ActionsPanel).show(self.action_rows())

    # -- keys and actions -------------------------------------------------------------------

    def _child_pane(self) -> RefreshingPane | None:
        """The child tab's pane holding the focus, if any."""
        focused = self.focused
        if focused is None:
            return None
        return next(
            (n for n in (focused, *focused.ancestors) if isinstance(n, RefreshingPane)), None
        )

    def _in_child_pane(self) -> bool:
        return self._child_pane() is not None

    def _reaches_children(self, action_id: str) -> bool:
        """True for a hand-off of this item (k9s on a cluster: it changes nothing here) or an
        action offered on every tab (the zone edit), when the focused child tab does not bind
        a key of its own to it."""
        action = self.resource.action(action_id)
        pane = self._child_pane()
        if action is None or pane is None or not (action.handoff or action.on_every_tab):
            return False
        return all(a.key != action.key for a in pane.spec.actions)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "plugin" and self._in_child_pane():
            return False  # the child tab's own plugins, if any
        if action == "edit_text":
            # In a child tab, E belongs to that tab's list.
            return text_action(self.resource) is not None and not self._in_child_pane()
        if action in ("run_action", "refresh", "copy", "json") and self._in_child_pane():
            # Keys inside a child tab belong to that tab's resource, never to the parent,
            # except the item's hand-offs (they change nothing).
            handoff = action == "run_action" and bool(parameters)
            if not (handoff and self._reaches_children(str(parameters[0]))):
                return False
        if action == "run_action" and parameters:
            spec_action = self.resource.action(str(parameters[0]))
            if spec_action is None:
                return False
            item = self.item if spec_action.target == "item" else None
            enabled, _ = check_availability(self, self.resource, spec_action, item)
            return True if enabled else None
        if action == "refresh":
            # Keys shown must work: an item the API cannot fetch alone (no view endpoint, or
            # rows derived by an adapter) has nothing to refresh on its Overview.
            spec = self.resource
            return spec.singleton or bool(spec.view_endpoint and not spec.adapter)
        return super().check_action(action, parameters)

    def on_key(self, event: events.Key) -> None:
        action_id = action_for_key(self, event.key)
        action = self.resource.action(action_id) if action_id else None
        if action is None or (self._in_child_pane() and not self._reaches_children(action.id)):
            return
        item = self.item if action.target == "item" else None
        enabled, reason = check_availability(self, self.resource, action, item)
        if not enabled:
            event.stop()
            self.app.notify(shown(reason), title=f"{action.label}: not available", markup=False)

    def action_run_action(self, action_id: str) -> None:
        """Run one of the item's actions."""
        action = self.resource.action(action_id)
        if action is None:
            return
        item = self.item if action.target == "item" else None
        params = self.resource.params_for(self.item, self.params) if item else dict(self.params)
        start_action(
            self, self, self.resource, action, item, params, partial(self._after_action, action)
        )

    def action_plugin(self, index: int) -> None:
        """Run the config file's plugin ``index`` on the item."""
        start_plugin(self, self, self.resource, self.item, index)

    def action_edit_text(self) -> None:
        """Edit the item as a TOML document."""
        if self.item and not self.gone:
            start_text_edit(self, self, self.resource, [self.item], self.params, self._edited)

    def _edited(self, changed: bool) -> None:
        if changed:
            self.refresh_item()

    def _after_action(self, action: Action, changed: bool) -> None:
        if not changed:
            return
        if self._removes_item(action) and self.app.screen is self:
            # The item is gone: back to the list, which refreshes as it is shown again.
            if len(self.app.screen_stack) > 1:
                self.app.pop_screen()
            return
        self.refresh_item()

    def _removes_item(self, action: Action) -> bool:
        """True when ``action`` deletes (or revokes) this very item, not a part of it."""
        if action.target != "item" or not self.resource.view_endpoint:
            return False
        operation = REGISTRY[action.endpoint]
        own_path = REGISTRY[self.resource.view_endpoint].path
        if operation.method == "DELETE":
            return operation.path == own_path
        return operation.path == f"{own_path}/revoke"

    def action_refresh(self) -> None:
        """Refresh the item and the shown tab."""
        self.refresh_item()
        pane = self.active_pane()
        if pane is not None:
            pane.refresh_now()

    def action_scroll_page(self, direction: int) -> None:
        """Scroll what has the focus (the fields, a tab's list) by half its height, as
        ``ctrl+d``/``ctrl+u`` do on the overview; when it all fits, say so."""
        focused = self.focused
        chain = (focused, *focused.ancestors) if focused is not None else ()
        node = next((n for n in chain if isinstance(n, Widget) and n.allow_vertical_scroll), None)
        if node is None:
            self.app.notify("It all fits: nothing to scroll.", title="Scroll", markup=False)
            return
        node.scroll_relative(y=direction * max(1, node.size.height // 2), animate=False)

    def action_copy(self) -> None:
        """Copy the item's id, address or URL."""
        copy_item(self, self.resource, self.item)

    def action_json(self) -> None:
        """Show the item's raw JSON."""
        show_json(
            self, f"{self.resource.singular} {self.resource.display_label(self.item)}", self.item
        )

    def help_title(self) -> str:
        """What the help screen calls this screen."""
        return f"{self.resource.singular} {self.resource.label_of(self.item)}".strip()

    def subject(self) -> tuple[ResourceSpec, dict[str, Any]] | None:
        """The record this screen shows: the parent of what its child tabs list."""
        return (self.resource, self.item) if self.item else None

    def refresh_all(self) -> None:
        """Refresh the item and the shown tab."""
        self.action_refresh()

    def palette_actions(self) -> list[PaletteAction]:
        """The item's actions, then the shown child tab's."""
        out: list[PaletteAction] = []
        for action in self.resource.actions:
            item = self.item if action.target == "item" else None
            params = self.resource.params_for(self.item, self.params) if item else dict(self.params)
            out.append((self.resource, action, item, params))
        pane = self.active_pane()
        if pane is not None:
            out += pane.palette_actions()
        return out
