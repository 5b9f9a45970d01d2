"""A POST after an idle pause does not run into the server closing its keep-alive connection."""

from __future__ import annotations

from tests.integration.test_bad_servers import Served
from tui.api.client import KEEPALIVE_EXPIRY, ApiClient
from tui.simulator import DEMO_TOKENS, Simulator


def test_idle_connections_expire_before_the_common_server_keep_alive() -> None:
    import uvicorn

    server_keep_alive = uvicorn.Config(Simulator(seed=False)).timeout_keep_alive
    assert server_keep_alive > KEEPALIVE_EXPIRY


async def test_the_pool_drops_an_idle_connection_before_the_server_does() -> None:
    served = Served(Simulator(seed=False))
    served.start()
    try:
        async with ApiClient(served.url, DEMO_TOKENS["unrestricted"]) as api:
            await api.call("profile.view", model=dict)  # the http pool is made on first use
            pool = api._http._transport._plain._pool  # type: ignore[attr-defined]
            assert pool._keepalive_expiry == KEEPALIVE_EXPIRY
    finally:
        served.stop()
