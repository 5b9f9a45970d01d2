"""The collection envelope ``{data, page, pages, results}`` as a typed page."""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from pydantic import BaseModel, ConfigDict, Field

T = TypeVar("T")


class Page(BaseModel, Generic[T]):
    """One page of a collection.

    Attributes:
        data: The items of this page.
        page: This page's number, 1-based.
        pages: How many pages the collection has.
        results: How many items the collection has in all.
    """

    model_config = ConfigDict(extra="allow")

    data: list[T] = Field(default_factory=list)
    page: int = 1
    pages: int = 1
    results: int = 0


def parse_page(payload: Any, model: type[T] | None = None) -> Page[Any]:
    """Validate a collection envelope, items as ``model`` (or raw dicts).

    Args:
        payload: Decoded JSON body.
        model: Item model class, or None to keep plain dicts.

    Returns:
        The page.
    """
    if model is None:
        return Page[dict[str, Any]].model_validate(payload)
    return Page[model].model_validate(payload)  # type: ignore[valid-type]
