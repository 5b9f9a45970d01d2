"""One bound on requests in flight shared by several listings: never exceeded, handed out in
turn (no party starves), and nothing lost when a waiter is cancelled."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest

from tui.accounts import fanout
from tui.accounts.fanout import FanoutSessions
from tui.api.client import ApiClient
from tui.api.fair_share import FairShare
from tui.resources.areas import SPECS
from tui.session.config import Profile, Settings
from tui.session.runtime import Session


async def _settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


async def test_freed_slots_go_to_the_waiting_parties_in_turn() -> None:
    share = FairShare(2)
    granted: list[str] = []
    done: dict[str, list[asyncio.Event]] = {"a": [], "b": []}

    async def request(party: str) -> None:
        finished = asyncio.Event()
        done[party].append(finished)
        async with share.slots(party):
            granted.append(party)
            await finished.wait()

    tasks = [asyncio.ensure_future(request("a")) for _ in range(5)]
    await _settle()
    tasks += [asyncio.ensure_future(request("b")) for _ in range(5)]
    await _settle()
    assert granted == ["a", "a"]  # the first asker filled the bound
    while len(granted) < 10:
        holder = granted[len(granted) - 2]  # finish the oldest request still running
        next(e for e in done[holder] if not e.is_set()).set()
        await _settle()
        assert share.busy <= 2
    # "a" waited first, then each in turn; a plain semaphore would serve every "a" first
    # (a a a a a b b b b b).
    assert granted == ["a", "a", "a", "b", "a", "b", "a", "b", "b", "b"]
    for events in done.values():
        for event in events:
            event.set()
    await asyncio.gather(*tasks)
    assert share.busy == 0


async def test_a_cancelled_waiter_leaves_no_slot_taken_or_lost() -> None:
    share = FairShare(1)
    release = asyncio.Event()

    async def hold() -> None:
        async with share.slots("a"):
            await release.wait()

    async def wait_then_run(party: str, ran: list[str]) -> None:
        async with share.slots(party):
            ran.append(party)

    holder = asyncio.ensure_future(hold())
    await _settle()
    ran: list[str] = []
    cancelled = asyncio.ensure_future(wait_then_run("b", ran))
    waiting = asyncio.ensure_future(wait_then_run("c", ran))
    await _settle()
    cancelled.cancel()
    await _settle()
    release.set()
    await asyncio.gather(holder, waiting)
    assert cancelled.cancelled() and ran == ["c"] and share.busy == 0


async def test_a_slot_granted_to_a_task_cancelled_meanwhile_passes_on() -> None:
    share = FairShare(1)
    ran: list[str] = []
    await share.acquire("a")

    async def run(party: str) -> None:
        async with share.slots(party):
            ran.append(party)

    late = asyncio.ensure_future(run("b"))
    after = asyncio.ensure_future(run("c"))
    await _settle()
    share.release()  # granted to "b" ...
    late.cancel()  # ... which is cancelled before it runs
    await asyncio.gather(late, after, return_exceptions=True)
    assert ran == ["c"] and share.busy == 0


PAGES = 6
"""Pages of each account's listing (page 1 of 100 items, then pages of 500)."""


def _account_transport(name: str, in_flight: list[int], peak: list[int]) -> httpx.MockTransport:
    results = 500 * (PAGES - 1) + 100

    async def answer(request: httpx.Request) -> httpx.Response:
        in_flight[0] += 1
        peak[0] = max(peak[0], in_flight[0])
        await _settle()  # every page sent together is in flight together
        in_flight[0] -= 1
        page = int(request.url.params["page"])
        size = int(request.url.params["page_size"])
        first = (page - 1) * size
        rows = [{"id": n, "label": f"{name}-{n}"} for n in range(first, min(first + size, results))]
        pages = -(-results // size)
        body = {"data": rows, "page": page, "pages": pages, "results": results}
        return httpx.Response(200, content=json.dumps(body).encode())

    return httpx.MockTransport(answer)


async def test_a_fanout_shares_one_bound_across_its_accounts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(fanout, "FANOUT_MAX_CONCURRENCY", 4)
    names = ("alpha", "beta", "gamma")
    settings = Settings(profiles={n: Profile(base_url=f"https://{n}.example/v4") for n in names})
    in_flight, peak = [0], [0]

    def opener(settings: Settings, name: str) -> Session:
        client = ApiClient(
            f"http://127.0.0.1/{name}/v4",
            "t",
            transport=_account_transport(name, in_flight, peak),
            allow_insecure=True,
        )
        return Session(client, settings, name)

    sessions = FanoutSessions(settings, lambda: None, opener)
    arrived: list[Any] = []

    async def take(listing: Any) -> None:
        arrived.append(listing)

    listings = await sessions.list_all(names, SPECS["compute.instances"], take)
    await sessions.aclose()
    assert [len(listing.items) for listing in listings] == [500 * (PAGES - 1) + 100] * 3
    assert all(item["account"] == listing.account for listing in listings for item in listing.items)
    # Page 1 of each account is never held back; the pages after it share the bound of 4.
    assert peak[0] <= 4 + len(names)
