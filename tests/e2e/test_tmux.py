"""End to end: the real ``cloudtui --demo`` in tmux, driven with send-keys and read with
capture-pane, as a user at a terminal would (no account, no network, no port).

Each step waits for what the user would wait for (text on the screen) with a deadline; nothing
sleeps a fixed time and hopes.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]

DEADLINE = 20.0


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


@pytest.fixture
def terminal(tmp_path: Path) -> Iterator[Terminal]:
    socket = f"cloudtui-e2e-{uuid.uuid4().hex[:8]}"
    term = Terminal(socket, "app")
    env = {
        **os.environ,
        "HOME": str(tmp_path),
        "CLOUDTUI_CONFIG": str(tmp_path / "config.toml"),
        "XDG_CONFIG_HOME": str(tmp_path / "xdg"),
        "TERM": "xterm-256color",
    }
    env.pop("CLOUDTUI_TOKEN", None)
    command = f"{sys.executable} -m tui --demo"
    size = ["-x", "120", "-y", "40"]
    subprocess.run(
        ["tmux", "-L", socket, "new-session", "-d", "-s", "app", *size, command],
        check=True,
        env=env,
    )
    # With no client attached tmux may fall back to its default size; pin the window's.
    term.tmux("set-option", "-t", "app", "window-size", "manual")
    term.tmux("resize-window", "-t", "app", *size)
    try:
        yield term
    finally:
        subprocess.run(["tmux", "-L", socket, "kill-server"], capture_output=True, check=False)


def go(term: Terminal, command: str, expect: str) -> str:
    term.keys(":")
    term.wait_for("area or command")
    term.type(command)
    term.keys("Enter")
    return term.wait_for(expect)


def test_demo_start_three_areas_a_create_and_a_delete(terminal: Terminal) -> None:
    terminal.wait_for("DEMO")
    terminal.wait_for("Needs attention")  # the overview is the landing area
    go(terminal, "instances", "results")

    go(terminal, "dns", "example.com")
    go(terminal, "k8s", "shop-prod")
    screen = go(terminal, "vol", "pg-data")
    assert "Volumes" in screen

    # Create a volume through the generated form.
    # Focus moves asynchronously: wait until the focused row's marker (❯) says where it is
    # before typing, as a user would look before typing.
    terminal.keys("n")
    terminal.wait_for("POST /volumes")
    terminal.wait_for("❯")
    terminal.type("e2e-scratch")
    terminal.wait_for("❯ e2e-scratch")
    terminal.keys("Tab")
    terminal.wait_for("› e2e-scratch")
    terminal.type("25")
    terminal.wait_for("❯ 25")
    terminal.keys("Tab")
    terminal.wait_for("❯ (not set)")
    terminal.keys("Enter")  # open the region chooser
    terminal.wait_for("Choose region")
    terminal.type("us-east")
    terminal.keys("Enter")
    terminal.wait_for("❯ us-east")
    terminal.keys("C-s")
    terminal.wait_for("price not given")  # billed: the price is confirmed first
    terminal.keys("y")
    terminal.wait_for("POST /volumes", gone=True)
    terminal.wait_for("e2e-scratch")

    # Delete it: the label must be typed to confirm.
    terminal.keys("/")
    terminal.wait_for("filter…")
    terminal.type("e2e-scratch")
    terminal.keys("Enter")
    terminal.wait_for("pg-data", gone=True)  # the filter leaves only the new volume
    terminal.keys("d")
    terminal.wait_for("This cannot be undone")
    terminal.wait_for("enter confirm")
    terminal.type("e2e-scratch")
    terminal.keys("Enter")
    terminal.wait_for("No rows match the filter")
    assert "▶ e2e-scratch" not in terminal.screen()  # no row left under the filter

    terminal.keys("C-q")
