"""Passwords a form offers to generate."""

from __future__ import annotations

import secrets
import string

PASSWORD_ALPHABET = string.ascii_letters + string.digits + "-_.,:;!@#%^*+="


def generate_password(length: int = 32) -> str:
    """A strong random password with upper and lower case letters, digits and symbols."""
    if length < 8:
        raise ValueError("length must be at least 8")
    while True:
        candidate = "".join(secrets.choice(PASSWORD_ALPHABET) for _ in range(length))
        if (
            any(c.islower() for c in candidate)
            and any(c.isupper() for c in candidate)
            and any(c.isdigit() for c in candidate)
            and any(not c.isalnum() for c in candidate)
        ):
            return candidate
