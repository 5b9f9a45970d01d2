"""A form's multi-line input opened in the user's editor (ctrl+e), as a script's ``E`` does.

The form widget only asks (:class:`EditInEditor`); the dialog hands the text to ``$VISUAL`` or
``$EDITOR`` through the one hand-off mechanism and puts the edited text back
(:meth:`EditorKeyMixin.put_edited`). A single-line input keeps ctrl+e as "end of line".
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.message import Message
from textual.widgets import TextArea

from widgets.mixin_base import WidgetMixin

if TYPE_CHECKING:
    from textual.widget import Widget

    from tui.resources.forms import FormSpec


SUFFIXES = {"script": ".sh", "ssl_cert": ".pem", "ssl_key": ".pem", "certificate": ".pem"}
"""Input name -> file suffix, so the editor recognises what it edits (shell, PEM)."""


class EditInEditor(Message):
    """The user asked to edit input ``name`` in their editor.

    Attributes:
        name: The input.
        text: What it holds now.
        file_name: A file name that tells the editor what the text is (``script.sh``).
    """

    def __init__(self, name: str, text: str, file_name: str) -> None:
        super().__init__()
        self.name = name
        self.text = text
        self.file_name = file_name


class EditorKeyMixin(WidgetMixin):
    """ctrl+e on a focused text area of a :class:`~widgets.model_form.ModelForm`."""

    form: FormSpec

    if TYPE_CHECKING:

        def widget_for(self, name: str) -> Widget: ...

    def _focused_text_area(self) -> str | None:
        """The name of the input whose text area has the focus."""
        focused = self.screen.focused
        if not isinstance(focused, TextArea):
            return None
        return next((f.name for f in self.form.fields if self.widget_for(f.name) is focused), None)

    def action_external_editor(self) -> None:
        """Ask the dialog to open the focused text area in the editor."""
        name = self._focused_text_area()
        if name is None:
            return
        area = self.widget_for(name)
        assert isinstance(area, TextArea)
        leaf = name.rsplit(".", 1)[-1]
        self.post_message(EditInEditor(name, area.text, leaf + SUFFIXES.get(leaf, ".txt")))

    def put_edited(self, name: str, text: str) -> None:
        """Put the editor's ``text`` back into input ``name`` and focus it."""
        area = self.widget_for(name)
        if isinstance(area, TextArea):
            area.text = text
            area.focus()
