"""Servers that misbehave over real HTTP on 127.0.0.1: bodies that are not JSON, a 50 MB body,
no answer at all, and an API that goes away and comes back while the app runs."""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import uvicorn
from pydantic import SecretStr

from tests.waits import WAIT_LIMIT
from tui.api.client import ApiClient
from tui.api.errors import ServerError, TimeoutFailure
from tui.api.retry import RetryPolicy
from tui.refresh import describe_error
from tui.session.config import RefreshSettings, Settings
from tui.session.runtime import Session
from tui.simulator import DEMO_TOKENS, Simulator

BIG = 50 * 1024 * 1024


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Served:
    """An ASGI app served by uvicorn in a thread on 127.0.0.1; can be stopped and restarted."""

    def __init__(self, app: Any, port: int | None = None) -> None:
        self.app = app
        self.port = port or free_port()
        self.server: uvicorn.Server | None = None
        self.thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v4"

    def start(self) -> None:
        config = uvicorn.Config(
            self.app, host="127.0.0.1", port=self.port, lifespan="off", log_level="critical"
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + WAIT_LIMIT
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("server did not start")
            time.sleep(0.01)

    def stop(self) -> None:
        if self.server is not None and self.thread is not None:
            self.server.should_exit = True
            self.server.force_exit = True  # do not wait for requests that never end
            self.thread.join(timeout=10)


async def misbehaving(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """``/v4/html``: an HTML error page with 200; ``/v4/broken``: truncated JSON;
    ``/v4/big``: 50 MB that are not JSON; ``/v4/silent`` and all under ``/silent/``: never
    answers."""
    if scope["type"] != "http":
        return
    path = scope["path"]
    if path == "/v4/silent" or path.startswith("/silent/"):
        await asyncio.Event().wait()
    bodies = {
        "/v4/html": (b"<html><body>Gateway says hello</body></html>", b"text/html"),
        "/v4/broken": (b'{"data": [{"id": 1, "label": "x"', b"application/json"),
        "/v4/big": (b"x" * BIG, b"application/json"),
    }
    body, kind = bodies.get(path, (b'{"errors": [{"reason": "no"}]}', b"application/json"))
    await send(
        {
            "type": "http.response.start",
            "status": 200 if path in bodies else 404,
            "headers": [(b"content-type", kind), (b"content-length", str(len(body)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": body})


@pytest.fixture
def bad_server() -> Iterator[Served]:
    served = Served(misbehaving)
    served.start()
    try:
        yield served
    finally:
        served.stop()


def _client(url: str, **kwargs: Any) -> ApiClient:
    async def no_sleep(_s: float) -> None:
        return None

    kwargs.setdefault("retry", RetryPolicy(max_attempts=2, sleep=no_sleep))
    return ApiClient(url, "t0ken", **kwargs)


@pytest.mark.parametrize(
    ("path", "words"),
    [
        ("/html", "HTML body: <html><body>Gateway says hello"),
        ("/broken", 'non-JSON body: {"data": [{"id": 1'),
        ("/big", "non-JSON body: xxxx"),
    ],
)
async def test_a_body_that_is_not_json_is_a_clear_error(
    bad_server: Served, path: str, words: str
) -> None:
    async with _client(bad_server.url) as api:
        with pytest.raises(ServerError) as caught:
            await api.request("GET", path)
    text = describe_error(caught.value)
    assert words in text
    assert len(text) < 300  # an excerpt, never the 50 MB


async def test_a_server_that_never_answers_times_out_with_a_clear_error(
    bad_server: Served,
) -> None:
    async with _client(bad_server.url, read_timeout=0.2) as api:
        with pytest.raises(TimeoutFailure) as caught:
            await api.request("GET", "/silent")
    assert "unreachable" in describe_error(caught.value)
    assert "ReadTimeout" in describe_error(caught.value)


async def _eventually(
    condition: Callable[[], bool], pilot: Any, seconds: float = WAIT_LIMIT
) -> None:
    """Wait, on the real clock, until ``condition()`` holds (a timer-driven refresh)."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("condition never held")
        await pilot.pause(0.05)


def _profile_app(url: str) -> Any:
    from tui.app import CloudApp

    # Shorter than the settings file allows: the test waits on the real clock.
    refresh = RefreshSettings.model_construct(fast=0.3, slow=0.3, max_backoff=0.6)
    settings = Settings(start_area="instances", refresh=refresh)
    session = Session.for_profile(settings, "lab", url, SecretStr(DEMO_TOKENS["unrestricted"]))
    session.client.retry = RetryPolicy(max_attempts=2, base_delay=0.01, max_delay=0.02)
    return CloudApp(settings, session)


async def test_the_app_stays_responsive_while_the_server_never_answers(
    bad_server: Served,
) -> None:
    from screens.shell.help import HelpScreen

    app = _profile_app(bad_server.url.replace("/v4", "/silent/v4"))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause(0.2)
        await pilot.press("question_mark")
        await _eventually(lambda: isinstance(app.screen, HelpScreen), pilot, 5)
        await pilot.press("escape")
        await _eventually(lambda: not isinstance(app.screen, HelpScreen), pilot, 5)
        await app.state.session.aclose()


async def test_the_app_recovers_by_itself_when_the_server_restarts() -> None:
    from screens.lists.list_pane import ResourceListPane

    sim = Simulator()
    served = Served(sim)
    served.start()
    app = _profile_app(served.url)
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await _eventually(
                lambda: app.state.api_health == "online" and app.state.last_refresh, pilot
            )
            pane = app.screen.query_one("#pane-0", ResourceListPane)
            await _eventually(lambda: pane.loaded and bool(pane.items), pilot)
            served.stop()
            await _eventually(lambda: app.state.api_health == "unreachable", pilot)
            served = Served(sim, served.port)
            served.start()
            # Nothing is pressed: the list's own timer finds the API again.
            await _eventually(lambda: app.state.api_health == "online", pilot)
            assert pane.items and pane.error is None
    finally:
        served.stop()
        await app.state.session.aclose()


async def test_served_lost_answers_and_stalls_behave_as_over_a_real_socket() -> None:
    from tui.api.errors import ConnectionDropped, may_have_been_carried_out
    from tui.simulator.faults import LOSE, STALL

    sim = Simulator()
    sim.faults.stall_seconds = 1.0
    served = Served(sim)
    served.start()
    try:
        async with ApiClient(
            served.url,
            DEMO_TOKENS["unrestricted"],
            read_timeout=0.3,
            retry=RetryPolicy(max_attempts=1),
        ) as api:
            sim.faults.fail_next("tags.create", 1, LOSE)
            with pytest.raises(ConnectionDropped) as lost:
                await api.call("tags.create", body={"label": "served-lost"}, model=dict)
            assert may_have_been_carried_out(lost.value)
            assert sim.store.get("tags.tags", "served-lost") is not None
            sim.faults.fail_next("tags.list", 1, STALL)
            with pytest.raises(TimeoutFailure):
                await api.fetch_page("tags.list", model=dict)
    finally:
        served.stop()
