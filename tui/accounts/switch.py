"""Switching the running app to another account, and the ``:account`` command (headless).

A profile's token is read (environment, keyring, token file) only when that profile is chosen,
never ahead of time for the profiles a picker lists. The app does the screen side: it drops every
screen of the old account (an open dialog is cancelled with its screen, so nothing it would have
sent reaches either account) and opens the areas again on the new session.
"""

from __future__ import annotations

from collections.abc import Callable

from tui.api.client import InsecureBaseUrl, validate_base_url
from tui.session.auth import ResolvedToken, resolve_token
from tui.session.config import Settings
from tui.session.runtime import Session

ACCOUNT_COMMAND = "account"
"""The ``:`` command word (``:account NAME``; without a name it opens the picker)."""


class AccountUnavailable(Exception):
    """The profile cannot be opened; the message says why and what to do."""


def profile_names(settings: Settings) -> list[str]:
    """The profiles the config names, sorted."""
    return sorted(settings.profiles)


def parse_account_command(text: str) -> str | None:
    """The profile named by ``:account NAME`` ('' for a bare ``:account``), None otherwise.

    Args:
        text: What the user typed after ``:`` (the name keeps its case).
    """
    words = text.strip().lstrip(":").split()
    if not words or words[0].lower() != ACCOUNT_COMMAND or len(words) > 2:
        return None
    return words[1] if len(words) == 2 else ""


def complete_account(text: str, names: list[str]) -> list[str]:
    """Completions of ``:account NA``: ``account NAME`` for each profile starting so.

    Returns:
        The completed command lines ([] when ``text`` is not an ``account`` command).
    """
    head, _, partial = text.lstrip(":").partition(" ")
    if head.lower() != ACCOUNT_COMMAND or " " in partial.strip():
        return []
    return [f"{ACCOUNT_COMMAND} {n}" for n in names if n.lower().startswith(partial.lower())]


def open_account(
    settings: Settings,
    name: str,
    *,
    resolve: Callable[[str], ResolvedToken] = resolve_token,
) -> Session:
    """A session on profile ``name``, with its token read now.

    Args:
        settings: The loaded settings (profiles, timeouts).
        name: The profile chosen.
        resolve: Token resolution (tests pass their own).

    Raises:
        AccountUnavailable: No such profile, an unusable base URL, or no token for it.
    """
    profile = settings.profiles.get(name)
    if profile is None:
        known = ", ".join(profile_names(settings)) or "none"
        raise AccountUnavailable(f"No profile named {name!r} (profiles: {known}).")
    try:
        base_url = validate_base_url(profile.base_url)
    except InsecureBaseUrl as exc:
        raise AccountUnavailable(f"Profile {name!r}: {exc}") from None
    resolved = resolve(name)
    if resolved.token is None:
        raise AccountUnavailable(
            f"No token for profile {name!r}: run `cloudtui login --profile {name}` first."
        )
    return Session.for_profile(settings, name, base_url, resolved.token)
