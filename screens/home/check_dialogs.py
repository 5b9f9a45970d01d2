"""The ``:check`` screen's dialogs: the reason a finding is silenced, and the confirmation of
a fix (the usual :class:`~screens.dialogs.confirm.ConfirmModal` with the requests it sends).

Bindings:

| Key | Id | Description |
| :- | :- | :- |
| enter | (input) | Silence with the reason typed |
| escape | silence.cancel | Cancel |
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Static

from screens.dialogs.confirm import ConfirmModal, request_preview
from tui.accounts.naming import AccountMark
from tui.check.display import saving_text
from tui.check.model import Finding
from tui.resources.areas import SPECS
from tui.untrusted import Shown, shown
from widgets.marked_button import MarkedButton


class SilenceModal(ModalScreen[str | None]):
    """Ask why a finding is silenced; dismissed with the reason, or None.

    Args:
        title: What is silenced (``Silence "Volume not attached" on pg-data-old``).
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="silence.cancel"),
    ]

    DEFAULT_CSS = """
    SilenceModal { align: center middle; }
    SilenceModal > #dialog {
        width: 70; max-width: 100%; height: auto; border: round $primary;
        background: $surface; padding: 0 1;
    }
    SilenceModal #silence-title { text-style: bold; }
    SilenceModal #silence-hint { color: $text-muted; }
    SilenceModal #silence-error { color: $text-error; height: auto; }
    SilenceModal #silence-buttons { height: 1; align-horizontal: right; margin-top: 1; }
    SilenceModal #silence-buttons Button { margin-left: 1; }
    """

    def __init__(self, title: Shown) -> None:
        super().__init__()
        self.title_text = title

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(Text(self.title_text), id="silence-title")
            yield Static(
                "Why? (kept with the silence; u on the silenced list hears of it again)",
                id="silence-hint",
            )
            yield Input(placeholder="kept on purpose: ...", id="silence-reason")
            yield Static(Text(""), id="silence-error")
            with Horizontal(id="silence-buttons"):
                yield MarkedButton("Silence", id="silence-ok", variant="primary", compact=True)
                yield MarkedButton("Cancel", id="silence-cancel", compact=True)

    def on_mount(self) -> None:
        self.query_one("#silence-reason", Input).focus()

    def _finish(self) -> None:
        reason = " ".join(self.query_one("#silence-reason", Input).value.split())
        if not reason:
            self.query_one("#silence-error", Static).update(
                Text("A silence needs a reason (someone will ask why later).")
            )
            self.app.bell()
            return
        self.dismiss(reason)

    @on(Input.Submitted, "#silence-reason")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._finish()

    @on(Button.Pressed, "#silence-ok")
    def _ok(self) -> None:
        self._finish()

    @on(Button.Pressed, "#silence-cancel")
    def _cancel(self) -> None:
        self.dismiss(None)

    def action_cancel(self) -> None:
        """Close without silencing."""
        self.dismiss(None)


def fix_confirmation(finding: Finding, account: AccountMark | None) -> ConfirmModal:
    """The confirmation of ``finding``'s fix: its requests previewed, the saving said, and for
    an irreversible fix the object's label to type."""
    fix = finding.rule.fix
    assert fix is not None and finding.requests
    label = finding.subject.label
    saving = saving_text(finding)
    request_previews = [request_preview(r.method, r.path, r.body) for r in finding.requests]
    return ConfirmModal(
        shown(f"{fix.title}: {SPECS[finding.subject.kind].singular} {label}?"),
        shown(f"Found: {finding.detail}. {finding.rule.explanation}"),
        shown("\n\n".join(request_previews), lines=True),
        typed=(label or finding.subject.key) if fix.irreversible else None,
        confirm_label=shown(fix.title),
        price=shown(f"Saves ≈ {saving}") if finding.saving is not None else "",
        account=account,
    )
