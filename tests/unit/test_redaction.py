"""The token never shows in repr, error text, logs or tracebacks."""

from __future__ import annotations

import logging
import traceback

import httpx
import pytest
from pydantic import SecretStr

from tui.api import ApiClient, ApiError, RetryPolicy, TransportFailure

TOKEN = "sekrit-token-value-9f8e7d"


async def _no_sleep(_s: float) -> None:
    return None


def test_client_repr_hides_the_token() -> None:
    client = ApiClient("https://api.test/v4", TOKEN)
    assert TOKEN not in repr(client)
    assert TOKEN not in repr(client._http.auth)
    assert TOKEN not in repr(SecretStr(TOKEN))


async def test_errors_and_tracebacks_do_not_contain_the_token() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        # Even a server echoing the header back must not leak it through our message.
        return httpx.Response(401, json={"errors": [{"reason": "Invalid Token"}]})

    client = ApiClient(
        "https://api.test/v4",
        TOKEN,
        transport=httpx.MockTransport(handler),
        retry=RetryPolicy(max_attempts=1, sleep=_no_sleep),
    )
    with pytest.raises(ApiError) as info:
        await client.call("profile.view")
    text = "".join(traceback.format_exception(info.value))
    assert TOKEN not in text
    assert TOKEN not in repr(info.value)


async def test_transport_failure_traceback_does_not_contain_the_token() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError(f"cannot connect; headers were {dict(request.headers)}")

    client = ApiClient(
        "https://api.test/v4",
        TOKEN,
        transport=httpx.MockTransport(handler),
        retry=RetryPolicy(max_attempts=1, sleep=_no_sleep),
    )
    with pytest.raises(TransportFailure) as info:
        await client.call("profile.view")
    # The transport's own message may be anything; ours is built without it being chained.
    assert info.value.__cause__ is None
    assert info.value.__suppress_context__
    text = "".join(traceback.format_exception(info.value))
    assert TOKEN not in text
    assert TOKEN not in str(info.value)


async def test_debug_logging_redacts_the_authorization_header(
    caplog: pytest.LogCaptureFixture,
) -> None:
    client = ApiClient(
        "https://api.test/v4",
        TOKEN,
        transport=httpx.MockTransport(lambda r: httpx.Response(200, json={})),
    )
    with caplog.at_level(logging.DEBUG):
        await client.call("profile.view")
    joined = "\n".join(r.getMessage() for r in caplog.records)
    assert "Bearer **********" in joined
    assert TOKEN not in joined
