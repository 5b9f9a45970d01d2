"""Fixtures of the UI tests (the shared helpers are in tests/ui/helpers.py)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture
def fake_bin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """(bin folder, log folder) for fake programs (tests/ui/fake_tools.py).

    The bin folder is the only one on PATH, so a program that is not faked is missing; temporary
    files (``tempfile`` and ``$TMPDIR``) go in the test's own ``tmp`` folder, which
    :func:`tests.ui.fake_tools.leftovers` lists.
    """
    bin_dir, log_dir, tmp = tmp_path / "bin", tmp_path / "log", tmp_path / "tmp"
    for folder in (bin_dir, log_dir, tmp):
        folder.mkdir()
    monkeypatch.setenv("PATH", str(bin_dir))
    monkeypatch.setenv("TMPDIR", str(tmp))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp))
    return bin_dir, log_dir


@pytest.fixture
def cpu_neighbour() -> Iterator[int]:
    """A CPU-bound process sharing this test's processor, as on a loaded machine; its PID.

    The test and a busy loop are pinned to one CPU with the same niceness (the child inherits
    it), so the app gets about half of one core however many the machine has. The loop is
    killed by its PID and the test's CPUs are given back afterwards.
    """
    pinning = hasattr(os, "sched_setaffinity")
    allowed = os.sched_getaffinity(0) if pinning else set()
    busy = subprocess.Popen([sys.executable, "-I", "-c", "while True: pass"])
    try:
        if pinning:
            cpu = {min(allowed)}
            os.sched_setaffinity(busy.pid, cpu)
            os.sched_setaffinity(0, cpu)
        yield busy.pid
    finally:
        if pinning:
            os.sched_setaffinity(0, allowed)
        os.kill(busy.pid, signal.SIGKILL)
        busy.wait()
