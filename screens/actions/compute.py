"""Hand-written instance flows: resize (the types chooser, then the price) and rescue (a device
map).

Both are :class:`~screens.actions.request_modal.RequestModal` dialogs: they load their
choices from the API, show the request they will send, and stay open with the user's choices
until it succeeds.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Checkbox, Label, Select, Static

from screens.actions.request_modal import RequestModal, Submit
from tui.api.errors import CloudError
from tui.refresh import describe_error
from tui.resources.compute_choices import (
    RESCUE_DEVICES,
    RESERVED_DEVICE,
    DeviceChoice,
    default_rescue_map,
    device_choices,
    rescue_body,
    resize_refusal,
    resize_table,
    type_line,
)
from tui.untrusted import Shown, shown
from widgets.chooser_panel import ChooserPanel
from widgets.model_form import Tick
from widgets.textual_private import MarkedSelect

if TYPE_CHECKING:
    from screens.actions.context import ActionContext

ENDPOINTS: tuple[str, ...] = ("compute.types.list", "compute.disks.list", "compute.volumes.list")
"""Operations this module calls by name (the coverage test checks they are reachable)."""


class ResizeModal(RequestModal):
    """Choose a new instance type in the types chooser (type to filter), then confirm its price.

    Args:
        ctx: The action being run (instance, client).
    """

    DEFAULT_CSS = """
    ResizeModal > #dialog { width: 100; }
    ResizeModal #resize-current { height: auto; }
    ResizeModal #resize-auto { margin: 0 0 0 1; }
    ResizeModal #resize-note { color: $text-muted; height: auto; }
    """

    hint = "type to filter · ↑↓ choose · enter or ctrl+s resize · esc cancel"

    def __init__(self, ctx: ActionContext) -> None:
        super().__init__(ctx.title, ctx.call, request_line=f"POST {ctx.path()}")
        self.ctx = ctx
        self.current = str((ctx.item or {}).get("type") or "")
        self.types: list[dict[str, Any]] = []

    def compose_body(self) -> ComposeResult:
        specs = (self.ctx.item or {}).get("specs") or {}
        current = Text("Current type: ")
        current.append(shown(self.current) or "unknown", style="bold")
        if isinstance(specs, Mapping) and specs:
            current.append(f"  ({type_line({'id': '', **specs}, with_id=False, compact=True)})")
        current.append("  (* in the list)")
        yield Static(current, id="resize-current")
        yield ChooserPanel(keys_hint="enter resize", id="resize-types")
        # Compact: on a 24-line terminal every line saved is another type in the list.
        yield Tick(
            "resize disks automatically (else larger disks are refused)",
            True,
            id="resize-auto",
        )
        # One line: at 24 rows each line saved shows another type.
        yield Static(
            Text("Shuts down, moves to the new type (billed from then on) and boots again."),
            id="resize-note",
        )

    @property
    def panel(self) -> ChooserPanel:
        """The types chooser."""
        return self.query_one(ChooserPanel)

    def on_mount(self) -> None:
        self.panel.focus_filter()
        self._load()

    @work(group="types", name="loading the types")
    async def _load(self) -> None:
        client = self.ctx.session.client
        try:
            async for page in client.iter_all("compute.types.list", model=dict):
                self.types.extend(page.data)
            # The instance's disks decide which types are too small (the API refuses them).
            disks = await client.fetch_all("compute.disks.list", self.ctx.params, model=dict)
        except CloudError as error:
            self.show_general([f"Types could not be loaded: {describe_error(error)}"])
            return
        self.panel.set_table(resize_table(self.types, disks, self.current), self.current)

    def on_chooser_panel_picked(self, event: ChooserPanel.Picked) -> None:
        event.stop()
        self.action_submit()

    async def confirm_before_send(self, body: dict[str, Any]) -> bool:
        """The price: old type -> new type, and the difference per month and hour."""
        from screens.dialogs.confirm import ConfirmModal, request_preview

        quote = await self.ctx.quote(body)
        modal = ConfirmModal(
            f"{self.ctx.title} to {shown(body.get('type'))}?",
            "The instance shuts down, moves to the new type and boots again.",
            request_preview("POST", self.ctx.path(), body),
            confirm_label="Resize",
            price=shown(quote.text(), lines=True) if quote is not None else "",
        )
        confirmed: bool = await self.app.push_screen_wait(modal)
        return bool(confirmed)

    def build(self) -> dict[str, Any] | None:
        row = self.panel.highlighted if self.types else None
        refusal = resize_refusal(row, self.current)
        if row is None or refusal:
            self.show_general([refusal])
            return None
        self.show_general([])
        return {
            "type": row.value,
            "allow_auto_disk_resize": self.query_one("#resize-auto", Checkbox).value,
        }


class RescueModal(RequestModal):
    """Map the instance's disks and volumes to devices and boot into rescue mode.

    Args:
        ctx: The action being run (instance, client).
    """

    DEFAULT_CSS = """
    RescueModal #rescue-devices { height: 1fr; }
    RescueModal .rescue-row { height: 1; margin-bottom: 1; }
    RescueModal .rescue-row Label { width: 8; }
    RescueModal .rescue-row Select { width: 1fr; }
    RescueModal #rescue-note { color: $text-muted; height: auto; margin-bottom: 1; }
    """

    def __init__(self, ctx: ActionContext) -> None:
        super().__init__(ctx.title, ctx.call, request_line=f"POST {ctx.path()}")
        self.ctx = ctx
        self.choices: list[DeviceChoice] = []

    def compose_body(self) -> ComposeResult:
        yield Static(
            Text(
                "The instance reboots into the rescue environment with these devices. "
                f"{RESERVED_DEVICE} is reserved for the rescue system itself."
            ),
            id="rescue-note",
        )
        with VerticalScroll(id="rescue-devices"):
            for device in RESCUE_DEVICES:
                with Horizontal(classes="rescue-row"):
                    yield Label(device)
                    yield MarkedSelect(
                        [], prompt="(none)", id=f"dev-{device}", compact=True, allow_blank=True
                    )
            with Horizontal(classes="rescue-row"):
                yield Label(RESERVED_DEVICE)
                yield Static(Text("reserved (rescue system)", style="dim"))

    def on_mount(self) -> None:
        self.query_one(f"#dev-{RESCUE_DEVICES[0]}", Select).focus()
        self._load()

    @work(group="devices", name="loading the disks")
    async def _load(self) -> None:
        client = self.ctx.session.client
        params = self.ctx.params
        disks: list[dict[str, Any]] = []
        volumes: list[dict[str, Any]] = []
        try:
            disks = await client.fetch_all("compute.disks.list", params, model=dict)
            volumes = await client.fetch_all("compute.volumes.list", params, model=dict)
        except CloudError as error:
            self.show_general([f"Disks could not be loaded: {describe_error(error)}"])
        self.choices = device_choices(disks, volumes)
        options = [(Text(c.text), c.value) for c in self.choices]
        defaults = default_rescue_map(self.choices)
        for device in RESCUE_DEVICES:
            select = self.query_one(f"#dev-{device}", Select)
            select.set_options(options)
            if device in defaults:
                select.value = defaults[device]

    def build(self) -> dict[str, Any] | None:
        chosen: dict[str, str | None] = {}
        for device in RESCUE_DEVICES:
            value = self.query_one(f"#dev-{device}", Select).value
            chosen[device] = None if value is Select.NULL else str(value)
        body, problem = rescue_body(chosen)
        if problem:
            self.show_general([shown(problem)])
            return None
        self.show_general([])
        return body


async def _run(ctx: ActionContext, modal: RequestModal, done: Shown) -> bool:
    outcome = await ctx.app.push_screen_wait(modal)
    if outcome is None:
        return False
    ctx.done(done)
    return True


async def resize(ctx: ActionContext) -> bool:
    """The resize action: pick a type, then send."""
    return await _run(ctx, ResizeModal(ctx), f"Resizing {ctx.shown_label}")


async def rescue(ctx: ActionContext) -> bool:
    """The rescue action: map devices, then send."""
    return await _run(ctx, RescueModal(ctx), f"{ctx.shown_label} is booting into rescue mode")


__all__ = ["RescueModal", "ResizeModal", "Submit", "rescue", "resize"]
