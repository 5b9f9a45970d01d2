"""The command line's edges, as real processes: a state file in a missing folder, output that is
not a terminal, and the commands that print working through pipes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DEADLINE = 60.0
"""Seconds a command may take before the test gives up on it (it should take about one)."""


def cloudtui(
    *args: str, stdin: int = subprocess.DEVNULL, stdout: int = subprocess.PIPE
) -> subprocess.CompletedProcess[str]:
    """``cloudtui ARGS`` from this checkout with a capable TERM; standard error is captured, and
    standard output unless ``stdout`` says where it goes."""
    return subprocess.run(
        [sys.executable, "-m", "tui", *args],
        stdin=stdin,
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env={**os.environ, "TERM": "xterm-256color"},  # the config and home are the test's own
        timeout=DEADLINE,
        check=False,
    )


def test_sim_with_a_state_file_in_a_missing_folder_says_so_in_one_line(tmp_path: Path) -> None:
    state = tmp_path / "no-such-folder" / "state.json"
    result = cloudtui("sim", "--port", "0", "--state", str(state))
    assert result.returncode == 2
    assert result.stdout == ""  # nothing announced: the simulator never served
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert result.stderr.startswith(f"cloudtui sim: {state}: cannot save the state there")
    assert f"the folder {state.parent} does not exist" in result.stderr
    assert not state.parent.exists()  # not made behind the user's back


def test_the_app_refuses_output_that_is_not_a_terminal_in_one_line() -> None:
    result = cloudtui("--demo")
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1
    assert "standard output and standard error are not a terminal" in result.stderr


def test_the_app_names_standard_error_when_only_it_is_redirected() -> None:
    main_end, terminal = os.openpty()
    try:
        result = cloudtui("--demo", stdin=terminal, stdout=terminal)
    finally:
        os.close(terminal)
        os.close(main_end)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1
    assert "its standard error is not a terminal" in result.stderr


def test_the_commands_that_print_work_through_pipes() -> None:
    profiles = cloudtui("profiles")
    assert profiles.returncode == 0, profiles.stderr
    assert profiles.stdout.startswith("No profiles yet")
    doctor = cloudtui("doctor", "--demo", "--json")
    assert doctor.returncode == 0, doctor.stderr
    report = json.loads(doctor.stdout)
    assert report["ok"] is True
    terminal_size = next(c for c in report["checks"] if c["name"] == "terminal size")
    assert terminal_size["status"] == "skip"  # said, not failed
    help_text = cloudtui("sim", "--help")
    assert help_text.returncode == 0 and "--state FILE" in help_text.stdout
