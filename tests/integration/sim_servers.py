"""``cloudtui sim`` servers as subprocesses on free ports of 127.0.0.1, stopped by PID."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import httpx

from tui.simulator import DEMO_TOKENS

TOKEN = DEMO_TOKENS["unrestricted"]
"""The token every simulator accepts for its unrestricted demo user."""


def free_port() -> int:
    """A port nothing listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class SimServer:
    """One running ``cloudtui sim``.

    Attributes:
        process: The subprocess.
        base_url: Its API base URL.
    """

    process: subprocess.Popen[str]
    base_url: str

    def get(self, path: str) -> httpx.Response:
        """A GET as the unrestricted demo user (to check what the server holds)."""
        headers = {"Authorization": f"Bearer {TOKEN}"}
        return httpx.get(f"{self.base_url}{path}", headers=headers, timeout=10)

    def stop(self) -> None:
        """Stop this server (by its own PID) and wait for it."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)


def start_sim(*args: str) -> SimServer:
    """Start ``cloudtui sim`` with ``args`` on a free port; returns once it answers."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "tui", "sim", "--port", str(port), *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    server = SimServer(process, f"http://127.0.0.1:{port}/v4")
    deadline = time.monotonic() + 30
    while True:
        try:
            if server.get("/profile").status_code == 200:
                return server
        except httpx.TransportError:
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            server.stop()
            raise RuntimeError(f"cloudtui sim {' '.join(args)} did not start")
        time.sleep(0.1)


@contextmanager
def two_sims() -> Iterator[tuple[SimServer, SimServer]]:
    """Two simulators: ``alpha`` as seeded, ``beta`` with 30 extra instances."""
    alpha = start_sim()
    try:
        beta = start_sim("--scale", "30")
        try:
            yield alpha, beta
        finally:
            beta.stop()
    finally:
        alpha.stop()
