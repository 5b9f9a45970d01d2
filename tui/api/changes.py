"""What the client tells its observers about every change it sends (headless).

Every request other than GET passes through :meth:`tui.api.client.ApiClient._request`; after
it finished (or failed) the client hands a :class:`ChangeEvent` to each observer. The activity
log is one such observer, so single actions, bulk actions and transfers are all recorded from
one place. An event never carries a request or answer body: only the method, the path, the
outcome and the target's label and id.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from tui.api.errors import ApiError, CloudError

CHANGE_TARGET: ContextVar[str | None] = ContextVar("cloudtui_change_target", default=None)
"""Label of the item a change is about, set by whoever knows it (the action runner)."""

MAX_REASON = 160
"""Characters of an error's reason kept in an event."""


@contextmanager
def change_target(label: str | None) -> Iterator[None]:
    """Name the item the requests sent inside the block change (for the activity log).

    Args:
        label: The item's display name ('' or None: unknown).
    """
    token = CHANGE_TARGET.set(label or None)
    try:
        yield
    finally:
        CHANGE_TARGET.reset(token)


@dataclass(frozen=True)
class ChangeEvent:
    """One change the client sent.

    Attributes:
        method: HTTP method.
        path: Path relative to the base URL (ids included, no query, no body).
        ok: True when the API accepted it.
        status: HTTP status of a refusal; None for success or when no answer came.
        reason: Why it failed (the API's reasons, shortened), '' on success.
        target: Label of the item, when known.
        target_id: Id of the item an answer named (a created item), '' otherwise.
    """

    method: str
    path: str
    ok: bool
    status: int | None = None
    reason: str = ""
    target: str = ""
    target_id: str = ""


def change_event(method: str, path: str, answer: Any, error: CloudError | None) -> ChangeEvent:
    """Describe a finished change from its answer (success) or its error (failure).

    Only ``label`` and ``id`` are read from an answer: never anything else of a body.
    """
    target = CHANGE_TARGET.get() or ""
    if error is not None:
        status = error.status if isinstance(error, ApiError) else None
        reason = error.reasons if isinstance(error, ApiError) else type(error).__name__
        return ChangeEvent(
            method, path, False, status, reason[:MAX_REASON], target=target, target_id=""
        )
    target_id = ""
    if isinstance(answer, Mapping):
        label = answer.get("label")
        if not target and isinstance(label, str):
            target = label
        ident = answer.get("id")
        if isinstance(ident, str | int) and not isinstance(ident, bool):
            target_id = str(ident)
    return ChangeEvent(method, path, True, target=target, target_id=target_id)


def status_event(method: str, path: str, status: int) -> ChangeEvent:
    """A change sent to a pre-signed address (a transfer), judged by its HTTP status only."""
    target = CHANGE_TARGET.get() or ""
    if 200 <= status < 300:
        return ChangeEvent(method, path, True, target=target)
    return ChangeEvent(method, path, False, status, f"HTTP {status}", target=target)


class ReadOnlySession(CloudError):
    """A change was attempted in a read-only session; nothing was sent.

    Attributes:
        method: HTTP method of the refused request.
        path: Its path.
    """

    def __init__(self, method: str, path: str) -> None:
        self.method = method
        self.path = path
        super().__init__(f"{method} {path} not sent: read-only session")
