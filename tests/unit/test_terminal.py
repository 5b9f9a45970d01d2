"""A terminal that cannot draw the app, or output that is not a terminal, is told so before
anything is drawn."""

from __future__ import annotations

import io
import os
from collections.abc import Iterator
from typing import TextIO

import pytest

from tui.__main__ import main
from tui.session.terminal import output_problem, terminal_problem


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


@pytest.fixture
def terminal() -> Iterator[TextIO]:
    """One end of a pseudo-terminal, as a text stream."""
    main_end, other_end = os.openpty()
    try:
        with open(other_end, "w", encoding="utf-8") as stream:
            yield stream
    finally:
        os.close(main_end)


def test_output_to_terminals_passes(terminal: TextIO) -> None:
    assert output_problem(terminal, terminal) is None


def test_output_not_to_a_terminal_is_named_in_one_line(terminal: TextIO) -> None:
    redirected = io.StringIO()
    both = output_problem(redirected, redirected)
    assert both is not None and "\n" not in both
    assert "standard output and standard error are not a terminal" in both
    assert output_problem(redirected, terminal) == both.replace(
        "standard output and standard error are", "standard output is"
    )
    only_errors = output_problem(terminal, None)
    assert only_errors is not None and "its standard error is not a terminal" in only_errors


def test_the_app_refuses_to_start_when_its_output_is_redirected(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("TERM", "xterm-256color")
    assert main(["--demo"]) == 2  # pytest's capture is no terminal
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert "not a terminal" in err and "doctor, profiles, sim" in err
