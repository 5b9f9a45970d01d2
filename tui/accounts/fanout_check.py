"""The account check over several accounts: ``:fanout check [PROFILE...]`` (headless).

Each account is checked as ``:check`` checks it (:func:`tui.check.session.check_session`),
all at once through their own sessions (:class:`tui.accounts.fanout.FanoutSessions`), with
that profile's silences. An account that cannot be checked gives its reason and hides no
other; the rows are one per finding, naming its account.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence

from tui.accounts.fanout import FanoutSessions
from tui.accounts.switch import AccountUnavailable
from tui.api.errors import CloudError
from tui.check.display import SEVERITY_WORDS, plural, saving_text
from tui.check.model import Finding
from tui.check.run import AccountCheck
from tui.check.session import check_session
from tui.check.silences import Silences
from tui.refresh import describe_error
from tui.resources.pricing import money
from tui.session.config import Settings

SilencesOf = Callable[[str], Silences | None]
"""The silences of a profile (None: nothing is silenced)."""


async def check_one(
    sessions: FanoutSessions, name: str, settings: Settings, silences_of: SilencesOf
) -> AccountCheck:
    """Check account ``name`` (its failure is the result's :attr:`AccountCheck.error`)."""
    try:
        session = sessions.session(name)
    except AccountUnavailable as exc:
        return AccountCheck(name, error=str(exc))
    try:
        result = await check_session(session, settings, silences=silences_of(name))
    except CloudError as exc:
        return AccountCheck(name, error=describe_error(exc))
    result.account = name
    return result


async def check_all(
    sessions: FanoutSessions,
    names: Sequence[str],
    settings: Settings,
    silences_of: SilencesOf,
    arrived: Callable[[AccountCheck], None],
) -> list[AccountCheck]:
    """Check every account at once; ``arrived`` gets each as it ends."""

    async def one(name: str) -> AccountCheck:
        result = await check_one(sessions, name, settings, silences_of)
        arrived(result)
        return result

    return list(await asyncio.gather(*(one(name) for name in names)))


def finding_cells(account: str, finding: Finding) -> tuple[str, ...]:
    """One row: the account, the severity, the problem, the object, what, the saving."""
    return (
        account,
        SEVERITY_WORDS[finding.severity],
        finding.rule.title,
        finding.subject.label,
        finding.detail,
        saving_text(finding),
    )


def totals_line(checks: Sequence[AccountCheck]) -> str:
    """``24 findings in 2 accounts · saving ≈ $288.00/month · 1 not checked``."""
    checked = [c for c in checks if not c.error]
    found = sum(len(c.findings) for c in checked)
    line = f"{plural(found, 'finding')} in {plural(len(checked), 'account')}"
    line += f" · saving ≈ {money(sum(c.saving for c in checked))}/month"
    failed = len(checks) - len(checked)
    if failed:
        line += f" · {failed:,} not checked"
    return line


def problem_lines(checks: Sequence[AccountCheck]) -> list[str]:
    """``✖ gamma: reason`` per account not checked, and the rules of others that could not run."""
    lines: list[str] = []
    for check in checks:
        if check.error:
            lines.append(f"✖ {check.account}: {check.error}")
        elif check.not_checked:
            rules = ", ".join(check.not_checked)
            lines.append(f"{check.account}: not checked: {rules}")
    return lines
