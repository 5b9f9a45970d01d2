"""Turning a decoded answer into what the registry says an operation returns."""

from __future__ import annotations

from typing import Any

from tui.api.endpoints import Endpoint
from tui.api.pagination import parse_page


def check_model(e: Endpoint, model: type[Any] | None) -> None:
    """Refuse a ``model`` argument that does not fit ``e``, before anything is sent.

    Args:
        e: The operation about to be called.
        model: What the caller asked for: None, ``dict`` or the declared response model.

    Raises:
        TypeError: ``model`` is neither ``dict`` nor the declared model, or names an item model
            for a collection (whose answer is a page, not an item).
    """
    if model is None or model is dict:
        return
    if model is not e.response_model():
        raise TypeError(f"{e.name} answers {e.response or 'nothing'}, not {model.__name__}")
    if e.paged:
        # The static type would claim an item where a page arrives.
        raise TypeError(f"{e.name} is a collection: use fetch_page or iter_all")


def decode_answer(e: Endpoint, payload: Any, model: type[Any] | None = None) -> Any:
    """Validate a decoded answer of ``e`` into its declared response model.

    Args:
        e: The operation that answered.
        payload: Decoded JSON; None when the answer had no body (204).
        model: ``dict`` to keep ``payload`` as it is; otherwise None or the declared model
            (checked by :func:`check_model`), named only so that a type checker sees it.

    Returns:
        ``payload`` (``{}`` when empty) for ``model=dict``; a ``Page`` of the declared model
        for a collection; None when no response model is declared (such operations answer
        ``{}``) or the answer had no body (grants of an unrestricted user); else an instance of
        the declared model.

    Raises:
        ValueError: The answer does not fit the declared model (pydantic's ValidationError,
            or :class:`~tui.api.pagination.PageFormatError` for a collection).
    """
    if model is dict:
        return {} if payload is None else payload
    declared = e.response_model()
    if e.paged:
        return parse_page(payload or {}, declared)
    if declared is None or payload is None:
        return None
    from pydantic import BaseModel  # loaded already: the declared model is one

    if not issubclass(declared, BaseModel):  # pragma: no cover - the registry names models
        raise TypeError(f"{e.response} is not a pydantic model")
    return declared.model_validate(payload)
