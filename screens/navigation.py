"""Messages by which panes ask for another screen, so no pane imports the screens it opens.

A list pane posts :class:`OpenItem`; the app (which knows every screen) opens the item's detail
screen. This keeps the import graph of ``screens/`` free of circles: the detail screen holds
list panes, and list panes open detail screens, without either importing the other.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from textual.message import Message

from tui.resources.spec import ResourceSpec


class OpenItem(Message):
    """Open the detail screen of ``item`` (of ``spec``, under path ``params``).

    Args:
        spec: The resource the item was listed as.
        item: The item.
        params: Path parameters of the list it was in (a child list's parent ids).
    """

    def __init__(
        self, spec: ResourceSpec, item: Mapping[str, Any], params: Mapping[str, Any]
    ) -> None:
        self.spec = spec
        self.item = dict(item)
        self.params = dict(params)
        super().__init__()
