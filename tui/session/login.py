"""Verifying a token before it is stored (shared by ``cloudtui login`` and the login screen)."""

from __future__ import annotations

import httpx
from pydantic import SecretStr

from tui.api.client import ApiClient, validate_base_url
from tui.models.profile import Profile


async def verify_token(
    base_url: str, token: SecretStr, *, transport: httpx.AsyncBaseTransport | None = None
) -> Profile:
    """Check a token with ``GET /profile``.

    Args:
        base_url: Base URL ending in /v4 (validated: https, or http only to loopback).
        token: The token to check.
        transport: Optional transport (tests pass the simulator's).

    Returns:
        The profile the token belongs to.

    Raises:
        InsecureBaseUrl: The base URL is refused.
        Unauthorized: The API rejected the token.
        ApiError: Any other API failure.
        TransportFailure: The API could not be reached.
    """
    url = validate_base_url(base_url)
    async with ApiClient(url, token, transport=transport) as client:
        return await client.call("profile.view", model=Profile)
