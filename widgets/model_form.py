"""A form generated from a :class:`~tui.resources.forms.FormSpec`: one row per request field.

Each row has a label (``*`` when required), the input that suits the field (text, number,
password, check box, choice list, text area), the field's help text and an error line. The widget
only holds raw values; the screen turns them into a request with ``tui.resources.forms``.

Bindings:

| Key | Id | Description |
| :- | :- | :- |
| ctrl+g | form.generate | Generate a strong password into the focused (or first) secret field |
| ctrl+t | form.reveal | Show or hide the focused secret field |
| enter | (input) | Next field |
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widget import Widget
from textual.widgets import Checkbox, Input, Label, Select, SelectionList, Static, TextArea

from tui.resources.forms import FormField, FormSpec, generate_password
from widgets.chooser_field import ChooserSelect

INPUT_TYPES = {"int": "integer", "float": "number"}
MARKER = "›"
FOCUS_MARKER = "❯"
"""The focused row's marker: focus shows as text too, not only as colour (NO_COLOR)."""


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
        self.label = self._word(self.value)


class ModelForm(VerticalScroll):
    """Inputs for every field of a form.

    Args:
        form: What to show.
        values: Prefilled raw values by field name (edit forms, or a previous attempt).
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+g", "generate", "Generate password", id="form.generate"),
        Binding("ctrl+t", "reveal", "Show/hide secret", id="form.reveal"),
    ]

    DEFAULT_CSS = """
    ModelForm { height: 1fr; padding: 0 1; }
    ModelForm .form-group { margin-top: 1; text-style: bold; color: $text-accent; }
    ModelForm .form-row { height: auto; margin-bottom: 1; }
    ModelForm .form-label { height: 1; }
    ModelForm .form-help { color: $text-muted; height: auto; }
    ModelForm .form-error { color: $text-error; height: auto; }
    ModelForm .form-error.-hidden { display: none; }
    ModelForm .form-error.-note { color: $text-success; }
    ModelForm .-hidden { display: none; }
    ModelForm .form-input { height: auto; }
    ModelForm .form-marker { width: 2; color: $text-muted; }
    ModelForm .form-input:focus-within .form-marker { color: $accent; text-style: bold; }
    ModelForm Input, ModelForm Select, ModelForm TextArea { width: 1fr; background: $boost; }
    ModelForm TextArea { height: 5; }
    ModelForm .form-row.-invalid Input, ModelForm .form-row.-invalid TextArea {
        background: $error 20%;
    }
    """

    def __init__(
        self, form: FormSpec, values: Mapping[str, Any] | None = None, *, id: str | None = None
    ) -> None:
        super().__init__(id=id)
        self.form = form
        self._values = dict(values or {})
        self._ids = {f.name: f"field-{i}" for i, f in enumerate(form.fields)}
        self._fallback: set[str] = set()
        """Choice fields whose choices could not be loaded: typed in a text input instead."""
        self._extra = 0
        """Sets of inputs added after composing (their ids stay unique across replacements)."""

    # -- composition ------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        group: str | None = None
        for f in self.form.fields:
            if f.group != group:
                group = f.group
                if group:
                    yield Static(Text(group), classes="form-group")
            with Vertical(classes="form-row", id=f"row-{self._ids[f.name]}"):
                title = Text(f.title)
                if f.required:
                    title.append(" *", style="bold")
                if f.hint:
                    title.append(f"  ({f.hint})", style="dim")
                yield Label(title, classes="form-label")
                with Horizontal(classes="form-input"):
                    # A visible marker: compact inputs draw no border, and colour alone would
                    # vanish under NO_COLOR.
                    yield Static(MARKER, classes="form-marker")
                    for widget in self._inputs(f):
                        widget.disabled = bool(f.locked)
                        yield widget
                if f.locked:
                    yield Static(Text(f"Locked: {f.locked}"), classes="form-help")
                elif f.help:
                    yield Static(Text(f.help.replace("``", "")), classes="form-help")
                yield Static("", classes="form-error -hidden")

    def _inputs(self, f: FormField) -> ComposeResult:
        wid = self._ids[f.name]
        value = self._values.get(f.name)
        if f.kind == "bool":
            start = bool(value) if f.name in self._values else bool(f.default)
            yield YesNo(start, id=wid)
        elif f.kind == "choice":
            options = list(f.choices)
            prompt = "loading…" if f.source else ("choose…" if f.required else "(not set)")
            if value not in (None, "") and all(v != value for _t, v in options):
                options.insert(0, (str(value), value))
            chosen: Any = value if value not in (None, "") else None
            if chosen is None and f.default is not None and any(v == f.default for _, v in options):
                chosen = f.default
            select_args: dict[str, Any] = {
                "prompt": prompt,
                "allow_blank": not f.required or chosen is None,
                "value": chosen if chosen is not None else Select.NULL,
                "id": wid,
                "compact": True,
            }
            texts = [(Text(t), v) for t, v in options]
            if f.source is not None and f.source.facts is not None:
                # Choices with facts: a searchable table instead of a bare drop-down.
                yield ChooserSelect(texts, title=f.title, facts=f.source.facts, **select_args)
            else:
                yield Select(texts, **select_args)
            if f.source is not None:
                # Shown instead of the list if the choices cannot be loaded.
                yield Input(
                    "" if value is None else str(value),
                    id=f"{wid}-text",
                    classes="-hidden",
                    compact=True,
                    select_on_focus=False,
                )
        elif f.kind == "multi":
            ticked: list[Any] = value if isinstance(value, list) else list(f.default or [])
            yield SelectionList[Any](
                *((Text(t), v, v in ticked) for t, v in f.choices), id=wid, compact=True
            )
        elif f.kind in ("json", "multiline", "lines"):
            yield TextArea(
                "" if value is None else str(value), soft_wrap=True, id=wid, compact=True
            )
        else:
            yield Input(
                "" if value is None else str(value),
                password=f.kind == "secret",
                type=INPUT_TYPES.get(f.kind, "text"),  # type: ignore[arg-type]
                id=wid,
                compact=True,
                # Focus must not select the text: the next key would replace what was typed.
                select_on_focus=False,
            )

    def _row_widget(self, f: FormField) -> Vertical:
        """One row built outside ``compose`` (inputs added once the form is shown)."""
        title = Text(f.title)
        if f.required:
            title.append(" *", style="bold")
        if f.hint:
            title.append(f"  ({f.hint})", style="dim")
        line = Horizontal(Static(MARKER, classes="form-marker"), *self._inputs(f))
        line.add_class("form-input")
        children: list[Widget] = [Label(title, classes="form-label"), line]
        if f.help:
            children.append(Static(Text(f.help.replace("``", "")), classes="form-help"))
        children.append(Static("", classes="form-error -hidden"))
        return Vertical(*children, classes="form-row", id=f"row-{self._ids[f.name]}")

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
        for old in [f for f in self.form.fields if f.name.startswith(prefix)]:
            await self.query_one(f"#row-{self._ids.pop(old.name)}").remove()
        for header in self.query(".form-extra-group"):
            if header.name == prefix:
                await header.remove()
        self.form = form
        self._extra += 1
        for index, f in enumerate(fields):
            self._ids[f.name] = f"field-x{self._extra}-{index}"
            if f.default is not None:
                self._values.setdefault(f.name, f.default)
        if not fields:
            return
        rows: list[Widget] = []
        group = fields[0].group
        if group:
            header = Static(Text(group), classes="form-group form-extra-group", name=prefix)
            rows.append(header)
        rows.extend(self._row_widget(f) for f in fields)
        await self.mount_all(rows, after=self.query_one(f"#row-{self._ids[after]}"))

    # -- reading and writing values ---------------------------------------------------------

    def id_of(self, name: str) -> str:
        """The id of the input of ``name``."""
        return self._ids[name]

    def widget_for(self, name: str) -> Widget:
        """The input of field ``name``."""
        wid = self._ids[name]
        if name in self._fallback:
            return self.query_one(f"#{wid}-text", Input)
        return self.query_one(f"#{wid}")

    def values(self) -> dict[str, Any]:
        """Raw values of every input (text, bool, chosen value or None)."""
        out: dict[str, Any] = {}
        for f in self.form.fields:
            widget = self.widget_for(f.name)
            if isinstance(widget, Checkbox):
                out[f.name] = widget.value
            elif isinstance(widget, SelectionList):
                out[f.name] = list(widget.selected)
            elif isinstance(widget, Select):
                out[f.name] = None if widget.value is Select.NULL else widget.value
            elif isinstance(widget, TextArea):
                out[f.name] = widget.text
            elif isinstance(widget, Input):
                out[f.name] = widget.value
        return out

    def set_value(self, name: str, value: Any) -> None:
        """Put ``value`` into the input of ``name``."""
        widget = self.widget_for(name)
        if isinstance(widget, Checkbox):
            widget.value = bool(value)
        elif isinstance(widget, SelectionList):
            widget.deselect_all()
            for chosen in value or []:
                widget.select(chosen)
        elif isinstance(widget, Select):
            widget.value = Select.NULL if value is None else value
        elif isinstance(widget, TextArea):
            widget.text = "" if value is None else str(value)
        elif isinstance(widget, Input):
            widget.value = "" if value is None else str(value)

    def set_choices(
        self,
        name: str,
        options: list[tuple[str, Any]],
        *,
        prompt: str | None = None,
        items: list[dict[str, Any]] | None = None,
    ) -> None:
        """Fill the choice list of ``name`` (keeping a prefilled value that is still offered).

        Args:
            name: The input.
            options: ``(text, value)`` options.
            prompt: Text shown while nothing is chosen.
            items: The items behind the options: a chooser shows their facts.
        """
        widget = self.query_one(f"#{self._ids[name]}", Select)
        f = self.form.field(name)
        if isinstance(widget, ChooserSelect) and f is not None and f.source is not None:
            widget.set_items(items if items is not None else [], f.source.option)
            if items is None:
                widget.table = None  # the option texts alone
        current = widget.value
        if current is not Select.NULL and all(v != current for _t, v in options):
            options = [(str(current), current), *options]
        widget.set_options([(Text(t), v) for t, v in options])
        widget.prompt = prompt or ("(not set)" if f and not f.required else "choose…")
        if current is not Select.NULL:
            widget.value = current

    def choices_failed(self, name: str, reason: str) -> None:
        """The choices of ``name`` could not be loaded: let the user type the value."""
        wid = self._ids[name]
        select = self.query_one(f"#{wid}", Select)
        text = self.query_one(f"#{wid}-text", Input)
        if select.value is not Select.NULL:
            text.value = str(select.value)
        had_focus = select.has_focus_within  # the select or its open overlay
        select.add_class("-hidden")
        text.remove_class("-hidden")
        self._fallback.add(name)
        if had_focus:
            text.focus()  # the user may already be typing
        self._show_error(name, f"Choices could not be loaded ({reason}); type the value.")

    def show_errors(self, errors: Mapping[str, str]) -> None:
        """Show ``errors`` beside their inputs, clear the others, focus the first one wrong."""
        first: Widget | None = None
        for f in self.form.fields:
            message = errors.get(f.name, "")
            self._show_error(f.name, message)
            if message and first is None:
                first = self.widget_for(f.name)
        if first is not None:
            first.focus()
            self.scroll_to_widget(first, animate=False)

    def _show_error(self, name: str, message: str) -> None:
        row = self.query_one(f"#row-{self._ids[name]}", Vertical)
        error = row.query_one(".form-error", Static)
        # A shape as well as a colour: without colour an error must not read as help text.
        error.update(Text(f"✖ {message}" if message else ""))
        error.remove_class("-note")
        error.set_class(not message, "-hidden")
        row.set_class(bool(message), "-invalid")

    def show_note(self, name: str, message: str) -> None:
        """Show ``message`` under the input ``name`` as an error line ('' clears it)."""
        self._show_error(name, message)

    def error_text(self, name: str) -> str:
        """The error shown beside ``name`` ('' when none)."""
        row = self.query_one(f"#row-{self._ids[name]}", Vertical)
        return str(row.query_one(".form-error", Static).content).removeprefix("✖ ")

    # -- events and actions -----------------------------------------------------------------

    def _row_of(self, widget: Widget) -> Vertical | None:
        return next(
            (a for a in widget.ancestors if isinstance(a, Vertical) and a.has_class("form-row")),
            None,
        )

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        self.refresh_bindings()
        focused_row = self._row_of(event.widget)
        for row in self.query(".form-row"):
            marker = row.query(".form-marker").first(Static)
            marker.update(FOCUS_MARKER if row is focused_row else MARKER)

    def _clear_error_of(self, widget: Widget) -> None:
        # An edited field's old error would mislead: it is checked again on send.
        row = self._row_of(widget)
        if row is not None and row.has_class("-invalid"):
            row.remove_class("-invalid")
            row.query_one(".form-error", Static).add_class("-hidden")

    def on_input_changed(self, event: Input.Changed) -> None:
        self._clear_error_of(event.input)

    def on_select_changed(self, event: Select.Changed) -> None:
        self._clear_error_of(event.select)

    def on_selection_list_selected_changed(self, event: SelectionList.SelectedChanged[Any]) -> None:
        self._clear_error_of(event.selection_list)

    def on_checkbox_changed(self, event: Checkbox.Changed) -> None:
        self._clear_error_of(event.checkbox)

    def on_text_area_changed(self, event: TextArea.Changed) -> None:
        self._clear_error_of(event.text_area)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        # Enter moves on, like tab: a long form is not sent by a stray enter.
        event.stop()
        self.screen.focus_next()

    def _focused_secret(self) -> str | None:
        focused = self.screen.focused
        for f in self.form.fields:
            if f.kind == "secret" and focused is self.widget_for(f.name):
                return f.name
        return None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Keys shown must work: offered only where there is a password or a focused secret.
        if action == "generate":
            return bool(self.form.password_names)
        if action == "reveal":
            return self._focused_secret() is not None
        return True

    def on_descendant_blur(self, event: events.DescendantBlur) -> None:
        self.refresh_bindings()  # "Show/hide secret" follows the focused input

    def action_generate(self) -> None:
        """Generate a strong password into the focused password field (else the first one)."""
        passwords = self.form.password_names
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
        widget.password = False  # shown so the user can keep it; ctrl+t hides it again
        self._show_error(name, "")
        # Said beside the field, not in a toast that would outlive the form.
        note = self.query_one(f"#row-{self._ids[name]}", Vertical).query_one(".form-error", Static)
        note.update(Text("Generated and shown so you can keep it; ctrl+t hides it."))
        note.remove_class("-hidden")
        note.add_class("-note")

    def action_reveal(self) -> None:
        """Show or hide the focused secret field."""
        name = self._focused_secret()
        if name is not None:
            widget = self.widget_for(name)
            assert isinstance(widget, Input)
            widget.password = not widget.password
