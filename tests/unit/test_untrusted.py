"""The text boundary: nothing that moves the terminal survives it, and plain text goes through."""

from __future__ import annotations

import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from tui.untrusted import (
    REPLACEMENT,
    normalize_newlines,
    shown,
    unsafe_characters,
)

HOSTILE = (
    "\x1b]52;c;aGVsbG8=\x07"  # OSC 52: set the clipboard
    "\x1b[2J"  # clear the screen
    "\x1b[31m"  # colour what follows
    "\x9b31m"  # the same, as a C1 CSI
    "\x07\x08\x7f"
    "\u202eevil\u202c\u2066x\u2069\u200f"  # bidi override, isolate, mark
    "[bold]not markup[/]"
)


def _terminal_moving(char: str) -> bool:
    """Whether a terminal could act on ``char`` (a control) or reorder text around it."""
    return unicodedata.category(char) in ("Cc", "Cs") or (
        unicodedata.category(char) == "Cf" and char not in "\u200c\u200d"
    )


def test_control_characters_become_their_pictures() -> None:
    assert shown("a\x1b[2Jb") == "a␛[2Jb"
    assert shown("ring\x07") == "ring␇"
    assert shown("del\x7f") == "del␡"
    assert shown("c1\x9b31m") == f"c1{REPLACEMENT}31m"


def test_bidirectional_controls_are_neutralised() -> None:
    assert shown("invoice\u202efdp.exe") == f"invoice{REPLACEMENT}fdp.exe"
    for char in "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069":
        assert shown(char) == REPLACEMENT


def test_markup_is_left_as_text() -> None:
    assert shown("[bold red]x[/]") == "[bold red]x[/]"


def test_plain_text_wide_characters_and_joined_emoji_pass_unchanged() -> None:
    for text in ("web-prod-1", "数据库", "👩\u200d💻", "نام\u200cها", "a\u00a0b", "\ue0b0"):
        assert shown(text) == text


def test_one_line_text_shows_its_line_breaks() -> None:
    assert shown("a\nb\r\nc") == "a␊b␍␊c"
    assert shown("a\u2028b") == "a␤b"


def test_multi_line_text_keeps_lines_and_normalises_their_ends() -> None:
    assert shown("a\r\nb\rc\nd\u2029e", lines=True) == "a\nb\nc\nd\ne"
    assert shown("\tx", lines=True) == "    x"
    assert shown("a\x1b[2J\nb", lines=True) == "a␛[2J\nb"


def test_values_of_other_types() -> None:
    assert shown(None) == ""
    assert shown(42) == "42"
    assert shown(b"ok\xff\x1b") == f"ok{REPLACEMENT}␛"


def test_unsafe_characters_names_what_would_be_replaced() -> None:
    assert unsafe_characters(HOSTILE) == [c for c in HOSTILE if _terminal_moving(c)]


def test_newlines_typed_or_pasted_are_normalised_without_touching_the_rest() -> None:
    assert (
        normalize_newlines("-----BEGIN\rAAA\r\nBBB\n-----END\r")
        == "-----BEGIN\nAAA\nBBB\n-----END\n"
    )
    assert normalize_newlines("no breaks\x1b") == "no breaks\x1b"


@given(st.text())
def test_nothing_that_moves_the_terminal_survives(text: str) -> None:
    for lines in (False, True):
        out = shown(text, lines=lines)
        assert not any(_terminal_moving(c) for c in out.replace("\n", "" if lines else "\n"))
        assert shown(out, lines=lines) == out  # idempotent: shown twice is shown once
    one_line = shown(text)
    assert "\n" not in one_line and "\r" not in one_line
    assert len(one_line) == len(text)  # one character for one: indexes stay valid


@given(st.text(alphabet=st.characters(blacklist_categories=("Cc", "Cf", "Cs", "Cn", "Zl", "Zp"))))
def test_printable_text_is_untouched(text: str) -> None:
    assert shown(text) == text
