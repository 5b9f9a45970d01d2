"""Getting the account's relations index ready from a screen, with its progress shown, and
opening an object it names.

Whoever needs the index (the Relations tab, ``:xray``) awaits :func:`ready_index` from a worker:
the keys stay free, and a line of the screen says how far the build has got while it runs.
"""

from __future__ import annotations

from collections.abc import Callable

from textual.widget import Widget

from screens.app_surface import surface
from screens.navigation import OpenItem
from tui.relations.cache import RelationCache
from tui.relations.graph import Ref
from tui.relations.index import RelationIndex
from tui.resources.areas import SPECS
from tui.session.runtime import Session

PROGRESS_EVERY = 0.25
"""Seconds between two updates of the progress line while the index is built."""


def cache_of(node: Widget) -> tuple[RelationCache, Session] | None:
    """The relations index of the account ``node``'s app is on, with its session (None before
    sign-in)."""
    state = surface(node).state
    cache = state.relation_cache()
    session = state.session
    if cache is None or session is None:
        return None
    return cache, session


async def ready_index(
    node: Widget,
    cache: RelationCache,
    session: Session,
    say: Callable[[str], None],
    *,
    force: bool = False,
) -> RelationIndex:
    """The index, built or brought up to date, ``say`` told the progress while it is fetched.

    Args:
        node: The widget whose timer updates the progress.
        cache: The account's relations index.
        session: Its session (the client fetches).
        say: Shows one line of progress (our text only).
        force: List everything again (``r``), not only what is missing or old.
    """
    client = session.client

    def tick() -> None:
        if cache.building:
            say(f"Loading relations… {cache.progress(client)}")

    timer = node.set_interval(PROGRESS_EVERY, tick)
    say("Loading relations…")
    try:
        return await cache.ready(client, force=force)
    finally:
        timer.stop()


def open_ref(node: Widget, index: RelationIndex, ref: Ref) -> bool:
    """Open the detail screen of the object ``ref`` names (its row as last listed).

    Returns:
        False when no screen shows objects of its kind or the index no longer holds it.
    """
    spec = SPECS.get(ref.kind)
    row = index.row(ref)
    if spec is None or row is None:
        return False
    node.post_message(OpenItem(spec, row, ref.path_params()))
    return True
