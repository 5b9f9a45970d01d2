"""A free input that knows likely values: the account's tags, the contacts' groups, addresses.

Anything may still be typed (a new tag, an address outside the account); the values the form
loaded for the field (``FormField.suggest``) complete the item being typed inline, accepted
with → or end as Textual's ``Input`` accepts a suggestion, and ctrl+o offers them all in the
chooser (:class:`widgets.chooser_modal.ChooserModal`). In a comma-separated list the item being
typed is the text after the last comma: completion and choosing touch only it, never the items
before it.

The values are API text: what the input draws (its value and the completion) goes through
:func:`tui.untrusted.shown`; the value itself is what the account holds.

Bindings:

| Key | Id | Description |
| :- | :- | :- |
| ctrl+o | form.known | Choose among the known values (a list field appends it) |
| ctrl+o | form.known_line | Choose among the known values: added as a line |
| right, end | (input) | Accept the completion shown |
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import Any, ClassVar

from rich.highlighter import Highlighter
from rich.text import Text
from textual.binding import Binding, BindingType
from textual.suggester import Suggester
from textual.widget import Widget
from textual.widgets import Input

from tui.resources.choosers import ChooserTable, plain_rows
from tui.untrusted import Shown, shown
from widgets.multiline_input import MultilineInput

SUGGEST_KEY = "ctrl+o"
"""The key that opens the chooser of known values (named in the field's hint)."""

LOADS_ON_FOCUS = "listed once focused"
"""What the hint says of the known values before the input was first focused."""


class ShownText(Highlighter):
    """Draws an input's text as display text: control characters as their pictures (one
    character each, so the cursor stays where it was)."""

    def highlight(self, text: Text) -> None:
        text.plain = shown(text.plain)


class Known:
    """The values a free input knows, gathered from one or more listings.

    Args:
        title: What the field is called (the chooser's heading).
        noun: What the values are (``tags``), for the hint.
    """

    def __init__(self, title: Shown, noun: Shown) -> None:
        self.title = title
        self.noun = noun
        self._by_source: dict[Hashable, list[tuple[str, str]]] = {}
        """Source -> its ``(text, value)`` options, as loaded."""
        self._failed: dict[Hashable, str] = {}
        """Source -> why its values could not be loaded."""

    @property
    def options(self) -> list[tuple[str, str]]:
        """Every known ``(text, value)``, each value once, in the order loaded."""
        seen: set[str] = set()
        out: list[tuple[str, str]] = []
        for options in self._by_source.values():
            for text, value in options:
                if value and value not in seen:
                    seen.add(value)
                    out.append((text, value))
        return out

    def set(self, source: Hashable, options: Iterable[tuple[Any, Any]]) -> None:
        """The values one listing offers (``(text, value)`` options)."""
        self._failed.pop(source, None)
        self._by_source[source] = [(str(t), str(v)) for t, v in options if v not in (None, "")]

    def failed(self, source: Hashable, reason: str) -> None:
        """One listing could not be loaded: its values are not offered (typing still works)."""
        self._by_source.pop(source, None)
        self._failed[source] = reason

    @property
    def note(self) -> Shown:
        """What the field's hint says of the known values: the key and how many there are."""
        count = len(self.options)
        if self._failed and not count:
            reason = shown("; ".join(self._failed.values()))
            return f"known {self.noun} could not be loaded ({reason}): type the value"
        if not self._by_source:
            return f"{SUGGEST_KEY}: {self.noun} {LOADS_ON_FOCUS}"
        if not count:
            return f"no known {self.noun} yet: type the value"
        return f"{SUGGEST_KEY}: {count} known {_counted(self.noun, count)}"

    def complete(self, typed: str, taken: Iterable[str] = ()) -> str | None:
        """The first known value that ``typed`` starts (case-insensitively) and is longer,
        leaving out the ``taken`` ones (a list's other items), or None."""
        if not typed:
            return None
        left_out = set(taken)
        folded = typed.casefold()
        for _text, value in self.options:
            longer = len(value) > len(typed) and value not in left_out
            if longer and value.casefold().startswith(folded):
                return value
        return None

    def table(self) -> ChooserTable:
        """The known values as a chooser's rows (display text)."""
        rows = plain_rows((shown(text), value) for text, value in self.options)
        return ChooserTable((shown(self.title),), (False,), rows, empty=self.note)

    def choose(self, widget: Widget, put: Callable[[str], None]) -> None:
        """Offer the values in the chooser over ``widget``; ``put`` takes the one chosen."""
        from widgets.chooser_modal import ChooserModal

        def chosen(value: Any) -> None:
            if value is not None:
                put(str(value))
            widget.focus()

        widget.app.push_screen(ChooserModal(self.title, self.table()), chosen)


class KnownValues(Suggester):
    """Completes the item being typed from the input's known values (display text: Textual
    draws the suggestion as it is; accepting puts the value itself in)."""

    def __init__(self, owner: SuggestInput) -> None:
        super().__init__(use_cache=False, case_sensitive=True)
        self.owner = owner

    async def get_suggestion(self, value: str) -> str | None:
        """The whole text with the item completed, as display text (None: nothing known)."""
        completed = self.owner.completion(value)
        return shown(completed) if completed is not None else None


class SuggestInput(Input):
    """A one-line input with known values to complete from and choose among.

    Args:
        value: The text to start with.
        title: What the field is called (the chooser's heading).
        noun: What the known values are (``tags``), for the hint.
        listed: The field is a comma-separated list: the last item is the one completed, and a
            value chosen is appended.
        **kwargs: The ``Input``'s own arguments.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(SUGGEST_KEY, "choose_known", "Known values", id="form.known"),
    ]

    def __init__(
        self, value: str = "", *, title: Shown, noun: Shown, listed: bool, **kwargs: Any
    ) -> None:
        super().__init__(value, highlighter=ShownText(), **kwargs)
        self.suggester = KnownValues(self)
        self.known = Known(title, noun)
        self.listed = listed

    def _item_start(self, text: str) -> int:
        """Where the item being typed starts (after the last comma of a list)."""
        return text.rfind(",") + 1 if self.listed else 0

    def completion(self, text: str) -> str | None:
        """``text`` with its item being typed completed to a known value (a list's earlier
        items are not offered again), or None."""
        start = self._item_start(text)
        typed = text[start:].lstrip()
        value = self.known.complete(typed, (item.strip() for item in text[:start].split(",")))
        return text[: len(text) - len(typed)] + value if value is not None else None

    def _accept(self) -> bool:
        """Put the completion shown into the value (True when there was one)."""
        if not (self.cursor_at_end and self.selection.is_empty):
            return False
        completed = self.completion(self.value)
        if completed is None:
            return False
        self.value = completed
        self.cursor_position = len(completed)
        return True

    def action_cursor_right(self, select: bool = False) -> None:
        """Accept the completion, or move right."""
        if select or not self._accept():
            super().action_cursor_right(select)

    def action_end(self, select: bool = False) -> None:
        """Accept the completion, or go to the end."""
        if select or not self._accept():
            super().action_end(select)

    def with_chosen(self, value: str) -> str:
        """The text once ``value`` is chosen: the value itself, or for a list, the list with
        it appended (replacing the item being typed when the value completes it)."""
        if not self.listed:
            return value
        start = self._item_start(self.value)
        items = [item.strip() for item in self.value[:start].split(",") if item.strip()]
        typed = self.value[start:].strip()
        if typed and not value.casefold().startswith(typed.casefold()):
            items.append(typed)  # an item typed in full stays
        if value not in items:
            items.append(value)
        return ", ".join(items)

    def _put(self, value: str) -> None:
        self.value = self.with_chosen(value)
        self.cursor_position = len(self.value)

    def action_choose_known(self) -> None:
        """Offer the known values; the one chosen goes in (appended to a list)."""
        self.known.choose(self, self._put)


class SuggestArea(MultilineInput):
    """A text area of one value per line (a database's allow list) with known values: the
    line being typed is completed (→ accepts), and ctrl+o adds a chosen value as a line.

    Args:
        text: The text to start with.
        title: What the field is called (the chooser's heading).
        noun: What the known values are, for the hint.
        **kwargs: The text area's own arguments.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(SUGGEST_KEY, "choose_known", "Known values", id="form.known_line"),
    ]

    def __init__(self, text: str = "", *, title: Shown, noun: Shown, **kwargs: Any) -> None:
        super().__init__(text, **kwargs)
        self.known = Known(title, noun)
        self._rest = ""
        """What completes the line being typed, as the value has it (drawn as display text)."""

    def update_suggestion(self) -> None:
        """Complete the line the cursor ends (Textual's hook, after every edit and move)."""
        row, column = self.cursor_location
        line = self.document.get_line(row)
        typed = line.strip()
        others = (other.strip() for i, other in enumerate(self.text.split("\n")) if i != row)
        value = self.known.complete(typed, others) if column == len(line) else None
        self._rest = value[len(typed) :] if value is not None else ""
        self.suggestion = shown(self._rest)

    def action_cursor_right(self, select: bool = False) -> None:
        """Accept the completion (the value itself), or move right."""
        if self._rest and not select:
            self.insert(self._rest)
            return
        super().action_cursor_right(select)

    def _put(self, value: str) -> None:
        lines = [line for line in self.text.split("\n") if line.strip()]
        if lines and value.casefold().startswith(lines[-1].strip().casefold()):
            lines.pop()  # the line being typed was the start of it
        if value not in (line.strip() for line in lines):
            lines.append(value)
        self.text = "\n".join(lines)
        self.move_cursor(self.document.end)

    def action_choose_known(self) -> None:
        """Offer the known values; the one chosen is added as a line."""
        self.known.choose(self, self._put)


Knows = SuggestInput | SuggestArea
"""An input with known values (:attr:`known`)."""


def _counted(noun: Shown, count: int) -> Shown:
    """``noun`` (a plural) for ``count`` things: ``1 known tag``, ``2 known tags``."""
    if count != 1:
        return noun
    if noun.endswith("sses"):
        return noun[:-2]
    return noun[:-1] if noun.endswith("s") else noun
