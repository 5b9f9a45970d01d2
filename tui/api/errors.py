"""Typed errors raised by the API client.

Every failure the client reports is a :class:`CloudError`. HTTP answers outside 2xx become an
:class:`ApiError` subclass chosen by status; network failures become a :class:`TransportFailure`.
Messages never contain the token: they are built only from the method, path, status and the
server's ``errors`` list.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class FieldError:
    """One entry of the API's ``errors`` list.

    Attributes:
        reason: Human readable message from the server.
        field: The request field the message is about, when the server named one.
    """

    reason: str
    field: str | None = None

    def __str__(self) -> str:
        return f"{self.field}: {self.reason}" if self.field else self.reason


class CloudError(Exception):
    """Base of every error the API layer raises.

    Attributes:
        earlier_answer_lost: An earlier try of the same request was sent and its answer never
            came (the client then retried): the server may have acted on it already.
    """

    earlier_answer_lost: bool = False


class ApiError(CloudError):
    """The API answered with a status outside 2xx.

    Attributes:
        status: HTTP status code.
        method: HTTP method of the failed request.
        path: Path of the failed request, relative to the base URL.
        errors: Parsed ``errors`` list; never empty (a synthetic entry describes odd bodies).
    """

    def __init__(
        self, status: int, method: str, path: str, errors: list[FieldError] | None = None
    ) -> None:
        self.status = status
        self.method = method
        self.path = path
        self.errors = errors or [FieldError(reason=f"HTTP {status}")]
        super().__init__(str(self))

    @property
    def reasons(self) -> str:
        """All reasons joined as ``field: reason`` pairs, for one-line display."""
        return "; ".join(str(e) for e in self.errors)

    def field_errors(self) -> dict[str, str]:
        """Reasons keyed by field name (entries without a field are left out)."""
        out: dict[str, str] = {}
        for err in self.errors:
            if err.field:
                out[err.field] = (
                    f"{out[err.field]}; {err.reason}" if err.field in out else err.reason
                )
        return out

    def __str__(self) -> str:
        return f"{self.method} {self.path} failed ({self.status}): {self.reasons}"

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}({self.status}, {self.method!r}, {self.path!r}, {self.errors!r})"
        )


class Invalid(ApiError):
    """400 or 422: the request was rejected; see :attr:`errors` for fields."""


class Unauthorized(ApiError):
    """401: the token is missing, unknown or expired."""


class Forbidden(ApiError):
    """403: the token lacks a scope, or the user lacks a grant."""


class NotFound(ApiError):
    """404: no such resource (or no such route)."""


class Conflict(ApiError):
    """409: the resource is in a state that refuses the operation."""


class RateLimited(ApiError):
    """429: too many requests.

    Attributes:
        retry_after: Seconds the server asked us to wait, when it said.
    """

    def __init__(
        self,
        status: int,
        method: str,
        path: str,
        errors: list[FieldError] | None = None,
        retry_after: float | None = None,
    ) -> None:
        self.retry_after = retry_after
        super().__init__(status, method, path, errors)


class ServerError(ApiError):
    """5xx: the service failed."""


class MalformedAnswer(ServerError):
    """A 2xx answer whose body does not have the documented shape (a page whose ``data`` is
    not a list of objects, a field of the wrong type where the client needs it). Reported like
    a bad gateway (502): the server's answer cannot be used, nothing on the client is broken.
    """


def malformed_answer(method: str, path: str, problem: str) -> MalformedAnswer:
    """A :class:`MalformedAnswer` whose reason quotes at most 200 characters of ``problem``."""
    short = " ".join(problem.split())[:200]
    return MalformedAnswer(
        502, method, path, [FieldError(reason=f"the answer has an unexpected shape: {short}")]
    )


class TransportFailure(CloudError):
    """The request did not get an HTTP answer (connection refused, dropped, timed out).

    Attributes:
        method: HTTP method of the request.
        path: Path of the request.
        sent: False when the failure happened before any byte of the request left.
    """

    def __init__(self, method: str, path: str, reason: str, *, sent: bool) -> None:
        self.method = method
        self.path = path
        self.reason = reason
        self.sent = sent
        super().__init__(f"{method} {path}: {reason}")


class ConnectFailure(TransportFailure):
    """Could not connect; the request was never sent."""


class TimeoutFailure(TransportFailure):
    """The server did not answer in time."""


class ConnectionDropped(TransportFailure):
    """The connection broke while the request or the answer was in flight."""


SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
"""Methods that change nothing: a lost answer to them is only a missing answer."""


def may_have_been_carried_out(error: BaseException) -> bool:
    """True when a failed change may nevertheless have been made by the server.

    That is the case when a request that changes something was sent and its answer was lost
    (dropped connection, read timeout), or when such a loss happened on an earlier try of a
    request that was then retried. The user must be told, and must not resend blindly.

    Args:
        error: What the client raised.
    """
    if not isinstance(error, CloudError):
        return False
    method = str(getattr(error, "method", "GET")).upper()
    if method in SAFE_METHODS:
        return False
    if error.earlier_answer_lost:
        return True
    return isinstance(error, TransportFailure) and error.sent


_STATUS_CLASSES: dict[int, type[ApiError]] = {
    400: Invalid,
    401: Unauthorized,
    403: Forbidden,
    404: NotFound,
    409: Conflict,
    422: Invalid,
    429: RateLimited,
}


def parse_error_body(status: int, body: bytes, content_type: str = "") -> list[FieldError]:
    """Extract ``errors[{field, reason}]`` from an error body, whatever shape it has.

    Args:
        status: HTTP status, used to describe bodies that carry no usable reason.
        body: Raw response bytes.
        content_type: The response's Content-Type header.

    Returns:
        A non-empty list of :class:`FieldError`. Non-JSON, truncated or oddly shaped bodies yield
        one entry describing the status and a short excerpt of the body.
    """
    text = body.decode("utf-8", errors="replace").strip()
    if not text:
        return [FieldError(reason=f"HTTP {status} with an empty body")]
    try:
        data: Any = json.loads(text)
    except ValueError:
        kind = "HTML" if "html" in content_type.lower() or text.startswith("<") else "non-JSON"
        excerpt = " ".join(text.split())[:120]
        return [FieldError(reason=f"HTTP {status} with a {kind} body: {excerpt}")]
    errors: list[FieldError] = []
    raw = data.get("errors") if isinstance(data, dict) else None
    if isinstance(raw, list):
        for item in raw:
            if isinstance(item, dict):
                reason = item.get("reason")
                field = item.get("field")
                errors.append(
                    FieldError(
                        reason=str(reason) if reason is not None else f"HTTP {status}",
                        field=str(field) if field not in (None, "") else None,
                    )
                )
            elif isinstance(item, str):
                errors.append(FieldError(reason=item))
    if not errors:
        excerpt = " ".join(text.split())[:120]
        errors.append(FieldError(reason=f"HTTP {status}: {excerpt}"))
    return errors


def parse_retry_after(value: str | None, now: float | None = None) -> float | None:
    """Read a ``Retry-After`` header: delta seconds or an HTTP date.

    Args:
        value: The header value, or None.
        now: Current epoch seconds, for the date form (defaults to the wall clock).

    Returns:
        Seconds to wait (never negative), or None when absent or unreadable.
    """
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    from email.utils import parsedate_to_datetime

    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    import time

    current = time.time() if now is None else now
    return max(0.0, when.timestamp() - current)


def error_for_status(
    status: int,
    method: str,
    path: str,
    body: bytes,
    content_type: str = "",
    retry_after: str | None = None,
) -> ApiError:
    """Build the typed :class:`ApiError` for a non-2xx answer.

    Args:
        status: HTTP status code.
        method: Request method.
        path: Request path relative to the base URL.
        body: Raw response body.
        content_type: Response Content-Type.
        retry_after: Raw ``Retry-After`` header, if any.

    Returns:
        The error instance (not raised).
    """
    errors = parse_error_body(status, body, content_type)
    if status == 429:
        return RateLimited(status, method, path, errors, parse_retry_after(retry_after))
    cls = _STATUS_CLASSES.get(status)
    if cls is None:
        cls = ServerError if status >= 500 else ApiError
    return cls(status, method, path, errors)
