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

from collections.abc import Mapping
from dataclasses import replace
from typing import Any, ClassVar

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Button, Checkbox, Input, Label, Select, SelectionList, Static, TextArea

from tui.resources.form_rules import deciding_values, hidden_names, hint_note, required_now
from tui.resources.forms import FormField, FormSpec, add_row
from tui.untrusted import Shown, shown
from widgets.chooser_field import ChooserSelect
from widgets.focus_view import keep_focus_in_view, scroll_after_layout
from widgets.form_editor import EditorKeyMixin
from widgets.form_extra import ExtraFieldsMixin
from widgets.form_fits import FitNotesMixin
from widgets.form_inputs import fill_picks, inputs_for, read_value, write_value
from widgets.form_secrets import SecretFieldsMixin
from widgets.marked_button import FOCUS_MARKER, MARKER, MarkedButton
from widgets.switches import Tick as Tick  # re-exported: other dialogs import it from here


def _safe(name: str) -> str:
    """A widget id part for a dotted input name (``configs.0.port`` -> ``configs-0-port``)."""
    return "".join(c if c.isalnum() or c in "_-" else "-" for c in name)


class ModelForm(ExtraFieldsMixin, FitNotesMixin, EditorKeyMixin, SecretFieldsMixin, VerticalScroll):
    """Inputs for every field of a form.

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
        self._ids = {f.name: f"field-{_safe(f.name)}" for f in form.fields}
        self._fallback: set[str] = set()
        """Choice fields whose choices could not be loaded: typed in a text input instead."""
        self._hidden: set[str] = set()
        self._headings: dict[str, str] = {}
        """Group heading id -> the group it heads."""
        self._marked_row: Vertical | None = None
        """The row whose marker shows the focus."""

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
        ends = [
            path
            for path in self.form.repeats
            if f.name.startswith(f"{path}.")
            and self._last_of(path) == f.name
            and not self._full(path)
        ]
        return [
            MarkedButton(
                Text(f"+ Add a row to {self._list_title(path)}"),
                id=f"add-{_safe(path)}",
                classes="form-add",
                compact=True,
            )
            for path in sorted(ends, key=len, reverse=True)
        ]

    def _list_title(self, path: str) -> Shown:
        repeat = self.form.repeats[path]
        return f"{repeat.group} · {repeat.title}" if repeat.group else repeat.title

    def _full(self, path: str) -> bool:
        """True when the list at ``path`` shows all the rows it may have (no "add")."""
        most = self.form.repeats[path].max_rows
        return most is not None and self.form.rows(path) >= most

    def _last_of(self, path: str) -> str | None:
        names = [f.name for f in self.form.fields if f.name.startswith(f"{path}.")]
        return names[-1] if names else None

    def _row(self, f: FormField) -> Vertical:
        """One input's row: label, marker and input, help, error line."""
        wid = self._ids[f.name]
        inputs = list(self._inputs(f))
        for widget in inputs:
            widget.disabled = bool(f.locked)
        children: list[Widget] = [
            Label(self._label(f, f.required), classes="form-label", id=f"label-{wid}"),
            # A visible marker: compact inputs draw no border, and colour alone would vanish
            # under NO_COLOR.
            Horizontal(Static(MARKER, classes="form-marker"), *inputs, classes="form-input"),
            # Right under the input, before the help: the input and why it was refused fit
            # on screen together however long the help is.
            Static("", classes="form-error -hidden"),
        ]
        if f.locked:
            children.append(Static(Text(f"Locked: {f.locked}"), classes="form-help"))
        elif f.help:
            # Docstrings wrap at the source's width: the terminal wraps them again instead.
            text = " ".join(f.help.replace("``", "").split())
            children.append(Static(Text(text), classes="form-help", id=f"help-{wid}"))
        return Vertical(*children, classes="form-row", id=f"row-{wid}")

    @staticmethod
    def _label(f: FormField, required: bool, note: str = "") -> Text:
        title = Text(f.title)
        if required:
            title.append(" *", style="bold")
        # A field that follows a choice says what it needs now, not in which other cases.
        hint = (replace(f, required_when="") if f.rule else f).hint_for(required, note)
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
            wid = self._ids[f.name]
            self.query_one(f"#row-{wid}").set_class(f.name in hidden, "-hidden")
            if f.name not in hidden and f.group:
                shown_groups.add(f.group)
            if f.rule is not None:
                note = hint_note(f, decided)
                label = self.query_one(f"#label-{wid}", Label)
                label.update(self._label(f, required_now(f, decided), note))
                # The note for the value chosen stands in for help that covers every value.
                for help_text in self.query(f"#help-{wid}"):
                    help_text.set_class(bool(note), "-hidden")
        for heading in self.query(".form-group"):
            heading.set_class(self._headings.get(heading.id or "") not in shown_groups, "-hidden")

    def _decides(self, widget: Widget) -> bool:
        deciders = {f.rule.field for f in self.form.fields if f.rule is not None}
        return any(self._ids.get(name) == widget.id for name in deciders)

    # -- repeated rows ----------------------------------------------------------------------

    @on(Button.Pressed, ".form-add")
    async def _add_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        path = next((p for p in self.form.repeats if f"add-{_safe(p)}" == event.button.id), None)
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
            self._ids[f.name] = f"field-{_safe(f.name)}"
        button = self.query_one(f"#add-{_safe(path)}", Button)
        existing = {b.id for b in self.query(".form-add")}
        # The list's own button (and an outer list's) stay where they are, after the new row.
        widgets = [w for w in self._widgets(new, None) if w.id not in existing]
        await self.mount_all(widgets, before=button)
        if self._full(path):
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

    def _show_error(self, name: str, message: Shown) -> None:
        row = self.query_one(f"#row-{self._ids[name]}", Vertical)
        error = row.query_one(".form-error", Static)
        # A shape as well as a colour: without colour an error must not read as help text.
        error.update(Text(f"✖ {message}" if message else ""))
        error.remove_class("-note")
        error.set_class(not message, "-hidden")
        row.set_class(bool(message), "-invalid")

    def show_note(self, name: str, message: Shown) -> None:
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
        if focused_row is not None:
            self.show_row_of(event.widget)  # its label too, not only the input
        if focused_row is not self._marked_row:
            # Only the two rows concerned: querying every row's marker on each tab cost
            # tens of milliseconds on a long form.
            self._mark(self._marked_row, MARKER)
            self._mark(focused_row, FOCUS_MARKER)
            self._marked_row = focused_row

    def on_descendant_blur(self, event: events.DescendantBlur) -> None:
        # The focus left the form (onto Send, Cancel): the marker goes with it, so it never
        # says that keys go to an input they no longer reach.
        if self._marked_row is not None and not self.has_focus_within:
            self._mark(self._marked_row, MARKER)
            self._marked_row = None

    @staticmethod
    def _mark(row: Vertical | None, marker_text: Shown) -> None:
        if row is None:
            return
        for marker in row.query(".form-marker").results(Static):  # a new row may be mounting
            # One cell wide either way: a repaint, never a new layout of the whole form.
            marker.update(marker_text, layout=False)

    def _clear_error_of(self, widget: Widget) -> None:
        # An edited field's old error would mislead: it is checked again on send.
        row = self._row_of(widget)
        if row is not None and row.has_class("-invalid"):
            row.remove_class("-invalid")
            row.query_one(".form-error", Static).add_class("-hidden")

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

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Keys shown must work: offered only where there is a password or a focused secret.
        if action == "generate":
            return bool(self._passwords())
        if action == "reveal":
            return self._focused_secret() is not None
        if action == "external_editor":
            return self._focused_text_area() is not None
        return True
