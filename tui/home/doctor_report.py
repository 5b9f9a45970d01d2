"""What ``doctor`` found: one :class:`Check` per finding, and the report as text or JSON."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Literal

from tui.untrusted import shown

Status = Literal["ok", "warn", "fail", "skip"]


@dataclass(frozen=True)
class Check:
    """One finding.

    Attributes:
        name: What was checked.
        status: ``ok``, ``warn``, ``fail`` or ``skip``.
        detail: What was found.
        remedy: What to do about it ('' when nothing is needed).
        reasons: Further detail for ``--json`` only.
    """

    name: str
    status: Status
    detail: str
    remedy: str = ""
    reasons: tuple[str, ...] = ()


def exit_status(checks: list[Check]) -> int:
    """1 when any check failed, else 0."""
    return 1 if any(c.status == "fail" for c in checks) else 0


def as_json(checks: list[Check]) -> dict[str, Any]:
    """The report for ``--json``."""
    return {"ok": exit_status(checks) == 0, "checks": [asdict(c) for c in checks]}


def as_text(checks: list[Check]) -> str:
    """The report for a terminal: one block per check (shown text: a finding may quote the
    config file, a server or a program)."""
    marks = {"ok": "ok  ", "warn": "WARN", "fail": "FAIL", "skip": "skip"}
    lines: list[str] = []
    for check in checks:
        lines.append(shown(f"[{marks[check.status]}] {check.name}: {check.detail}"))
        if check.remedy:
            lines.append(shown(f"       → {check.remedy}"))
    failed = sum(c.status == "fail" for c in checks)
    warned = sum(c.status == "warn" for c in checks)
    lines.append(f"{failed} failed, {warned} warning(s), {len(checks)} checks.")
    return "\n".join(lines)
