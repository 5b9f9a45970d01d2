"""Zone as text: ``E`` on a domain edits its records as a zone file in ``$VISUAL``/``$EDITOR``.

The records are written as a zone file (``tui.dns.zone_text``), the editor runs through the one
hand-off mechanism (``screens.handoff.edit_text``: a 0600 file, removed afterwards), and the
saved text becomes a plan (``tui.dns.zone_plan``): one ``+``/``~``/``-`` line per record and the
lines that cannot be mapped. ``y`` on the plan applies it, one request per record, each line
showing its result; ``e`` goes back to the editor with the text as saved, each line that
could not be mapped marked by a ``; !`` note (after a partial failure, the fresh records are
compared again, so only what failed is left to do).

Bindings of the plan:

| Key | Id | Description |
| :- | :- | :- |
| y | zone.apply | Apply the plan (once) |
| e | zone.edit | Back to the editor with the saved text |
| escape | zone.close | Cancel (or close, once applied) |
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from screens.handoff import edit_text
from tui.api.errors import CloudError
from tui.dns.zone_plan import Change, ZonePlan, plan_zone, text_with_errors
from tui.dns.zone_text import render_zone_text
from tui.refresh import describe_error
from tui.untrusted import Shown, shown

if TYPE_CHECKING:
    from screens.actions import ActionContext

ENDPOINTS: tuple[str, ...] = ("domains.records.list",)
"""Operations called by name here (the plan's create, update and delete are the Records tab's
actions' operations)."""

Apply = Callable[[Change], Awaitable[str | None]]
"""Sends one change; returns None when it succeeded, else the API's reason."""

STYLES = {"+": "green", "~": "yellow", "-": "red"}


class ZonePlanModal(ModalScreen[str]):
    """The plan of an edited zone: review, apply once, see each record's result.

    Dismissed with ``"edit"`` (back to the editor) or ``"close"``; :attr:`applied` counts the
    changes that succeeded.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "apply", "Apply", id="zone.apply"),
        Binding("e", "edit", "Edit again", id="zone.edit"),
        Binding("escape", "close", "Cancel", id="zone.close"),
    ]

    DEFAULT_CSS = """
    ZonePlanModal { align: center middle; }
    ZonePlanModal > #dialog {
        width: 100%; max-width: 120; height: auto; max-height: 100%;
        border: round $warning; background: $surface; padding: 0 1;
    }
    ZonePlanModal #zone-title { text-style: bold; height: auto; }
    ZonePlanModal #zone-plan { height: auto; max-height: 100%; }
    ZonePlanModal #zone-plan > Static { height: auto; }
    ZonePlanModal .zone-heading { text-style: bold; margin-top: 1; }
    ZonePlanModal #zone-hint { color: $text-muted; height: auto; margin-top: 1; }
    """

    def __init__(self, domain: str, plan: ZonePlan, apply: Apply) -> None:
        super().__init__()
        self.domain = domain
        self.plan = plan
        self.send = apply
        self.state = "review"  # review -> applying -> done
        self.applied = 0
        self.failed = 0

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(Text(self._title()), id="zone-title")
            with VerticalScroll(id="zone-plan", can_focus=True):
                for index, change in enumerate(self.plan.changes):
                    yield Static(self._line(change), id=f"change-{index}")
                if self.plan.errors:
                    yield Static(
                        Text(f"Not applied: {len(self.plan.errors)} line(s) cannot be mapped"),
                        classes="zone-heading",
                    )
                for error in self.plan.errors:
                    text = Text(f"line {error.number}: ", style="bold red")
                    text.append(shown(error.text.strip()))
                    text.append(f"\n  {shown(error.reason)}", style="red")
                    yield Static(text)
            yield Static(Text(self._hint()), id="zone-hint")

    def on_mount(self) -> None:
        self.query_one("#zone-plan").focus()

    def _title(self) -> Shown:
        domain = shown(self.domain)
        if self.state == "done":
            failed = f", {self.failed} failed" if self.failed else ""
            return f"Zone {domain}: {self.applied} applied{failed}"
        if self.state == "applying":
            return f"Zone {domain}: applying {self.plan.counts()}…"
        if self.plan.empty:
            return f"Zone {domain}: nothing to apply"
        return f"Apply to zone {domain}? {self.plan.counts()}"

    def _hint(self) -> Shown:
        if self.state == "done":
            return "e edit again · esc close"
        if self.state == "applying":
            return "applying…"
        if self.plan.empty:
            return "Nothing to apply. e edit again · esc cancel"
        return "y apply (one request per record) · e edit again · esc cancel"

    @staticmethod
    def _line(change: Change, mark: Shown = "", reason: str = "") -> Text:
        text = Text(f"{mark} " if mark else "", style="bold")
        text.append(change.summary(), style=STYLES[change.op])
        if reason:
            text.append(f"\n  {shown(reason)}", style="red")
        return text

    def _refresh_texts(self) -> None:
        self.query_one("#zone-title", Static).update(Text(self._title()))
        self.query_one("#zone-hint", Static).update(Text(self._hint()))

    def action_apply(self) -> None:
        """Send the plan once, record by record."""
        if self.state != "review" or self.plan.empty:
            self.app.bell()
            return
        self.state = "applying"
        self._refresh_texts()
        self._run()

    @work(exclusive=True, group="zone-apply")
    async def _run(self) -> None:
        for index, change in enumerate(self.plan.changes):
            line = self.query_one(f"#change-{index}", Static)
            line.update(self._line(change, "…"))
            reason = await self.send(change)
            if reason is not None and change.restore is not None:
                # The type change's delete went through: put the old record back.
                back = await self.send(Change("+", change.text, change.restore))
                reason += (
                    "; the old record was put back"
                    if back is None
                    else f"; putting the old record back failed too: {back}"
                )
            if reason is None:
                self.applied += 1
                line.update(self._line(change, "✓"))
            else:
                self.failed += 1
                line.update(self._line(change, "✗", reason))
        self.state = "done"
        self._refresh_texts()

    def action_edit(self) -> None:
        """Back to the editor (not while requests are being sent)."""
        if self.state == "applying":
            self.app.bell()
            return
        self.dismiss("edit")

    def action_close(self) -> None:
        """Cancel the plan, or close it once applied."""
        if self.state == "applying":
            self.app.bell()
            return
        self.dismiss("close")


async def _records(ctx: ActionContext, domain_id: Any) -> list[dict[str, Any]]:
    records: list[dict[str, Any]] = []
    async for page in ctx.session.client.iter_all(
        "domains.records.list", {"domainId": domain_id}, model=dict
    ):
        records.extend(page.data)
    return records


def _sender(ctx: ActionContext, domain_id: Any, records: list[dict[str, Any]]) -> Apply:
    """Sends one change of a plan; the plan's changes are one undo group."""
    journal = getattr(ctx.app, "undo_journal", None)
    group = journal.new_group() if journal is not None else None
    before = {record.get("id"): record for record in records}

    async def send(change: Change) -> str | None:
        params: dict[str, Any] = {"domainId": domain_id}
        if change.record_id is not None:
            params["recordId"] = change.record_id
        endpoint = {
            "+": "domains.records.create",
            "~": "domains.records.update",
            "-": "domains.records.delete",
        }[change.op]
        try:
            await ctx.call(
                change.body,
                endpoint=endpoint,
                params=params,
                before=before.get(change.record_id),
                group=group,
            )
        except CloudError as error:
            return describe_error(error)
        return None

    return send


async def edit_zone(ctx: ActionContext) -> bool:
    """The flow of ``E`` on a domain.

    Returns:
        True when at least one change was applied (the lists refresh).
    """
    domain = ctx.item or {}
    domain_id = domain.get("id")
    name = str(domain.get("domain") or domain_id)
    text: str | None = None
    applied = False
    while True:
        try:
            records = await _records(ctx, domain_id)
        except CloudError as error:
            ctx.failed(error)
            return applied
        original = render_zone_text(name, records)
        edited = edit_text(ctx.app, text or original, f"{name}.zone")
        if edited is None:
            return applied
        plan = plan_zone(name, records, edited)
        if plan.empty and not plan.errors:
            ctx.app.notify(
                "The zone text has no changes.", title=f"Zone {shown(name)}", markup=False
            )
            return applied
        modal = ZonePlanModal(name, plan, _sender(ctx, domain_id, records))
        outcome = await ctx.app.push_screen_wait(modal)
        applied = applied or modal.applied > 0
        if modal.applied:
            if hasattr(ctx.app, "changes"):
                ctx.app.changes += 1
            ctx.done(f"Zone {shown(name)}: {modal.applied} record change(s) applied")
        if outcome != "edit":
            return applied
        text = text_with_errors(edited, plan)  # each line in error marked, kubectl-style
