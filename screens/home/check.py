"""``:check``: the account's risks and waste, grouped by severity, with the monthly saving.

The rules (:mod:`tui.check.rules`) run in a worker over the listings they need; the title
counts the answers as they come, and the keys never wait for it. Under each severity, a row
per rule (how many objects it found, what fixing them saves) and a row per object. The panel
under the table explains the row under the cursor: why it matters, the fix's requests, or
what to do by hand.

A fix is sent from here through the usual confirmation, with the requests previewed (an
irreversible one asks for the object's label); the check then runs again and the saving goes
down. A finding silenced with a reason is kept per profile; ``S`` lists the silences, where
``u`` hears of one again.

Bindings:

| Key | Id | Description |
| :- | :- | :- |
| enter | table.select | The object (a rule's row: its objects, one of them picked) |
| f | check.fix | Fix the finding under the cursor (confirmed first) |
| s | check.silence | Silence the finding under the cursor, with a reason |
| S | check.silenced | Show the silenced findings (again: the findings) |
| u | check.unsilence | Hear of the silenced finding under the cursor again |
| r | check.refresh | Check again |
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import replace
from typing import Any, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import Static

from screens.app_surface import Change, signed_in, surface
from screens.frame import ShellScreen
from screens.navigation import OpenItem
from tui.api.changes import change_target
from tui.api.errors import CloudError, may_have_been_carried_out
from tui.check.account import PARENT
from tui.check.display import (
    SEVERITY_TONES,
    SEVERITY_WORDS,
    explanation,
    fix_word,
    rule_explanation,
    saving_text,
    summary,
)
from tui.check.model import Finding, Rule
from tui.check.rules import RULES
from tui.check.run import AccountCheck, apply_fix
from tui.check.session import check_session
from tui.refresh import describe_error, error_title
from tui.resources.areas import SPECS
from tui.resources.pricing import money
from tui.resources.rows import TableColumn, TableRow
from tui.untrusted import Shown, shown
from widgets.resource_table import ResourceTable
from widgets.table_messages import CursorMoved, Selected

FINDING_COLUMNS = (
    TableColumn("Severity", 10),
    TableColumn("Finding", 32),
    TableColumn("Saving", 15, numeric=True),
    TableColumn("What"),
    TableColumn("Fix"),
)
"""The saving comes before the long columns: at 80 columns it stays in sight."""

SILENCE_COLUMNS = (
    TableColumn("Rule"),
    TableColumn("Object"),
    TableColumn("Reason"),
    TableColumn("Since", 20),
)

RANK = {rule.id: n for n, rule in enumerate(RULES)}


def report_order(finding: Finding) -> tuple[int, int, str, str]:
    """Where ``finding`` goes among the others: as the check orders them (severity, rule)."""
    return (-finding.severity, RANK[finding.rule.id], finding.subject.label, finding.subject.key)


def _by_rule(findings: list[Finding]) -> list[tuple[Rule, list[Finding]]]:
    groups: dict[str, tuple[Rule, list[Finding]]] = {}
    for finding in findings:
        groups.setdefault(finding.rule.id, (finding.rule, []))[1].append(finding)
    return list(groups.values())


def finding_rows(check: AccountCheck) -> list[TableRow]:
    """The rows of ``check``: per severity, a row per rule then a row per object it found.

    A column's sort keeps the groups: objects are sorted within their rule, under its row.
    """
    rows: list[TableRow] = []
    for severity, findings in check.by_severity().items():
        word, tone = SEVERITY_WORDS[severity], SEVERITY_TONES[severity]
        for rule, found in _by_rule(findings):
            group = (-severity, RANK[rule.id])
            priced = [f.saving for f in found if f.saving is not None]
            total = f"{money(sum(priced))}/month" if priced else ""
            count = f"{len(found):,} object{'' if len(found) == 1 else 's'}"
            cells = (word, shown(rule.title), total, count, shown(fix_word(rule)))
            sort: tuple[tuple[object, ...], ...] = tuple((*group, 0, "") for _cell in cells)
            rows.append(TableRow(("rule", rule.id), cells, sort, tone, " ".join(cells).lower()))
            for finding in found:
                cells = (
                    word,
                    shown(f"  {finding.subject.label}"),
                    shown(saving_text(finding)),
                    shown(finding.detail),
                    shown(fix_word(rule)),
                )
                values: tuple[object, ...] = (
                    "",
                    finding.subject.label.lower(),
                    finding.saving if finding.saving is not None else -1.0,
                    finding.detail.lower(),
                    "",
                )
                sort = tuple((*group, 1, value) for value in values)
                haystack = " ".join((*cells, rule.id)).lower()
                rows.append(TableRow(("finding", finding.id), cells, sort, tone, haystack))
    return rows


class CheckScreen(ShellScreen):
    """The account check: findings by severity, their fix and their silences."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "f",
            "fix",
            "Fix",
            id="check.fix",
            tooltip="Send the finding's fix: its requests are previewed and confirmed first",
        ),
        Binding(
            "s",
            "silence",
            "Silence",
            id="check.silence",
            tooltip="Stop reporting this object's finding, with a reason (kept per profile)",
        ),
        Binding(
            "S",
            "toggle_silenced",
            "Silenced",
            id="check.silenced",
            tooltip="List the silenced findings (again: the findings)",
        ),
        Binding(
            "u",
            "unsilence",
            "Unsilence",
            id="check.unsilence",
            tooltip="Report the silenced finding again",
        ),
        Binding("r", "refresh", "Refresh", id="check.refresh"),
    ]

    DEFAULT_CSS = """
    CheckScreen .check-title { height: 1; padding: 0 1; background: $boost; text-style: bold; }
    CheckScreen #check-table { height: 1fr; }
    CheckScreen #check-explain-box { height: auto; max-height: 7; padding: 0 1; }
    CheckScreen #check-explain { height: auto; }
    CheckScreen .check-note { height: auto; max-height: 4; padding: 0 1; color: $text-muted; }
    """

    def compose_content(self) -> ComposeResult:
        yield Static(Text("Check"), classes="check-title", id="check-title")
        yield ResourceTable(FINDING_COLUMNS, id="check-table")
        with VerticalScroll(id="check-explain-box", can_focus=False):
            yield Static(id="check-explain")
        yield Static(classes="check-note", id="check-note")

    @property
    def table(self) -> ResourceTable:
        """The table of findings (or of silences)."""
        return self.query_one("#check-table", ResourceTable)

    def help_title(self) -> str:
        """Title of the ``?`` help."""
        return "Account check"

    def on_mount(self) -> None:
        self.result: AccountCheck | None = None
        """The last check (None before the first one ends)."""
        self.checking = False
        """A check is under way (what is shown is the previous one's, if any)."""
        self.runs = 0
        self.answered = 0
        self.showing_silenced = False
        self.findings: dict[str, Finding] = {}
        self.stale = False
        """A change was sent from elsewhere in the app: checked again when shown."""
        surface(self).change_signal.subscribe(self, self._changed)
        self._show()
        self.refresh_all()
        self.table.focus()

    def _changed(self, _change: Change) -> None:
        self.stale = True

    def on_screen_resume(self) -> None:
        if self.stale:
            self.refresh_all()

    # -- checking ---------------------------------------------------------------------------

    def refresh_all(self) -> None:
        """Check again (``r``, ``:refresh`` and after a fix); what is shown stays meanwhile."""
        self.checking, self.answered, self.stale = True, 0, False
        self.runs += 1
        self._show_title()
        self._check(self.runs)

    @work(group="check", exclusive=True, exit_on_error=False, name="checking the account")
    async def _check(self, run: int) -> None:
        state = surface(self).state
        try:
            result = await check_session(
                signed_in(self),
                state.settings,
                silences=state.check_silences,
                on_answer=self._answered,
            )
        finally:
            if run == self.runs:  # a check cancelled by a newer one leaves it checking
                self.checking = False
        self.result = result
        if self.is_mounted:
            self._show()

    def _answered(self, count: int) -> None:
        self.answered = count
        if self.is_mounted:
            self._show_title()

    # -- drawing ----------------------------------------------------------------------------

    def _show_title(self) -> None:
        if self.showing_silenced:
            silences = surface(self).state.check_silences
            count = len(silences.entries()) if silences is not None else 0
            title = Text(f"Check: silenced findings ({count:,})  S shows the findings", "bold")
        else:
            title = Text("Check", style="bold")
            if self.result is not None and not self.result.error:
                title.append(f"  {summary(self.result)}")
        if self.checking:
            title.append(f"  checking… {self.answered:,} answers", style="italic")
        self.query_one("#check-title", Static).update(title)

    def _show(self) -> None:
        self._show_title()
        if self.showing_silenced:
            self._show_silences()
        else:
            self._show_findings()
        self._show_note()
        self._explain()

    def _show_findings(self) -> None:
        result = self.result
        self.findings = {f.id: f for f in result.findings} if result else {}
        rows = finding_rows(result) if result else []
        self.table.update_rows([row.key for row in rows], rows)

    def _show_silences(self) -> None:
        silences = surface(self).state.check_silences
        rows = []
        for entry in silences.entries() if silences is not None else []:
            cells = (
                shown(entry.rule),
                shown(entry.label),
                shown(entry.reason),
                shown(entry.created),
            )
            key = ("silence", entry.finding)
            rows.append(TableRow(key, cells, cells, None, " ".join(cells).lower()))
        self.table.update_rows([row.key for row in rows], rows)

    def _show_note(self) -> None:
        result = self.result
        lines: list[str] = []
        silences = surface(self).state.check_silences
        if silences is None:
            lines.append("Silences are off (the data folder cannot be written).")
        elif silences.problem:
            lines.append(silences.problem)
        if result is None:
            lines.append("Checking every rule…" if self.checking else "")
        elif result.error:
            lines.append(f"Not checked: {result.error}")
        else:
            lines += [f"Not checked, {rule}: {why}" for rule, why in result.not_checked.items()]
            lines += result.notes
            if self.showing_silenced and not self.table.row_count:
                lines.append("Nothing is silenced. s on a finding silences it, with a reason.")
            elif not self.showing_silenced and not result.findings:
                lines.append("Nothing found.")
        self.query_one("#check-note", Static).update(
            Text(shown("\n".join(line for line in lines if line), lines=True))
        )

    def _explain(self) -> None:
        text: Shown = ""
        key = self.table.cursor_key
        finding = self._finding(key)
        if finding is not None:
            text = explanation(finding)
        elif isinstance(key, tuple) and key[0] == "rule":
            found = self.rule_findings(str(key[1]))
            if found:
                text = rule_explanation(found[0].rule)
        elif isinstance(key, tuple) and key[0] == "silence":
            text = "u hears of this finding again."
        self.query_one("#check-explain", Static).update(Text(text))

    @on(CursorMoved, "#check-table")
    def _cursor_moved(self, event: CursorMoved) -> None:
        event.stop()
        self._explain()

    # -- rows -------------------------------------------------------------------------------

    def _finding(self, key: Hashable | None) -> Finding | None:
        if isinstance(key, tuple) and key[0] == "finding":
            return self.findings.get(str(key[1]))
        return None

    def rule_findings(self, rule_id: str) -> list[Finding]:
        """The findings of rule ``rule_id`` shown now."""
        return [f for f in self.findings.values() if f.rule.id == rule_id]

    @property
    def current_finding(self) -> Finding | None:
        """The finding under the cursor (a rule's row of one object counts as that object)."""
        key = self.table.cursor_key
        finding = self._finding(key)
        if finding is None and isinstance(key, tuple) and key[0] == "rule":
            found = self.rule_findings(str(key[1]))
            finding = found[0] if len(found) == 1 else None
        return finding

    # -- opening ----------------------------------------------------------------------------

    @on(Selected, "#check-table")
    def _selected(self, event: Selected) -> None:
        event.stop()
        key = event.key
        finding = self._finding(key)
        if finding is not None:
            self.open_object(finding)
        elif isinstance(key, tuple) and key[0] == "rule":
            self._open_rule(self.rule_findings(str(key[1])))

    def _open_rule(self, found: list[Finding]) -> None:
        if len(found) == 1:
            self.open_object(found[0])
            return
        if not found:
            return
        from screens.dialogs.pick_one import PickOneModal

        by_id = {f.id: f for f in found}
        options = [(f"{f.subject.label}  {f.detail}", f.id) for f in found]

        def chosen(finding_id: str | None) -> None:
            if finding_id in by_id:
                self.open_object(by_id[finding_id])

        title = shown(f"{found[0].rule.title}: {len(found):,} objects")
        self.app.push_screen(
            PickOneModal(title, options, "enter opens · esc cancels"), chosen
        )  # fmt: skip

    def open_object(self, finding: Finding) -> None:
        """Open the detail screen of ``finding``'s object."""
        spec = SPECS[finding.subject.kind]
        item = dict(finding.subject.item)
        parent = item.pop(PARENT, None)
        self.post_message(OpenItem(spec, item, dict(parent) if isinstance(parent, dict) else {}))

    # -- fixing -----------------------------------------------------------------------------

    def action_fix(self) -> None:
        """Fix the finding under the cursor, through the usual confirmation."""
        finding = self.current_finding
        if finding is None:
            self.app.notify("Put the cursor on an object's row.", title="Fix", markup=False)
            return
        if not finding.requests:
            manual = shown(finding.rule.manual)
            self.app.notify(f"No request fixes this: {manual}", title="Fix", markup=False)
            return
        if surface(self).state.read_only:
            self.app.notify(
                "The session is read-only (:read-only turns it off).", title="Fix", markup=False
            )
            return
        self._fix(finding)

    @work(group="check-fix", exclusive=True, exit_on_error=False, name="fixing a finding")
    async def _fix(self, finding: Finding) -> None:
        from screens.home.check_dialogs import fix_confirmation

        session = signed_in(self)
        if not await self.app.push_screen_wait(fix_confirmation(finding, session.mark)):
            return
        try:
            with change_target(finding.subject.label):
                answers = await apply_fix(session.client, finding)
        except CloudError as error:
            self.app.notify(
                describe_error(error),
                title=f"{shown(finding.rule.title)}: {error_title(error)}",
                severity="error",
                markup=False,
            )
            if may_have_been_carried_out(error):
                surface(self).change_signal.publish(Change(answer_lost=True))
                self.refresh_all()
            return
        surface(self).change_signal.publish(Change())
        self._note_for_undo(finding, answers)
        assert finding.rule.fix is not None
        self.app.notify(
            shown(f"{finding.rule.fix.title}: {finding.subject.label}. Checking again…"),
            title="Check",
            markup=False,
        )
        self.refresh_all()

    def _note_for_undo(self, finding: Finding, answers: list[Any]) -> None:
        """Note the fix's requests in the undo journal, as one group (what can be undone,
        an allow list or a health check, is offered by the activity log's undo)."""
        state = surface(self).state
        journal = state.undo_journal
        if journal is None or finding.rule.fix is None:
            return
        group = journal.new_group()
        title = f"{finding.rule.fix.title}: {finding.subject.label}"
        last = state.activity.last if state.activity is not None else None
        for n, (request, answer) in enumerate(zip(finding.requests, answers, strict=True)):
            entry = last if n == len(answers) - 1 else None
            journal.note(
                title,
                request.endpoint,
                request.params,
                request.body,
                finding.subject.item,
                answer,
                entry=entry,
                group=group,
            )

    # -- silences ---------------------------------------------------------------------------

    def action_silence(self) -> None:
        """Silence the finding under the cursor, with a reason."""
        finding = self.current_finding
        silences = surface(self).state.check_silences
        if finding is None or silences is None:
            return
        from screens.home.check_dialogs import SilenceModal

        def silence(reason: str | None) -> None:
            if not reason or self.result is None:
                return
            try:
                silences.add(finding, reason)
            except (OSError, ValueError) as exc:
                self.app.notify(shown(exc), title="Silence", severity="error", markup=False)
                return
            result = self.result
            result.findings = [f for f in result.findings if f.id != finding.id]
            result.silenced.append(replace(finding, silenced=reason))
            self._show()
            self.app.notify(
                shown(f"Silenced: {finding.subject.label} ({finding.rule.title})"),
                title="Check",
                markup=False,
            )

        title = shown(f'Silence "{finding.rule.title}" on {finding.subject.label}')
        self.app.push_screen(SilenceModal(title), silence)

    def action_toggle_silenced(self) -> None:
        """Show the silences, or the findings again."""
        self.showing_silenced = not self.showing_silenced
        self.table.set_columns(SILENCE_COLUMNS if self.showing_silenced else FINDING_COLUMNS)
        self._show()
        self.refresh_bindings()

    def action_unsilence(self) -> None:
        """Hear of the silenced finding under the cursor again."""
        key = self.table.cursor_key
        silences = surface(self).state.check_silences
        if not (isinstance(key, tuple) and key[0] == "silence") or silences is None:
            return
        finding_id = str(key[1])
        try:
            silences.remove(finding_id)
        except OSError as exc:
            self.app.notify(shown(exc), title="Unsilence", severity="error", markup=False)
            return
        result = self.result
        if result is not None:
            back = [replace(f, silenced="") for f in result.silenced if f.id == finding_id]
            result.silenced = [f for f in result.silenced if f.id != finding_id]
            result.findings = sorted([*result.findings, *back], key=report_order)
        self._show()
        self.app.notify(shown(f"Reported again: {finding_id}"), title="Check", markup=False)

    def action_refresh(self) -> None:
        """Check again."""
        self.refresh_all()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("fix", "silence"):
            return not self.showing_silenced
        if action == "unsilence":
            return self.showing_silenced
        return super().check_action(action, parameters)
