"""Inputs added to a form after it is shown: the fields a chosen deployment script asks for."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.containers import Vertical
from textual.widget import Widget
from textual.widgets import Static

from tui.resources.forms import FormField, FormSpec
from widgets.mixin_base import WidgetMixin


class ExtraFieldsMixin(WidgetMixin):
    """Replaces a named set of inputs of a :class:`~widgets.model_form.ModelForm` at run time."""

    form: FormSpec
    _ids: dict[str, str]
    _values: dict[str, Any]
    _extra: int = 0
    """Sets of inputs added after composing (their ids stay unique across replacements)."""

    if TYPE_CHECKING:

        def _row(self, f: FormField) -> Vertical: ...

    async def set_extra_fields(
        self, prefix: str, after: str, fields: tuple[FormField, ...], form: FormSpec
    ) -> None:
        """Replace the inputs named ``prefix...`` with ``fields``, shown after input ``after``.

        Args:
            prefix: Name prefix of the inputs being replaced (a script's answers).
            after: The input they follow (the script choice).
            fields: The new inputs (their defaults prefilled).
            form: The whole form with them (the screen's, so both agree).
        """
        # Until the new rows are mounted the form has none under the prefix: values() read
        # meanwhile (a send, a chooser's comparison) must not look for inputs not there.
        old = [f for f in self.form.fields if f.name.startswith(prefix)]
        kept = tuple(f for f in self.form.fields if not f.name.startswith(prefix))
        self.form = replace(self.form, fields=kept)
        for gone in old:
            await self.query_one(f"#row-{self._ids.pop(gone.name)}").remove()
        for header in self.query(".form-extra-group"):
            if header.name == prefix:
                await header.remove()
        self._extra += 1
        for index, f in enumerate(fields):
            self._ids[f.name] = f"field-x{self._extra}-{index}"
            if f.default is not None:
                self._values.setdefault(f.name, f.default)
        if not fields:
            self.form = form
            return
        rows: list[Widget] = []
        group = fields[0].group
        if group:
            header = Static(Text(group), classes="form-group form-extra-group", name=prefix)
            rows.append(header)
        rows.extend(self._row(f) for f in fields)
        await self.mount_all(rows, after=self.query_one(f"#row-{self._ids[after]}"))
        self.form = form
