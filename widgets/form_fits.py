"""A form's choices that do not suit another input: the reason under the input once chosen.

The rules are the choice sources' :class:`~tui.resources.choice_fits.Fit` list; the chooser
marks the rows itself (:class:`widgets.chooser_field.ChooserSelect`), and this mixin of
:class:`~widgets.model_form.ModelForm` gives each chooser the form's other inputs to compare
with and shows why a chosen value will be refused ("std-1 — too small: backup needs 98 GB").
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import TYPE_CHECKING, Any

from tui.untrusted import shown
from widgets.chooser_field import ChooserSelect
from widgets.form_inputs import read_value
from widgets.mixin_base import WidgetMixin

if TYPE_CHECKING:
    from textual.widget import Widget

    from tui.resources.forms import FormSpec


class FitNotesMixin(WidgetMixin):
    """Compares chooser choices with the rest of the form (see the module docstring)."""

    form: FormSpec
    _hidden: set[str]
    _fit_notes: dict[str, str]

    if TYPE_CHECKING:

        def widget_for(self, name: str) -> Widget: ...
        def show_note(self, name: str, message: str) -> None: ...
        def error_text(self, name: str) -> str: ...

    def chosen(self, name: str, asking: str = "") -> tuple[Any, Mapping[str, Any] | None]:
        """The value of input ``name`` and the item chosen there (None: empty, hidden or
        not an input of this form).

        Args:
            name: The input.
            asking: The input whose choices are compared with it: ``name`` counts even while
                hidden when it is hidden only until ``asking`` is filled (a script chosen
                first is shown once an image is).
        """
        f = self.form.field(name)
        if f is None:
            return None, None
        if name in self._hidden and (f.rule is None or f.rule.field != asking):
            return None, None
        widget = self.widget_for(name)
        value = read_value(widget)
        if value in (None, ""):
            return None, None
        item = widget.item_for(value) if isinstance(widget, ChooserSelect) else None
        return value, item

    def refresh_fits(self) -> None:
        """Under every chooser with rules: why its chosen value does not suit the form."""
        if not hasattr(self, "_fit_notes"):
            self._fit_notes = {}
        for f in self.form.fields:
            if f.source is None or not f.source.fits:
                continue
            widget = self.widget_for(f.name)
            if not isinstance(widget, ChooserSelect):
                continue
            widget.lookup = partial(self.chosen, asking=f.name)
            reason = widget.misfit() if f.name not in self._hidden else ""
            note = shown(f"{widget.value} — {reason}") if reason else ""
            noted = self._fit_notes.get(f.name, "")
            if note and self.error_text(f.name) != note:
                self.show_note(f.name, note)
            elif not note and noted and self.error_text(f.name) == noted:
                self.show_note(f.name, "")
            self._fit_notes[f.name] = note
