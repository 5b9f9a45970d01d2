"""The collection envelope ``{data, page, pages, results}`` as a typed page.

Listings decode rows as plain dicts (a row shows a few fields; the model is built when one is
opened), so this module does not import pydantic: a page of plain dicts is decoded by
pydantic-core's JSON parser (loaded by the first page) and checked here, and only a page that
needs validation (item models, counts sent as text, odd shapes) loads the pydantic envelope of
:mod:`tui.api.envelope`.
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from tui.api import collector

T = TypeVar("T")

_COUNTS = {"page": 1, "pages": 1, "results": 0}
"""The envelope's numbers and their defaults when a page leaves them out."""


class Page(Generic[T]):
    """One page of a collection.

    Attributes:
        data: The items of this page.
        page: This page's number, 1-based.
        pages: How many pages the collection has.
        results: How many items the collection has in all.
    """

    __slots__ = ("data", "page", "pages", "results")

    def __init__(
        self, data: list[T] | None = None, page: int = 1, pages: int = 1, results: int = 0
    ) -> None:
        """Hold a page's items and counts as given (validation happens before)."""
        self.data: list[T] = [] if data is None else data
        self.page = page
        self.pages = pages
        self.results = results

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Page):
            return NotImplemented
        return (self.data, self.page, self.pages, self.results) == (
            other.data,
            other.page,
            other.pages,
            other.results,
        )

    __hash__ = None  # type: ignore[assignment]  # mutable, like the lists it holds

    def __repr__(self) -> str:
        counts = f"page={self.page}, pages={self.pages}, results={self.results}"
        return f"Page({counts}, {len(self.data)} items)"


class PageFormatError(ValueError):
    """The answer is not a valid collection envelope of the asked-for items."""


def parse_page(payload: Any, model: type[T] | None = None) -> Page[Any]:
    """Validate a decoded collection envelope, items as ``model`` (or raw dicts).

    Args:
        payload: Decoded JSON body.
        model: Item model class, or None (or ``dict``) to keep plain dicts.

    Returns:
        The page.

    Raises:
        PageFormatError: Not a valid envelope of ``model`` items.
    """
    if model is None or model is dict:
        plain = _plain_page(payload)
        if plain is not None:
            return plain
    from tui.api.envelope import envelope_type  # pydantic: only pages to validate load it

    try:
        return _page(envelope_type(model).model_validate(payload))
    except ValueError as error:  # pydantic's ValidationError
        raise PageFormatError(str(error)) from None


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
            # pydantic-core's parser is a quarter faster than json.loads on a page and shares
            # repeated strings between rows (statuses, regions, keys): a smaller listing.
            from pydantic_core import from_json

            try:
                body = from_json(content)
            except ValueError:
                body = None
            plain = _plain_page(body)
            if plain is not None:
                return plain
        from tui.api.envelope import envelope_type

        try:
            return _page(envelope_type(model).model_validate_json(content))
        except ValueError as error:  # pydantic's ValidationError
            raise PageFormatError(str(error)) from None


def _page(envelope: Any) -> Page[Any]:
    """The :class:`Page` of a validated :class:`~tui.api.envelope.Envelope`."""
    return Page(envelope.data, envelope.page, envelope.pages, envelope.results)


def _plain_page(body: Any) -> Page[Any] | None:
    """A page of plain dicts taken as decoded; None when the envelope is not exactly that
    shape (the caller validates it, with its error messages).

    For dicts, validation only re-checks what JSON already guarantees: a third of a 500-item
    page's decoding. Anything validation would convert or refuse (a count sent as text, an
    item that is not an object) falls through to it.
    """
    if type(body) is not dict:
        return None
    data = body.get("data", [])
    if type(data) is not list or any(type(item) is not dict for item in data):
        return None
    counts = [body.get(name, default) for name, default in _COUNTS.items()]
    if any(type(count) is not int for count in counts):
        return None
    return Page(data, *counts)


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
