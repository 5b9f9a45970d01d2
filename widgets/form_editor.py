"""A form's multi-line input opened in the user's editor (ctrl+e), as a script's ``E`` does.

The form widget only asks (:class:`EditInEditor`); the dialog hands the text to ``$VISUAL`` or
``$EDITOR`` through the one hand-off mechanism and puts the edited text back
(:meth:`~widgets.model_form.ModelForm.put_edited`). A single-line input keeps ctrl+e as "end
of line".
"""

from __future__ import annotations

from textual.message import Message

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


def editor_file_name(name: str) -> str:
    """A file name for input ``name`` that tells the editor what it edits (``script.sh``)."""
    leaf = name.rsplit(".", 1)[-1]
    return leaf + SUFFIXES.get(leaf, ".txt")
