"""The base of every widget mixin: a ``Widget`` for the type checker, a plain class at run time.

A mixin listed before a Textual container (``ModelForm(ExtraFieldsMixin, ..., VerticalScroll)``)
must not be a ``Widget`` subclass when the program runs: Textual inherits ``DEFAULT_CSS`` along
the Widget classes of the MRO, and a Widget mixin listed first hides the container's own rules
(the form lost ``VerticalScroll``'s ``overflow-y: auto`` and never scrolled to its focus). For
mypy it is a ``Widget``, so the mixin's calls to ``query_one``, ``app`` and the like are checked.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from textual.widget import Widget

    WidgetMixin = Widget
else:
    WidgetMixin = object
