"""Reports: text and Markdown show API text only through the boundary, and the exit status
follows --fail-on, with "could not check" winning."""

from __future__ import annotations

import json

from tui.check.account import Account
from tui.check.model import Severity
from tui.check.report import (
    EXIT_CLEAN,
    EXIT_FINDINGS,
    EXIT_INCOMPLETE,
    as_json,
    as_markdown,
    as_text,
    exit_status,
)
from tui.check.rules import BY_ID, RULES
from tui.check.run import AccountCheck, evaluate

NOW = 1_793_610_000.0
HOSTILE = "vol\x1b]52;c;aGk=\x07\u202etxt.exe|*x*<b>"


def _check() -> AccountCheck:
    listings = {"volumes": [{"id": 1, "label": HOSTILE, "region": "r\x1b[2J"}]}
    return evaluate(Account(listings, NOW), [BY_ID["volume-unattached"]], name="w\x1bork")


def test_text_and_markdown_take_api_text_through_the_boundary() -> None:
    for report in (as_text([_check()]), as_markdown([_check()])):
        assert "\x1b" not in report and "\x07" not in report and "\u202e" not in report
        assert "␛" in report
    markdown = as_markdown([_check()])
    assert "\\|" in markdown and "\\*x\\*" in markdown and "&lt;b&gt;" in markdown


def test_json_keeps_the_values_and_escapes_every_control_character() -> None:
    report = as_json([_check()], RULES, Severity.ERROR, now=NOW)
    assert report.isascii() and "\x1b" not in report
    finding = json.loads(report)["accounts"][0]["findings"][0]
    assert finding["object"]["label"] == HOSTILE


def test_the_exit_status_follows_fail_on_and_incomplete_wins() -> None:
    warnings_only = _check()
    assert exit_status([warnings_only], Severity.ERROR) == EXIT_CLEAN
    assert exit_status([warnings_only], Severity.WARNING) == EXIT_FINDINGS
    broken = AccountCheck("other", error="unreachable")
    assert exit_status([warnings_only, broken], Severity.WARNING) == EXIT_INCOMPLETE
    partial = AccountCheck("partial", not_checked={"image-expiring": "images: 403"})
    assert exit_status([partial], Severity.ERROR) == EXIT_INCOMPLETE


def test_silenced_findings_do_not_count_toward_the_status() -> None:
    check = _check()
    check.silenced, check.findings = check.findings, []
    assert exit_status([check], Severity.WARNING) == EXIT_CLEAN
    assert "Silenced (1)" in as_text([check])
