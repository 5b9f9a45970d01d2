"""Public SSH keys offered as choices: read from ``~/.ssh/*.pub`` (a temporary home here) and
from the profile, each with its comment and its fingerprint as ``ssh-keygen -lf`` prints it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tui.resources.adapters import ADAPTERS
from tui.resources.local_keys import (
    MAX_PUB_FILE_BYTES,
    fingerprint,
    local_public_keys,
    parse_key,
    ssh_folder,
)

# Made with ``ssh-keygen -t ed25519 -C test@fc``; ``ssh-keygen -lf`` printed the fingerprint.
KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHBRw170QtFanrmRo238pE+Eq4kY66k933Co+JLKw7DD test@fc"
KEY_FINGERPRINT = "SHA256:q9e0mUSTwhZN1hlkc3rRNR2D49hnCgIZfJEnDYObb3I"


def test_the_fingerprint_is_the_one_ssh_keygen_prints() -> None:
    assert fingerprint(KEY.split()[1]) == KEY_FINGERPRINT
    key = parse_key(KEY)
    assert key is not None
    assert (key.kind, key.comment, key.fingerprint) == ("ssh-ed25519", "test@fc", KEY_FINGERPRINT)
    with pytest.raises(ValueError):
        fingerprint("not base64!")


def test_lines_that_are_not_keys_are_not_offered() -> None:
    blob = KEY.split()[1]
    assert parse_key("") is None
    assert parse_key("# a comment") is None
    assert parse_key(f'from="10.0.0.1" ssh-ed25519 {blob}') is None  # options first
    assert parse_key(f"ssh-ed25519-cert-v01@openssh.com {blob} me") is None  # a certificate
    assert parse_key("ssh-ed25519 !!!notbase64!!! me") is None
    bare = parse_key(f"ssh-ed25519 {blob}")
    assert bare is not None and bare.comment == "" and bare.line == f"ssh-ed25519 {blob}"


def _ssh_folder() -> Path:
    """``~/.ssh`` of the test's own home (conftest gives every test one)."""
    ssh = Path(os.environ["HOME"]) / ".ssh"
    ssh.mkdir(mode=0o700)
    return ssh


def test_the_public_keys_of_the_home_are_read_by_file() -> None:
    ssh = _ssh_folder()
    assert ssh_folder() == ssh  # the test's own home, never the real one
    blob = KEY.split()[1]
    (ssh / "id_ed25519.pub").write_text(KEY + "\n")
    (ssh / "work.pub").write_text(f"ssh-ed25519 {blob} work\x1b[2J@laptop\n")
    (ssh / "id_ed25519").write_text("-----BEGIN OPENSSH PRIVATE KEY-----\nsecret\n")
    (ssh / "junk.pub").write_text("not a key\n")
    (ssh / "huge.pub").write_text(KEY + "\n" + "x" * MAX_PUB_FILE_BYTES)
    keys = local_public_keys()
    assert [(k["origin"], k["comment"]) for k in keys] == [
        ("id_ed25519.pub", "test@fc"),
        ("work.pub", "work\x1b[2J@laptop"),
    ]
    first = keys[0]
    assert first["key"] == KEY and first["fingerprint"] == KEY_FINGERPRINT
    assert first["shown"] == f"test@fc · id_ed25519.pub · {KEY_FINGERPRINT} (ED25519)"
    # A comment is someone else's text: shown through the boundary, sent as it is.
    assert "\x1b" not in keys[1]["shown"] and "\x1b" in keys[1]["key"]


def test_no_ssh_folder_offers_nothing(tmp_path: Path) -> None:
    assert local_public_keys() == []
    assert local_public_keys(tmp_path / "missing") == []


def test_the_profile_keys_and_user_are_items_too() -> None:
    profile = {"username": "demo", "authorized_keys": [KEY, "garbage", 7]}
    keys = ADAPTERS["profile_keys"](profile).items
    assert [(k["key"], k["origin"]) for k in keys] == [(KEY, "profile")]
    assert ADAPTERS["profile_keys"]({"authorized_keys": None}).items == []
    assert ADAPTERS["profile_user"](profile).items == [{"username": "demo"}]
    assert ADAPTERS["profile_user"]({}).items == []
