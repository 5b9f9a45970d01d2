"""The collection envelope ``{data, page, pages, results}`` as a typed page."""

from __future__ import annotations

import gc
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

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


class PageFormatError(ValueError):
    """The bytes are not a valid collection envelope (callers fall back to :func:`parse_page`)."""


_PAGE_TYPES: dict[Any, type[Page[Any]]] = {}


def page_type(model: type[T] | None) -> type[Page[Any]]:
    """``Page[model]`` (``Page[dict[str, Any]]`` for None or ``dict``), built once per model."""
    page = _PAGE_TYPES.get(model)
    if page is None:
        item: Any = dict[str, Any] if model is None or model is dict else model
        page = _PAGE_TYPES[model] = Page[item]
    return page


def parse_page(payload: Any, model: type[T] | None = None) -> Page[Any]:
    """Validate a collection envelope, items as ``model`` (or raw dicts).

    Args:
        payload: Decoded JSON body.
        model: Item model class, or None to keep plain dicts.

    Returns:
        The page.
    """
    return page_type(model).model_validate(payload)


def parse_page_json(content: bytes, model: type[T] | None = None) -> Page[Any]:
    """Decode and validate a collection envelope straight from the response bytes.

    Args:
        content: The raw JSON body.
        model: Item model class, or None to keep plain dicts.

    Returns:
        The page.

    Raises:
        PageFormatError: Not JSON, or not a valid envelope of ``model`` items.
    """
    # A page of models allocates thousands of containers that all stay alive; with the
    # collector on, young collections keep re-scanning them (and any large state the program
    # holds) mid-parse, which costs about as much again as the parse. The parse is synchronous
    # (no other task runs meanwhile); the collector resumes right after it.
    paused = gc.isenabled()
    if paused:
        gc.disable()
    try:
        return page_type(model).model_validate_json(content)
    except ValidationError as error:
        raise PageFormatError(str(error)) from None
    finally:
        if paused:
            gc.enable()
