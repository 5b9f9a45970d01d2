"""Problems written back into a document, at the lines they concern, as ``kubectl edit`` does.

A problem becomes comment lines starting with ``# !`` right above the line it is about (the
field's ``key = value`` line, else its entry's ``[[table]]`` header, else the top), and a
summary goes at the top; the user fixes the text in the editor and saves again. Those lines
are removed before the text is read again, so they never pile up. The comment sign is a
parameter: a zone file's notes are ``; !`` lines (:func:`tui.dns.zone_plan.text_with_errors`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from tui.session.config_keys import key_pattern
from tui.textedit.toml_text import escaped

NOTE = "# ! "
"""How a line written by cloudtui into a TOML document starts."""

_TRIPLE = re.compile(r'(?<!\\)("""|\'\'\')')
_ANY_HEADER = re.compile(r"^\s*\[")


@dataclass(frozen=True)
class Problem:
    """Something in the document that stops it from being sent.

    Attributes:
        message: What is wrong, in words.
        line: 1-based line it is about (None: the document as a whole).
    """

    message: str
    line: int | None = None


def _in_strings(lines: Sequence[str]) -> list[bool]:
    """Per line, whether it starts inside a multi-line string (a script's ``# ! x`` line is
    text, not a note)."""
    inside: list[bool] = []
    quote: str | None = None
    for line in lines:
        inside.append(quote is not None)
        for match in _TRIPLE.finditer(line):
            if quote is None:
                quote = match.group(1)
            elif match.group(1) == quote:
                quote = None
    return inside


def _note_line(comment: str) -> re.Pattern[str]:
    return re.compile(r"^\s*" + re.escape(comment) + " ! ")


def without_notes(text: str, comment: str = "#") -> str:
    """``text`` without the note lines (``# !``) an earlier round wrote into it.

    Args:
        text: The document.
        comment: The document's comment sign (``;`` in a zone file).
    """
    note = _note_line(comment)
    lines = text.splitlines()
    inside = _in_strings(lines)
    kept = [
        line for line, quoted in zip(lines, inside, strict=True) if quoted or not note.match(line)
    ]
    return "\n".join(kept) + ("\n" if text.endswith("\n") else "")


def _entry_headers(lines: Sequence[str], table: str) -> list[int]:
    header = re.compile(r"^\s*\[\[\s*" + key_pattern([table]) + r"\s*\]\]")
    return [n for n, line in enumerate(lines) if header.match(line)]


def _span(lines: Sequence[str], table: str, index: int) -> tuple[int, int] | None:
    """0-based lines ``[start, end)`` of the entry ``index`` (its header first)."""
    headers = _entry_headers(lines, table)
    if index >= len(headers):
        return None
    start = headers[index]
    end = headers[index + 1] if index + 1 < len(headers) else len(lines)
    return start, end


def entry_line(text: str, table: str, index: int) -> int | None:
    """1-based line of the header of entry ``index`` (0-based) of ``[[table]]``."""
    span = _span(text.splitlines(), table, index)
    return span[0] + 1 if span else None


def field_line(text: str, table: str, index: int, path: Sequence[str]) -> int | None:
    """1-based line where entry ``index`` gives the field ``path``; its header when none does.

    Dotted keys (``alerts.cpu = 1``) and sub-tables (``[instance.alerts]`` then ``cpu = 1``)
    are both found.
    """
    lines = text.splitlines()
    span = _span(lines, table, index)
    if span is None:
        return None
    start, end = span
    sections = [start] + [n for n in range(start + 1, end) if _ANY_HEADER.match(lines[n])]
    for number, section in enumerate(sections):
        stop = sections[number + 1] if number + 1 < len(sections) else end
        rest = list(path)
        if section != start:
            for length in range(len(path) - 1, 0, -1):
                sub = re.compile(r"^\s*\[\s*" + key_pattern([table, *path[:length]]) + r"\s*\]")
                if sub.match(lines[section]):
                    rest = list(path[length:])
                    break
            else:
                continue
        assignment = re.compile(r"^\s*" + key_pattern(rest) + r"\s*=")
        for line in range(section + 1, stop):
            if assignment.match(lines[line]):
                return line + 1
    return start + 1


def with_problems(
    text: str,
    problems: Iterable[Problem],
    comment: str = "#",
    then: str = "and save again (or empty the file to cancel).",
) -> str:
    """``text`` with each problem written above its line and a summary at the top; notes of
    an earlier round are dropped. Without problems: ``text`` without those notes.

    Args:
        text: The document the problems' line numbers refer to.
        problems: What to write.
        comment: The document's comment sign (``;`` in a zone file).
        then: The end of the summary: what to do once the lines are fixed.
    """
    mark = f"{comment} ! "
    note = _note_line(comment)
    problems = list(problems)
    lines = text.splitlines()
    inside = _in_strings(lines)
    above: dict[int, list[str]] = {}
    for problem in problems:
        at = problem.line - 1 if problem.line and 0 < problem.line <= len(lines) else 0
        while at > 0 and inside[at]:
            at -= 1  # above the line that opens the string, not inside its text
        above.setdefault(at, []).append(problem.message)
    out: list[str] = []
    if problems:
        out.append(
            f"{mark}{len(problems)} problem(s) kept this from being sent: fix the lines "
            f"marked '{mark.strip()}' below"
        )
        out.append(f"{mark}{then}")
    for number, line in enumerate(lines):
        indent = line[: len(line) - len(line.lstrip())]
        out.extend(f"{indent}{mark}{escaped(message)}" for message in above.get(number, ()))
        if inside[number] or not note.match(line):
            out.append(line)
    return "\n".join(out) + ("\n" if out else "")
