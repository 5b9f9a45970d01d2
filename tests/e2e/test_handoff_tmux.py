"""End to end: a hand-off in a real terminal. ``h`` on an instance suspends the app, a fake
``ssh`` owns the terminal until the user presses enter, and the app comes back on the same list.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.terminal import DEMO, Terminal, demo_env, tmux_session

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]

FAKE_SSH = """#!{python}
import json, os, sys
with open({log!r}, "w") as fh:
    json.dump({{"argv": sys.argv, "tty": os.isatty(0)}}, fh)
print("FAKE SSH " + " ".join(sys.argv[1:]) + " - press enter to leave", flush=True)
sys.stdin.readline()
"""


@pytest.fixture
def terminal(tmp_path: Path) -> Iterator[tuple[Terminal, Path]]:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    log = tmp_path / "ssh.json"
    ssh = bin_dir / "ssh"
    ssh.write_text(FAKE_SSH.format(python=sys.executable, log=str(log)))
    ssh.chmod(0o755)
    # Start on the instance list, as a user who set it in the config file would.
    (tmp_path / "config.toml").write_text('start_area = "instances"\n')
    env = demo_env(tmp_path, PATH=f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")
    with tmux_session(DEMO, size=(80, 24), env=env, prefix="cloudtui-handoff") as term:
        yield term, log


def test_ssh_hand_off_suspends_and_resumes_on_the_same_list(
    terminal: tuple[Terminal, Path],
) -> None:
    term, log = terminal
    term.wait_for("DEMO")
    term.wait_for("db-primary")
    term.keys("j")  # second row: web-prod-1
    term.wait_for("▶ web-prod-1")
    term.keys("h")
    screen = term.wait_for("FAKE SSH")
    assert "-p 22 root@192.0.2.2" in screen
    assert "db-primary" not in screen  # the app gave the terminal away
    record = json.loads(log.read_text())
    assert record["argv"][1:] == ["-p", "22", "root@192.0.2.2"] and record["tty"]

    term.keys("Enter")
    screen = term.wait_for("db-primary")
    assert "FAKE SSH" not in screen and "web-prod-1" in screen
    # Still on the same list with the same row: a second h goes to the same instance.
    log.unlink()
    term.keys("h")
    term.wait_for("FAKE SSH -p 22 root@192.0.2.2")
    term.keys("Enter")
    term.wait_for("db-primary")


def test_ctrl_c_stops_the_program_and_not_the_app(terminal: tuple[Terminal, Path]) -> None:
    term, _log = terminal
    term.wait_for("db-primary")
    term.keys("h")
    term.wait_for("FAKE SSH")
    term.keys("C-c")  # SIGINT to the foreground group: the fake dies, cloudtui must not
    term.wait_for("Press enter to return")
    term.keys("Enter")
    screen = term.wait_for("db-primary")
    assert "Instances" in screen
    term.keys("h")  # the app still answers keys
    term.wait_for("FAKE SSH")
    term.keys("Enter")
    term.wait_for("db-primary")


def test_a_program_that_cannot_start_gives_the_terminal_back(
    terminal: tuple[Terminal, Path], tmp_path: Path
) -> None:
    term, _log = terminal
    broken = tmp_path / "bin" / "ssh"
    broken.write_text("#!/nonexistent/interpreter\n")  # found on PATH, but exec fails
    term.wait_for("db-primary")
    term.keys("h")
    screen = term.wait_for("failed")
    assert "db-primary" in screen  # the app is back on its list, not a dead terminal
    term.keys("j")
    term.wait_for("▶ web-prod-1")
