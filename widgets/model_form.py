"""A form generated from a :class:`~tui.resources.forms.FormSpec`: one row per request field.

Each row has a label (``*`` when required), the input that suits the field (text, number,
password, check box, choice list, text area), the field's help text and an error line. The widget
only holds raw values; the screen turns them into a request with ``tui.resources.forms``.

Bindings:

| Key | Id | Description |
| :- | :- | :- |
| ctrl+g | form.generate | Generate a strong password into the focused (or first) secret field |
| ctrl+t | form.reveal | Show or hide the focused secret field |
| ctrl+e | form.editor | Edit the focused multi-line input in ``$VISUAL``/``$EDITOR`` |
| enter | (input) | Next field |
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import replace
from functools import partial
from typing import Any, ClassVar

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Button, Checkbox, Input, Select, SelectionList, Static, TextArea

from tui.resources.form_rules import deciding_values, hidden_names, hint_note, required_now
from tui.resources.forms import FormField, FormSpec, add_row
from tui.untrusted import Shown, shown
from widgets.chooser_field import ChooserSelect
from widgets.focus_view import keep_focus_in_view, scroll_after_layout
from widgets.form_editor import EditInEditor, editor_file_name
from widgets.form_inputs import fill_picks, inputs_for, read_value, write_value
from widgets.form_row import FormRow, id_part
from widgets.marked_button import MarkedButton
from widgets.secret_input import SecretInput
from widgets.suggest_input import SuggestArea, SuggestInput
from widgets.switches import Tick as Tick  # re-exported: other dialogs import it from here


class ModelForm(VerticalScroll):
    """Inputs for every field of a form, one :class:`~widgets.form_row.FormRow` each.

    Besides the inputs of the form as built, it holds inputs added while the form is shown
    (the fields a chosen deployment script asks for), and says under a chooser why its chosen
    value does not suit another input ("std-1 — too small: backup needs 98 GB").

    Args:
        form: What to show.
        values: Prefilled raw values by field name (edit forms, or a previous attempt).
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+g", "generate", "Generate password", id="form.generate"),
        Binding("ctrl+t", "reveal", "Show/hide secret", id="form.reveal"),
        # priority: a focused text area binds ctrl+e itself (end of line).
        Binding(
            "ctrl+e",
            "external_editor",
            "Editor",
            id="form.editor",
            priority=True,
            tooltip="Edit the focused multi-line field in $VISUAL or $EDITOR",
        ),
    ]

    DEFAULT_CSS = """
    ModelForm { height: 1fr; padding: 0 1; }
    ModelForm .form-group { margin-top: 1; text-style: bold; color: $text-accent; }
    ModelForm .form-row { height: auto; margin-bottom: 1; }
    ModelForm .form-label { width: 100%; height: auto; }  /* a long hint wraps, never cut */
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
    ModelForm SelectionList { max-height: 8; }
    ModelForm .form-row.-invalid Input, ModelForm .form-row.-invalid TextArea {
        background: $error 20%;
    }
    """

    class RowsAdded(Message):
        """A row was added to a repeated list; ``names`` are its inputs."""

        def __init__(self, form_widget: ModelForm, names: tuple[str, ...]) -> None:
            super().__init__()
            self.form_widget = form_widget
            self.names = names

    def __init__(
        self,
        form: FormSpec,
        values: Mapping[str, Any] | None = None,
        *,
        id: str | None = None,
        context: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(id=id)
        self.form = form
        self._values = dict(values or {})
        self.context = dict(context or {})
        """The item an edit form is about: rules decided by a field that is not an input."""
        self._ids = {f.name: f"field-{id_part(f.name)}" for f in form.fields}
        self._fallback: set[str] = set()
        """Choice fields whose choices could not be loaded: typed in a text input instead."""
        self._hidden: set[str] = set()
        self._headings: dict[str, str] = {}
        """Group heading id -> the group it heads."""
        self._marked_row: FormRow | None = None
        """The row whose marker shows the focus."""
        self._extra = 0
        """Sets of inputs added after composing (their ids stay unique across replacements)."""
        self._known: dict[str, Shown] = {}
        """Input -> what its hint says of the values it knows (see :meth:`set_known`)."""

    # -- composition ------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield from self._widgets(self.form.fields, None)

    def _widgets(self, fields: tuple[FormField, ...], group: Shown | None) -> list[Widget]:
        """Headings, rows and "add a row" buttons of ``fields`` (in form order)."""
        out: list[Widget] = []
        for f in fields:
            if f.group != group:
                group = f.group
                if group:
                    # A group may resume after a nested one (a pool's tags after its disks).
                    heading_id = f"group-{len(self._headings)}"
                    self._headings[heading_id] = group
                    out.append(Static(Text(group), classes="form-group", id=heading_id))
            out.append(self._row(f))
            out.extend(self._add_buttons_after(f))
        return out

    def _add_buttons_after(self, f: FormField) -> list[Widget]:
        """The "add" buttons of the repeated lists whose last input is ``f`` (inner first)."""
        return [
            MarkedButton(
                Text(f"+ Add a row to {self.form.list_title(path)}"),
                id=f"add-{id_part(path)}",
                classes="form-add",
                compact=True,
            )
            for path in self.form.lists_ending_at(f.name)
        ]

    def _row(self, f: FormField) -> FormRow:
        """One input's row: label, marker and input, error line, help."""
        wid = self._ids[f.name]
        inputs = list(self._inputs(f))
        for widget in inputs:
            widget.disabled = bool(f.locked)
            if isinstance(widget, SuggestInput | SuggestArea):
                self._known[f.name] = widget.known.note
        # Docstrings wrap at the source's width: the terminal wraps them again instead.
        help_text = " ".join(f.help.replace("``", "").split()) if f.help else ""
        return FormRow(wid, self._label(f, f.required), inputs, shown(help_text), f.locked or "")

    def _label(self, f: FormField, required: bool, note: str = "") -> Text:
        title = Text(f.title)
        if required:
            title.append(" *", style="bold")
        # A field that follows a choice says what it needs now, not in which other cases.
        hint = (replace(f, required_when="") if f.rule else f).hint_for(required, note)
        known = shown(self._known.get(f.name, ""))  # API listing errors may be in it
        hint = f"{hint}, {known}" if hint and known else hint or known
        if hint:
            title.append(f"  ({hint})", style="dim")
        return title

    # -- fields that follow the choice ------------------------------------------------------

    def on_mount(self) -> None:
        self.apply_rules()
        self.refresh_fits()

    def apply_rules(self) -> None:
        """Show the inputs the request's rules ask for now; hide the others (and their
        headings), and label each with what the chosen value needs."""
        if not any(f.rule is not None for f in self.form.fields):
            return
        values = self.values()
        hidden = hidden_names(self.form, values, self.context)
        decided = deciding_values(self.form, values, self.context)
        self._hidden = hidden
        self.refresh_bindings()  # a password field may have come or gone (ctrl+g)
        shown_groups: set[str] = set()
        for f in self.form.fields:
            row = self.row_of(f.name)
            row.set_class(f.name in hidden, "-hidden")
            if f.name not in hidden and f.group:
                shown_groups.add(f.group)
            if f.rule is not None:
                note = hint_note(f, decided)
                row.relabel(self._label(f, required_now(f, decided), note), noted=bool(note))
        for heading in self.query(".form-group"):
            heading.set_class(self._headings.get(heading.id or "") not in shown_groups, "-hidden")

    def _decides(self, widget: Widget) -> bool:
        deciders = {f.rule.field for f in self.form.fields if f.rule is not None}
        return any(self._ids.get(name) == widget.id for name in deciders)

    # -- repeated rows ----------------------------------------------------------------------

    @on(Button.Pressed, ".form-add")
    async def _add_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        path = next((p for p in self.form.repeats if f"add-{id_part(p)}" == event.button.id), None)
        if path is not None:
            await self.add_row(path)

    async def add_row(self, path: str) -> tuple[str, ...]:
        """Add a row to the repeated list at ``path``; focus its first input.

        Returns:
            The new inputs' names (none when the list is full).
        """
        before = self.form
        self.form, new = add_row(self.form, path)
        if not new:
            self.app.notify(
                f"At most {before.repeats[path].max_rows} entries.", title="Add", markup=False
            )
            return ()
        for f in new:
            self._ids[f.name] = f"field-{id_part(f.name)}"
        button = self.query_one(f"#add-{id_part(path)}", Button)
        existing = {b.id for b in self.query(".form-add")}
        # The list's own button (and an outer list's) stay where they are, after the new row.
        widgets = [w for w in self._widgets(new, None) if w.id not in existing]
        await self.mount_all(widgets, before=button)
        if self.form.full(path):
            await button.remove()  # the list is full: its last row takes the focus below
        self.apply_rules()
        first = self.widget_for(new[0].name)
        first.focus()  # in view once laid out (watch_virtual_size)
        names = tuple(f.name for f in new)
        self.post_message(self.RowsAdded(self, names))
        return names

    def _inputs(self, f: FormField) -> list[Widget]:
        given = f.name in self._values
        return inputs_for(f, self._ids[f.name], self._values.get(f.name), given=given)

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
        return {f.name: read_value(self.widget_for(f.name)) for f in self.form.fields}

    def set_value(self, name: str, value: Any) -> None:
        """Put ``value`` into the input of ``name``."""
        write_value(self.widget_for(name), value)

    def set_choices(
        self,
        name: str,
        options: list[tuple[str, Any]],
        *,
        prompt: str | None = None,
        items: list[dict[str, Any]] | None = None,
        empty: str = "",
    ) -> None:
        """Fill the choice list of ``name`` (keeping a prefilled value that is still offered).

        Args:
            name: The input.
            options: ``(text, value)`` options.
            prompt: Text shown while nothing is chosen.
            items: The items behind the options: a chooser shows their facts.
            empty: Why there are no options (shown as the prompt and in the chooser).
        """
        f = self.form.field(name)
        picks = self.query_one(f"#{self._ids[name]}")
        if isinstance(picks, SelectionList):
            fill_picks(picks, options)
            return
        widget = self.query_one(f"#{self._ids[name]}", Select)
        if isinstance(widget, ChooserSelect):
            widget.empty = empty or prompt or "nothing to choose"
            if f is not None and f.source is not None:
                widget.set_items(items if items is not None else [], f.source.option)
                if items is None:
                    widget.table = None  # the option texts alone
        if not options and empty:
            prompt = prompt or empty
        current = widget.value
        if current is not Select.NULL and all(v != current for _t, v in options):
            options = [(str(current), current), *options]
        widget.set_options([(Text(shown(t)), v) for t, v in options])  # choices: API labels
        widget.prompt = prompt or ("(not set)" if f and not f.required else "choose…")
        if current is not Select.NULL:
            widget.value = current
        if isinstance(widget, ChooserSelect):
            widget.refresh_chooser()  # opened while its choices were loading
        self.refresh_fits()  # the items chosen elsewhere may have just arrived

    def set_known(
        self, name: str, source: Hashable, options: list[tuple[str, Any]], failed: str = ""
    ) -> None:
        """Known values of the free input ``name`` from one listing (or why there are none)."""
        widget = self.widget_for(name)
        f = self.form.field(name)
        if not isinstance(widget, SuggestInput | SuggestArea) or f is None:
            return
        widget.known.failed(source, failed) if failed else widget.known.set(source, options)
        self._known[name] = widget.known.note
        if f.rule is None:
            self.row_of(name).relabel(self._label(f, f.required), noted=False)
        self.apply_rules()  # a field that follows a choice is labelled by its rule

    def choices_failed(self, name: str, reason: str) -> None:
        """The choices of ``name`` could not be loaded: let the user type the value."""
        wid = self._ids[name]
        select = self.query_one(f"#{wid}")
        text = self.query_one(f"#{wid}-text", Input)
        chosen = read_value(select)
        if chosen not in (None, [], ""):
            text.value = ", ".join(map(str, chosen)) if isinstance(chosen, list) else str(chosen)
        had_focus = select.has_focus_within  # the select or its open overlay
        select.add_class("-hidden")
        text.remove_class("-hidden")
        self._fallback.add(name)
        if had_focus:
            text.focus()  # the user may already be typing
        self._show_error(name, f"Choices could not be loaded ({shown(reason)}); type the value.")

    def show_errors(self, errors: Mapping[str, str]) -> None:
        """Show ``errors`` beside their inputs, clear the others, focus the first one wrong."""
        first: Widget | None = None
        for f in self.form.fields:
            message = shown(errors.get(f.name, ""))  # a server's words, or the user's value
            self._show_error(f.name, message)
            if message and first is None:
                first = self.widget_for(f.name)
        if first is not None:
            first.focus()
            self.show_row_of(first)

    def show_row_of(self, widget: Widget) -> None:
        """Scroll (after the next layout: an error line may just have appeared) so the row of
        ``widget`` shows: all of it if it fits, else surely its error line and the input."""
        row = self._row_of(widget)
        parts = [row, *row.query(".form-error")] if row is not None else []
        scroll_after_layout(self, *parts, widget)

    def watch_virtual_size(self) -> None:
        # Rows shown, hidden or added and error lines appearing move what has focus.
        keep_focus_in_view(self)

    def row_of(self, name: str) -> FormRow:
        """The row of input ``name``."""
        return self.query_one(f"#row-{self._ids[name]}", FormRow)

    def _show_error(self, name: str, message: Shown) -> None:
        self.row_of(name).show_error(message)

    def show_note(self, name: str, message: Shown) -> None:
        """Show ``message`` under the input ``name`` as an error line ('' clears it)."""
        self._show_error(name, message)

    def error_text(self, name: str) -> str:
        """The error shown beside ``name`` ('' when none)."""
        return self.row_of(name).error

    # -- events and actions -----------------------------------------------------------------

    def _row_of(self, widget: Widget) -> FormRow | None:
        return next((a for a in widget.ancestors if isinstance(a, FormRow)), None)

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        self.refresh_bindings()
        focused_row = self._row_of(event.widget)
        if focused_row is not None:
            self.show_row_of(event.widget)  # its label too, not only the input
        if focused_row is not self._marked_row:
            # Only the two rows concerned: querying every row's marker on each tab cost
            # tens of milliseconds on a long form.
            if self._marked_row is not None:
                self._marked_row.mark(False)
            if focused_row is not None:
                focused_row.mark(True)
            self._marked_row = focused_row

    def on_descendant_blur(self, event: events.DescendantBlur) -> None:
        self.refresh_bindings()  # "Show/hide secret" follows the focused input
        # The focus left the form (onto Send, Cancel): the marker goes with it, so it never
        # says that keys go to an input they no longer reach.
        if self._marked_row is not None and not self.has_focus_within:
            self._marked_row.mark(False)
            self._marked_row = None

    def _clear_error_of(self, widget: Widget) -> None:
        # An edited field's old error would mislead: it is checked again on send.
        row = self._row_of(widget)
        if row is not None:
            row.clear_error()

    def _changed(self, widget: Widget) -> None:
        self._clear_error_of(widget)
        if self._decides(widget):
            self.apply_rules()  # fields that follow this choice appear or go
        self.refresh_fits()

    def on_input_changed(self, event: Input.Changed) -> None:
        self._changed(event.input)

    def on_select_changed(self, event: Select.Changed) -> None:
        self._changed(event.select)

    def on_selection_list_selected_changed(self, event: SelectionList.SelectedChanged[Any]) -> None:
        self._clear_error_of(event.selection_list)

    def on_checkbox_changed(self, event: Checkbox.Changed) -> None:
        self._changed(event.checkbox)

    def on_text_area_changed(self, event: TextArea.Changed) -> None:
        self._clear_error_of(event.text_area)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        # Enter moves on, like tab: a long form is not sent by a stray enter.
        event.stop()
        self.screen.focus_next()

    # -- secrets ----------------------------------------------------------------------------

    def _focused_secret(self) -> SecretInput | None:
        focused = self.screen.focused
        secrets = (self.widget_for(f.name) for f in self.form.fields if f.kind == "secret")
        return focused if isinstance(focused, SecretInput) and focused in secrets else None

    def _passwords(self) -> tuple[str, ...]:
        """Password inputs shown now (a root password only once an image is chosen)."""
        return tuple(n for n in self.form.password_names if n not in self._hidden)

    def action_generate(self) -> None:
        """Generate a strong password into the focused password field (else the first one)."""
        passwords = self._passwords()
        focused = self._focused_secret()
        names = [n for n in passwords if focused is not None and self.widget_for(n) is focused]
        name = next(iter(names or passwords), None)
        if name is None:
            self.app.notify("This form has no password field.", title="Generate password")
            return
        widget = self.widget_for(name)
        assert isinstance(widget, SecretInput)
        f = self.form.field(name)
        widget.generate(int(f.max_length) if f is not None and f.max_length else None)
        # Said beside the field, not in a toast that would outlive the form.
        self.row_of(name).show_success(
            "Generated and shown so you can keep it; hidden again when you leave."
        )

    def action_reveal(self) -> None:
        """Show or hide the focused secret field."""
        secret = self._focused_secret()
        if secret is not None:
            secret.reveal()

    # -- multi-line inputs in the user's editor ---------------------------------------------

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
        self.post_message(EditInEditor(name, area.text, editor_file_name(name)))

    def put_edited(self, name: str, text: str) -> None:
        """Put the editor's ``text`` back into input ``name`` and focus it."""
        area = self.widget_for(name)
        if isinstance(area, TextArea):
            area.text = text
            area.focus()

    # -- inputs added while the form is shown -----------------------------------------------

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

    # -- choices that do not suit another input ---------------------------------------------

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
        """Under every chooser with rules: why its chosen value does not suit the form (the
        rules are the choice sources' :class:`~tui.resources.choice_fits.Fit` list; the
        chooser marks its rows itself)."""
        for f in self.form.fields:
            if f.source is None or not f.source.fits:
                continue
            widget = self.widget_for(f.name)
            if not isinstance(widget, ChooserSelect):
                continue
            widget.lookup = partial(self.chosen, asking=f.name)
            reason = widget.misfit() if f.name not in self._hidden else ""
            note = shown(f"{widget.value} — {reason}") if reason else ""
            if note and self.error_text(f.name) != note:
                self.show_note(f.name, note)
            elif not note and widget.fit_note and self.error_text(f.name) == widget.fit_note:
                self.show_note(f.name, "")
            widget.fit_note = note

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Keys shown must work: offered only where there is a password or a focused secret.
        if action == "generate":
            return bool(self._passwords())
        if action == "reveal":
            return self._focused_secret() is not None
        if action == "external_editor":
            return self._focused_text_area() is not None
        return True
