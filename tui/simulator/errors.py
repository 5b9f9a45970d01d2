"""Errors the simulator's handlers raise; the core turns them into ``{errors: [...]}`` answers."""

from __future__ import annotations

from typing import Any


class SimError(Exception):
    """An API error answer.

    Args:
        status: HTTP status.
        reason: Message (when ``errors`` is not given).
        field: Offending request field, if any.
        errors: Several ``{field?, reason}`` entries at once.
        headers: Extra response headers (``Retry-After``).
    """

    def __init__(
        self,
        status: int,
        reason: str = "",
        field: str | None = None,
        *,
        errors: list[dict[str, Any]] | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        if errors is None:
            entry: dict[str, Any] = {"reason": reason}
            if field:
                entry["field"] = field
            errors = [entry]
        self.status = status
        self.errors = errors
        self.headers = headers or {}
        super().__init__(f"{status}: {errors}")

    def payload(self) -> dict[str, Any]:
        """The JSON body of the answer."""
        return {"errors": self.errors}


def bad_request(reason: str, field: str | None = None) -> SimError:
    """400 for invalid input."""
    return SimError(400, reason, field)


def not_found(what: str = "Not found") -> SimError:
    """404 for an unknown id."""
    return SimError(404, what)


def forbidden(reason: str = "Unauthorized") -> SimError:
    """403 for a missing scope, grant or unrestricted status."""
    return SimError(403, reason)


def conflict(reason: str, field: str | None = None) -> SimError:
    """409 for a state that refuses the operation."""
    return SimError(409, reason, field)
