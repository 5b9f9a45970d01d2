"""A saved document checked and turned into the exact requests, or the problems written back.

:func:`review_text` reads what the user saved. An empty file (nothing but comments and blank
lines) or one without changes is a cancel: no request. Otherwise every entry is checked: its
``id`` names an item of the document (once), its keys are fields of the request model, and the
fields it changes pass the request model (as the form's edit would send them). Any problem
makes the whole document come back with the problems written above their lines
(:mod:`tui.textedit.notes`); nothing is sent for a document with a problem.

Only what changed is sent: the top-level fields whose value differs from what the document
first said; a nested object (an instance's ``alerts``) that changed is sent as the document
has it, as the form sends it (some of them, a configuration's ``devices``, replace the whole
object on the server).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal

from pydantic import ValidationError

from tui.api.paths import fill_path
from tui.resources.forms import form_for, irreversible_changes, sent_notes, validation_message
from tui.resources.forms.errors import NAMED_PREFIX
from tui.session.config_keys import nearest
from tui.textedit.document import ID_KEY, MISSING, EditDocument, EditEntry, entry_values
from tui.textedit.notes import Problem, entry_line, field_line, with_problems, without_notes
from tui.textedit.toml_text import TomlSyntaxError, parse_toml
from tui.untrusted import normalize_newlines

Status = Literal["cancelled", "invalid", "ready"]


def show_value(value: Any) -> str:
    """A value on one line as JSON (``∅`` for none), for a diff or a request preview."""
    if value is MISSING or value is None:
        return "∅"
    return json.dumps(value, ensure_ascii=False, default=str)


@dataclass(frozen=True)
class FieldChange:
    """One field's value before and after (:data:`MISSING` for "no value")."""

    name: str
    before: Any
    after: Any

    def text(self) -> str:
        """``label: "web-1" -> "web-2"``."""
        return f"{self.name}: {show_value(self.before)} -> {show_value(self.after)}"


@dataclass(frozen=True)
class EditRequest:
    """One request of a plan: the update of one item.

    Attributes:
        key: The item's key (:attr:`EditEntry.key`).
        label: The item's name.
        endpoint: The operation's registry name (``compute.instances.update``).
        method: Its HTTP method.
        path: The request path, filled in (``/compute/instances/123``).
        params: The path parameters.
        body: The JSON body: only the fields that changed.
        changes: The fields that changed, before and after.
        cautions: What the body does that deserves a second look, in words (a value that
            cannot be taken back, an upgrade that replaces the nodes).
    """

    key: str
    label: str
    endpoint: str
    method: str
    path: str
    params: Mapping[str, Any]
    body: Mapping[str, Any]
    changes: tuple[FieldChange, ...]
    cautions: tuple[str, ...] = ()

    def request_line(self) -> str:
        """``PUT /compute/instances/123 {"label": "web-2"}``."""
        return f"{self.method} {self.path} {show_value(dict(self.body))}"


@dataclass(frozen=True)
class EditPlan:
    """The requests a reviewed document asks for, one per changed item, in document order."""

    requests: tuple[EditRequest, ...]

    @property
    def keys(self) -> tuple[str, ...]:
        """The keys of the items changed."""
        return tuple(r.key for r in self.requests)

    def preview(self) -> list[str]:
        """The diff and the exact requests, for the user to confirm (untrusted values inside:
        show each line through :func:`tui.untrusted.shown`)."""
        lines: list[str] = []
        for request in self.requests:
            lines.append(f"~ {request.label}")
            lines.extend(f"    {change.text()}" for change in request.changes)
            lines.extend(f"    ! {caution}" for caution in request.cautions)
            lines.append(f"    {request.request_line()}")
        return lines

    def without(self, keys: Iterable[str]) -> EditPlan:
        """The plan without the requests of these items (the user kept the server's)."""
        dropped = set(keys)
        return replace(self, requests=tuple(r for r in self.requests if r.key not in dropped))


@dataclass(frozen=True)
class Review:
    """What a saved document comes to.

    Attributes:
        status: ``cancelled`` (nothing to send), ``invalid`` (reopen the editor on
            :attr:`text`) or ``ready`` (show :attr:`plan`, then send it).
        text: The text to reopen: the saved one, with the problems written in when invalid.
        message: One line for the user (why it was cancelled, how many problems).
        problems: What is wrong (invalid only).
        plan: The requests (ready only).
    """

    status: Status
    text: str
    message: str
    problems: tuple[Problem, ...] = ()
    plan: EditPlan | None = None


def same_value(a: Any, b: Any) -> bool:
    """Equal values of the same types (``1`` is not ``true``, ``1`` is not ``1.0``)."""
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        return a.keys() == b.keys() and all(same_value(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b, strict=True))
    return type(a) is type(b) and a == b


def _nest(values: Mapping[str, Any]) -> dict[str, Any]:
    root: dict[str, Any] = {}
    for name, value in values.items():
        node = root
        *parents, last = name.split(".")
        for part in parents:
            node = node.setdefault(part, {})
        node[last] = value
    return root


class _Checker:
    """The checks of one saved document (collects problems, builds requests)."""

    def __init__(self, document: EditDocument, text: str) -> None:
        self.document = document
        self.target = document.target
        self.text = text
        self.problems: list[Problem] = []
        self.requests: list[EditRequest] = []
        self.fields = {f.name for f in self.target.fields.fields}
        self.prefixes = {
            ".".join(f.path[:n]) for f in self.target.fields.fields for n in range(1, len(f.path))
        }
        self.secrets = set(self.target.fields.secrets)

    def add(self, message: str, line: int | None) -> None:
        self.problems.append(Problem(message, line))

    def run(self, parsed: Mapping[str, Any]) -> None:
        table = self.target.table
        for key in parsed:
            if key != table:
                self.add(
                    f"{key} is not part of this document (its entries are [[{table}]])",
                    _top_line(self.text, key),
                )
        raw_entries = parsed.get(table)
        if not isinstance(raw_entries, list):
            if table in parsed:
                self.add(
                    f"{table} must be entries written [[{table}]]", _top_line(self.text, table)
                )
            return
        seen: set[str] = set()
        for index, raw in enumerate(raw_entries):
            self.entry(index, raw, seen)

    def entry(self, index: int, raw: Any, seen: set[str]) -> None:
        table = self.target.table
        where = entry_line(self.text, table, index)
        if not isinstance(raw, Mapping):
            self.add(f"entry {index + 1} is not a table", where)
            return
        if ID_KEY not in raw:
            singular = self.target.spec.singular
            self.add(f"this entry has no {ID_KEY}: it says which {singular} it changes", where)
            return
        ident = raw[ID_KEY]
        entry = next((e for e in self.document.entries if same_value(e.ident, ident)), None)
        id_line = field_line(self.text, table, index, [ID_KEY])
        if entry is None:
            known = ", ".join(show_value(e.ident) for e in self.document.entries)
            self.add(
                f"{ID_KEY} {show_value(ident)} is none of the items of this document ({known})",
                id_line,
            )
            return
        if entry.key in seen:
            self.add(f"{ID_KEY} {show_value(ident)} has an entry above already", id_line)
            return
        seen.add(entry.key)
        before = len(self.problems)
        self.unknown_keys(index, raw, ())
        if len(self.problems) == before:
            self.changes(index, entry, entry_values(self.target, raw))

    def unknown_keys(self, index: int, node: Mapping[str, Any], prefix: tuple[str, ...]) -> None:
        depth = len(prefix)
        paths = [f.path for f in self.target.fields.fields]
        valid = sorted({p[depth] for p in paths if p[:depth] == prefix and len(p) > depth})
        for key, value in node.items():
            path = (*prefix, str(key))
            name = ".".join(path)
            if (not prefix and key == ID_KEY) or name in self.fields:
                continue
            line = field_line(self.text, self.target.table, index, path)
            if name in self.prefixes:
                if isinstance(value, Mapping):
                    self.unknown_keys(index, value, path)
                else:
                    self.add(f"{name} is a table of fields, not one value", line)
                continue
            if name in self.secrets:
                self.add(f"{name} is secret and is not edited here (use the form)", line)
                continue
            hint = nearest(str(key), valid)
            also = f"; did you mean {hint}?" if hint else ""
            self.add(f"{name} is not a field of this {self.target.spec.singular}{also}", line)

    def changes(self, index: int, entry: EditEntry, values: Mapping[str, Any]) -> None:
        baseline = self.document.baseline.get(entry.key, {})
        changed = [
            n for n, v in values.items() if n not in baseline or not same_value(baseline[n], v)
        ]
        if not changed:
            return
        roots = {n.split(".")[0] for n in changed}
        sent = {n: v for n, v in values.items() if n.split(".")[0] in roots}
        nested = _nest(sent)
        try:
            model = self.target.model.model_validate(nested)
        except ValidationError as error:
            for detail in error.errors(include_url=False):
                self.validation_problem(index, detail)
            return
        body = {k: v for k, v in model.body().items() if k in nested}
        form = form_for(self.target.model)
        cautions = (*irreversible_changes(form, body), *sent_notes(form, body))
        ep = self.target.endpoint
        try:
            path = fill_path(ep.path, dict(entry.params))
        except (KeyError, ValueError) as error:  # an item listed without what names it
            self.add(f"this {self.target.spec.singular} cannot be named: {error}", None)
            return
        self.requests.append(
            EditRequest(
                entry.key,
                entry.label,
                ep.name,
                ep.method,
                path,
                dict(entry.params),
                body,
                tuple(FieldChange(n, baseline.get(n, MISSING), values[n]) for n in changed),
                tuple(cautions),
            )
        )

    def validation_problem(self, index: int, detail: Mapping[str, Any]) -> None:
        message = validation_message(detail)
        name = ".".join(str(p) for p in detail.get("loc", ()))
        if not name:
            named = NAMED_PREFIX.match(message)
            if named:
                name, message = re.sub(r"\[(\d+)\]", r".\1", named["name"]), named["rest"]
        path = self._closest_field(name)
        line = (
            field_line(self.text, self.target.table, index, path)
            if path
            else entry_line(self.text, self.target.table, index)
        )
        self.add(f"{name}: {message}" if name else message, line)

    def _closest_field(self, name: str) -> tuple[str, ...] | None:
        candidate = name
        while candidate:
            if candidate in self.fields or candidate in self.prefixes:
                return tuple(candidate.split("."))
            candidate = candidate.rpartition(".")[0]
        return None


def _top_line(text: str, key: str) -> int | None:
    pattern = re.compile(r"^\s*(\[\[?\s*)?" + re.escape(key) + r"\b")
    return next((n for n, line in enumerate(text.splitlines(), 1) if pattern.match(line)), None)


def _has_content(text: str) -> bool:
    return any(s and not s.startswith("#") for s in (line.strip() for line in text.splitlines()))


def review_text(document: EditDocument, text: str) -> Review:
    """What the saved ``text`` of ``document`` comes to.

    Args:
        document: The document the editor was opened on.
        text: What the user saved.

    Returns:
        A cancel, the problems (with the text to reopen), or the plan.
    """
    clean = without_notes(normalize_newlines(text))
    if not _has_content(clean):
        return Review("cancelled", clean, "The file is empty: nothing was sent.")
    try:
        parsed = parse_toml(clean)
    except TomlSyntaxError as error:
        problem = Problem(f"not TOML: {error.reason}", error.line)
        return Review(
            "invalid", with_problems(clean, [problem]), "The file is not TOML.", (problem,)
        )
    checker = _Checker(document, clean)
    checker.run(parsed)
    if checker.problems:
        problems = tuple(checker.problems)
        count = len(problems)
        return Review(
            "invalid", with_problems(clean, problems), f"{count} problem(s) to fix.", problems
        )
    if not checker.requests:
        return Review("cancelled", clean, "No changes: nothing was sent.")
    plan = EditPlan(tuple(checker.requests))
    spec = document.target.spec
    count = len(plan.requests)
    what = spec.singular if count == 1 else spec.title.lower()
    return Review("ready", clean, f"{count} {what} to change.", plan=plan)
