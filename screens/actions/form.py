"""The generated form: a dialog that sends one request built from a request model.

Its base, shared with hand-written dialogs, is :class:`screens.actions.request_modal.RequestModal`.

The modal validates with the request model before sending (the reference's limits), sends
through the ``submit`` callback, and shows a server's field errors beside the same inputs. It
stays open, with everything typed, until the call succeeds; escape cancels.

Bindings:

| Key | Id | Description |
| :- | :- | :- |
| ctrl+s | form.submit | Send |
| escape | form.cancel | Cancel |
| ctrl+g | form.generate | Generate a strong password |
| ctrl+t | form.reveal | Show or hide the focused secret |
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.widgets import Select, Static
from textual.worker import Worker

from screens.actions.request_modal import RequestModal, Submit
from tui.api.errors import ApiError, CloudError
from tui.refresh import describe_error
from tui.resources.expansions import EXPANSIONS, expanded
from tui.resources.forms import (
    ChoiceSource,
    FormField,
    FormResult,
    FormSpec,
    build_body,
    choice_context,
    empty_cautions,
    field_errors,
    irreversible_changes,
    sent_notes,
)
from tui.resources.pricing import Quote
from tui.untrusted import Shown, shown
from widgets.form_editor import EditInEditor
from widgets.model_form import ModelForm

FIRST_FIELD_KINDS = ("Input", "Select", "Checkbox", "TextArea")
"""Widgets that can be a form's first field (the focus starts on the first one)."""

SUGGESTED = "suggested"
"""Leads the key of a source of known values: loaded apart from the same listing's choices."""

ON_FOCUS_PROMPT = "loads when focused"
"""What a costly choice input shows until it is first focused (see ChoiceSource.on_focus)."""

LoadChoices = Callable[[ChoiceSource, Mapping[str, Any]], Awaitable[list[tuple[str, Any]]]]
"""Loads the ``(text, value)`` options of one choice source, given the form's current values
(some choices depend on another field: the configs of the instance chosen above). Raises
``LookupError`` while that field is empty."""

PriceQuote = Callable[[dict[str, Any]], Awaitable["Quote | None"]]
"""What a body will cost (None: not billed); shown on the confirmation before sending."""

LoadRecord = Callable[[str, Mapping[str, Any]], Awaitable[Any]]
"""Reads one record: ``(operation, path parameters) -> JSON`` (a chosen deployment script)."""

EditText = Callable[[str, str], "str | None"]
"""``(text, file name) -> the edited text`` in the user's editor (None: not edited)."""

LoadItems = Callable[[ChoiceSource, Mapping[str, Any]], Awaitable[list[dict[str, Any]]]]
"""Like :data:`LoadChoices`, but the items themselves: a chooser shows their facts."""


class FormModal(RequestModal):
    """A request form generated from a request model.

    Args:
        title: Heading.
        form: The fields.
        submit: Sends the body.
        request_line: ``METHOD /path`` shown under the title.
        values: Prefilled values.
        edit: True for an edit form: only changed fields are sent.
        load_choices: Loads choices of fields whose options come from the API.
        load_items: Loads the items behind choices that come with facts (choosers).
        quote: Prices a body: a billed request is confirmed with its price first.
        load_record: Reads a chosen record whose fields add inputs (a script's UDFs).
        name: The item's label (edit forms), typed to confirm a value that cannot be undone.
        context: The item the form is about (its fields decide rules with no input of their
            own: a DNS record's type in its edit form).
        note: A line above the inputs (the demo says what its simulator accepts).
        edit_text: Hands a multi-line input's text to the user's editor (ctrl+e).
    """

    AUTO_FOCUS = ", ".join(f"ModelForm {kind}" for kind in FIRST_FIELD_KINDS)
    """The first input has the focus from the start. Textual's default (the first focusable
    widget) is the scrolling form itself, and every focus change of a container restyles all
    it holds: two passes over the ~400 widgets of a New configuration form, ~200 ms of its
    opening."""

    def __init__(
        self,
        title: Shown,
        form: FormSpec,
        submit: Submit,
        *,
        request_line: str = "",
        values: Mapping[str, Any] | None = None,
        edit: bool = False,
        load_choices: LoadChoices | None = None,
        load_items: LoadItems | None = None,
        quote: PriceQuote | None = None,
        load_record: LoadRecord | None = None,
        name: str = "",
        context: Mapping[str, Any] | None = None,
        note: Shown = "",
        edit_text: EditText | None = None,
    ) -> None:
        super().__init__(title, submit, request_line=request_line)
        self.note = note
        self.context = dict(context or {})
        """The item the form is about: the request's rules may be decided by its fields."""
        self.name_text = name
        """What the form is about (the item's label), typed to confirm an irreversible value."""
        self.form = form
        self.initial = dict(values or {})
        self.edit = edit
        self.load_choices = load_choices
        self.load_items = load_items
        self.quote = quote
        self.load_record = load_record
        self._expand_to: dict[str, Any] = {}
        """Field -> the choice whose inputs should be shown (the latest one)."""
        self._expanded: dict[str, Any] = {}
        """Field -> the choice whose inputs are shown."""
        self._expand_lock = asyncio.Lock()
        # One request per distinct source, however many inputs share it (device slots).
        self._by_source: dict[tuple[Any, ...], list[str]] = {}
        self._sources: dict[tuple[Any, ...], ChoiceSource] = {}
        self._waiting_focus: set[tuple[Any, ...]] = set()
        """Sources that load when one of their inputs is first focused."""
        self._suggested: set[tuple[Any, ...]] = set()
        """Sources of known values of free inputs (``FormField.suggest``): loaded on focus."""
        if form.secret_names:
            self.hint = f"{self.hint} · ctrl+g generate password"
        self.edit_text = edit_text
        if edit_text and any(f.kind in ("multiline", "lines", "json") for f in form.fields):
            self.hint = f"{self.hint} · ctrl+e $EDITOR"

    def compose_body(self) -> ComposeResult:
        if self.note:
            yield Static(Text(self.note), id="form-note")
        yield ModelForm(self.form, self.initial, id="form", context=self.context)

    @property
    def model_form(self) -> ModelForm:
        """The inputs."""
        return self.query_one(ModelForm)

    def on_mount(self) -> None:
        first = next(
            (w for w in self.model_form.query(", ".join(FIRST_FIELD_KINDS)) if w.focusable),
            None,
        )
        if first is not None:
            first.focus()
        if self.load_choices is not None:
            self._register_sources(self.form.fields)
            for key in self._by_source:
                self._load_or_wait(key)

    def _register_sources(self, fields: tuple[FormField, ...]) -> set[tuple[Any, ...]]:
        """Group ``fields`` by choice source; the keys of the sources they use."""
        keys: set[tuple[Any, ...]] = set()
        for f in fields:
            if f.source is not None:
                key = f.source.key
                self._by_source.setdefault(key, []).append(f.name)
                self._sources[key] = f.source
                keys.add(key)
            for source in f.suggest:
                key = (SUGGESTED, *source.key)  # apart from the same listing as choices
                self._by_source.setdefault(key, []).append(f.name)
                self._sources[key] = source
                self._suggested.add(key)
                keys.add(key)
        return keys

    def on_edit_in_editor(self, event: EditInEditor) -> None:
        """ctrl+e on a text area: edit it in ``$VISUAL``/``$EDITOR`` (a 0600 file, removed
        afterwards), as an existing script's ``E`` does."""
        edited = self.edit_text(event.text, event.file_name) if self.edit_text else None
        if edited is not None:
            self.model_form.put_edited(event.name, edited)

    def on_model_form_rows_added(self, event: ModelForm.RowsAdded) -> None:
        """A repeated list grew: the form is the widget's now; fill the new choice lists."""
        self.form = event.form_widget.form
        if self.load_choices is None:
            return
        new = set(event.names)
        for key in self._register_sources(tuple(f for f in self.form.fields if f.name in new)):
            self._load_or_wait(key)

    def _load_or_wait(self, key: tuple[Any, ...]) -> None:
        """Load a source's choices now, or, for a costly one (:attr:`ChoiceSource.on_focus`)
        whose inputs hold no value yet, when one of them is first focused."""
        names, source = self._by_source[key], self._sources[key]
        if key in self._suggested:
            # Only a help to typing: opening the form costs no request for it.
            self._waiting_focus.add(key)
            return
        if source.on_focus:
            values = self.model_form.values()
            if all(values.get(name) in (None, "") for name in names):
                self._waiting_focus.add(key)
                for name in names:
                    self.model_form.set_choices(name, [], prompt=ON_FOCUS_PROMPT)
                return
        self._reload(key)

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        """The first focus of a costly source's input loads its choices."""
        if not self._waiting_focus:
            return
        focused = event.widget.id
        for key in list(self._waiting_focus):
            if any(self.model_form.id_of(name) == focused for name in self._by_source[key]):
                self._waiting_focus.discard(key)
                self._reload(key)

    def _reload(self, key: tuple[Any, ...]) -> None:
        names, source = list(self._by_source[key]), self._sources[key]

        async def load() -> None:
            # Made when the worker starts: a reload that replaces it first leaves nothing
            # never awaited behind.
            if key in self._suggested:
                await self._load_known(names, key, source)
            else:
                await self._load(names, source)

        # Annotated: mypy cannot infer the result type of a closure worker on its own.
        _worker: Worker[None] = self.run_worker(load, group=f"choices-{key}", exclusive=True)

    def on_select_changed(self, event: Select.Changed) -> None:
        changed = next(
            (f.name for f in self.form.fields if event.select.id == self.model_form.id_of(f.name)),
            None,
        )
        if changed is None:
            return
        if changed in EXPANSIONS and self.load_record is not None:
            # A chosen script's own inputs replace the previous script's.
            self._expand_to[changed] = None if event.value is Select.NULL else event.value
            # Not exclusive: cancelling a worker halfway through replacing rows would leave the
            # inputs and the form apart. Runs queue on a lock and each applies the latest choice.
            self.run_worker(self._expand(changed), group=f"expand-{changed}")
        # Choices that depend on this field (an instance's configs) follow it.
        if self.load_choices is None:
            return
        for key, source in self._sources.items():
            if changed in source.depends_on and key not in self._waiting_focus:
                self._reload(key)

    async def _expand(self, name: str) -> None:
        async with self._expand_lock:
            value = self._expand_to.get(name)
            if name in self._expanded and self._expanded[name] == value:
                return  # an earlier run already applied this choice
            await self._apply_expansion(name, value)
            self._expanded[name] = value

    async def _apply_expansion(self, name: str, value: Any) -> None:
        assert self.load_record is not None
        expansion = EXPANSIONS[name]
        fields: tuple[FormField, ...] = ()
        note = ""
        if value is not None:
            try:
                record = await self.load_record(expansion.endpoint, {expansion.param: value})
            except CloudError as error:
                note = f"Its fields could not be loaded: {describe_error(error)}"
            else:
                fields = expansion.fields(record)
                note = shown(" ".join(expansion.problems(record)))
        self.form = expanded(self.form, name, expansion.prefix, fields)
        await self.model_form.set_extra_fields(expansion.prefix, name, fields, self.form)
        self.model_form.show_note(name, note)

    async def _load(self, names: list[str], source: ChoiceSource) -> None:
        assert self.load_choices is not None
        items: list[dict[str, Any]] | None = None
        try:
            if source.facts is not None and self.load_items is not None:
                items = await self.load_items(source, self.model_form.values())
                options = [source.option(item) for item in items]
            else:
                options = await self.load_choices(source, self.model_form.values())
        except CloudError as error:
            for name in names:
                self.model_form.choices_failed(name, describe_error(error))
            return
        except LookupError as error:
            if source.form_params:
                # Wait for the field it depends on; the list fills when that is chosen.
                for name in names:
                    self.model_form.set_choices(name, [], prompt=f"choose {error} first")
                return
            for name in names:
                self.model_form.choices_failed(name, f"they depend on {error}")
            return
        # Nothing to offer: the input and its chooser say why, never "loading…" for good.
        values = self.model_form.values()
        empty = source.why_empty(choice_context(self.context, values)) if not options else ""
        for name in names:
            self.model_form.set_choices(name, options, items=items, empty=empty)

    async def _load_known(
        self, names: list[str], key: tuple[Any, ...], source: ChoiceSource
    ) -> None:
        """The values a free input likely takes; none when they cannot be loaded (the input
        still takes any value, and its hint says why it offers none)."""
        assert self.load_choices is not None
        try:
            options = await self.load_choices(source, self.model_form.values())
        except (CloudError, LookupError) as error:
            reason = describe_error(error) if isinstance(error, CloudError) else str(error)
            for name in names:
                self.model_form.set_known(name, key, [], failed=reason)
            return
        for name in names:
            self.model_form.set_known(name, key, options)

    def show_result(self, result: FormResult) -> None:
        """Show client or server errors beside the inputs and below the form."""
        self.model_form.show_errors(result.errors)
        self.show_general(result.general)

    def build(self) -> dict[str, Any] | None:
        self.form = self.model_form.form
        result = build_body(
            self.form,
            self.model_form.values(),
            initial=self.initial if self.edit else None,
            context=self.context,
        )
        self.show_result(result)
        if not result.ok or result.body is None:
            return None
        if self.edit and not result.body:
            self.show_result(FormResult(general=["Nothing changed."]))
            return None
        return result.body

    async def confirm_before_send(self, body: dict[str, Any]) -> bool:
        """Confirm first: a price, what a confirmed field does, a value that cannot be undone."""
        from screens.dialogs.confirm import ConfirmModal, request_preview

        warnings = irreversible_changes(self.form, body)
        notes = [*sent_notes(self.form, body), *empty_cautions(self.form, body)]
        quote = await self.quote(body) if self.quote is not None else None
        if not warnings and not notes and quote is None:
            return True
        notes += ["This is billed. Check the price, then confirm."] * (quote is not None)
        method, _, path = self.request_line.partition(" ")
        price = shown(quote.text(), lines=True) if quote is not None else ""
        if warnings:
            typed = self.name_text or str(body.get("label") or "") or "yes"
            modal = ConfirmModal(
                f"{self.title_text}: this cannot be undone",
                " ".join([*warnings, *notes]),
                request_preview(method, path, body),
                typed=typed,
                confirm_label=self.send_label,
                price=price,
                account=self.account,
            )
        else:
            modal = ConfirmModal(
                f"{self.title_text}?",
                " ".join(notes),
                request_preview(method, path, body),
                confirm_label=self.send_label,
                price=price,
                account=self.account,
            )
        confirmed: bool = await self.app.push_screen_wait(modal)
        return bool(confirmed)

    def show_api_error(self, error: ApiError) -> None:
        result = field_errors(self.form, error.errors)
        if error.status in (401, 403) and not result.errors:
            # A refusal of the whole request: said once, in words, below the form.
            result = FormResult(general=[describe_error(error)])
        elif not result.errors and not result.general:
            result.general.append(describe_error(error))
        self.show_result(result)
