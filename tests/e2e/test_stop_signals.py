"""End to end: the real ``cloudtui --demo`` in tmux, ended by SIGTERM or SIGHUP sent to its own
process, leaves as quitting does: its temporary folder removed, the status a shell expects."""

from __future__ import annotations

import os
import shutil
import signal
import time
from pathlib import Path

import pytest

from tests.e2e.terminal import DEADLINE, DEMO, Terminal, demo_env, tmux_session

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]


def demo_folder(tmp: Path) -> Path:
    """The demo's own folder in ``tmp``, once the app has made it."""
    deadline = time.monotonic() + DEADLINE
    while time.monotonic() < deadline:
        found = sorted(tmp.glob("cloudtui-demo-*"))
        if found:
            assert len(found) == 1, found
            return found[0]
        time.sleep(0.05)
    raise AssertionError(f"the demo made no folder in {tmp}: {sorted(os.listdir(tmp))}")


def exit_status(term: Terminal) -> str:
    """The status the pane's program ended with (the pane stays: ``remain-on-exit``)."""
    deadline = time.monotonic() + DEADLINE
    while time.monotonic() < deadline:
        shown = term.tmux("display", "-p", "-t", "app", "#{pane_dead} #{pane_dead_status}")
        dead, _, status = shown.strip().partition(" ")
        if dead == "1":
            return status
        time.sleep(0.05)
    raise AssertionError(f"still running after the signal; the screen is:\n{term.screen()}")


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_a_demo_ended_by_a_signal_removes_its_temporary_folder(
    tmp_path: Path, stop: signal.Signals
) -> None:
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    # exec: the pane's process is the app itself, not a shell around it.
    with tmux_session(f"exec {DEMO}", size=(100, 30), env=demo_env(tmp_path), tmp_dir=tmp) as term:
        term.tmux("set-option", "-t", "app", "remain-on-exit", "on")
        term.wait_for("DEMO")
        folder = demo_folder(tmp)
        pid = int(term.tmux("display", "-p", "-t", "app", "#{pane_pid}"))
        command = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        assert command[-3:] == [b"tui", b"--demo", b""], command  # the demo's own process
        os.kill(pid, stop)
        assert exit_status(term) == str(128 + stop)
        assert not folder.exists()
