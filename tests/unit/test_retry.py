"""Retry rules: idempotent methods on 408/429/502/503/504 and connect errors; POST only when safe."""

from __future__ import annotations

import httpx
import pytest

from tui.api import ApiClient, RetryPolicy, ServerError
from tui.api.errors import ApiError, ConnectFailure, ConnectionDropped, RateLimited

BASE = "https://api.test/v4"


class Recorder:
    """A fake sleep that records the delays instead of waiting."""

    def __init__(self) -> None:
        self.delays: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.delays.append(seconds)


def scripted(responses: list[object]) -> tuple[ApiClient, list[httpx.Request], Recorder]:
    """A client whose transport answers (or raises) from ``responses`` in order."""
    seen: list[httpx.Request] = []
    queue = list(responses)

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        item = queue.pop(0)
        if isinstance(item, Exception):
            raise item
        assert isinstance(item, httpx.Response)
        return item

    sleep = Recorder()
    policy = RetryPolicy(max_attempts=4, base_delay=0.5, max_delay=8, sleep=sleep, rng=lambda: 1.0)
    client = ApiClient(BASE, "t", transport=httpx.MockTransport(handler), retry=policy)
    return client, seen, sleep


@pytest.mark.parametrize("status", [408, 429, 502, 503, 504])
async def test_get_is_retried_on_transient_statuses(status: int) -> None:
    client, seen, sleep = scripted([httpx.Response(status), httpx.Response(200, json={"ok": 1})])
    assert await client.call("profile.view", model=dict) == {"ok": 1}
    assert len(seen) == 2
    assert len(sleep.delays) == 1


@pytest.mark.parametrize("method_name", ["compute.instances.update", "compute.instances.delete"])
async def test_put_and_delete_are_retried_on_503(method_name: str) -> None:
    client, seen, _ = scripted([httpx.Response(503), httpx.Response(200, json={})])
    await client.call(method_name, {"computeId": 1}, body={} if "update" in method_name else None)
    assert len(seen) == 2


async def test_post_is_not_retried_after_a_502() -> None:
    client, seen, sleep = scripted([httpx.Response(502), httpx.Response(200, json={"id": 1})])
    with pytest.raises(ServerError):
        await client.call("compute.instances.create", body={"region": "r", "type": "t"})
    assert len(seen) == 1
    assert sleep.delays == []


@pytest.mark.parametrize("status", [408, 500, 503, 504])
async def test_post_is_not_retried_on_other_failures(status: int) -> None:
    client, seen, _ = scripted([httpx.Response(status), httpx.Response(200, json={})])
    with pytest.raises(ApiError):
        await client.call("compute.instances.reboot", {"computeId": 1})
    assert len(seen) == 1


async def test_post_is_retried_on_429_honouring_retry_after() -> None:
    client, seen, sleep = scripted(
        [httpx.Response(429, headers={"Retry-After": "3"}), httpx.Response(200, json={"id": 9})]
    )
    assert await client.call("compute.instances.create", body={}, model=dict) == {"id": 9}
    assert len(seen) == 2
    assert sleep.delays == [3.0]


async def test_each_retry_is_announced_before_it_waits() -> None:
    client, _seen, sleep = scripted(
        [
            httpx.Response(429, headers={"Retry-After": "3"}),
            httpx.Response(503),
            httpx.Response(200, json={"ok": 1}),
        ]
    )
    told: list[tuple[type, float, int]] = []
    client.on_retry = lambda error, wait: told.append((type(error), wait, len(sleep.delays)))
    assert await client.call("profile.view", model=dict) == {"ok": 1}
    # Told before each sleep (no delay recorded yet at the first), with that sleep's length.
    assert told == [(RateLimited, 3.0, 0), (ServerError, sleep.delays[1], 1)]


async def test_post_is_retried_on_connect_error_before_sending() -> None:
    client, seen, _ = scripted([httpx.ConnectError("refused"), httpx.Response(200, json={"id": 2})])
    assert await client.call("compute.instances.create", body={}, model=dict) == {"id": 2}
    assert len(seen) == 2


async def test_post_is_not_retried_when_the_connection_drops_after_sending() -> None:
    client, seen, _ = scripted([httpx.ReadError("reset"), httpx.Response(200, json={})])
    with pytest.raises(ConnectionDropped):
        await client.call("compute.instances.create", body={})
    assert len(seen) == 1


async def test_get_is_retried_after_a_dropped_connection() -> None:
    client, seen, _ = scripted([httpx.ReadError("reset"), httpx.Response(200, json={"a": 1})])
    assert await client.call("profile.view", model=dict) == {"a": 1}
    assert len(seen) == 2


async def test_backoff_grows_exponentially_and_gives_up() -> None:
    client, seen, sleep = scripted([httpx.Response(503)] * 4)
    with pytest.raises(ServerError):
        await client.call("profile.view")
    assert len(seen) == 4
    assert sleep.delays == [0.5, 1.0, 2.0]


async def test_retry_after_http_date_is_understood() -> None:
    client, _, sleep = scripted(
        [
            httpx.Response(429, headers={"Retry-After": "Wed, 21 Oct 2015 07:28:00 GMT"}),
            httpx.Response(200, json={}),
        ]
    )
    await client.call("profile.view")
    assert sleep.delays == [0.0]  # a date in the past means "now"


async def test_exhausted_rate_limit_raises_rate_limited() -> None:
    client, seen, _ = scripted([httpx.Response(429, headers={"Retry-After": "1"})] * 4)
    with pytest.raises(RateLimited):
        await client.call("profile.view")
    assert len(seen) == 4


def test_jitter_stays_within_half_to_full_step() -> None:
    policy = RetryPolicy(base_delay=1.0, max_delay=8.0, rng=lambda: 0.0)
    assert policy.delay(ConnectFailure("GET", "/", "x", sent=False), 3) == 2.0
    policy = RetryPolicy(base_delay=1.0, max_delay=8.0, rng=lambda: 0.999999)
    assert policy.delay(ConnectFailure("GET", "/", "x", sent=False), 10) == pytest.approx(
        8.0, rel=1e-3
    )
