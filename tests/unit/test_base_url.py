"""Base URL rules: https, or plain http only to loopback; must end in /v4."""

from __future__ import annotations

import pytest

from tui.api import InsecureBaseUrl, validate_base_url


@pytest.mark.parametrize(
    "url",
    [
        "https://api.example.com/v4",
        "https://api.example.com/v4/",
        "http://127.0.0.1:8080/v4",
        "http://localhost:8080/v4",
        "http://[::1]:8080/v4",
        "http://127.5.5.5/v4",
    ],
)
def test_accepted(url: str) -> None:
    assert validate_base_url(url).endswith("/v4")


@pytest.mark.parametrize(
    "url",
    [
        "http://api.example.com/v4",
        "http://10.0.0.1/v4",
        "https://api.example.com/v3",
        "https://api.example.com",
        "ftp://api.example.com/v4",
        "api.example.com/v4",
        "https://user:pw@api.example.com/v4",
    ],
)
def test_refused(url: str) -> None:
    with pytest.raises(InsecureBaseUrl):
        validate_base_url(url)
