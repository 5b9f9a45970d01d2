"""The one boundary for text that other people wrote (headless).

Labels, tags, object names and contents, contact names, record targets, script text, file
names, another program's output, a server's error reason and config values are written by
somebody else. A terminal obeys what such text holds: ``ESC ] 52`` sets the clipboard,
``ESC [ 2 J`` clears the screen, a bidirectional override turns ``exe.txt`` into ``txt.exe``.
Every such string becomes display text through :func:`shown` before any title, notification,
confirmation, cell, palette entry, help line or log line takes it:

- C0 controls, DEL and ESC become their visible pictures (``␛``, ``␇``, ``␡``); C1 controls,
  bidirectional overrides, isolates and marks, other invisible format characters, lone
  surrogates and unassigned code points become ``�``. Each is replaced by exactly one
  character, so an index into the raw text is an index into the shown text.
- Markup is never interpreted: the result is plain ``str``, and the UI renders it literally
  (``rich.text.Text``, ``markup=False``), never parsed as markup.

``Shown`` marks a string that went through the boundary, so a function can ask for one in its
signature; the structure test holds its callers to it.
"""

from __future__ import annotations

import unicodedata
from typing import TypeAlias

Shown: TypeAlias = str
"""Text that went through :func:`shown` (or was written in this code base): safe to put on the
terminal as it is. A parameter, field or return annotated ``Shown`` is held to it by the
structure test of the text boundary (``tests/test_text_boundary.py``), which follows such
values from where they are made to where they are drawn."""

REPLACEMENT = "\ufffd"
"""What a character with no picture of its own reads as: ``�``."""

TAB_SIZE = 4
"""Columns a tab stands for in multi-line text (a tab itself would move the terminal's cursor)."""

_KEPT_FORMAT = frozenset({"\u200c", "\u200d"})
# Zero-width (non-)joiners hold emoji sequences and Indic and Persian words together; they
# neither move the cursor nor reorder text.

_NEWLINE_PICTURE = "\u2424"  # ␤: a Unicode line or paragraph separator inside one-line text


class _Pictures(dict[int, str]):
    """``str.translate`` table: each character maps to itself or to its one-character picture,
    computed on first sight (the slow path only ever sees text that is not printable)."""

    def __missing__(self, code: int) -> str:
        picture = _picture(chr(code))
        self[code] = picture
        return picture


def _picture(char: str) -> str:
    """The one character that ``char`` is shown as in one-line text."""
    code = ord(char)
    if code < 0x20:
        return chr(0x2400 + code)  # the Control Pictures block: ␀ … ␛ … ␟
    if code == 0x7F:
        return "\u2421"  # ␡
    if char in _KEPT_FORMAT or char.isprintable():
        return char
    category = unicodedata.category(char)
    if category == "Zs":
        return char  # a space of another width (no-break, ideographic): harmless
    if category in ("Zl", "Zp"):
        return _NEWLINE_PICTURE
    if category == "Co":
        return char  # private use: icon fonts; drawn like any other glyph
    return REPLACEMENT  # Cc (C1), Cf (bidi, zero-width), Cs (lone surrogate), Cn (unassigned)


_ONE_LINE = _Pictures()


def shown(value: object, *, lines: bool = False) -> Shown:
    """Display text of a value that somebody else wrote.

    Args:
        value: Any value; ``None`` reads as ``""``, bytes are decoded as UTF-8 (bad bytes become
            ``�``), anything else is ``str(value)``.
        lines: Keep line breaks: CR and CRLF become LF (a terminal's paste sends CR), tabs
            become spaces. Otherwise line breaks become ``␤`` and the text is one line.

    Returns:
        Text with no control character, no bidirectional control and no invisible format
        character left in it. Applying it twice changes nothing.
    """
    if value is None:
        return ""
    if isinstance(value, bytes | bytearray):
        text = bytes(value).decode("utf-8", errors="replace")
    else:
        text = value if isinstance(value, str) else str(value)
    if text.isprintable():
        return text  # the common case, checked in C: 10,000-row lists stay fast
    if not lines:
        return text.translate(_ONE_LINE)
    return "\n".join(_line(line) for line in _split_lines(text))


def _split_lines(text: str) -> list[str]:
    """``text`` cut at every line break: LF, CR, CRLF and the Unicode line separators."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    for separator in ("\u2028", "\u2029"):
        text = text.replace(separator, "\n")
    return text.split("\n")


def _line(line: str) -> str:
    if "\t" in line:
        line = line.expandtabs(TAB_SIZE)
    return line if line.isprintable() else line.translate(_ONE_LINE)


def is_shown(text: str, *, lines: bool = False) -> bool:
    """Whether ``text`` would come out of :func:`shown` unchanged (nothing in it to replace)."""
    return shown(text, lines=lines) == text


def normalize_newlines(text: str) -> str:
    """``text`` with CR and CRLF line ends made LF and nothing else changed.

    For values the user typed or pasted and that are sent, not shown: a terminal sends a
    paste's line breaks as CR, and a PEM key or a script must reach the API with LF.
    """
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def typeable(text: str) -> str:
    """``text`` without the characters :func:`shown` would replace: what a user can type of it.

    A confirmation that asks for a label to be typed compares against this, since nobody can
    type an escape character or a bidirectional override into a text field.
    """
    if text.isprintable():
        return text
    return "".join(char for char in text if _ONE_LINE[ord(char)] == char)


def unsafe_characters(text: str) -> list[str]:
    """The characters of ``text`` that :func:`shown` would replace in one-line text."""
    return [char for char in text if _ONE_LINE[ord(char)] != char]


__all__ = [
    "REPLACEMENT",
    "TAB_SIZE",
    "Shown",
    "is_shown",
    "normalize_newlines",
    "shown",
    "typeable",
    "unsafe_characters",
]
