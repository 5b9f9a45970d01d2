"""Driving a real terminal for the end-to-end tests: tmux on a private socket, keys sent with
send-keys, the screen read with capture-pane, as a user at a terminal would.

Each step waits for what the user would wait for (text on the screen) with a deadline; nothing
sleeps a fixed time and hopes.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

from tests.waits import WAIT_LIMIT

DEMO = f"{sys.executable} -m tui --demo"
"""The command that starts ``cloudtui --demo`` from this checkout's interpreter."""

DEADLINE = WAIT_LIMIT
"""Seconds :meth:`Terminal.wait_for` allows: only a hang gets there, however busy the machine."""


class Terminal:
    """One tmux session on a private server socket."""

    def __init__(self, socket: str, session: str) -> None:
        self.socket = socket
        self.session = session

    def tmux(self, *args: str) -> str:
        result = subprocess.run(
            ["tmux", "-L", self.socket, *args], capture_output=True, text=True, check=True
        )
        return result.stdout

    def keys(self, *keys: str) -> None:
        """Send key names (``Enter``, ``Escape``, ``Tab``, ``C-s`` ...)."""
        for key in keys:
            self.tmux("send-keys", "-t", self.session, key)

    def type(self, text: str) -> None:
        """Send literal text."""
        self.tmux("send-keys", "-t", self.session, "-l", text)

    def screen(self) -> str:
        """What the terminal shows now."""
        return self.tmux("capture-pane", "-t", self.session, "-p")

    def wait_for(self, text: str, *, gone: bool = False) -> str:
        """Poll the screen until ``text`` appears (or, with ``gone``, disappears)."""
        deadline = time.monotonic() + DEADLINE
        screen = ""
        while time.monotonic() < deadline:
            screen = self.screen()
            if (text in screen) != gone:
                return screen
            time.sleep(0.05)
        state = "still shown" if gone else "never shown"
        raise AssertionError(f"{text!r} {state}; the screen is:\n{screen}")


def demo_env(home: Path, **extra: str) -> dict[str, str]:
    """This process's environment with ``home`` as HOME and config folders, a capable TERM,
    no API token, and ``extra`` on top."""
    env = {
        **os.environ,
        "HOME": str(home),
        "CLOUDTUI_CONFIG": str(home / "config.toml"),
        "XDG_CONFIG_HOME": str(home / "xdg"),
        "TERM": "xterm-256color",
        **extra,
    }
    env.pop("CLOUDTUI_TOKEN", None)
    return env


@contextmanager
def tmux_session(
    command: str,
    *,
    size: tuple[int, int],
    env: Mapping[str, str],
    cwd: Path | None = None,
    prefix: str = "cloudtui-e2e",
    tmp_dir: Path | None = None,
) -> Iterator[Terminal]:
    """``command`` in a tmux server of its own (a private socket), killed when done.

    The command's temporary files go to a folder of their own (``TMPDIR``). Killing the server
    hangs up on the command, as closing a terminal window does; the folder must then be left
    empty (a demo removes its own folder when it ends), or the test fails naming what is left.

    Args:
        command: Shell command the session runs.
        size: Columns and rows of the window.
        env: Environment of the tmux server (and so of the command).
        cwd: Working folder of the command.
        prefix: Start of the socket's name (a random suffix keeps tests apart).
        tmp_dir: That temporary folder, for a command that does not take ``TMPDIR`` from
            ``env`` (one run over ssh is given it in its own command line); by default a new
            one, removed afterwards.
    """
    socket = f"{prefix}-{uuid.uuid4().hex[:8]}"
    term = Terminal(socket, "app")
    geometry = ["-x", str(size[0]), "-y", str(size[1])]
    where = ["-c", str(cwd)] if cwd is not None else []
    tmp = Path(tempfile.mkdtemp(prefix=f"{prefix}-tmp-")) if tmp_dir is None else tmp_dir
    subprocess.run(
        [
            *("tmux", "-L", socket, "-f", "/dev/null"),
            *("new-session", "-d", "-s", "app", *where, *geometry, command),
        ],
        check=True,
        env={**env, "TMPDIR": str(tmp)},
    )
    try:
        # With no client attached tmux may fall back to its default size; pin the window's.
        term.tmux("set-option", "-t", "app", "window-size", "manual")
        term.tmux("resize-window", "-t", "app", *geometry)
        yield term
    finally:
        subprocess.run(["tmux", "-L", socket, "kill-server"], capture_output=True, check=False)
        left = left_behind(tmp)
        if tmp_dir is None:
            shutil.rmtree(tmp, ignore_errors=True)
    # Not reached when the test failed: its own error says more.
    assert left == [], f"{command!r} left temporary files behind: {left}"


def left_behind(folder: Path) -> list[str]:
    """What is still in ``folder`` once the programs that wrote there had until the deadline
    to end (a program hung up on needs a moment to remove its files)."""
    deadline = time.monotonic() + DEADLINE
    while True:
        left = sorted(entry.name for entry in folder.iterdir()) if folder.exists() else []
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.05)


def go(term: Terminal, command: str, expect: str) -> str:
    term.keys(":")
    term.wait_for("area or command")
    term.type(command)
    term.keys("Enter")
    return term.wait_for(expect)
