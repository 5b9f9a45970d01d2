"""Which addresses the client talks to: the API's base URL and the addresses it hands out."""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit


class InsecureBaseUrl(ValueError):
    """The base URL is not acceptable (plain http to a remote host, wrong suffix, ...)."""


def is_loopback_host(host: str) -> bool:
    """True for ``localhost`` and loopback addresses (127.0.0.0/8, ::1)."""
    if host.lower() in ("localhost", "localhost.localdomain"):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def validate_base_url(url: str) -> str:
    """Check and normalise a base URL.

    Args:
        url: User-supplied base URL, for example ``https://api.example.com/v4``.

    Returns:
        The URL without a trailing slash.

    Raises:
        InsecureBaseUrl: Not http(s), missing host, not ending in ``/v4``, or plain ``http://``
            to a host that is not loopback.
    """
    url = url.strip().rstrip("/")
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise InsecureBaseUrl(f"{url!r} is not an http(s) URL with a host")
    if not parts.path.endswith("/v4"):
        raise InsecureBaseUrl(f"{url!r} must end in /v4 (the API version segment)")
    if parts.scheme == "http" and not is_loopback_host(parts.hostname):
        raise InsecureBaseUrl(
            f"{url!r} uses plain http to a remote host; the token would travel unencrypted. "
            "Use https (plain http is accepted only for 127.0.0.1/localhost)."
        )
    if parts.username or parts.password:
        raise InsecureBaseUrl("credentials do not belong in the base URL")
    return url


def external_path(url: str, base_url: str) -> str:
    """Check an absolute address the API handed out; the part of it safe to show.

    Args:
        url: The address (an upload or download URL).
        base_url: The API's base URL (plain http is accepted to its own host).

    Raises:
        InsecureBaseUrl: The URL is not http(s) or uses plain http to a remote host.
    """
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise InsecureBaseUrl(f"{url!r} is not an http(s) URL with a host")
    same_host = parts.netloc == urlsplit(base_url).netloc
    if parts.scheme == "http" and not (is_loopback_host(parts.hostname) or same_host):
        raise InsecureBaseUrl("refusing to send data over plain http to a remote host")
    # Upload addresses carry their authorisation in the path: keep it out of messages.
    return parts.path.rsplit("/", 1)[0] + "/..."
