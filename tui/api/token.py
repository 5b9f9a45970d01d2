"""The bearer token as the API client holds it: never shown by ``repr`` or ``str``.

pydantic's ``SecretStr`` does the same, but importing pydantic costs a listing ~50 ms before
its first request; the client accepts either (anything with ``get_secret_value``).
"""

from __future__ import annotations

from typing import Protocol

MASK = "**********"


class SecretText(Protocol):
    """A secret string that hands its value out only when asked (``SecretStr`` is one)."""

    def get_secret_value(self) -> str:
        """The secret itself."""
        ...


class ApiToken:
    """A token given to the client as plain text, kept out of every repr, str and log."""

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        """Keep ``value``."""
        self._value = value

    def get_secret_value(self) -> str:
        """The token itself (for the Authorization header)."""
        return self._value

    def __repr__(self) -> str:
        return f"ApiToken('{MASK}')"

    def __str__(self) -> str:
        return MASK

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ApiToken):
            return NotImplemented
        return self._value == other._value

    def __hash__(self) -> int:
        return hash(self._value)
