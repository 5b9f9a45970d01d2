"""The demo's lazily built simulator: one build, shared by concurrent first requests."""

from __future__ import annotations

import asyncio
import threading

from tui.session.config import Settings
from tui.session.runtime import Session
from tui.simulator import VirtualClock


async def test_lazy_demo_session_builds_once_off_the_event_loop() -> None:
    session = Session.for_demo(Settings(), clock=VirtualClock(), lazy=True)
    assert session.demo and session.simulator is None  # nothing built yet
    loop_thread = threading.get_ident()
    built_on: list[int] = []
    backend = session.backend
    original = backend._build  # type: ignore[union-attr]

    def spy():  # type: ignore[no-untyped-def]
        built_on.append(threading.get_ident())
        return original()

    backend._build = spy  # type: ignore[union-attr]
    try:
        first, second = await asyncio.gather(
            session.client.call("profile.view"), session.client.call("compute.regions.list")
        )
        assert first.username == "demo" and second.results >= 1
        assert len(built_on) == 1 and built_on[0] != loop_thread
        assert session.simulator is not None
        assert session.simulator.request_log[:2] != []
    finally:
        await session.aclose()
