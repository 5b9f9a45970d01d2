"""The bulk runner: plan, bounded concurrency, 429 waits, results (headless)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from tui.api.errors import ApiError, FieldError, RateLimited
from tui.bulk import BulkItem, BulkRun, plan, tag_body


def _items(count: int) -> list[BulkItem]:
    return [BulkItem(i, f"item-{i}", str(i), {"id": i}, {"id": i}) for i in range(count)]


def test_plan_skips_with_reasons() -> None:
    result = plan(_items(3), lambda e: (e.key != 1, "the item is offline"))
    assert [e.key for e in result.targets] == [0, 2]
    assert [(e.key, e.state, e.reason) for e in result.skipped] == [
        (1, "skipped", "the item is offline")
    ]


async def test_concurrency_is_bounded_and_every_item_ends_done() -> None:
    running = 0
    peak = 0

    async def send(entry: BulkItem) -> None:
        nonlocal running, peak
        running += 1
        peak = max(peak, running)
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        running -= 1

    run = BulkRun(_items(10), send, concurrency=3)
    summary = await run.run()
    assert peak == 3
    assert (summary.done, summary.failed, summary.skipped) == (10, 0, 0)


async def test_failures_keep_the_api_reason() -> None:
    async def send(entry: BulkItem) -> None:
        if entry.key == 1:
            raise ApiError(400, "POST", "/x", [FieldError("Linode busy.")])

    items = _items(3)
    summary = await BulkRun(items, send).run()
    assert str(summary) == "2 done, 1 failed, 0 skipped"
    assert items[1].state == "failed"
    assert items[1].reason == "Linode busy. (400)"


async def test_a_429_pauses_every_worker_then_retries() -> None:
    now = [0.0]
    slept: list[float] = []
    calls: list[tuple[Any, float]] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)
        now[0] += seconds

    async def send(entry: BulkItem) -> None:
        calls.append((entry.key, now[0]))
        if entry.key == 0 and sum(1 for k, _ in calls if k == 0) == 1:
            raise RateLimited(429, "POST", "/x", retry_after=7)
        await asyncio.sleep(0)

    states: list[tuple[Any, str]] = []
    run = BulkRun(
        _items(3),
        send,
        concurrency=1,
        sleep=sleep,
        clock=lambda: now[0],
        on_progress=lambda e: states.append((e.key, e.state)),
    )
    summary = await run.run()
    assert summary.done == 3
    assert slept == [7]
    assert (0, "waiting") in states
    # Nothing was sent during the wait: every later call came at t=7.
    assert [t for _k, t in calls] == [0.0, 7.0, 7.0, 7.0]
    assert run.rate_waits == 1


async def test_endless_429_fails_the_item() -> None:
    async def send(entry: BulkItem) -> None:
        raise RateLimited(429, "POST", "/x", retry_after=1)

    now = [0.0]

    async def sleep(seconds: float) -> None:
        now[0] += seconds

    items = _items(1)
    summary = await BulkRun(items, send, sleep=sleep, clock=lambda: now[0]).run()
    assert summary.failed == 1
    assert "rate limiting" in items[0].reason


async def test_stop_skips_what_was_not_started() -> None:
    run: BulkRun

    async def send(entry: BulkItem) -> None:
        run.stop()

    items = _items(4)
    run = BulkRun(items, send, concurrency=1)
    summary = await run.run()
    assert (summary.done, summary.skipped) == (1, 3)
    assert items[3].reason == "stopped before it was sent"


@pytest.mark.parametrize(
    ("tags", "add", "body", "reason"),
    [
        (["a"], True, {"tags": ["a", "prod"]}, ""),
        (["Prod"], True, None, "already tagged prod"),
        (["a", "PROD"], False, {"tags": ["a"]}, ""),
        (["a"], False, None, "not tagged prod"),
    ],
)
def test_tag_body(tags: list[str], add: bool, body: Any, reason: str) -> None:
    assert tag_body({"tags": tags}, "prod", add) == (body, reason)
