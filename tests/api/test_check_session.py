"""The check of an open session: every answer counted as it comes (the screen's progress),
and the demo's certificates read from its simulator."""

from __future__ import annotations

from tui.api.client import ApiClient
from tui.check.gather import gather
from tui.check.rules import BY_ID, RULES
from tui.check.session import CountingClient, check_session
from tui.session.config import Settings
from tui.session.runtime import Session
from tui.simulator import Simulator


async def test_every_answer_is_counted_as_it_comes(client: ApiClient, sim: Simulator) -> None:
    told: list[int] = []
    counting = CountingClient(client, told.append)
    before = len(sim.request_log)
    await gather(counting, RULES)  # type: ignore[arg-type]
    handled = len(sim.request_log) - before
    assert handled > 10
    assert told == list(range(1, handled + 1))


async def test_a_demo_session_is_checked_with_its_simulators_certificates() -> None:
    session = Session.for_demo(Settings(), "unrestricted")
    try:
        told: list[int] = []
        result = await check_session(
            session, session.settings, silences=None, on_answer=told.append
        )
        assert {f.rule.id for f in result.findings} == set(BY_ID)  # the certificate's included
        assert result.account == "DEMO" and told and told[-1] == len(told)
    finally:
        await session.aclose()
