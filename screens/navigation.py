"""Messages by which screens ask the app for something, so no screen calls the app by name.

Attributes go down, messages go up: a pane posts :class:`OpenItem` and the app (which knows
every screen) opens the item's detail screen; the sidebar and the palette post
:class:`GoToArea`; ``b`` posts :class:`BookmarkAsked`. The detail screen holds list panes and
list panes open detail screens without either importing the other, and no screen imports the
app. A message posted by a widget climbs through its screen to the app; a screen's flow that
outlives its screen (an account switch) posts to the app directly.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from textual.message import Message

from tui.resources.spec import ResourceSpec

if TYPE_CHECKING:
    from textual.screen import Screen

    from tui.session.runtime import Session


class OpenItem(Message):
    """Open the detail screen of ``item`` (of ``spec``, under path ``params``).

    Args:
        spec: The resource the item was listed as.
        item: The item.
        params: Path parameters of the list it was in (a child list's parent ids).
        in_its_area: Switch to the item's area first (the palette's "jump to resource").
    """

    def __init__(
        self,
        spec: ResourceSpec,
        item: Mapping[str, Any],
        params: Mapping[str, Any],
        *,
        in_its_area: bool = False,
    ) -> None:
        self.spec = spec
        self.item = dict(item)
        self.params = dict(params)
        self.in_its_area = in_its_area
        super().__init__()


class GoToArea(Message):
    """Switch to an area (keeping its navigation stack); ``spec_id`` picks one of its tabs.

    Args:
        area_id: The area (a mode of the app).
        spec_id: The tab to show (None: what the area showed last).
    """

    def __init__(self, area_id: str, spec_id: str | None = None) -> None:
        self.area_id = area_id
        self.spec_id = spec_id
        super().__init__()


class BookmarkAsked(Message):
    """``b``: bookmark the item under the cursor of ``screen`` (or remove its bookmark).

    Args:
        screen: The screen ``b`` was pressed on.
    """

    def __init__(self, screen: Screen[Any]) -> None:
        self.screen = screen
        super().__init__()


class HelpAsked(Message):
    """``?`` or ``:help``: show every binding of the screen on top."""


class TaskFailed(Message):
    """A worker of a screen or pane failed: the app shows it (an API error as a notification,
    anything else in the error dialog) and keeps running.

    Args:
        error: What the worker raised.
        where: The worker's name (said in the error dialog).
    """

    def __init__(self, error: BaseException, where: str = "") -> None:
        self.error = error
        self.where = where
        super().__init__()


class AccountOpened(Message):
    """Move the app onto ``session``'s account (``:account``, a row of a list across accounts),
    then call ``then``.

    Args:
        session: The account's session, just opened.
        then: Called once the app is on it (open the row's item), or None.
    """

    def __init__(self, session: Session, then: Callable[[], object] | None = None) -> None:
        self.session = session
        self.then = then
        super().__init__()
