"""Secret inputs of a form: generate a strong password, show or hide the focused secret, and
mask a shown one again when the user leaves it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual import events
from textual.containers import Vertical
from textual.widgets import Input, Static

from tui.resources.forms import generate_password
from widgets.mixin_base import WidgetMixin

if TYPE_CHECKING:
    from textual.widget import Widget

    from tui.resources.forms import FormSpec


class SecretFieldsMixin(WidgetMixin):
    """The ``ctrl+g`` and ``ctrl+t`` keys of a :class:`~widgets.model_form.ModelForm`."""

    form: FormSpec
    _ids: dict[str, str]
    _hidden: set[str]

    if TYPE_CHECKING:

        def widget_for(self, name: str) -> Widget: ...
        def _show_error(self, name: str, message: str) -> None: ...

    def _focused_secret(self) -> str | None:
        focused = self.screen.focused
        for f in self.form.fields:
            if f.kind == "secret" and focused is self.widget_for(f.name):
                return f.name
        return None

    def _passwords(self) -> tuple[str, ...]:
        """Password inputs shown now (a root password only once an image is chosen)."""
        return tuple(n for n in self.form.password_names if n not in self._hidden)

    def on_descendant_blur(self, event: events.DescendantBlur) -> None:
        self.refresh_bindings()  # "Show/hide secret" follows the focused input
        widget = event.widget
        if isinstance(widget, Input) and not widget.password:
            secrets = (self.widget_for(n) for n in self.form.secret_names if n in self._ids)
            if any(widget is secret for secret in secrets):
                widget.password = True  # shown on request only while the user is on it

    def action_generate(self) -> None:
        """Generate a strong password into the focused password field (else the first one)."""
        passwords = self._passwords()
        focused = self._focused_secret()
        name = focused if focused in passwords else next(iter(passwords), None)
        if name is None:
            self.app.notify("This form has no password field.", title="Generate password")
            return
        widget = self.widget_for(name)
        assert isinstance(widget, Input)
        length = 32
        f = self.form.field(name)
        if f is not None and f.max_length is not None:
            length = min(length, int(f.max_length))
        widget.value = generate_password(length)
        widget.password = False  # shown so the user can keep it; masked again on leaving
        self._show_error(name, "")
        # Said beside the field, not in a toast that would outlive the form.
        note = self.query_one(f"#row-{self._ids[name]}", Vertical).query_one(".form-error", Static)
        note.update(Text("Generated and shown so you can keep it; hidden again when you leave."))
        note.remove_class("-hidden")
        note.add_class("-note")

    def action_reveal(self) -> None:
        """Show or hide the focused secret field."""
        name = self._focused_secret()
        if name is not None:
            widget = self.widget_for(name)
            assert isinstance(widget, Input)
            widget.password = not widget.password
