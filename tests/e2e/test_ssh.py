"""Over a real SSH connection: ``cloudtui --demo`` through ``ssh -tt`` inside tmux.

sshd runs on 127.0.0.1 on a free port with keys generated for the test (RECIPES.md, "Over
SSH"); it is stopped by its PID. Skipped, with the reason, when tmux, ssh, sshd or ssh-keygen
is missing or sshd does not start (``.ci/run`` installs openssh-server when apt-get is there).
"""

from __future__ import annotations

import getpass
import os
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.e2e.terminal import Terminal, go, tmux_session
from tests.waits import WAIT_LIMIT

SSHD = shutil.which("sshd") or ("/usr/sbin/sshd" if Path("/usr/sbin/sshd").exists() else None)
MISSING = [
    name
    for name, found in (
        ("tmux", shutil.which("tmux")),
        ("ssh", shutil.which("ssh")),
        ("ssh-keygen", shutil.which("ssh-keygen")),
        ("sshd", SSHD),
    )
    if not found
]

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(
        bool(MISSING),
        reason=f"cannot test over SSH: missing {', '.join(MISSING)} "
        "(apt-get install openssh-server openssh-client tmux)",
    ),
]

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Sshd:
    port: int
    key: Path
    user: str


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _keygen(path: Path) -> None:
    subprocess.run(
        ["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(path)],
        check=True,
        capture_output=True,
    )


@pytest.fixture(scope="module")
def sshd(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Sshd]:
    base = tmp_path_factory.mktemp("sshd")
    _keygen(base / "hostkey")
    _keygen(base / "userkey")
    authorized = base / "authorized_keys"
    authorized.write_text((base / "userkey.pub").read_text())
    authorized.chmod(0o600)
    port = _free_port()
    config = base / "sshd_config"
    config.write_text(
        "\n".join(
            [
                f"Port {port}",
                "ListenAddress 127.0.0.1",
                f"HostKey {base / 'hostkey'}",
                f"PidFile {base / 'sshd.pid'}",
                f"AuthorizedKeysFile {authorized}",
                "PasswordAuthentication no",
                "KbdInteractiveAuthentication no",
                "PermitRootLogin yes",
                "StrictModes no",
                "UsePAM no",
                "PermitUserEnvironment no",
                "",
            ]
        )
    )
    if os.geteuid() == 0:
        Path("/run/sshd").mkdir(exist_ok=True)  # privilege separation directory
    process = subprocess.Popen(
        [str(SSHD), "-D", "-e", "-f", str(config)],
        stdout=subprocess.DEVNULL,
        stderr=(base / "sshd.log").open("w"),
    )
    deadline = time.monotonic() + WAIT_LIMIT
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                break
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                log = (base / "sshd.log").read_text()[-500:]
                pytest.skip(f"sshd did not start: {log}")
            time.sleep(0.05)
    try:
        yield Sshd(port, base / "userkey", getpass.getuser())
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()


@pytest.fixture
def over_ssh(sshd: Sshd, tmp_path: Path) -> Iterator[Callable[[str], Terminal]]:
    """Starts ``cloudtui --demo`` over ssh in a tmux pane whose ssh client has ``TERM``."""
    sessions = ExitStack()

    def start(term: str) -> Terminal:
        home, tmp = tmp_path / f"home-{term}", tmp_path / f"tmp-{term}"
        home.mkdir()
        tmp.mkdir()
        remote = " ".join(
            [
                f"cd {shlex.quote(str(ROOT))} &&",
                f"HOME={shlex.quote(str(home))}",
                f"TMPDIR={shlex.quote(str(tmp))}",  # checked empty once the session is over
                f"CLOUDTUI_CONFIG={shlex.quote(str(home / 'config.toml'))}",
                f"XDG_CONFIG_HOME={shlex.quote(str(home / 'xdg'))}",
                f"{shlex.quote(sys.executable)} -m tui --demo;",
                'echo "cloudtui-exit=$?"; sleep 30',
            ]
        )
        ssh = [
            "env",
            f"TERM={term}",
            "ssh",
            "-tt",
            "-i",
            str(sshd.key),
            "-p",
            str(sshd.port),
            "-o",
            "StrictHostKeyChecking=no",
            "-o",
            "UserKnownHostsFile=/dev/null",
            "-o",
            "LogLevel=ERROR",
            "-o",
            "BatchMode=yes",
            f"{sshd.user}@127.0.0.1",
            remote,
        ]
        env = {k: v for k, v in os.environ.items() if k != "CLOUDTUI_TOKEN"}
        session = tmux_session(
            shlex.join(ssh), size=(100, 30), env=env, prefix="cloudtui-ssh", tmp_dir=tmp
        )
        return sessions.enter_context(session)

    with sessions:
        yield start


@pytest.mark.parametrize("term", ["xterm-256color", "screen"])
def test_demo_over_ssh_two_areas_a_cancelled_form_and_a_clean_exit(
    over_ssh: Callable[[str], Terminal], term: str
) -> None:
    terminal = over_ssh(term)
    terminal.wait_for("DEMO")
    terminal.wait_for("Needs attention")  # the overview is the landing area
    go(terminal, "dns", "example.com")
    screen = go(terminal, "vol", "pg-data")
    assert "Volumes" in screen
    terminal.keys("n")
    terminal.wait_for("POST /volumes")
    terminal.keys("Escape")
    terminal.wait_for("POST /volumes", gone=True)
    screen = terminal.wait_for("pg-data")
    # Nothing undrawn: no raw escape sequences or replacement characters on the screen.
    assert "\x1b" not in screen and "[?" not in screen and "\ufffd" not in screen
    terminal.keys("C-q")
    screen = terminal.wait_for("cloudtui-exit=")
    assert "cloudtui-exit=0" in screen
    assert "Traceback" not in screen


def test_a_dumb_terminal_over_ssh_is_told_it_needs_a_capable_one(
    over_ssh: Callable[[str], Terminal],
) -> None:
    terminal = over_ssh("dumb")
    screen = terminal.wait_for("cloudtui-exit=")
    assert "needs a capable terminal (TERM=dumb)" in screen.replace("\n", "")
    assert "cloudtui-exit=2" in screen
