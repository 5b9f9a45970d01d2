"""A check's result as text, Markdown or JSON, and the exit status it calls for (headless).

Every label, detail and reason comes from the API or the user: text and Markdown take it
through :func:`tui.untrusted.shown` (and Markdown escapes its syntax), so nothing reaches a
terminal or a rendered page as control sequences or markup. JSON keeps the values as they are,
escaped by the encoder (``ensure_ascii``), so a reader gets the data and a terminal showing it
gets no control character. The JSON's schema is in ``docs/check.md``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from tui.check.model import Finding, Rule, Severity
from tui.check.run import AccountCheck
from tui.resources.pricing import NOT_GIVEN, money
from tui.untrusted import shown

EXIT_CLEAN = 0
"""Every account was checked and nothing was found at or above ``--fail-on``."""
EXIT_FINDINGS = 1
"""Every account was checked and something was found at or above ``--fail-on``."""
EXIT_USAGE = 2
"""Bad command line or configuration (nothing was checked)."""
EXIT_INCOMPLETE = 3
"""An account, or some rules of one, could not be checked (it wins over 1: a check that does
not run must not hide behind findings that are always there)."""

HEADINGS = {Severity.ERROR: "Errors", Severity.WARNING: "Warnings", Severity.INFO: "Info"}

FORMAT_NAME = "cloudtui-check"
FORMAT_VERSION = 1


def exit_status(checks: Sequence[AccountCheck], fail_on: Severity) -> int:
    """:data:`EXIT_INCOMPLETE`, :data:`EXIT_FINDINGS` or :data:`EXIT_CLEAN` for ``checks``."""
    if any(not check.complete for check in checks):
        return EXIT_INCOMPLETE
    if any(check.at_least(fail_on) for check in checks):
        return EXIT_FINDINGS
    return EXIT_CLEAN


def _plural(count: int, word: str) -> str:
    return f"{count:,} {word}" + ("" if count == 1 or word == "info" else "s")


def summary_line(check: AccountCheck) -> str:
    """``3 errors · 14 warnings · 2 info · saving ≈ $144.00/month (+ 4 without a price)``."""
    parts = [_plural(check.count(s), s.word) for s in sorted(Severity, reverse=True)]
    line = " · ".join(parts) + f" · saving ≈ {money(check.saving)}/month"
    if check.saving_not_given:
        line += f" (+ {check.saving_not_given:,} with {NOT_GIVEN})"
    if check.silenced:
        line += f" · {len(check.silenced):,} silenced"
    return line


def _saving(finding: Finding) -> str:
    if finding.saving is not None:
        return f"{money(finding.saving)}/month"
    return NOT_GIVEN if finding.rule.saving is not None else ""


def _by_rule(findings: Sequence[Finding]) -> list[tuple[Rule, list[Finding]]]:
    groups: dict[str, tuple[Rule, list[Finding]]] = {}
    for finding in findings:
        groups.setdefault(finding.rule.id, (finding.rule, []))[1].append(finding)
    return list(groups.values())


def _fix_text(finding: Finding) -> str:
    if not finding.requests:
        return f"by hand: {finding.rule.manual}" if finding.rule.manual else ""
    assert finding.rule.fix is not None
    requests = "; ".join(f"{r.method} {shown(r.path)}" for r in finding.requests)
    return f"fix: {finding.rule.fix.title} ({requests})"


def _rule_hint(rule: Rule) -> str:
    """``fix: Delete the volume`` or ``by hand: ...``."""
    if rule.fix is not None:
        irreversible = " (irreversible)" if rule.fix.irreversible else ""
        return f"fix: {rule.fix.title}{irreversible}"
    return f"by hand: {rule.manual}"


# -- text ------------------------------------------------------------------------------------


def as_text(checks: Sequence[AccountCheck]) -> str:
    """The checks for a terminal: per account, findings by severity, then by rule."""
    out: list[str] = []
    for check in checks:
        out.append(f"Account {shown(check.account)}")
        if check.error:
            out += [f"  not checked: {shown(check.error)}", ""]
            continue
        out.append(f"  {summary_line(check)}")
        for severity, findings in check.by_severity().items():
            out += ["", f"{severity.word.upper()} ({len(findings):,})"]
            for rule, found in _by_rule(findings):
                out.append(f"  {rule.title} [{rule.id}]")
                out.append(f"    {_rule_hint(rule)}")
                for finding in found:
                    saving = _saving(finding)
                    tail = f"  [{saving}]" if saving else ""
                    out.append(
                        f"    - {shown(finding.subject.label)}: {shown(finding.detail)}{tail}"
                    )
                    out.append(f"      {shown(finding.id)}")  # what --silence names
        out += _text_tail(check)
        out.append("")
    return "\n".join(out).rstrip() + "\n"


def _text_tail(check: AccountCheck) -> list[str]:
    out: list[str] = []
    if check.not_checked:
        out += ["", "Not checked:"]
        out += [f"  {rule}: {shown(reason)}" for rule, reason in check.not_checked.items()]
    if check.notes:
        out += ["", "Notes:"] + [f"  {shown(note)}" for note in check.notes]
    if check.silenced:
        out += ["", f"Silenced ({len(check.silenced):,}):"]
        out += [
            f"  {shown(f.subject.label)} [{f.rule.id}]: {shown(f.silenced)}" for f in check.silenced
        ]
    return out


# -- Markdown --------------------------------------------------------------------------------

_MARKDOWN_SPECIAL = str.maketrans(
    {c: f"\\{c}" for c in "\\`*_[]|~"} | {"<": "&lt;", ">": "&gt;", "&": "&amp;"}
)


def md(value: object) -> str:
    """Untrusted text as Markdown that shows it literally (table cells included)."""
    return str(shown(value)).translate(_MARKDOWN_SPECIAL)


def as_markdown(checks: Sequence[AccountCheck]) -> str:
    """The checks as Markdown: a section per account, a table per rule."""
    out = ["# Account check", ""]
    for check in checks:
        out += [f"## {md(check.account)}", ""]
        if check.error:
            out += [f"Not checked: {md(check.error)}", ""]
            continue
        out += [md(summary_line(check)), ""]
        for severity, findings in check.by_severity().items():
            out += [f"### {HEADINGS[severity]} ({len(findings):,})", ""]
            for rule, found in _by_rule(findings):
                out += [f"#### {md(rule.title)} (`{rule.id}`)", "", md(rule.explanation), ""]
                out += ["| Object | What | Saving | Fix |", "| --- | --- | --- | --- |"]
                for finding in found:
                    cells = (
                        md(finding.subject.label),
                        md(finding.detail),
                        md(_saving(finding)) or "—",
                        md(_fix_text(finding)) or "—",
                    )
                    out.append("| " + " | ".join(cells) + " |")
                out.append("")
        tail = _text_tail(check)
        if tail:
            out += ["```text", *(line for line in tail if line), "```", ""]
    return "\n".join(out).rstrip() + "\n"


# -- JSON ------------------------------------------------------------------------------------


def finding_data(finding: Finding) -> dict[str, Any]:
    """One finding as JSON data."""
    fix = finding.rule.fix
    return {
        "id": finding.id,
        "rule": finding.rule.id,
        "severity": finding.severity.word,
        "object": {
            "kind": finding.subject.kind,
            "key": finding.subject.key,
            "label": finding.subject.label,
            "params": dict(finding.subject.params),
        },
        "detail": finding.detail,
        "monthly_saving": finding.saving,
        "fix": None
        if fix is None
        else {
            "title": fix.title,
            "irreversible": fix.irreversible,
            "requests": [r.as_data() for r in finding.requests],
        },
        "silenced": finding.silenced or None,
    }


def rule_data(rule: Rule) -> dict[str, Any]:
    """One rule as JSON data."""
    return {
        "id": rule.id,
        "severity": rule.severity.word,
        "title": rule.title,
        "explanation": rule.explanation,
        "fix": rule.fix.title if rule.fix else None,
        "manual": rule.manual or None,
    }


def account_data(check: AccountCheck) -> dict[str, Any]:
    """One account's check as JSON data."""
    return {
        "account": check.account,
        "checked": not check.error,
        "error": check.error or None,
        "counts": {
            **{s.word: check.count(s) for s in Severity},
            "silenced": len(check.silenced),
        },
        "monthly_saving": round(check.saving, 2),
        "saving_not_given": check.saving_not_given,
        "not_checked": [{"rule": r, "reason": why} for r, why in check.not_checked.items()],
        "notes": list(check.notes),
        "findings": [finding_data(f) for f in check.findings],
        "silenced": [finding_data(f) for f in check.silenced],
    }


def as_json(
    checks: Sequence[AccountCheck],
    rules: Sequence[Rule],
    fail_on: Severity,
    *,
    now: float | None = None,
) -> str:
    """The checks as the documented JSON document (``docs/check.md``)."""
    when = datetime.fromtimestamp(now, UTC) if now is not None else datetime.now(UTC)
    document = {
        "format": FORMAT_NAME,
        "version": FORMAT_VERSION,
        "checked_at": when.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "fail_on": fail_on.word,
        "exit_status": exit_status(checks, fail_on),
        "rules": [rule_data(r) for r in rules],
        "accounts": [account_data(c) for c in checks],
    }
    return json.dumps(document, indent=2, ensure_ascii=True) + "\n"
