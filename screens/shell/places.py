"""Back and forward between the screens visited, like a browser (``alt+left``/``alt+right``).

The history is :class:`tui.history.places.NavigationHistory`; this module says what place a
screen is (an area's list with the tab shown, an item's detail screen, a home screen) and goes
back to one: to its area (each area keeps its own stack of screens), down that stack to the
screen, or, when the screen was closed since, opening it again (a detail screen is opened on
the item as it was seen; it refreshes itself at once). Dialogs are no places.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from textual.app import App, UnknownModeError
from textual.screen import ModalScreen, Screen

from screens.details.resource_detail import ResourceDetailScreen
from screens.frame import ShellScreen
from screens.lists.resource_list import ResourceListScreen
from tui.history.places import NavigationHistory, Place
from tui.resources.spec import ResourceSpec


@dataclass(frozen=True)
class Visit:
    """A place and what reopens it (compared by the place alone)."""

    place: Place
    spec: ResourceSpec | None = field(default=None, compare=False, hash=False)
    item: Mapping[str, Any] | None = field(default=None, compare=False, hash=False)
    params: Mapping[str, Any] = field(default_factory=dict, compare=False, hash=False)


def visit_of(screen: Screen[Any], area: str) -> Visit | None:
    """The place ``screen`` is, in the area (mode) ``area``; None for a dialog."""
    if isinstance(screen, ModalScreen) or not isinstance(screen, ShellScreen):
        return None
    if isinstance(screen, ResourceDetailScreen):
        spec = screen.resource
        key = str(spec.item_key(screen.item)) if screen.item else None
        place = Place.of(area, spec.id, screen.params, key, spec.label_of(screen.item))
        return Visit(place, spec, dict(screen.item), dict(screen.params))
    if isinstance(screen, ResourceListScreen):
        spec = screen.pane.spec
        return Visit(Place.of(area, spec.id, title=spec.title), spec)
    return Visit(Place(area, title=area))


class Places:
    """The screens visited in one app, and going back and forward among them."""

    def __init__(self, app: App[Any]) -> None:
        self.app = app
        self.history: NavigationHistory[Visit] = NavigationHistory()
        self._moving = False

    def watch(self) -> None:
        """Follow the app's screen changes (call once the app runs)."""
        self.app.screen_change_signal.subscribe(self.app, self._screen_changed)

    def _screen_changed(self, screen: Screen[Any]) -> None:
        if self._moving:
            return  # the screens passed on the way back are not visits
        visit = visit_of(screen, self.app.current_mode)
        if visit is not None:
            self.history.visit(visit)

    def forget_all(self) -> None:
        """Forget every place (the app moved to another account: its items are not these)."""
        self.history.forget(lambda _visit: True)

    def note_current(self) -> None:
        """Record the screen shown now (a tab switched within it changes its place)."""
        self._screen_changed(self.app.screen)

    def back(self) -> bool:
        """Go to the place before; False when there is none."""
        self.note_current()
        visit = self.history.back()
        if visit is None:
            return False
        self._go(visit)
        return True

    def forward(self) -> bool:
        """Go to the place after; False when there is none."""
        visit = self.history.forward()
        if visit is None:
            return False
        self._go(visit)
        return True

    def _go(self, visit: Visit) -> None:
        self._moving = True
        self.app.run_worker(self._arrive(visit), group="places", exclusive=True)

    async def _arrive(self, visit: Visit) -> None:
        try:
            place = visit.place
            try:
                await self.app.switch_mode(place.area)
            except UnknownModeError:
                return  # an area that is gone (nothing to go back to there)
            stack = self.app.screen_stack
            target = next(
                (
                    s
                    for s in reversed(stack)
                    if (found := visit_of(s, place.area)) is not None and found == visit
                ),
                None,
            )
            if target is not None:
                while self.app.screen is not target and len(self.app.screen_stack) > 1:
                    await self.app.pop_screen()
            elif place.item_key is not None and visit.spec is not None:
                while len(self.app.screen_stack) > 1:
                    await self.app.pop_screen()
                await self.app.push_screen(
                    ResourceDetailScreen(visit.spec, visit.item, visit.params)
                )
            else:
                while len(self.app.screen_stack) > 1:
                    await self.app.pop_screen()
                screen = self.app.screen
                if isinstance(screen, ResourceListScreen) and place.spec_id:
                    screen.show_spec(place.spec_id)
        finally:
            self._moving = False
