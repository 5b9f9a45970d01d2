"""PEM-valued request fields: a certificate (with its chain) or a private key.

One structural check, shared by the request models (a form checks before it sends) and the
simulator (which then also parses the blocks), so both refuse the same text with the same words.

A field declared :data:`PemCertificate` or :data:`PemPrivateKey` carries ``pem`` in its JSON
schema extra; the form builder reads it and offers a multi-line input (or a file path) instead of
a one-line one, which would keep only the first line of a pasted PEM.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated

from pydantic import AfterValidator, Field, SecretStr

KEEP_STORED = "<REDACTED>"
"""What a response shows instead of a stored certificate or key; sent back, it keeps it."""

PEM_BLOCK = re.compile(r"-----BEGIN ([A-Z0-9 .]+)-----.+?-----END \1-----", re.S)
"""One armoured block: its label (``CERTIFICATE``, ``RSA PRIVATE KEY`` ...) and body."""

CERTIFICATE_SHAPE = "-----BEGIN CERTIFICATE----- ... -----END CERTIFICATE-----"
PRIVATE_KEY_SHAPE = "-----BEGIN ... PRIVATE KEY----- ... -----END ... PRIVATE KEY-----"


def unescape(text: str) -> str:
    """Turn written ``\\n`` sequences (a PEM kept on one line) and CRLFs into line breaks."""
    return text.replace("\\r\\n", "\n").replace("\\n", "\n").replace("\r\n", "\n")


def blocks(text: str) -> list[tuple[str, str]]:
    """The armoured blocks of ``text`` as ``(label, whole block)``, in order."""
    return [(m.group(1), m.group(0)) for m in PEM_BLOCK.finditer(unescape(text))]


def certificate_blocks(text: str) -> list[str]:
    """The certificate blocks of a certificate field (the first is the server's own).

    Raises:
        ValueError: A private key inside, or no complete certificate block (the message reads
            after the field's name).
    """
    found = blocks(text)
    if any("PRIVATE KEY" in label for label, _block in found):
        raise ValueError("must not contain a private key: send the key in its own field")
    certificates = [block for label, block in found if label == "CERTIFICATE"]
    if not certificates:
        raise ValueError(f"must be a PEM certificate: {CERTIFICATE_SHAPE}")
    return certificates


def private_key_block(text: str) -> str:
    """The private key block of a key field.

    Raises:
        ValueError: No complete private key block (the message reads after the field's name).
    """
    for label, block in blocks(text):
        if "PRIVATE KEY" in label:
            return block
    raise ValueError(f"must be a PEM private key: {PRIVATE_KEY_SHAPE}")


CERTIFICATE = "certificate"
PRIVATE_KEY = "private key"


def check(what: str, text: str) -> None:
    """Check the shape of a :data:`CERTIFICATE` or :data:`PRIVATE_KEY` field's text (the
    placeholder that keeps a stored one passes).

    Raises:
        ValueError: It is not one (the message reads after the field's name).
    """
    if text == KEEP_STORED:
        return
    if what == PRIVATE_KEY:
        private_key_block(text)
    else:
        certificate_blocks(text)


def _check_certificate(value: str) -> str:
    check(CERTIFICATE, value)
    return value


def _check_private_key(value: SecretStr) -> SecretStr:
    check(PRIVATE_KEY, value.get_secret_value())
    return value


PemCertificate = Annotated[
    str, AfterValidator(_check_certificate), Field(json_schema_extra={"pem": CERTIFICATE})
]
"""A PEM certificate, optionally followed by its chain."""

PemPrivateKey = Annotated[
    SecretStr,
    AfterValidator(_check_private_key),
    Field(json_schema_extra={"secret": True, "pem": PRIVATE_KEY}),
]
"""An unencrypted PEM private key: a secret (masked, never logged)."""


MAX_FILE_BYTES = 256 * 1024
"""Largest PEM file read from a path (a long chain is a few tens of KiB)."""


def from_input(text: str) -> str:
    """What a PEM input holds, as text to send: the PEM itself, or the file a path names.

    A value without an armour line that names an existing file is read from it (``~`` expands);
    anything else is the PEM, with written ``\\n`` sequences turned into line breaks.

    Raises:
        ValueError: The file is too large or cannot be read (the message reads after the
            field's name).
    """
    candidate = text.strip()
    if candidate and "-----BEGIN" not in candidate and "\n" not in candidate:
        path = Path(candidate).expanduser()
        if path.is_file():
            try:
                if path.stat().st_size > MAX_FILE_BYTES:
                    raise ValueError(f"file {candidate} is larger than a PEM file can be")
                return path.read_text(encoding="ascii", errors="replace").strip()
            except OSError as exc:
                raise ValueError(f"file {candidate} cannot be read ({exc.strerror})") from None
    return unescape(text).strip()
