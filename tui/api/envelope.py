"""The collection envelope validated by pydantic: for pages of item models, and for plain
pages whose shape needs converting or refusing (loaded by the first such page, never by a
listing of plain rows)."""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from pydantic import BaseModel, ConfigDict, Field

T = TypeVar("T")


class Envelope(BaseModel, Generic[T]):
    """``{data, page, pages, results}`` as the reference defines it (other keys allowed)."""

    model_config = ConfigDict(extra="allow")

    data: list[T] = Field(default_factory=list)
    page: int = 1
    pages: int = 1
    results: int = 0


_ENVELOPES: dict[Any, type[Envelope[Any]]] = {}


def envelope_type(model: type[T] | None) -> type[Envelope[Any]]:
    """``Envelope[model]`` (``Envelope[dict[str, Any]]`` for None or ``dict``), built once."""
    envelope = _ENVELOPES.get(model)
    if envelope is None:
        item: Any = dict[str, Any] if model is None or model is dict else model
        envelope = _ENVELOPES[model] = Envelope[item]
    return envelope
