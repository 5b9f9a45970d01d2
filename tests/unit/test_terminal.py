"""A terminal that cannot draw the app is told so, before anything is drawn."""

from __future__ import annotations

import pytest

from tui.__main__ import main
from tui.session.terminal import terminal_problem


@pytest.mark.parametrize("term", ["xterm-256color", "screen", "tmux-256color", "linux", "vt100"])
def test_capable_terminals_pass(term: str) -> None:
    assert terminal_problem({"TERM": term}) is None


@pytest.mark.parametrize("environ", [{"TERM": "dumb"}, {"TERM": "unknown"}, {"TERM": ""}, {}])
def test_a_dumb_terminal_gets_a_message_saying_what_to_do(environ: dict[str, str]) -> None:
    problem = terminal_problem(environ)
    assert problem is not None
    assert "needs a capable terminal" in problem and "xterm-256color" in problem


def test_the_app_refuses_to_start_on_a_dumb_terminal(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("TERM", "dumb")
    assert main(["--demo"]) == 2
    err = capsys.readouterr().err
    assert "needs a capable terminal (TERM=dumb)" in err
