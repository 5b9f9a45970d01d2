"""End to end: in the real ``cloudtui --demo`` at 80x24 with NO_COLOR, upload a file
into a bucket and download it back to another path; the bytes are identical (``cmp``)."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.terminal import DEMO, Terminal, demo_env, tmux_session

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
    pytest.mark.skipif(shutil.which("cmp") is None, reason="cmp is not installed"),
]


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    path = tmp_path / "work"
    path.mkdir()
    (path / "payload.bin").write_bytes(os.urandom(300_000))
    return path


@pytest.fixture
def terminal(tmp_path: Path, workdir: Path) -> Iterator[Terminal]:
    env = demo_env(tmp_path, NO_COLOR="1")
    with tmux_session(DEMO, size=(80, 24), env=env, cwd=workdir) as term:
        yield term


def test_upload_a_file_and_download_it_back(terminal: Terminal, workdir: Path) -> None:
    terminal.wait_for("DEMO")
    terminal.keys(":")
    terminal.wait_for("area or command")
    terminal.type("buckets")
    terminal.keys("Enter")
    terminal.wait_for("scratch.eu")
    terminal.keys("/")
    terminal.type("scratch")
    terminal.keys("Enter")
    terminal.wait_for("1 shown")
    terminal.keys("Enter")
    terminal.wait_for("Bucket scratch.eu")
    terminal.keys("]")
    terminal.wait_for("empty folder")

    terminal.keys("U")
    terminal.wait_for("Upload a file or directory")
    terminal.type("payl")
    terminal.keys("Tab")  # completes to payload.bin
    terminal.wait_for("payload.bin")
    terminal.keys("Enter")
    terminal.wait_for("Upload 1 file(s), 293 KB")
    terminal.keys("y")
    screen = terminal.wait_for("Finished: 1 done")
    assert "1/1 files" in screen and "293 KB / 293 KB" in screen
    terminal.keys("Enter")
    terminal.wait_for("application/octet-stream")

    out = workdir / "back"
    terminal.keys("D")
    terminal.wait_for("Download payload.bin to the directory")
    terminal.keys("C-u")
    terminal.type(str(out))
    terminal.keys("Enter")
    terminal.wait_for("Press enter again to create it")
    terminal.keys("Enter")
    terminal.wait_for("Finished: 1 done")
    terminal.keys("Enter")
    terminal.wait_for("Finished", gone=True)
    result = subprocess.run(["cmp", str(workdir / "payload.bin"), str(out / "payload.bin")])
    assert result.returncode == 0
    assert [p.name for p in out.iterdir()] == ["payload.bin"]
