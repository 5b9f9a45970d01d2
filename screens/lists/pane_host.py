"""Making panes for specs, and the base of the screens that hold them in tabs."""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from textual.widgets import TabbedContent, TabPane

from screens.frame import ShellScreen
from screens.lists.list_pane import ResourceListPane
from screens.lists.pane import RefreshingPane
from screens.lists.singleton_pane import SingletonPane
from tui.resources.spec import ResourceSpec


def _nearest(node: Any, cls: type) -> Any:
    """The closest ancestor of ``node`` of type ``cls``."""
    return next((a for a in node.ancestors if isinstance(a, cls)), None)


CUSTOM_PANES: dict[str, str] = {
    "compute.transfer": "screens.details.stats:TransferPane",
    "object_storage.objects": "screens.transfers.bucket_browser:BucketBrowserPane",
}
"""Spec id -> ``"module:Class"`` of a hand-written pane (same constructor as the generic ones)."""


def make_pane(
    spec: ResourceSpec, params: Mapping[str, Any] | None = None, *, lazy: bool, id: str
) -> RefreshingPane:
    """A hand-written pane, a chart pane for specs with charts, a list pane, or a singleton
    pane for one-object specs."""
    custom = CUSTOM_PANES.get(spec.id)
    if custom is None and spec.charts:
        custom = "screens.details.stats:StatsPane"
    if custom is not None:
        module_name, _, class_name = custom.partition(":")
        pane_class = getattr(importlib.import_module(module_name), class_name)
        pane: RefreshingPane = pane_class(spec, params, lazy=lazy, id=id)
        return pane
    if spec.singleton:
        return SingletonPane(spec, params, lazy=lazy, id=id)
    return ResourceListPane(spec, params, lazy=lazy, id=id)


class PaneHostScreen(ShellScreen):
    """An area screen that holds panes in tabs (a list screen, a detail screen): its panes are
    suspended with it, and each knows whether its tab is the one shown."""

    def on_screen_suspend(self) -> None:
        for pane in self.query(RefreshingPane):
            pane.set_suspended(True)

    def on_screen_resume(self) -> None:
        for pane in self.query(RefreshingPane):
            pane.set_suspended(False)

    def on_tabbed_content_tab_activated(self, event: TabbedContent.TabActivated) -> None:
        for pane in event.tabbed_content.query(RefreshingPane):
            owner = _nearest(pane, TabPane)
            # Only panes of this TabbedContent's own tabs change; nested ones follow their tab.
            if owner is not None and _nearest(owner, TabbedContent) is event.tabbed_content:
                pane.set_live(owner is event.pane)

    def refresh_all(self) -> None:
        """Refresh every pane that is shown."""
        for pane in self.query(RefreshingPane):
            if pane.visible_now:
                pane.refresh_now()

    def active_pane(self) -> RefreshingPane | None:
        """The pane the user is looking at (the focused one, else the shown tab's)."""
        focused = self.focused
        if focused is not None:
            for node in (focused, *focused.ancestors):
                if isinstance(node, RefreshingPane):
                    return node
        for pane in self.query(RefreshingPane):
            if pane.visible_now:
                return pane
        return None
