"""Running the rules over an account, and sending a finding's fix (headless).

:func:`check_account` is what every consumer calls: it gathers the listings the rules need
through the account's client, runs every rule, sets silenced findings apart and returns an
:class:`AccountCheck` (findings by severity, the monthly saving, what could not be checked).
:func:`apply_fix` sends a finding's requests in order.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from tui.check.account import Account
from tui.check.certificates import CertificateSource
from tui.check.gather import DEFAULT_CONCURRENCY, gather
from tui.check.model import Finding, Rule, Severity
from tui.check.rules import RULES
from tui.check.silences import Silences
from tui.resources.loader import Client


@dataclass
class AccountCheck:
    """The check of one account.

    Attributes:
        account: Profile name (``DEMO`` in the demo).
        findings: What the rules found and nobody silenced, most severe first.
        silenced: Findings silenced, each with its reason in :attr:`Finding.silenced`.
        not_checked: Rule id -> why it could not run (a listing it needs failed).
        notes: What was left out of a listing and why.
        error: Why the account could not be checked at all ('' when it was).
    """

    account: str
    findings: list[Finding] = field(default_factory=list)
    silenced: list[Finding] = field(default_factory=list)
    not_checked: dict[str, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    error: str = ""

    def by_severity(self) -> dict[Severity, list[Finding]]:
        """The findings grouped by severity, most severe first (empty groups left out)."""
        groups: dict[Severity, list[Finding]] = {}
        for severity in sorted(Severity, reverse=True):
            found = [f for f in self.findings if f.severity == severity]
            if found:
                groups[severity] = found
        return groups

    def count(self, severity: Severity) -> int:
        """Findings of exactly ``severity``."""
        return sum(1 for f in self.findings if f.severity == severity)

    def at_least(self, severity: Severity) -> int:
        """Findings of ``severity`` or worse."""
        return sum(1 for f in self.findings if f.severity >= severity)

    @property
    def saving(self) -> float:
        """Estimated monthly saving of fixing every finding that has a price."""
        return sum(f.saving for f in self.findings if f.saving is not None)

    @property
    def saving_not_given(self) -> int:
        """Findings about waste whose price the API does not give (not in :attr:`saving`)."""
        return sum(1 for f in self.findings if f.rule.saving is not None and f.saving is None)

    @property
    def complete(self) -> bool:
        """True when every rule ran."""
        return not self.error and not self.not_checked


def _order(finding: Finding, rank: Mapping[str, int]) -> tuple[int, int, str, str]:
    return (-finding.severity, rank[finding.rule.id], finding.subject.label, finding.subject.key)


def evaluate(
    account: Account,
    rules: Iterable[Rule] = RULES,
    *,
    failed: Mapping[str, str] | None = None,
    silences: Silences | None = None,
    name: str = "",
) -> AccountCheck:
    """Run ``rules`` over listings already fetched.

    Args:
        account: The listings and what the rules measure against.
        rules: The rules to run.
        failed: Listing name -> why it could not be fetched: the rules needing it do not run.
        silences: The profile's silences (None: nothing is silenced).
        name: The account's name, for the result.
    """
    result = AccountCheck(name)
    failed = failed or {}
    rules = list(rules)
    rank = {rule.id: n for n, rule in enumerate(rules)}
    for rule in rules:
        missing = [n for n in rule.needs if n in failed or n not in account.listings]
        if missing:
            first = missing[0]
            result.not_checked[rule.id] = f"{first} could not be listed: {failed.get(first, '')}"
            continue
        for hit in rule.finder(account):
            finding = Finding(
                rule,
                hit.subject,
                hit.detail,
                rule.saving(hit.subject, account) if rule.saving else None,
                rule.fix.plan(hit.subject) if rule.fix else (),
            )
            reason = silences.reason_for(finding.id) if silences is not None else None
            if reason is None:
                result.findings.append(finding)
            else:
                result.silenced.append(replace(finding, silenced=reason))
    result.findings.sort(key=lambda f: _order(f, rank))
    result.silenced.sort(key=lambda f: _order(f, rank))
    return result


async def check_account(
    client: Client,
    *,
    name: str,
    now: float,
    important_tags: Iterable[str] = (),
    rules: Iterable[Rule] = RULES,
    silences: Silences | None = None,
    certificates: CertificateSource | None = None,
    concurrency: int = DEFAULT_CONCURRENCY,
) -> AccountCheck:
    """Gather what ``rules`` need from the account and run them.

    Args:
        client: The account's API client.
        name: The account's name (profile, or ``DEMO``).
        now: Epoch seconds ages are measured against (the simulator's clock in the demo).
        important_tags: Tags that make an instance important (``[check] important_tags``).
        rules: The rules to run (default: all of them).
        silences: The profile's silences.
        certificates: Where the certificates balancers serve are read (see
            :mod:`tui.check.certificates`); None reads only what the API answers.
        concurrency: Listings or requests in flight at once.
    """
    rules = list(rules)
    gathered = await gather(client, rules, certificates=certificates, concurrency=concurrency)

    def run_rules() -> AccountCheck:
        account = Account(gathered.listings, now, frozenset(important_tags))
        return evaluate(account, rules, failed=gathered.errors, silences=silences, name=name)

    # Every rule over a 10,000-instance account is ~100-250 ms of CPU in one piece: in a
    # thread, the event loop (the UI's keys) keeps its turns meanwhile.
    result = await asyncio.to_thread(run_rules)
    result.notes = list(gathered.notes)
    if gathered.errors and not gathered.listings:
        # Nothing could be listed (unreachable, token refused): say so once, as the reason.
        result.error = next(iter(gathered.errors.values()))
    return result


class Sender(Protocol):
    """The part of :class:`tui.api.client.ApiClient` a fix uses."""

    async def call(
        self,
        ep: Any,
        path_params: Mapping[str, Any] | None = None,
        *,
        body: Any = None,
        query: Mapping[str, Any] | None = None,
        model: Any = None,
    ) -> Any: ...


async def apply_fix(client: Sender, finding: Finding) -> list[Any]:
    """Send the fix of ``finding``, request after request, stopping at the first that fails.

    Returns:
        Each request's answer (decoded JSON), in order.

    Raises:
        ValueError: The finding's rule has no fix.
        CloudError: A request failed (those before it were carried out).
    """
    if not finding.requests:
        raise ValueError(f"{finding.rule.id} has no fix: {finding.rule.manual}")
    answers = []
    for request in finding.requests:
        answers.append(
            await client.call(
                request.endpoint,
                request.params,
                body=request.body,
                query=request.query,
                model=dict,
            )
        )
    return answers
