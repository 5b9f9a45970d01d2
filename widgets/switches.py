"""Check boxes that read without colour: a tick drawn only when on, and a yes/no switch."""

from __future__ import annotations

from textual.widgets import Checkbox


class Tick(Checkbox):
    """A compact check box that draws its ``X`` only when ticked.

    Textual's box always draws its ``X`` and tells on from off by colour alone, which vanishes
    under ``NO_COLOR``.

    Args:
        label: What ticking it means.
        value: Ticked or not.
        id: Widget id.
    """

    def __init__(self, label: str, value: bool = False, *, id: str | None = None) -> None:
        super().__init__(label, value, id=id, compact=True)

    @property
    def BUTTON_INNER(self) -> str:  # type: ignore[override]
        return "X" if self.value else " "


class YesNo(Tick):
    """A :class:`Tick` whose label also says the state (``X yes`` / ``  no``)."""

    def __init__(self, value: bool, *, id: str | None = None) -> None:
        super().__init__(self._word(value), value, id=id)

    @staticmethod
    def _word(value: bool) -> str:
        return "yes" if value else "no"

    def watch_value(self) -> None:
        super().watch_value()  # the -on class and the Changed message (fields follow it)
        self.label = self._word(self.value)
