"""End to end in a real terminal: three marked instances edited as one document in $EDITOR
(a script that rewrites the file), a foreground plugin that suspends and resumes the app, and
the ``:`` history recalled after a restart."""

from __future__ import annotations

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

EDITOR = """#!{python}
import re, sys
path = sys.argv[-1]
text = open(path, encoding="utf-8").read()
text = re.sub(r'^label = "([^"]*)"', r'label = "\\1-ed"', text, flags=re.M)
text = re.sub(r'^tags = \\[', 'tags = ["edited", ', text, flags=re.M)
open(path, "w", encoding="utf-8").write(text.replace('"edited", ]', '"edited"]'))
"""

FAKE_PING = """#!{python}
import sys
print("FAKE PING " + " ".join(sys.argv[1:]) + " - press enter to leave", flush=True)
sys.stdin.readline()
"""

CONFIG = """start_area = "instances"

[[plugins]]
key = "P"
areas = ["instances"]
title = "Ping"
command = ["ping", "-c1", "{ipv4}"]
confirm = false
"""


@pytest.fixture
def home(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name, script in (("edit-labels", EDITOR), ("ping", FAKE_PING)):
        path = bin_dir / name
        path.write_text(script.format(python=sys.executable))
        path.chmod(0o755)
    (tmp_path / "config.toml").write_text(CONFIG)
    path = f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"
    env = demo_env(tmp_path, PATH=path, EDITOR=str(bin_dir / "edit-labels"), VISUAL="")
    return tmp_path, env


@pytest.fixture
def terminal(home: tuple[Path, dict[str, str]]) -> Iterator[Terminal]:
    with tmux_session(DEMO, size=(80, 24), env=home[1], prefix="cloudtui-extend") as term:
        yield term


def test_three_marked_instances_are_edited_as_one_document(terminal: Terminal) -> None:
    term = terminal
    term.wait_for("db-primary")
    term.keys("Space", "Space", "Space")
    term.wait_for("3 marked")
    term.keys("E")
    screen = term.wait_for("Change 3 instances")
    assert '"label": "db-primary-ed"' in screen or "db-primary-ed" in screen
    term.keys("y")
    screen = term.wait_for("3 instances changed")
    for label in ("db-primary-ed", "web-prod-1-ed", "web-prod-2-ed"):
        assert label in screen


def test_a_foreground_plugin_suspends_and_resumes(terminal: Terminal) -> None:
    term = terminal
    term.wait_for("db-primary")
    term.wait_for("P Ping")  # the footer shows the plugin's key
    term.keys("j")
    term.wait_for("▶ web-prod-1")
    term.keys("P")
    screen = term.wait_for("FAKE PING -c1 192.0.2.2")
    assert "db-primary" not in screen  # the app gave the terminal away
    term.keys("Enter")
    screen = term.wait_for("db-primary")
    assert "▶ web-prod-1" in screen


def test_colon_up_recalls_a_command_after_a_restart(home: tuple[Path, dict[str, str]]) -> None:
    env = home[1]
    with tmux_session(DEMO, size=(80, 24), env=env, prefix="cloudtui-extend") as term:
        term.wait_for("db-primary")
        term.keys(":")
        term.type("fanout instances")
        term.keys("Enter")
        term.wait_for("No profiles")
        term.keys("C-q")
    with tmux_session(DEMO, size=(80, 24), env=env, prefix="cloudtui-extend") as term:
        term.wait_for("db-primary")
        term.keys(":")
        term.wait_for("area or command")
        term.keys("Up")
        term.wait_for("fanout instances")
