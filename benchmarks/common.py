"""Shared helpers of the benchmarks: a served simulator, timing and reporting.

Benchmarks print medians and ratios measured in the same run (these machines are noisy);
nothing here asserts.
"""

from __future__ import annotations

import contextlib
import os
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    """A free TCP port on 127.0.0.1."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def user_env(**extra: str) -> dict[str, str]:
    """The environment for a measured child process: this one, as a user's shell would have it.

    ``PYTHONDONTWRITEBYTECODE`` (set on some CI and sandbox machines) is dropped: with it every
    start recompiles cloudtui's ~100 modules from source (~70 ms), which no installed copy does
    (pip writes the bytecode at install time, an editable install on its first start).

    Args:
        **extra: Variables to add or override.
    """
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    return {**env, **extra}


@contextlib.contextmanager
def served_simulator(*args: str) -> Iterator[str]:
    """Run ``cloudtui sim`` in a child process on 127.0.0.1; yields its base URL.

    Args:
        *args: Extra ``cloudtui sim`` flags (``--scale``, ``--latency`` ...).
    """
    port = free_port()
    command = [sys.executable, "-m", "tui", "sim", "--port", str(port), *args]
    with _served(command, "cloudtui simulator at ") as url:
        yield url


@contextlib.contextmanager
def served_replay(*args: str) -> Iterator[str]:
    """Run ``benchmarks/replay_server.py`` in a child process on 127.0.0.1; yields its base URL.

    Args:
        *args: Its flags (``--scale``, ``--latency`` ...).
    """
    command = [sys.executable, str(ROOT / "benchmarks" / "replay_server.py"), *args]
    with _served(command, "replay server at ", timeout=120.0) as url:
        yield url


SERVED_PIDS: dict[str, int] = {}
"""Base URL -> process id of each server :func:`_served` runs now."""


def process_cpu(pid: int) -> tuple[float, float]:
    """CPU seconds process ``pid`` has used so far: (user, kernel) (Linux ``/proc``)."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / tick, int(fields[12]) / tick


@contextlib.contextmanager
def _served(command: list[str], announce: str, timeout: float = 30.0) -> Iterator[str]:
    """Run a server in a child process until the block ends; yields the URL it announces.

    Args:
        command: The server's command line.
        announce: What its first line says before the URL.
        timeout: Seconds it may take to listen.
    """
    proc = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        cwd=ROOT,
        env=user_env(PYTHONUNBUFFERED="1"),
    )
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline().strip()
        if not first.startswith(announce):
            raise RuntimeError(f"server did not start: {first!r}")
        url = first.removeprefix(announce)
        port = int(url.rsplit(":", 1)[1].split("/", 1)[0])
        _wait_listening(port, timeout)
        SERVED_PIDS[url] = proc.pid
        yield url
    finally:
        SERVED_PIDS.pop(url, None)
        proc.terminate()
        proc.wait(timeout=10)


def _wait_listening(port: int, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.02)
    raise RuntimeError("simulator did not listen in time")


def median(values: list[float]) -> float:
    """Median of a non-empty list."""
    return statistics.median(values)


def fmt_ms(seconds: float) -> str:
    """Seconds as milliseconds text."""
    return f"{seconds * 1000:.1f} ms"


def report(title: str, rows: list[tuple[str, str]]) -> None:
    """Print a small aligned table."""
    print(f"\n== {title}")
    width = max(len(k) for k, _ in rows)
    for key, value in rows:
        print(f"  {key:<{width}}  {value}")
