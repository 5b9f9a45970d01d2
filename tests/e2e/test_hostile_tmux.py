"""The real program on the hostile data set, in tmux with the clipboard open to OSC 52.

tmux acts on what a program writes: with ``set-clipboard on`` an OSC 52 sequence sets a paste
buffer, ``ESC [ 2 J`` clears the pane. The demo's hostile data puts both (and more) in every
label, tag, object name and error message. After a walk over the screens a user opens first,
no paste buffer exists, every byte the program wrote was recorded (``pipe-pane``) and holds no
OSC 52, C1 control or bidirectional override, and the payload shows as its pictures.
"""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest

from tests.e2e.terminal import DEMO, Terminal, demo_env, go, tmux_session

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux"),
]

VISIBLE = "␛]52;c;aG9zdGlsZQ=="
"""The OSC 52 of the hostile data, as the app shows it."""


def wait_for_bytes(path: Path, needle: bytes, deadline: float = 20.0) -> bytes:
    """What the program wrote so far, once it holds ``needle``."""
    end = time.monotonic() + deadline
    data = b""
    while time.monotonic() < end:
        data = path.read_bytes() if path.exists() else b""
        if needle in data:
            return data
        time.sleep(0.05)
    raise AssertionError(f"{needle!r} never written")


def walk(term: Terminal) -> None:
    """A list, a detail, the JSON view, a confirmation, the palette, the watchlist, the log,
    a bucket's objects and the object viewer."""
    term.wait_for("Overview")
    go(term, "instances", "db-primary")
    term.keys("Enter")
    term.wait_for("Instance db-primary")
    term.keys("J")
    term.wait_for("JSON:")
    term.keys("Escape")
    term.wait_for("JSON:", gone=True)
    term.keys("Escape")
    term.wait_for("12 results")
    term.keys("d")
    term.wait_for("This cannot be undone. Type")
    term.keys("Escape")
    term.wait_for("This cannot be undone. Type", gone=True)
    term.keys("b")
    term.wait_for("Bookmarked")
    term.keys("C-p")
    term.type("web")
    term.wait_for("instance · Instances")  # a hit of the palette, under its label
    term.keys("Escape")
    term.wait_for("instance · Instances", gone=True)
    go(term, "watch", "1 bookmarked")  # the watchlist's own title (the sidebar names it too)
    go(term, "buckets", "Access keys")  # the area's tabs
    term.wait_for("cloudtui-site")


def test_hostile_names_neither_set_the_clipboard_nor_move_the_terminal(tmp_path: Path) -> None:
    written = tmp_path / "written.bin"
    env = demo_env(tmp_path)
    with tmux_session(
        f"{DEMO} --demo-data hostile", size=(120, 40), env=env, prefix="cloudtui-hostile"
    ) as term:
        term.tmux("set-option", "-g", "set-clipboard", "on")
        term.tmux("pipe-pane", "-t", "app", "-o", f"cat >> {written}")
        walk(term)
        assert VISIBLE in term.screen() or VISIBLE.encode() in written.read_bytes()
        data = wait_for_bytes(written, VISIBLE.encode())
        buffers = term.tmux("list-buffers")
    assert buffers == "", f"the clipboard was set: {buffers!r}"
    assert b"\x1b]52" not in data
    assert b"\xc2\x9b" not in data  # C1 CSI
    assert "\u202e".encode() not in data and "\u2066".encode() not in data
    assert b"\x07\x08\x7f" not in data
