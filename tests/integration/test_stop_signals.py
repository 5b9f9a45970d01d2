"""SIGTERM or SIGHUP to a program whose app cannot leave (Textual stuck writing to a terminal
that is gone): the process still ends, with the signal's status, and its demo folder goes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

STUCK_APP = """
import asyncio, os, signal, sys
from tui.session.datadir import demo_dir
from tui.session.stop_signals import stop_on_signals

async def main() -> None:
    print(demo_dir("unrestricted"), flush=True)
    stop_on_signals(lambda status: None, grace=0.2)  # asked to stop, it never does
    os.kill(os.getpid(), int(sys.argv[1]))
    await asyncio.sleep(60)

asyncio.run(main())
sys.exit("the process outlived its last resort")
"""


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_a_stuck_app_still_ends_and_removes_its_demo_folder(
    tmp_path: Path, stop: signal.Signals
) -> None:
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    result = subprocess.run(
        [sys.executable, "-c", STUCK_APP, str(int(stop))],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "TMPDIR": str(tmp)},
        timeout=30,
        check=False,
    )
    assert result.returncode == 128 + stop, result.stderr
    folder = Path(result.stdout.strip())
    assert folder.parent == tmp and folder.name.startswith("cloudtui-demo-")
    assert list(tmp.iterdir()) == []
