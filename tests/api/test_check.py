"""The account check against the in-process simulator: the demo holds a finding of every
rule, only the listings the rules need are fetched (a bounded number at once), a listing that
fails leaves its rules "not checked", and every fix, sent, makes its finding go away."""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from typing import Any

import pytest

from tui.api.client import ApiClient
from tui.api.errors import ApiError
from tui.check.certificates import simulator_source
from tui.check.gather import gather
from tui.check.rules import BY_ID, RULES
from tui.check.run import AccountCheck, apply_fix, check_account
from tui.simulator import Simulator


class Recording:
    """A client that notes every operation, how many run at once, and fails the ones named."""

    def __init__(self, client: ApiClient, failing: frozenset[str] = frozenset()) -> None:
        self.client = client
        self.failing = failing
        self.called: list[str] = []
        self.active = 0
        self.most = 0

    def _start(self, name: str) -> None:
        self.called.append(name)
        if name in self.failing:
            raise ApiError(403, "GET", name)
        self.active += 1
        self.most = max(self.most, self.active)

    async def call(self, ep: Any, path_params: Mapping[str, Any] | None = None, **kw: Any) -> Any:
        self._start(ep)
        try:
            return await self.client.call(ep, path_params, **kw)
        finally:
            self.active -= 1

    async def iter_all(
        self, ep: Any, path_params: Mapping[str, Any] | None = None, **kw: Any
    ) -> AsyncIterator[Any]:
        self._start(ep)
        try:
            async for page in self.client.iter_all(ep, path_params, **kw):
                yield page
        finally:
            self.active -= 1


async def _check(client: Any, sim: Simulator, **kw: Any) -> AccountCheck:
    return await check_account(
        client,
        name="DEMO",
        now=sim.clock.now(),
        important_tags=["production"],
        certificates=simulator_source(sim),
        **kw,
    )


async def test_the_demo_holds_a_finding_of_every_rule(client: ApiClient, sim: Simulator) -> None:
    result = await _check(client, sim)
    assert result.complete and result.notes == []
    assert {f.rule.id for f in result.findings} == set(BY_ID)
    # The one priced waste: ci-runner-01 (ded-8, $144.00 a month), powered off for 12 days.
    assert result.saving == 144.0


async def test_only_the_listings_the_rules_need_are_fetched(
    client: ApiClient, sim: Simulator
) -> None:
    recording = Recording(client)
    await gather(recording, [BY_ID["volume-unattached"]])  # type: ignore[arg-type]
    assert recording.called == ["volumes.list"]
    recording.called.clear()
    await gather(recording, [BY_ID["lb-no-health-check"]])  # type: ignore[arg-type]
    assert set(recording.called) == {"loadbalancers.list", "loadbalancers.configs.list"}


async def test_listings_are_fetched_concurrently_within_the_bound(
    client: ApiClient, sim: Simulator
) -> None:
    recording = Recording(client)
    await gather(recording, RULES, concurrency=3)  # type: ignore[arg-type]
    assert 1 < recording.most <= 3


async def test_a_failing_listing_leaves_only_its_rules_unchecked(
    client: ApiClient, sim: Simulator
) -> None:
    recording = Recording(client, failing=frozenset({"domains.records.list"}))
    result = await _check(recording, sim)
    assert set(result.not_checked) == {"dns-record-dangling", "domain-without-records"}
    assert "403" in result.not_checked["dns-record-dangling"]
    assert {f.rule.id for f in result.findings} == set(BY_ID) - set(result.not_checked)


@pytest.mark.parametrize("rule_id", [rule.id for rule in RULES if rule.fix is not None])
async def test_sending_a_fix_makes_its_finding_go_away(
    client: ApiClient, sim: Simulator, rule_id: str
) -> None:
    rule = BY_ID[rule_id]
    before = await _check(client, sim, rules=[rule])
    # A migrating volume refuses deletion (409): the demo's other volumes do not.
    target = next(f for f in before.findings if f.subject.item.get("status") != "migrating")
    await apply_fix(client, target)
    after = await _check(client, sim, rules=[rule])
    assert target.id not in {f.id for f in after.findings}
    assert len(after.findings) == len(before.findings) - 1


async def test_the_saving_goes_down_as_waste_is_fixed(client: ApiClient, sim: Simulator) -> None:
    before = await _check(client, sim)
    off = next(f for f in before.findings if f.rule.id == "instance-powered-off")
    await apply_fix(client, off)
    after = await _check(client, sim)
    assert before.saving - after.saving == off.saving == 144.0


async def test_a_rule_without_a_fix_refuses_to_apply(client: ApiClient, sim: Simulator) -> None:
    result = await _check(client, sim, rules=[BY_ID["image-expiring"]])
    with pytest.raises(ValueError, match="no fix"):
        await apply_fix(client, result.findings[0])
