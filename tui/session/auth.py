"""Where the API token comes from and where it is kept.

Resolution order per profile: the ``CLOUDTUI_TOKEN`` environment variable, then the system
keyring (service ``cloudtui``, one entry per profile), then the token file the user explicitly
chose, else nothing (the caller runs the login flow). The token is never written to the config
file. Every keyring call is guarded: a headless box without a Secret Service gets a clear
explanation instead of a traceback.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from pydantic import SecretStr

from tui.session.config import config_dir

KEYRING_SERVICE = "cloudtui"
TOKEN_ENV = "CLOUDTUI_TOKEN"
TOKEN_FILE_NAME = "tokens.json"


class TokenSource(StrEnum):
    """Where a token was found or is kept."""

    ENV = "environment (CLOUDTUI_TOKEN)"
    KEYRING = "system keyring"
    FILE = "token file"
    SESSION = "this session only"
    NONE = "not stored"


class KeyringUnavailable(Exception):
    """No usable keyring backend; the message explains why and what to do."""


@dataclass(frozen=True)
class ResolvedToken:
    """The outcome of token resolution.

    Attributes:
        token: The token, or None when none was found.
        source: Where it came from.
        keyring_problem: Why the keyring could not be asked, when it could not.
    """

    token: SecretStr | None
    source: TokenSource
    keyring_problem: str | None = None


KEYRING_HELP = (
    "No usable system keyring was found (typical on a headless server reached over SSH: "
    "no Secret Service on D-Bus). You can: use the token for this session only "
    "(set CLOUDTUI_TOKEN or log in each time), or store it in a file readable only by you "
    "(mode 0600 in the config folder; anyone who can read your files as you can read it)."
)


def _keyring_backend_usable() -> str | None:
    """None when a real keyring backend is active, else the reason it is not."""
    try:
        import keyring
        from keyring.backends import fail
    except Exception as exc:  # an unimportable keyring is just another missing backend
        return f"the keyring package cannot be loaded ({type(exc).__name__})"
    try:
        backend = keyring.get_keyring()
    except Exception as exc:
        return f"the keyring cannot be initialised ({type(exc).__name__})"
    if isinstance(backend, fail.Keyring):
        return "no keyring backend is available"
    return None


def keyring_problem() -> str | None:
    """Why the keyring cannot be used right now, or None when it can."""
    return _keyring_backend_usable()


def _keyring_get(profile: str) -> tuple[str | None, str | None]:
    problem = _keyring_backend_usable()
    if problem:
        return None, problem
    import keyring

    try:
        return keyring.get_password(KEYRING_SERVICE, profile), None
    except Exception as exc:
        # KeyringError, RuntimeError (NoKeyringError), D-Bus and locked-collection errors alike.
        return None, f"the keyring refused the request ({type(exc).__name__})"


def token_file() -> Path:
    """The explicit file store (used only when the user chose it)."""
    return config_dir() / TOKEN_FILE_NAME


def _read_token_file() -> dict[str, str]:
    path = token_file()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (FileNotFoundError, ValueError, OSError):
        return {}
    return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}


def _write_token_file(tokens: dict[str, str]) -> None:
    path = token_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    # Create with 0600 from the start: the token must never be readable by others, even briefly.
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        json.dump(tokens, fh)
    os.chmod(tmp, 0o600)
    os.replace(tmp, path)


def resolve_token(profile: str) -> ResolvedToken:
    """Find the token of ``profile``.

    Args:
        profile: Profile name.

    Returns:
        The token and its source; ``token`` is None when the login flow is needed.
    """
    env = os.environ.get(TOKEN_ENV, "").strip()
    if env:
        return ResolvedToken(SecretStr(env), TokenSource.ENV)
    value, problem = _keyring_get(profile)
    if value:
        return ResolvedToken(SecretStr(value), TokenSource.KEYRING)
    stored = _read_token_file().get(profile)
    if stored:
        return ResolvedToken(SecretStr(stored), TokenSource.FILE, problem)
    return ResolvedToken(None, TokenSource.NONE, problem)


def store_token(profile: str, token: SecretStr, where: TokenSource) -> TokenSource:
    """Keep a verified token.

    Args:
        profile: Profile name.
        token: The token.
        where: ``KEYRING``, ``FILE`` or ``SESSION`` (nothing is written).

    Returns:
        Where it was stored.

    Raises:
        KeyringUnavailable: ``KEYRING`` was asked but cannot be used.
    """
    if where == TokenSource.SESSION:
        return where
    if where == TokenSource.FILE:
        tokens = _read_token_file()
        tokens[profile] = token.get_secret_value()
        _write_token_file(tokens)
        return where
    if where != TokenSource.KEYRING:
        raise ValueError(f"cannot store a token in {where}")
    problem = _keyring_backend_usable()
    if problem:
        raise KeyringUnavailable(f"{problem}. {KEYRING_HELP}")
    import keyring

    try:
        keyring.set_password(KEYRING_SERVICE, profile, token.get_secret_value())
    except Exception as exc:
        raise KeyringUnavailable(
            f"the keyring refused to store the token ({type(exc).__name__}). {KEYRING_HELP}"
        ) from None
    return where


def delete_token(profile: str) -> list[TokenSource]:
    """Forget the token of ``profile`` everywhere it is stored.

    Returns:
        The places it was removed from.
    """
    removed: list[TokenSource] = []
    if _keyring_backend_usable() is None:
        import keyring

        try:
            if keyring.get_password(KEYRING_SERVICE, profile) is not None:
                keyring.delete_password(KEYRING_SERVICE, profile)
                removed.append(TokenSource.KEYRING)
        except Exception:  # a keyring that fails here has nothing we could remove
            pass
    tokens = _read_token_file()
    if profile in tokens:
        del tokens[profile]
        _write_token_file(tokens)
        removed.append(TokenSource.FILE)
    return removed


def token_location(profile: str) -> TokenSource:
    """Where the token of ``profile`` would come from (for listings; never the token)."""
    return resolve_token(profile).source
