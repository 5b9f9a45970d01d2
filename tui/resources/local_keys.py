"""Public SSH keys as choices: read from ``~/.ssh/*.pub`` or from the profile (headless).

A new instance's ``authorized_keys`` are ticked in a list instead of pasted: each key shows its
comment, its kind and its fingerprint, computed as ``ssh-keygen -lf`` prints it (``SHA256:``
and the unpadded base64 of the SHA-256 of the key's decoded blob), and where it was found. Only
public key files are read (``*.pub``, small, one key per line); a private key is never opened.
Comments and file names are written by someone else: they become display text through
:func:`~tui.untrusted.shown`.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tui.untrusted import Shown, shown

MAX_PUB_FILE_BYTES = 64 * 1024
"""A public key file larger than this is not a public key file: it is left unread."""

KIND_NAMES = {
    "ssh-ed25519": "ED25519",
    "ssh-rsa": "RSA",
    "ssh-dss": "DSA",
    "ecdsa-sha2-nistp256": "ECDSA",
    "ecdsa-sha2-nistp384": "ECDSA",
    "ecdsa-sha2-nistp521": "ECDSA",
    "sk-ssh-ed25519@openssh.com": "ED25519-SK",
    "sk-ecdsa-sha2-nistp256@openssh.com": "ECDSA-SK",
}
"""Key types as ``ssh-keygen -l`` names them; another type is shown as written."""

PROFILE_ORIGIN = "profile"
"""Where a key registered in the profile comes from, in its row."""


@dataclass(frozen=True)
class PublicKey:
    """One public SSH key.

    Attributes:
        line: The key as ``authorized_keys`` takes it: ``<type> <base64> [comment]``.
        kind: Its type (``ssh-ed25519``).
        comment: Its comment ('' when none).
        fingerprint: ``SHA256:<base64>`` as ``ssh-keygen -lf`` prints it.
    """

    line: str
    kind: str
    comment: str
    fingerprint: str


def fingerprint(blob_base64: str) -> str:
    """The SHA-256 fingerprint of a key's base64 blob, as ``ssh-keygen -lf`` prints it.

    Raises:
        ValueError: The text is not base64.
    """
    try:
        blob = base64.b64decode(blob_base64, validate=True)
    except binascii.Error:
        raise ValueError("the key is not base64") from None
    digest = base64.b64encode(hashlib.sha256(blob).digest()).decode("ascii")
    return "SHA256:" + digest.rstrip("=")


def parse_key(line: str) -> PublicKey | None:
    """The public key a line holds (None: not one).

    A line is ``<type> <base64> [comment]``; a line that starts with options (an
    ``authorized_keys`` entry with ``from="..."``) or a certificate is not a key to add.
    """
    parts = line.strip().split(None, 2)
    if len(parts) < 2 or parts[0].startswith("#") or "-cert-" in parts[0]:
        return None
    kind, blob = parts[0], parts[1]
    if not (kind.startswith(("ssh-", "ecdsa-", "sk-")) and kind.isprintable()):
        return None
    try:
        found = fingerprint(blob)
    except ValueError:
        return None
    comment = parts[2].strip() if len(parts) > 2 else ""
    return PublicKey(" ".join(parts[:2] + ([comment] if comment else [])), kind, comment, found)


def key_item(key: PublicKey, origin: str) -> dict[str, Any]:
    """A key as a choice source item: ``key`` is its value, ``shown`` its row's text."""
    return {
        "key": key.line,
        "kind": KIND_NAMES.get(key.kind, key.kind),
        "comment": key.comment,
        "fingerprint": key.fingerprint,
        "origin": origin,
        "shown": key_text(key, origin),
    }


def key_text(key: PublicKey, origin: str) -> Shown:
    """``demo@laptop · id_ed25519.pub · SHA256:… (ED25519)``: a key's row in the list (the
    fingerprint last: a narrow list cuts its end, which tells keys apart least)."""
    comment = key.comment or "(no comment)"
    kind = KIND_NAMES.get(key.kind, key.kind)
    return shown(f"{comment} · {origin} · {key.fingerprint} ({kind})")


def keys_of(lines: Iterable[Any], origin: str) -> list[dict[str, Any]]:
    """The keys among ``lines`` (anything that is not a key is skipped) as items."""
    out: list[dict[str, Any]] = []
    for line in lines:
        key = parse_key(line) if isinstance(line, str) else None
        if key is not None:
            out.append(key_item(key, origin))
    return out


def ssh_folder() -> Path:
    """``~/.ssh`` of the user running the app (``HOME``, as ssh itself reads it)."""
    return Path(os.path.expanduser("~")) / ".ssh"


def local_public_keys(folder: Path | None = None) -> list[dict[str, Any]]:
    """The keys of every ``*.pub`` file in ``folder`` (default ``~/.ssh``), by file name.

    A folder or file that cannot be read, a file too large and lines that are not keys are
    skipped: the list offers what it can.
    """
    where = folder if folder is not None else ssh_folder()
    try:
        files = sorted(p for p in where.glob("*.pub") if p.is_file())
    except OSError:
        return []
    out: list[dict[str, Any]] = []
    for path in files:
        try:
            if path.stat().st_size > MAX_PUB_FILE_BYTES:
                continue
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        out.extend(keys_of(text.splitlines(), path.name))
    return out
