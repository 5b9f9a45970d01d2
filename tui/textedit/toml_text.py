"""TOML values written for a person to edit, and a document read back.

TOML rather than YAML: its strings are always quoted, so a label like ``no``, ``on`` or
``1e3`` stays text (YAML's implicit typing makes them a boolean or a number), its booleans are
only ``true`` and ``false``, and the config file is TOML too (one syntax to know).

Values are written so the file shows exactly what they hold and nothing else: every character
that is not printable (controls, escape sequences, bidirectional overrides, zero-width
characters) is written as a ``\\uXXXX`` escape, so an editor can neither obey nor hide it, and
the value read back is the same. Reading uses tomlkit, whose errors carry a line number.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

import tomlkit
from tomlkit.exceptions import ParseError

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
_SHORT_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\f": "\\f", "\r": "\\r"}


class TomlSyntaxError(ValueError):
    """The text is not TOML.

    Attributes:
        line: 1-based line of the problem, when known.
        reason: What is wrong, without the position.
    """

    def __init__(self, reason: str, line: int | None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.line = line


def toml_key(path: Sequence[str]) -> str:
    """A dotted key: bare parts where TOML allows them, quoted ones elsewhere."""
    return ".".join(
        part if _BARE_KEY.fullmatch(part) else toml_string(part, multiline=False) for part in path
    )


def _escape(char: str, multiline: bool) -> str:
    if char in _SHORT_ESCAPES:
        return _SHORT_ESCAPES[char]
    if char == "\n":
        return "\n" if multiline else "\\n"
    if char == " " or char.isprintable():
        return char
    code = ord(char)
    if 0xD800 <= code <= 0xDFFF:
        return "\\uFFFD"  # a lone surrogate has no TOML escape; the value read back differs
    return f"\\u{code:04X}" if code <= 0xFFFF else f"\\U{code:08X}"


def escaped(text: str) -> str:
    """``text`` on one line with every unprintable character escaped (for a comment)."""
    return "".join(_escape(char, False) for char in text)


def toml_string(text: str, *, multiline: bool = True) -> str:
    """``text`` as a TOML basic string; multi-line (``\"\"\"``) when it holds line breaks
    and ``multiline`` allows it."""
    multiline = multiline and "\n" in text
    if multiline:
        # A script's quotes stay as they are, but for a quote next to another or at the end:
        # two raw quotes side by side could make the closing delimiter.
        body = "".join(
            '"' if char == '"' and text[i + 1 : i + 2] not in ('"', "") else _escape(char, True)
            for i, char in enumerate(text)
        )
    else:
        body = "".join(_escape(char, False) for char in text)
    # A line break right after the opening quotes is not part of the value: it keeps the
    # first line of a script at the start of a line.
    return f'"""\n{body}"""' if multiline else f'"{body}"'


def toml_value(value: Any) -> str:
    """A value as TOML text (inline arrays and tables for lists and objects).

    Raises:
        ValueError: ``value`` is None (TOML has no null).
    """
    if value is None:
        raise ValueError("TOML has no null")
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return toml_string(value)
    if isinstance(value, Mapping):
        parts = [
            f"{toml_key([str(k)])} = {toml_value(v)}" for k, v in value.items() if v is not None
        ]
        return "{" + ", ".join(parts) + "}" if parts else "{}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(toml_value(v) for v in value if v is not None) + "]"
    return toml_string(str(value))


def parse_toml(text: str) -> dict[str, Any]:
    """The document as plain Python values.

    Raises:
        TomlSyntaxError: The text is not TOML (with the line of the problem).
    """
    try:
        document = tomlkit.parse(text)
    except ParseError as error:
        reason = re.sub(r"\s+at line \d+ col \d+$", "", str(error))
        raise TomlSyntaxError(reason, error.line) from None
    unwrapped: dict[str, Any] = document.unwrap()
    return unwrapped
