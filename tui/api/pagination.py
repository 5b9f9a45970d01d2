"""The collection envelope ``{data, page, pages, results}`` as a typed page."""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from pydantic_core import from_json

from tui.api import collector

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
    # A page allocates thousands of containers that all stay alive; with the collector on,
    # young collections keep re-scanning them (and any large state the program holds)
    # mid-parse, which costs about as much again as the parse. The parse is synchronous (no
    # other task runs meanwhile), so the hold ends with it, unless a listing holds it longer.
    with collector.held():
        if model is None or model is dict:
            plain = _plain_page(content)
            if plain is not None:
                return plain
        try:
            return page_type(model).model_validate_json(content)
        except ValidationError as error:
            raise PageFormatError(str(error)) from None


_COUNTS = {name: Page.model_fields[name].default for name in ("page", "pages", "results")}
"""The envelope's numbers and their defaults, as :class:`Page` declares them."""


def _plain_page(content: bytes) -> Page[Any] | None:
    """A page of plain dicts, decoded without validating what is already plain; None when the
    envelope is not exactly that shape (the caller validates it, with its error messages).

    Rows are decoded into dicts (lists show a few fields; the model is built on open), and for
    dicts validation only re-checks what JSON already guarantees: a third of a 500-item page's
    decoding. Anything validation would convert or refuse (a count sent as text, an item that
    is not an object) falls through to it.
    """
    try:
        body = from_json(content)
    except ValueError:
        return None
    if type(body) is not dict:
        return None
    data = body.setdefault("data", [])
    if type(data) is not list or any(type(item) is not dict for item in data):
        return None
    for name, default in _COUNTS.items():
        if type(body.setdefault(name, default)) is not int:
            return None
    page: Page[Any] = page_type(dict).model_construct(**body)
    return page


def page_plan(results: int, size: int, largest: int) -> list[tuple[int, int]]:
    """The ``(page, page_size)`` requests that fetch a collection after its page 1.

    Page 1 (of ``size`` items) was fetched first. Pages of ``largest`` items cover the same
    positions as ``largest // size`` pages of ``size`` items, so when ``largest`` is a
    multiple of ``size`` the items up to ``largest`` come in small pages 2.. and everything
    after in large pages 2..: fewer requests, same items, same order. Otherwise every page has
    ``size`` items.

    Args:
        results: Items in the collection (from page 1).
        size: Items per page of page 1.
        largest: Largest page size the endpoint accepts.

    Returns:
        The requests in item order (empty when page 1 held everything).
    """
    if size <= 0 or results <= size:
        return []
    if largest <= size or largest % size or results <= largest:
        return [(n, size) for n in range(2, -(-results // size) + 1)]
    small = [(n, size) for n in range(2, largest // size + 1)]
    large = [(n, largest) for n in range(2, -(-results // largest) + 1)]
    return small + large
