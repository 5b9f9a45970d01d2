"""Every use of Textual's private API, in one module, for the Textual versions it was written for.

Textual offers no public way to do these few things, so the app reaches into its internals
here and nowhere else (``tests/test_structure.py`` keeps it so). ``tests/test_textual_private.py``
exercises each of them and fails when the installed Textual is outside
:data:`SUPPORTED_TEXTUAL`: upgrading Textual means reading this module again.

- A node's key table (``DOMNode._bindings``): spec actions are bound per screen, and keys are
  put first or relabelled so the footer shows what matters ("3 marked").
- The app's keymap (``App._keymap``): keys are shown as the user remapped them.
- Whether a key event was stopped (``Message._stop_propagation``): the key gate follows a key
  until a widget consumes it.
- Whether ``TextArea`` is loaded (``textual.widgets._text_area``): asked without importing it.
- The footer's keys and the toasts (``FooterKey``, ``Toast``, ``ToastRack``, from Textual's
  private modules) and a footer key's greyed state (``FooterKey._disabled``): the footer greys
  keys in place, and toasts move off the row the user works on.
- A ``Select``'s options (``Select._options``) and its drop-down (``Select._watch_expanded``):
  a chooser opens instead, and shows them as its rows.
- The app's exception hook (``App._handle_exception``): a failed worker is shown, never fatal.
- An option list's left gutter and its lines (``OptionList._get_left_gutter_width``,
  ``OptionList._lines``) and a ``Select``'s parts (``SelectCurrent``, ``SelectOverlay``): the
  highlighted option of a drop-down, a tick list and a pick list starts with ``❯``.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from rich.segment import Segment
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingsMap
from textual.strip import Strip
from textual.widgets import OptionList, Select
from textual.widgets._footer import FooterKey
from textual.widgets._select import SelectCurrent, SelectOverlay
from textual.widgets._toast import Toast, ToastRack
from textual.worker import WorkerFailed

if TYPE_CHECKING:
    from textual.dom import DOMNode
    from textual.message import Message
    from textual.widgets import TextArea

__all__ = [
    "CURSOR_MARK",
    "SUPPORTED_TEXTUAL",
    "CursorMarked",
    "FooterKey",
    "MarkedOptionList",
    "MarkedSelect",
    "ResilientApp",
    "SelectWithoutDropDown",
    "Toast",
    "ToastRack",
    "bind_first",
    "bind_last",
    "bindings_after_keymap",
    "footer_key_disabled",
    "keymap",
    "loaded_text_area",
    "propagation_stopped",
    "rebind",
    "select_options",
    "set_footer_key_disabled",
]

SUPPORTED_TEXTUAL = ((8, 0), (9, 0))
"""The Textual versions this module was written for: at least the first, below the second
(the dependency in ``pyproject.toml`` says the same)."""

ReturnType = TypeVar("ReturnType")


def bind_first(node: DOMNode, bindings: Iterable[Binding]) -> None:
    """Put ``bindings`` before ``node``'s own keys, in their order (a key bound both ways keeps
    both, the new ones first): the footer shows keys in the order of the node's key table."""
    own = node._bindings.key_to_bindings
    merged: dict[str, list[Binding]] = {}
    for binding in bindings:
        merged.setdefault(binding.key, []).append(binding)
    for key, existing in own.items():
        merged.setdefault(key, []).extend(existing)
    own.clear()
    own.update(merged)


def bind_last(node: DOMNode, bindings: Iterable[Binding]) -> None:
    """Add ``bindings`` after ``node``'s own keys."""
    own = node._bindings.key_to_bindings
    for binding in bindings:
        own.setdefault(binding.key, []).append(binding)


def rebind(node: DOMNode, key: str, bindings: list[Binding]) -> None:
    """Replace what ``key`` does on ``node`` (in place: the key keeps its place in the footer)."""
    node._bindings.key_to_bindings[key] = bindings


def keymap(app: App[Any]) -> Mapping[str, str]:
    """The app's keymap as :meth:`App.set_keymap` set it: binding id -> keys."""
    return app._keymap


def bindings_after_keymap(node: DOMNode) -> BindingsMap:
    """A copy of ``node``'s key table with the app's keymap applied (what a key does there)."""
    bindings = node._bindings.copy()
    remaps = keymap(node.app)
    if remaps:
        bindings.apply_keymap(remaps)
    return bindings


def propagation_stopped(message: Message) -> bool:
    """True when a handler stopped ``message`` from going up any further."""
    return message._stop_propagation


def loaded_text_area(widget: object) -> TextArea | None:
    """``widget`` if it is a ``TextArea``, without importing Textual's TextArea to ask.

    Importing it costs 10-20 ms of the first frame, and the first screen has none: while its
    module is not loaded, no widget can be one.
    """
    module = sys.modules.get("textual.widgets._text_area")
    if module is not None and isinstance(widget, module.TextArea):
        return widget
    return None


def footer_key_disabled(key: FooterKey) -> bool:
    """True when the footer key is drawn greyed (and a click on it does nothing)."""
    return key._disabled


def set_footer_key_disabled(key: FooterKey, disabled: bool) -> None:
    """Grey a footer key or bring it back, in place (FooterKey reads it on click)."""
    key._disabled = disabled


def select_options(select: Select[Any]) -> list[tuple[Any, Any]]:
    """A ``Select``'s ``(prompt, value)`` options, its blank one included."""
    return [(prompt, value) for prompt, value in select._options]


CURSOR_MARK = "❯ "
"""What starts the highlighted option's first line (the same width of spaces on the others)."""


class CursorMarked:
    """Mixed into an :class:`OptionList` (first in the bases): the highlighted option starts
    with ``❯``, so the cursor is told by a shape and not by its colour alone (``NO_COLOR``).

    The option list keeps a gutter of two cells on the left for it (as a ``SelectionList`` does
    for its boxes), so the options never move when the highlight does.
    """

    def _get_left_gutter_width(self) -> int:
        assert isinstance(self, OptionList)
        return super()._get_left_gutter_width() + len(CURSOR_MARK)  # type: ignore[misc]

    def render_line(self, y: int) -> Strip:
        assert isinstance(self, OptionList)
        strip: Strip = super().render_line(y)  # type: ignore[misc]
        try:
            index, line_offset = self._lines[self.scroll_offset.y + y]
        except IndexError:
            return strip
        first = next(iter(strip), None)
        style = first.style if first is not None else None
        marked = index == self.highlighted and line_offset == 0
        gutter = CURSOR_MARK if marked else " " * len(CURSOR_MARK)
        return Strip.join([Strip([Segment(gutter, style)], len(gutter)), strip])


class MarkedOptionList(CursorMarked, OptionList):
    """An :class:`OptionList` whose highlighted option starts with ``❯``."""


class _MarkedSelectOverlay(CursorMarked, SelectOverlay):
    """A drop-down whose highlighted option starts with ``❯``."""


class MarkedSelect(Select[Any]):
    """A :class:`Select` whose drop-down marks its highlighted option with ``❯``."""

    def compose(self) -> ComposeResult:
        # As Select.compose, with the marked drop-down (the Select finds it by its base class).
        yield SelectCurrent(self.prompt)
        yield _MarkedSelectOverlay(type_to_search=self._type_to_search).data_bind(
            compact=Select.compact
        )


class SelectWithoutDropDown(Select[Any]):
    """A ``Select`` whose drop-down never opens: :meth:`drop_down_asked` is called instead
    (a click on the current value, as enter and the arrows do through ``action_show_overlay``)."""

    def _watch_expanded(self, expanded: bool) -> None:
        if expanded:
            self.expanded = False
            self.drop_down_asked()

    def drop_down_asked(self) -> None:
        """The user asked for the choices."""
        raise NotImplementedError


class ResilientApp(App[ReturnType]):
    """An app that shows a failed worker instead of ending.

    A worker started with ``exit_on_error=True`` (Textual's default, ``@work`` included) would
    take the whole app down when it raises; here its failure goes to :meth:`worker_failed`.
    """

    def _handle_exception(self, error: Exception) -> None:
        if isinstance(error, WorkerFailed) and self.is_running:
            self.worker_failed(error.error)
            return
        super()._handle_exception(error)

    def worker_failed(self, error: BaseException) -> None:
        """Show what a worker raised (the app keeps running)."""
        raise NotImplementedError
