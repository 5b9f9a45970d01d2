"""One row of a generated form: the label, the marker and input, the error line, the help.

The row knows what it says: its label (``*`` when required, the hint of the value chosen), its
error or note under the input, and whether the focus is on it (a marker that reads without
colour). :class:`~widgets.model_form.ModelForm` lays the rows out and decides what they say.
"""

from __future__ import annotations

from rich.text import Text
from textual.containers import Horizontal, Vertical
from textual.widget import Widget
from textual.widgets import Label, Static

from tui.untrusted import Shown
from widgets.marked_button import FOCUS_MARKER, MARKER


def id_part(name: str) -> str:
    """A widget id part for a dotted input name (``configs.0.port`` -> ``configs-0-port``)."""
    return "".join(c if c.isalnum() or c in "_-" else "-" for c in name)


class FormRow(Vertical):
    """The row of one input.

    Args:
        wid: The input's id (the row's is ``row-`` and it, its label's ``label-`` and it).
        label: What the label says.
        inputs: The input, and an input shown instead of it (a choice typed by hand).
        help_text: Help under the error line ('' for none).
        locked: Why the input cannot be changed ('' when it can); said instead of the help.
    """

    def __init__(
        self, wid: str, label: Text, inputs: list[Widget], help_text: Shown, locked: Shown
    ) -> None:
        children: list[Widget] = [
            Label(label, classes="form-label", id=f"label-{wid}"),
            # A visible marker: compact inputs draw no border, and colour alone would vanish
            # under NO_COLOR.
            Horizontal(Static(MARKER, classes="form-marker"), *inputs, classes="form-input"),
            # Right under the input, before the help: the input and why it was refused fit
            # on screen together however long the help is.
            Static("", classes="form-error -hidden"),
        ]
        if locked:
            children.append(Static(Text(f"Locked: {locked}"), classes="form-help"))
        elif help_text:
            children.append(Static(Text(help_text), classes="form-help", id=f"help-{wid}"))
        super().__init__(*children, classes="form-row", id=f"row-{wid}")
        self.wid = wid
        self.error: Shown = ""
        """The error (or note) under the input ('' when none)."""

    @property
    def _error_line(self) -> Static:
        return self.query_one(".form-error", Static)

    def show_error(self, message: Shown) -> None:
        """Show ``message`` under the input as an error ('' clears it)."""
        # A shape as well as a colour: without colour an error must not read as help text.
        self.error = message
        line = self._error_line
        line.update(Text(f"✖ {message}" if message else ""))
        line.remove_class("-note")
        line.set_class(not message, "-hidden")
        self.set_class(bool(message), "-invalid")

    def show_success(self, message: Shown) -> None:
        """Show ``message`` under the input as good news (a password generated there)."""
        self.error = message
        self.remove_class("-invalid")
        line = self._error_line
        line.update(Text(message))
        line.remove_class("-hidden")
        line.add_class("-note")

    def clear_error(self) -> None:
        """The input was edited: its old error would mislead (it is checked again on send)."""
        if self.has_class("-invalid"):
            self.remove_class("-invalid")
            self._error_line.add_class("-hidden")

    def mark(self, focused: bool) -> None:
        """Mark the row as the one with the focus, or not."""
        for marker in self.query(".form-marker").results(Static):  # a new row may be mounting
            # One cell wide either way: a repaint, never a new layout of the whole form.
            marker.update(FOCUS_MARKER if focused else MARKER, layout=False)

    def relabel(self, label: Text, *, noted: bool) -> None:
        """Say ``label``; a label with the hint of the value chosen (``noted``) stands in for
        help that covers every value."""
        self.query_one(f"#label-{self.wid}", Label).update(label)
        for help_text in self.query(f"#help-{self.wid}"):
            help_text.set_class(noted, "-hidden")
