"""The CLI against the simulator served over real HTTP on 127.0.0.1."""

from __future__ import annotations

import io
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator

import httpx
import pytest
import uvicorn

from tests.conftest import MemoryKeyring
from tests.integration.sim_servers import start_sim
from tests.waits import WAIT_LIMIT
from tui.__main__ import main
from tui.session.auth import KEYRING_SERVICE
from tui.session.config import load_settings
from tui.simulator import DEMO_TOKENS, Simulator


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def live_url() -> Iterator[str]:
    """The simulator served by uvicorn in a thread; yields its base URL."""
    port = free_port()
    server = uvicorn.Server(
        uvicorn.Config(Simulator(), host="127.0.0.1", port=port, lifespan="off", log_level="error")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + WAIT_LIMIT
    while not server.started:
        if time.monotonic() > deadline:
            raise RuntimeError("simulator did not start")
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{port}/v4"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def run_cli(args: list[str], stdin: str, monkeypatch: pytest.MonkeyPatch) -> int:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    return main(args)


def test_login_stores_a_verified_token(
    live_url: str,
    isolated_home: MemoryKeyring,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    token = DEMO_TOKENS["unrestricted"]
    code = run_cli(["login", "--profile", "lab", "--base-url", live_url], token + "\n", monkeypatch)
    out = capsys.readouterr().out
    assert code == 0, out
    assert "Logged in as demo" in out
    assert token not in out
    assert isolated_home.entries[(KEYRING_SERVICE, "lab")] == token
    settings = load_settings()
    assert settings.profiles["lab"].base_url == live_url
    assert settings.default_profile == "lab"

    assert main(["profiles"]) == 0
    listing = capsys.readouterr().out
    assert "lab" in listing and live_url in listing and "system keyring" in listing
    assert token not in listing

    assert main(["logout", "--profile", "lab"]) == 0
    assert (KEYRING_SERVICE, "lab") not in isolated_home.entries


def test_rejected_token_is_not_stored(
    live_url: str,
    isolated_home: MemoryKeyring,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = run_cli(["login", "--base-url", live_url], "not-a-real-token\n", monkeypatch)
    err = capsys.readouterr().err
    assert code == 1
    assert "rejected" in err and "Invalid Token" in err
    assert "not-a-real-token" not in err
    assert isolated_home.entries == {}
    assert load_settings().profiles == {}


def test_plain_http_to_a_remote_host_is_refused(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code = run_cli(["login", "--base-url", "http://api.example.com/v4"], "tok\n", monkeypatch)
    assert code == 2
    assert "plain http" in capsys.readouterr().err


def test_unreachable_api_is_reported(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"http://127.0.0.1:{free_port()}/v4"
    code = run_cli(["login", "--base-url", url], "tok\n", monkeypatch)
    assert code == 1
    assert "cannot reach the API" in capsys.readouterr().err


def test_sim_command_serves_http_and_prints_tokens() -> None:
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "tui", "sim", "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()
        assert first.strip() == f"cloudtui simulator at http://127.0.0.1:{port}/v4"
        banner = "".join(proc.stdout.readline() for _ in range(4))
        assert DEMO_TOKENS["unrestricted"] in banner
        base = f"http://127.0.0.1:{port}/v4"
        deadline = time.monotonic() + WAIT_LIMIT
        while True:
            try:
                anonymous = httpx.get(f"{base}/compute/instances", timeout=2)
                break
            except httpx.TransportError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
        assert anonymous.status_code == 401
        assert anonymous.json()["errors"][0]["reason"]
        headers = {"Authorization": f"Bearer {DEMO_TOKENS['unrestricted']}"}
        listing = httpx.get(f"{base}/compute/instances", headers=headers, timeout=5)
        assert listing.status_code == 200
        body = listing.json()
        assert set(body) >= {"data", "page", "pages", "results"}
        assert body["results"] >= 12
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_sim_instant_ends_a_boot_by_the_first_poll_and_filters_listings() -> None:
    server = start_sim("--instant")
    try:
        headers = {"Authorization": f"Bearer {DEMO_TOKENS['unrestricted']}"}
        body = {
            "region": "us-east",
            "type": "std-2",
            "image": "compute/debian12",
            "root_pass": "s3cret-pw",
        }
        made = httpx.post(
            f"{server.base_url}/compute/instances", json=body, headers=headers, timeout=5
        )
        assert made.status_code == 200 and made.json()["status"] == "provisioning"
        polled = server.get(f"/compute/instances/{made.json()['id']}")
        assert polled.json()["status"] == "running"
        filtered = httpx.get(
            f"{server.base_url}/compute/instances",
            headers={**headers, "X-Filter": '{"label": "' + made.json()["label"] + '"}'},
            timeout=5,
        )
        assert [i["id"] for i in filtered.json()["data"]] == [made.json()["id"]]
    finally:
        server.stop()
