"""How findings read on screen: severity words, savings, the fix, the explanations, the
summary line (headless; every value from the API goes through ``shown``)."""

from __future__ import annotations

from tui.check.model import Finding, Rule, Severity
from tui.check.run import AccountCheck
from tui.resources.pricing import NOT_GIVEN, money
from tui.untrusted import Shown, shown

SEVERITY_WORDS: dict[Severity, str] = {
    Severity.ERROR: "✖ error",
    Severity.WARNING: "▲ warning",
    Severity.INFO: "· info",
}
"""A severity as a table cell: a sign and a word (never told by colour alone)."""

SEVERITY_TONES: dict[Severity, str] = {
    Severity.ERROR: "error",
    Severity.WARNING: "warn",
    Severity.INFO: "muted",
}
"""The tone of a row of that severity."""


def saving_text(finding: Finding) -> str:
    """``$144.00/month``, ``price not given`` for waste the API gives no price for, else ''."""
    if finding.saving is not None:
        return f"{money(finding.saving)}/month"
    return NOT_GIVEN if finding.rule.saving is not None else ""


def fix_word(rule: Rule) -> str:
    """What ``f`` does on the rule's findings (``Delete the volume``), or ``by hand``."""
    return rule.fix.title if rule.fix is not None else "by hand"


def explanation(finding: Finding) -> Shown:
    """The finding in full: the problem, the object, what is wrong, why it matters, the fix."""
    rule = finding.rule
    lines = [
        f"{rule.title} [{rule.id}]: {finding.subject.label} — {finding.detail}",
        rule.explanation,
    ]
    if finding.requests:
        assert rule.fix is not None
        verb = "f: " + rule.fix.title
        lines.append(f"{verb} ({'; '.join(f'{r.method} {r.path}' for r in finding.requests)})")
    elif rule.manual:
        lines.append(f"By hand: {rule.manual}")
    if finding.silenced:
        lines.append(f"Silenced: {finding.silenced}")
    return shown("\n".join(lines), lines=True)


def rule_explanation(rule: Rule) -> Shown:
    """A rule in full: what it finds, why it matters, and how its findings are fixed."""
    how = f"f on an object: {rule.fix.title}" if rule.fix else f"By hand: {rule.manual}"
    return shown(f"{rule.title} [{rule.id}]\n{rule.explanation}\n{how}", lines=True)


def summary(check: AccountCheck) -> Shown:
    """``2 errors · 3 warnings · 1 info · saving ≈ $144.00/month · 1 silenced`` and the waste
    without a price: what a narrow title needs most comes first."""
    parts = [plural(check.count(s), s.word) for s in sorted(Severity, reverse=True)]
    parts.append(f"saving ≈ {money(check.saving)}/month")
    if check.silenced:
        parts.append(f"{len(check.silenced):,} silenced")
    if check.saving_not_given:
        parts.append(f"{check.saving_not_given:,} with {NOT_GIVEN}")
    return shown(" · ".join(parts))


def plural(count: int, word: str) -> str:
    """``1 error``, ``3 warnings``, ``2 info``."""
    return f"{count:,} {word}" + ("" if count == 1 or word == "info" else "s")
