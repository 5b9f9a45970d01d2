"""Every error shape becomes a readable, typed ApiError; transport failures are one family."""

from __future__ import annotations

import httpx
import pytest

from tui.api import (
    ApiClient,
    ApiError,
    Conflict,
    ConnectFailure,
    ConnectionDropped,
    Forbidden,
    Invalid,
    NotFound,
    RateLimited,
    RetryPolicy,
    ServerError,
    TimeoutFailure,
    TransportFailure,
    Unauthorized,
)

BASE = "https://api.test/v4"


def make_client(handler, **kwargs) -> ApiClient:  # type: ignore[no-untyped-def]
    async def no_sleep(_s: float) -> None:
        return None

    kwargs.setdefault("retry", RetryPolicy(max_attempts=1, sleep=no_sleep))
    return ApiClient(BASE, "tok-123", transport=httpx.MockTransport(handler), **kwargs)


@pytest.mark.parametrize(
    ("status", "cls"),
    [
        (400, Invalid),
        (401, Unauthorized),
        (403, Forbidden),
        (404, NotFound),
        (409, Conflict),
        (422, Invalid),
        (429, RateLimited),
        (500, ServerError),
        (418, ApiError),
    ],
)
async def test_status_maps_to_typed_error(status: int, cls: type[ApiError]) -> None:
    client = make_client(
        lambda r: httpx.Response(status, json={"errors": [{"field": "label", "reason": "bad"}]})
    )
    with pytest.raises(cls) as info:
        await client.call("compute.instances.view", {"computeId": 5})
    err = info.value
    assert type(err) is cls
    assert (err.status, err.method, err.path) == (status, "GET", "/compute/instances/5")
    assert err.field_errors() == {"label": "bad"}
    assert "label: bad" in str(err)


async def test_json_errors_list_keeps_every_entry() -> None:
    body = {"errors": [{"field": "region", "reason": "required"}, {"reason": "also this"}]}
    client = make_client(lambda r: httpx.Response(400, json=body))
    with pytest.raises(Invalid) as info:
        await client.call("compute.instances.create", body={"type": "x"})
    assert [str(e) for e in info.value.errors] == ["region: required", "also this"]


@pytest.mark.parametrize(
    ("content", "ctype", "expected"),
    [
        (b"", "application/json", "empty body"),
        (b"<html><body><h1>502 Bad Gateway</h1></body></html>", "text/html", "HTML body"),
        (b'{"errors": [{"reason": "trunc', "application/json", "non-JSON body"),
        (b'{"message": "odd shape"}', "application/json", "odd shape"),
        (b'["not", "an", "object"]', "application/json", "not"),
        (b'{"errors": "a string"}', "application/json", "a string"),
        (b'{"errors": [{"field": 3}]}', "application/json", "HTTP 400"),
    ],
)
async def test_malformed_error_bodies_stay_readable(
    content: bytes, ctype: str, expected: str
) -> None:
    client = make_client(
        lambda r: httpx.Response(400, content=content, headers={"content-type": ctype})
    )
    with pytest.raises(ApiError) as info:
        await client.call("profile.view")
    message = str(info.value)
    assert expected in message
    assert message.startswith("GET /profile failed (400)")


async def test_204_and_empty_success_bodies_are_empty_objects_or_none() -> None:
    client = make_client(lambda r: httpx.Response(204))
    assert await client.call("profile.grants", model=dict) == {}
    assert await client.call("profile.grants") is None  # no body: nothing to validate
    client = make_client(lambda r: httpx.Response(200, content=b""))
    assert await client.call("compute.instances.shutdown", {"computeId": 1}, model=dict) == {}
    assert await client.call("compute.instances.shutdown", {"computeId": 1}) is None


async def test_non_json_success_body_is_an_api_error() -> None:
    client = make_client(lambda r: httpx.Response(200, content=b"<html>proxy login</html>"))
    with pytest.raises(ApiError) as info:
        await client.call("profile.view")
    assert "HTML body" in str(info.value)


@pytest.mark.parametrize(
    ("exc", "cls", "sent"),
    [
        (httpx.ConnectError("refused"), ConnectFailure, False),
        (httpx.ConnectTimeout("slow"), ConnectFailure, False),
        (httpx.ReadTimeout("slow"), TimeoutFailure, True),
        (httpx.RemoteProtocolError("peer closed"), ConnectionDropped, True),
        (httpx.ReadError("reset"), ConnectionDropped, True),
    ],
)
async def test_transport_failures_become_one_family(
    exc: Exception, cls: type[TransportFailure], sent: bool
) -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        raise exc

    client = make_client(handler)
    with pytest.raises(TransportFailure) as info:
        await client.call("profile.view")
    assert type(info.value) is cls
    assert info.value.sent is sent
    assert "GET /profile" in str(info.value)


async def test_rate_limited_carries_retry_after() -> None:
    client = make_client(
        lambda r: httpx.Response(
            429, headers={"Retry-After": "7"}, json={"errors": [{"reason": "slow down"}]}
        )
    )
    with pytest.raises(RateLimited) as info:
        await client.call("profile.view")
    assert info.value.retry_after == 7.0


async def test_request_carries_auth_user_agent_and_json() -> None:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, json={"id": 1})

    client = make_client(handler)
    await client.call("compute.instances.create", body={"region": "us-east", "type": "nano-1"})
    request = seen[0]
    assert request.headers["authorization"] == "Bearer tok-123"
    assert request.headers["user-agent"].startswith("cloudtui/")
    assert request.headers["content-type"] == "application/json"
    assert request.url.path == "/v4/compute/instances"
