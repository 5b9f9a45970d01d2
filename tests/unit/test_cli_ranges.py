"""Every range-checked flag of every command names its range in ``--help``.

The flags are found in the parser itself (each whose type checks a range), so a flag added
later is checked too.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterator

import pytest

from tui.__main__ import _parser


def parsers(parser: argparse.ArgumentParser) -> Iterator[argparse.ArgumentParser]:
    """``parser`` and the parser of every subcommand below it."""
    yield parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                yield from parsers(sub)


def ranged_flags() -> list[tuple[argparse.ArgumentParser, argparse.Action, str]]:
    """(parser, flag, its range in words) for every flag whose value is range-checked."""
    return [
        (parser, action, action.type.span)  # type: ignore[union-attr]
        for parser in parsers(_parser())
        for action in parser._actions
        if isinstance(getattr(action.type, "span", None), str)
    ]


def help_of(parser: argparse.ArgumentParser, flag: str) -> str:
    """The text ``--help`` shows for ``flag``: its line and the lines its help wraps onto."""
    text = parser.format_help()
    found = re.search(rf"^  {re.escape(flag)}\b.*?(?=^  -|^\S|\Z)", text, re.M | re.S)
    assert found is not None, f"{flag} is not in {parser.prog} --help"
    return " ".join(found.group(0).split())


def test_the_walk_finds_the_range_checked_flags_of_every_command() -> None:
    found = {(p.prog, a.option_strings[-1]) for p, a, _span in ranged_flags()}
    assert ("cloudtui", "--demo-latency") in found
    assert ("cloudtui sim", "--port") in found and ("cloudtui sim", "--rate-limit") in found
    assert len(found) >= 12


@pytest.mark.parametrize("columns", ["80", "400"])
def test_every_range_checked_flag_names_its_range_in_its_help(
    columns: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", columns)  # wrapped as a terminal of that width wraps it
    missing = [
        f"{parser.prog} {action.option_strings[-1]}: no {span!r} in {shown!r}"
        for parser, action, span in ranged_flags()
        if span not in (shown := help_of(parser, action.option_strings[-1]))
    ]
    assert missing == []


def test_the_range_in_the_help_is_the_one_the_flag_enforces(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as refused:
        _parser().parse_args(["sim", "--port", "70000"])
    assert refused.value.code == 2
    assert "from 0 to 65535" in capsys.readouterr().err
    assert "from 0 to 65535" in help_of(
        next(p for p in parsers(_parser()) if p.prog == "cloudtui sim"), "--port"
    )
