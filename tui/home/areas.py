"""The operator's home (overview, watchlist, activity log, account check) as areas, and their
``:`` words.

These areas are hand-written screens, not resource lists, so they live beside ``AREAS`` rather
than in it; the sidebar shows them first under "Home".
"""

from __future__ import annotations

from tui.resources.spec import Area

HOME_AREAS: tuple[Area, ...] = (
    Area("overview", "Overview", "home.overview", ("ov", "home", "dash", "dashboard"), "Home"),
    Area("watch", "Watchlist", "home.watch", ("watchlist", "bookmarks", "marks"), "Home"),
    Area("log", "Activity log", "home.log", ("activity", "changes", "history"), "Home"),
    Area("check", "Check", "home.check", ("findings", "audit", "lint"), "Home"),
)
"""Home areas, in sidebar order (the overview is where the app opens)."""

HOME_BY_ID = {area.id: area for area in HOME_AREAS}

HOME_WORDS: dict[str, str] = {
    word: area.id for area in HOME_AREAS for word in (area.id, *area.aliases)
}
"""``:`` word -> home area id."""

READ_ONLY_WORDS = frozenset({"read-only", "readonly", "ro"})
"""``:`` words that toggle the read-only session."""


def home_area(word: str) -> str | None:
    """The home area a ``:`` word names (exact word), if any."""
    return HOME_WORDS.get(word.strip().lstrip(":").lower())
