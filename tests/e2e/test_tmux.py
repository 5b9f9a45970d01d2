"""End to end: the real ``cloudtui --demo`` in tmux, driven with send-keys and read with
capture-pane, as a user at a terminal would (no account, no network, no port)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.terminal import DEMO, Terminal, demo_env, go, tmux_session

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]


@pytest.fixture
def terminal(tmp_path: Path) -> Iterator[Terminal]:
    with tmux_session(DEMO, size=(120, 40), env=demo_env(tmp_path)) as term:
        yield term


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
    # A new volume's commands (format, mount, fstab) are offered once it exists.
    terminal.wait_for("Use the new volume: e2e-scratch")
    terminal.keys("Escape")
    terminal.wait_for("Use the new volume", gone=True)
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
