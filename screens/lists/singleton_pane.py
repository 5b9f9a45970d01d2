"""A pane showing one object (a transfer summary, a kubeconfig ...) as sections of fields.

Secrets (a database's root password, a kubeconfig) are masked; ``s`` shows them on request
and they are masked again as soon as the pane is left (another tab, screen or dialog).
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Static

from screens.actions.start import add_action_bindings, check_availability, start_action
from screens.app_surface import signed_in
from screens.lists.pane import PaletteAction, RefreshingPane, copy_item, show_json
from tui.api.errors import CloudError
from tui.refresh import describe_error
from tui.resources.format import has_secret_fields
from tui.resources.loader import fetch_item
from widgets.detail_panel import DetailPanel
from widgets.textual_private import bind_last

REVEAL_BINDING = Binding("s", "reveal", "Show/hide secret", id="detail.reveal")
"""Added to a pane whose spec has secret fields (a module constant, so ``[keymap]`` knows it)."""


class SingletonPane(RefreshingPane):
    """One object (transfer summary, kubeconfig, stats ...) as sections of fields."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "refresh", "Refresh", id="list.refresh"),
        Binding("y", "copy", "Copy", id="list.copy"),
        Binding("J", "json", "JSON", id="list.json"),
    ]

    DEFAULT_CSS = """
    SingletonPane { height: 1fr; }
    SingletonPane .list-message { height: auto; padding: 0 1; color: $text-error; }
    SingletonPane .list-message.-hidden { display: none; }
    """

    def init_state(self) -> None:
        self.item: dict[str, Any] = {}
        add_action_bindings(self, self.spec.actions)
        if has_secret_fields(self.spec):
            bind_last(self, [REVEAL_BINDING])

    @property
    def panel(self) -> DetailPanel:
        """The sections of fields."""
        return self.query_one(DetailPanel)

    def action_reveal(self) -> None:
        """Show the secrets in clear, or mask them again."""
        self.panel.set_revealed(not self.panel.revealed)

    def _visibility_changed(self) -> None:
        super()._visibility_changed()
        if not self.visible_now and self.is_mounted:
            self.panel.set_revealed(False)  # left: a secret is never left on screen

    def compose(self) -> ComposeResult:
        yield Static(classes="list-message -hidden")
        yield DetailPanel(self.spec.sections, {}, transitional=self.spec.transitional)

    async def _refresh(self) -> None:
        try:
            self.item = await fetch_item(signed_in(self).client, self.spec, {}, self.params)
        except CloudError as error:
            self._failed(error, False)
        else:
            self.query_one(DetailPanel).show(self.item)
            self.loaded = True
            self._succeeded(self.spec.is_transitional(self.item))
        message = self.query_one(".list-message", Static)
        message.update(Text(describe_error(self.error) if self.error else ""))
        message.set_class(self.error is None, "-hidden")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "run_action" and parameters:
            spec_action = self.spec.action(str(parameters[0]))
            if spec_action is None:
                return False
            enabled, _ = check_availability(self, self.spec, spec_action, self.item)
            return True if enabled else None
        return True

    def action_refresh(self) -> None:
        """Refresh now."""
        self.refresh_now()

    def action_copy(self) -> None:
        """Copy the object's main value."""
        copy_item(self, self.spec, self.item, reveal_key="s")

    def action_json(self) -> None:
        """Show the raw JSON."""
        show_json(self, self.spec.title, self.item)

    def action_run_action(self, action_id: str) -> None:
        """Run one of the object's actions."""
        action = self.spec.action(action_id)
        if action is not None:
            start_action(
                self, self.screen, self.spec, action, self.item, self.params, self._after_action
            )

    def _after_action(self, changed: bool) -> None:
        if changed:
            self.refresh_now()

    def palette_actions(self) -> list[PaletteAction]:
        """Actions the palette offers here."""
        return [(self.spec, a, self.item, dict(self.params)) for a in self.spec.actions]
