"""End to end: the real ``cloudtui --demo`` in tmux, ended by SIGTERM or SIGHUP sent to its own
process, leaves as quitting does: its temporary folder removed, the terminal given back to the
shell, the status a shell expects."""

from __future__ import annotations

import os
import shutil
import signal
import time
from pathlib import Path

import pytest

from tests.e2e.terminal import DEADLINE, DEMO, demo_env, tmux_session

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


def child_of(parent: int) -> int:
    """The one process whose parent is ``parent`` (the app its shell started)."""
    deadline = time.monotonic() + DEADLINE
    while time.monotonic() < deadline:
        children = []
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue  # ended meanwhile
            if int(fields[1]) == parent:
                children.append(int(stat.parent.name))
        if children:
            assert len(children) == 1, children
            return children[0]
        time.sleep(0.05)
    raise AssertionError(f"process {parent} started nothing")


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_a_demo_ended_by_a_signal_removes_its_temporary_folder(
    tmp_path: Path, stop: signal.Signals
) -> None:
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    # The shell around the app says how it ended (tmux may miss the status of its own child).
    command = f'{DEMO}; echo "cloudtui-exit=$?"; sleep 30'
    with tmux_session(command, size=(100, 30), env=demo_env(tmp_path), tmp_dir=tmp) as term:
        term.wait_for("DEMO")
        folder = demo_folder(tmp)
        shell = int(term.tmux("display", "-p", "-t", "app", "#{pane_pid}"))
        app = child_of(shell)
        command_line = Path(f"/proc/{app}/cmdline").read_bytes().split(b"\0")
        assert command_line[-3:] == [b"tui", b"--demo", b""], command_line  # the demo itself
        os.kill(app, stop)
        screen = term.wait_for("cloudtui-exit=")
        assert f"cloudtui-exit={128 + stop}" in screen
        assert "Traceback" not in screen
        assert not folder.exists()
