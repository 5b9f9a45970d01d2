"""An area's list screen: its root resource's pane, with the area's other resources as tabs.

The panes themselves are in :mod:`screens.lists.list_pane` (a list) and
:mod:`screens.lists.singleton_pane` (one object); :mod:`screens.lists.pane_host` makes the right
one for a spec.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from textual.app import ComposeResult
from textual.widgets import TabbedContent, TabPane

from screens.lists.pane import PaletteAction, RefreshingPane
from screens.lists.pane_host import PaneHostScreen, make_pane
from tui.resources.areas import SPECS
from tui.resources.spec import ResourceSpec


class ResourceListScreen(PaneHostScreen):
    """An area's list (with further top-level resources of the area as tabs).

    Args:
        spec: The resource listed.
        params: Path parameters (for child resources opened on their own).
        tabs: Further spec ids shown as tabs beside ``spec``.
        area_id: The area (mode) the screen belongs to.
    """

    def __init__(
        self,
        spec: ResourceSpec,
        params: Mapping[str, Any] | None = None,
        *,
        tabs: tuple[str, ...] = (),
        area_id: str | None = None,
    ) -> None:
        super().__init__(area_id=area_id)
        self.resource = spec
        self.params = dict(params or {})
        self.tabs = tuple(t for t in tabs if t in SPECS)

    def compose_content(self) -> ComposeResult:
        if not self.tabs:
            yield make_pane(self.resource, self.params, lazy=False, id="pane-0")
            return
        with TabbedContent(id="area-tabs"):
            with TabPane(self.resource.title, id="tab-0"):
                yield make_pane(self.resource, self.params, lazy=False, id="pane-0")
            for index, spec_id in enumerate(self.tabs, start=1):
                # Empty until first shown (see ensure_pane): styling the hidden tabs' tables,
                # inputs and headers cost the first frame of the area ~50 ms.
                yield TabPane(SPECS[spec_id].title, id=f"tab-{index}")

    def ensure_pane(self, index: int, *, focus: bool = False) -> RefreshingPane:
        """The pane of tab ``index``, mounted (and so loading) now if it is not yet.

        Args:
            index: Tab index (0 is the area's own list).
            focus: Give the pane the keys (once it is composed, for a new one).
        """
        found = self.query(f"#pane-{index}")
        if found:
            pane = found.first(RefreshingPane)
            if focus:
                pane.focus_main()
            return pane
        spec = SPECS[(self.resource.id, *self.tabs)[index]]
        pane = make_pane(spec, {}, lazy=False, id=f"pane-{index}")
        pane.focus_when_mounted = focus
        self.query_one(f"#tab-{index}", TabPane).mount(pane)
        return pane

    def on_tabbed_content_tab_activated(self, event: TabbedContent.TabActivated) -> None:
        # Runs before PaneHostScreen's handler (next in the MRO), which marks the live panes.
        pane_id = event.pane.id or ""
        if event.tabbed_content.id == "area-tabs" and pane_id.startswith("tab-"):
            index = int(pane_id.removeprefix("tab-"))
            if not self.query(f"#pane-{index}"):
                # Shown for the first time (tab key, mouse, ``[``/``]``): a tab switch focuses
                # what it shows, and this pane was not there to be focused.
                self.ensure_pane(index, focus=True)

    def on_mount(self) -> None:
        target = self.content_focus_target()
        if target is not None:
            target.focus()

    @property
    def pane(self) -> RefreshingPane:
        """The pane shown now."""
        return self.active_pane() or self.query_one("#pane-0", RefreshingPane)

    def show_spec(self, spec_id: str) -> bool:
        """Show the tab of ``spec_id`` (``:keys`` in object storage); False if not here."""
        ids = (self.resource.id, *self.tabs)
        if spec_id not in ids:
            return False
        index = ids.index(spec_id)
        if self.tabs:
            self.query_one("#area-tabs", TabbedContent).active = f"tab-{index}"
        self.ensure_pane(index, focus=True)
        return True

    def help_title(self) -> str:
        """What the help screen calls this screen."""
        return self.pane.spec.title

    def palette_actions(self) -> list[PaletteAction]:
        """Actions of the shown pane."""
        return self.pane.palette_actions()
