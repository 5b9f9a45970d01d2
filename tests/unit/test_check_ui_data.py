"""What the check's screens read, headless: the overview's count from the lists it loaded, the
summary line, ``:fanout check`` parsed and summed up."""

from __future__ import annotations

from pathlib import Path

from tui.accounts.fanout import CheckRequest, complete_fanout, parse_fanout_command
from tui.accounts.fanout_check import finding_cells, problem_lines, totals_line
from tui.check.account import Account
from tui.check.display import summary
from tui.check.overview import overview_check, overview_line
from tui.check.rules import BY_ID, RULES
from tui.check.run import AccountCheck, evaluate
from tui.check.silences import Silences
from tui.session.config import Profile, Settings

NOW = 1_793_610_000.0
DAY = 86400.0
OFF = {"id": 7, "label": "ci-old", "status": "offline", "type": "g6-1", "updated": "2026-10-01"}
TYPES = [{"id": "g6-1", "price": {"monthly": 12.0, "hourly": 0.018}}]
PARTS = {
    "volumes": [{"id": 1, "label": "old"}],
    "instances": [OFF],
    "types": TYPES,
    "databases": [{"id": 3, "label": "db", "engine": "mysql", "allow_list": ["0.0.0.0/0"]}],
    "managed": [{"id": 9}],  # an overview part no rule reads
}


def test_the_overview_runs_only_the_rules_its_lists_suffice_for() -> None:
    found = overview_check(PARTS, now=NOW)
    rules = {f.rule.id for f in found.check.findings}
    assert rules == {"volume-unattached", "instance-powered-off", "database-open-to-all"}
    # Rules needing a list the overview does not load are left to :check, and counted.
    runnable = [r for r in RULES if set(r.needs) <= {"volumes", "instances", "types", "databases"}]
    assert found.left_out == len(RULES) - len(runnable)
    assert found.check.not_checked == {}
    assert found.check.saving == 12.0
    line = overview_line(found)
    assert line.startswith("1 error · 2 warnings · 0 info · saving ≈ $12.00/month")
    assert f"{found.left_out} rules need more lists" in line


def test_the_overview_count_leaves_out_what_the_profile_silenced(tmp_path: Path) -> None:
    silences = Silences("work", folder=tmp_path)
    first = overview_check(PARTS, now=NOW)
    off = next(f for f in first.check.findings if f.rule.id == "instance-powered-off")
    silences.add(off, "kept for a rebuild")
    found = overview_check(PARTS, now=NOW, silences=silences)
    assert off.id not in {f.id for f in found.check.findings}
    assert found.check.saving == 0.0
    assert "1 silenced" in overview_line(found)


def test_the_summary_puts_counts_and_saving_first() -> None:
    account = Account({"volumes": PARTS["volumes"]}, NOW)
    check = evaluate(account, [BY_ID["volume-unattached"]])
    assert summary(check) == (
        "0 errors · 1 warning · 0 info · saving ≈ $0.00/month · 1 with price not given"
    )


def test_fanout_check_is_a_fanout_word_completed_like_the_others() -> None:
    settings = Settings(profiles={"a": Profile(base_url="https://a.example/v4")})
    assert parse_fanout_command("fanout check", settings) == CheckRequest(("a",))
    assert parse_fanout_command("fanout check a", settings) == CheckRequest(("a",))
    assert "fanout check" in complete_fanout("fanout ch", ["a"])


def test_fanout_rows_name_their_account_and_the_totals_count_those_checked() -> None:
    account = Account({"instances": [OFF], "types": TYPES}, NOW)
    alpha = evaluate(account, [BY_ID["instance-powered-off"]], name="alpha")
    alpha.account = "alpha"
    beta = AccountCheck("beta", error="no token for beta")
    [finding] = alpha.findings
    cells = finding_cells("alpha", finding)
    assert cells[0] == "alpha" and cells[3] == "ci-old" and cells[-1] == "$12.00/month"
    assert totals_line([alpha, beta]) == (
        "1 finding in 1 account · saving ≈ $12.00/month · 1 not checked"
    )
    assert problem_lines([alpha, beta]) == ["✖ beta: no token for beta"]
