"""The overview of every account: one row per account, a Total row, attention per account."""

from __future__ import annotations

from tui.accounts.fanout import OverviewRequest, parse_fanout_command
from tui.accounts.fanout_overview import (
    PARTS,
    UNPRICED_NOTE,
    AccountOverview,
    attention_lines,
    overview_row,
    total_row,
)
from tui.home.overview import Attention
from tui.session.config import Profile, Settings

OFFLINE = Attention(
    "instances offline", "instances", "compute.instances", "status:offline", frozenset({"1", "2"})
)


def test_the_command_asks_for_the_overview_of_named_or_all_profiles() -> None:
    settings = Settings(profiles={"a": Profile(base_url="https://a.example/v4")})
    assert parse_fanout_command("fanout overview", settings) == OverviewRequest(("a",))


def test_rows_per_account_and_a_total_of_those_that_answered() -> None:
    alpha = AccountOverview("alpha", {p: 2 for p, _t in PARTS}, [OFFLINE], 100.0)
    beta = AccountOverview(
        "beta", {"instances": 40}, [], 50.5, unpriced=3, errors={"volumes": "403 forbidden"}
    )
    gamma = AccountOverview("gamma", error="cannot reach the API")
    assert overview_row(alpha) == ("alpha", *("2" for _ in PARTS), "2", "$100.00")
    assert overview_row(beta)[1:3] == ("40", "?")  # its volumes failed
    assert overview_row(beta)[-1] == "$50.50+"
    assert set(overview_row(gamma)[1:]) == {"?"}
    total = total_row([alpha, beta, gamma])
    assert total[0] == "Total (2)" and total[1] == "42" and total[-2:] == ("2", "$150.50+")
    assert attention_lines([alpha, beta, gamma]) == [
        "alpha: 2 instances offline",
        "✖ beta: 403 forbidden",
        "✖ gamma: cannot reach the API",
        UNPRICED_NOTE,
    ]
