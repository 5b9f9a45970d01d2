"""Back and forward between the screens visited, as a browser does (a plain object).

The UI calls :meth:`NavigationHistory.visit` whenever a screen is shown; visiting the place
already current changes nothing, so showing a screen again after :meth:`~NavigationHistory.back`
does not cut the way forward. A new place after going back drops the places ahead of it, as a
browser does; the oldest places go beyond :attr:`~NavigationHistory.limit`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

MAX_PLACES = 100


@dataclass(frozen=True)
class Place:
    """A screen to come back to.

    Attributes:
        area: The area (mode) it belongs to.
        spec_id: The resource listed or shown (None: the area's own first screen).
        params: Path parameters of a child list or an item, as sorted pairs of text.
        item_key: The item shown in a detail screen (None: a list).
        title: What a menu of places calls it (not part of what makes two places the same).
    """

    area: str
    spec_id: str | None = None
    params: tuple[tuple[str, str], ...] = ()
    item_key: str | None = None
    title: str = field(default="", compare=False)

    @classmethod
    def of(
        cls,
        area: str,
        spec_id: str | None = None,
        params: Mapping[str, Any] | None = None,
        item_key: str | None = None,
        title: str = "",
    ) -> Place:
        """A place from the screen's own values (``params`` as the screen holds them)."""
        pairs = tuple(sorted((str(k), str(v)) for k, v in (params or {}).items()))
        return cls(area, spec_id, pairs, item_key, title)


T = TypeVar("T")


class NavigationHistory(Generic[T]):
    """The places visited and where the user is among them.

    Args:
        limit: Places kept.
    """

    def __init__(self, limit: int = MAX_PLACES) -> None:
        self.limit = limit
        self.places: list[T] = []
        self.index = -1
        """Position of the current place (-1: none yet)."""

    @property
    def current(self) -> T | None:
        """Where the user is."""
        return self.places[self.index] if self.places else None

    @property
    def can_back(self) -> bool:
        """True when there is a place to go back to."""
        return self.index > 0

    @property
    def can_forward(self) -> bool:
        """True when there is a place to go forward to."""
        return self.index < len(self.places) - 1

    def visit(self, place: T) -> None:
        """The user is at ``place`` now (the places ahead are dropped unless it is current)."""
        if self.places and self.places[self.index] == place:
            return
        del self.places[self.index + 1 :]
        self.places.append(place)
        if len(self.places) > self.limit:
            del self.places[: len(self.places) - self.limit]
        self.index = len(self.places) - 1

    def back(self) -> T | None:
        """Go back one place and return it (None: nowhere to go, nothing changes)."""
        if not self.can_back:
            return None
        self.index -= 1
        return self.places[self.index]

    def forward(self) -> T | None:
        """Go forward one place and return it (None: nowhere to go, nothing changes)."""
        if not self.can_forward:
            return None
        self.index += 1
        return self.places[self.index]

    def forget(self, gone: Callable[[T], bool]) -> None:
        """Drop the places for which ``gone`` is true (a deleted item, another account's);
        the current place stays current when it is kept, else the nearest one before it."""
        current = self.index
        kept: list[T] = []
        new_index = -1
        for position, place in enumerate(self.places):
            if gone(place):
                continue
            if kept and kept[-1] == place:
                if position <= current:
                    new_index = len(kept) - 1
                continue  # two neighbours became the same place: one is enough
            kept.append(place)
            if position <= current:
                new_index = len(kept) - 1
        self.places = kept
        self.index = new_index if kept else -1
        if kept and self.index < 0:
            self.index = 0
