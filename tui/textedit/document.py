"""The text document of one or several items: their updatable fields as TOML, one entry each.

Which operation edits a kind of object is read from its spec: the action whose endpoint is an
update (``PUT``) with a request model and the generic form (:func:`edit_target`). The document
is an array of tables named after the object (``[[instance]]``), one entry per item, in the
order given. Each entry starts with ``id``, which says which item it changes; each field's line
ends with a comment naming its allowed values. A field without a value is written commented
out, ready to be given one. Secret fields are never written.

The document remembers the items it was made from (:attr:`EditDocument.entries`): what the
edited text is compared with (:mod:`tui.textedit.review`) and what the server's current state
is compared with (:mod:`tui.textedit.conflicts`).
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tui.api.endpoints import Endpoint, endpoint
from tui.models.base import RequestModel
from tui.resources.forms.spec import REDACTED
from tui.resources.spec import Action, ResourceSpec, dig
from tui.textedit.action import edit_action
from tui.textedit.fields import EditField, ModelFields, model_fields
from tui.textedit.toml_text import escaped, parse_toml, toml_key, toml_value

ID_KEY = "id"
"""The key of each entry that names its item (no update model has a field of that name)."""

REFERENCE_WIDTH = 92
"""Columns of the field reference at the top of a document."""

MISSING: Any = object()
"""A field an entry does not give (its line was removed or is commented out)."""


class NotEditable(Exception):
    """This kind of object has no update operation that a document can drive."""


@dataclass(frozen=True)
class EditTarget:
    """What edits one kind of object: its spec, the update action and its request model.

    Attributes:
        spec: The object's resource spec.
        action: The update action (its endpoint, form and grant).
        endpoint: The update operation.
        model: The request model the document is checked with.
        fields: The model's editable fields (and the secret ones left out).
    """

    spec: ResourceSpec
    action: Action
    endpoint: Endpoint
    model: type[RequestModel]
    fields: ModelFields

    @property
    def table(self) -> str:
        """The document's table name: the object's singular noun as a bare key."""
        return re.sub(r"[^A-Za-z0-9_]+", "_", self.spec.singular.strip().lower()) or "item"


def edit_target(spec: ResourceSpec) -> EditTarget | None:
    """How objects of ``spec`` are edited as text; None when they cannot be."""
    action = edit_action(spec)
    if action is None:
        return None
    ep = endpoint(action.endpoint)
    model = ep.request_model()
    if not (isinstance(model, type) and issubclass(model, RequestModel)):
        return None
    fields = model_fields(model)
    if any(f.path[0] == ID_KEY for f in fields.fields):  # pragma: no cover - guarded by a test
        raise NotEditable(f"{model.__name__} has a field named {ID_KEY}")
    return EditTarget(spec, action, ep, model, fields)


@dataclass(frozen=True)
class EditEntry:
    """One item of the document.

    Attributes:
        key: The item's key in its list (:meth:`ResourceSpec.item_key`).
        ident: What the entry's ``id`` says (the id as the API gives it).
        label: The item's name.
        item: The item as it was when the document was made.
        params: The path parameters of its update request.
    """

    key: str
    ident: Any
    label: str
    item: Mapping[str, Any]
    params: Mapping[str, Any]


def _entry(target: EditTarget, item: Mapping[str, Any], parent: Mapping[str, Any]) -> EditEntry:
    spec = target.spec
    ident = dig(item, spec.id_field)
    if not isinstance(ident, int | str) or isinstance(ident, bool):
        ident = spec.item_key(item)
    return EditEntry(
        spec.item_key(item), ident, spec.label_of(item), dict(item), spec.params_for(item, parent)
    )


def _field_line(f: EditField, value: Any) -> str:
    key = toml_key(f.path)
    note = f.allowed + (f"; {f.when}" if f.when else "")
    if value is None:
        return f"# {key} =   # {note} (no value now)"
    if value == REDACTED:
        return f"# {key} =   # {note} (stored, not shown by the API: give one to replace it)"
    return f"{key} = {toml_value(value)}  # {note}"


def render_entries(
    target: EditTarget,
    entries: Sequence[EditEntry],
    values: Mapping[str, Mapping[str, Any]] | None = None,
    notes: Mapping[tuple[str, str], Sequence[str]] | None = None,
) -> list[str]:
    """The entries' lines.

    Args:
        target: What the document edits.
        entries: The items.
        values: Per entry key, field name -> value to write instead of the item's own.
        notes: ``(entry key, field name)`` -> comment lines written above that field's line
            (``""`` as the field name: above the entry).
    """
    lines: list[str] = []
    singular = target.spec.singular
    for entry in entries:
        given = (values or {}).get(entry.key, {})
        lines.append("")
        lines.extend(f"# ! {escaped(n)}" for n in (notes or {}).get((entry.key, ""), ()))
        lines.append(f"[[{target.table}]]")
        ident = toml_value(entry.ident)
        lines.append(f"{ID_KEY} = {ident}  # {escaped(entry.label)} (keep: which {singular})")
        for f in target.fields.fields:
            lines.extend(f"# ! {escaped(n)}" for n in (notes or {}).get((entry.key, f.name), ()))
            value = given[f.name] if f.name in given else dig(entry.item, f.name)
            lines.append(_field_line(f, None if value is MISSING else value))
    return lines


def _header(target: EditTarget, count: int) -> list[str]:
    spec = target.spec
    what = spec.singular if count == 1 else f"{count} {spec.title.lower()}"
    lines = [
        f"# Edit {what} as text (TOML). Save and quit to review the changes: nothing is",
        "# sent before you confirm them, and only the fields you change are sent.",
        "# An empty file, or one without changes, sends nothing. A line removed or commented",
        "# out keeps its value (values cannot be cleared here). Keep each entry's id as it is.",
        "# Each line's comment says what it takes; lines starting with '# !' say what to fix.",
    ]
    if target.fields.secrets:
        lines.append(f"# Not edited here (secret): {', '.join(target.fields.secrets)}.")
    return [*lines, "#", *_reference(target)]


def _reference(target: EditTarget) -> list[str]:
    """What each field is, once for the whole document."""
    lines = ["# Fields:"]
    for f in target.fields.fields:
        if f.help:
            lines.extend(
                textwrap.wrap(
                    f"{f.name}: {escaped(f.help)}",
                    width=REFERENCE_WIDTH,
                    initial_indent="#   ",
                    subsequent_indent="#       ",
                    break_long_words=False,
                    break_on_hyphens=False,
                )
            )
    return lines if len(lines) > 1 else []


@dataclass(frozen=True)
class EditDocument:
    """The document of some items and what it was made from.

    Attributes:
        target: What it edits.
        entries: Its items, in document order.
        text: The text to open in the editor.
        baseline: Per entry key, field name -> value as the document first wrote it (what
            the edited text is compared with).
        parent: The path parameters of the items' parent (child resources).
    """

    target: EditTarget
    entries: tuple[EditEntry, ...]
    text: str
    baseline: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    parent: Mapping[str, Any] = field(default_factory=dict)

    @property
    def file_name(self) -> str:
        """A file name for the editor (``instances.toml``): the suffix picks TOML syntax."""
        return f"{self.target.table}.toml"

    def entry(self, key: str) -> EditEntry | None:
        """The entry of the item with that key."""
        return next((e for e in self.entries if e.key == key), None)


def entry_values(target: EditTarget, raw: Mapping[str, Any]) -> dict[str, Any]:
    """Field name -> value of one parsed entry (fields it does not give are left out)."""
    out: dict[str, Any] = {}
    for f in target.fields.fields:
        node: Any = raw
        for part in f.path:
            node = node.get(part, MISSING) if isinstance(node, Mapping) else MISSING
        if node is not MISSING:
            out[f.name] = node
    return out


def build_document(
    target: EditTarget,
    items: Iterable[Mapping[str, Any]],
    parent_params: Mapping[str, Any] | None = None,
    *,
    values: Mapping[str, Mapping[str, Any]] | None = None,
    notes: Mapping[tuple[str, str], Sequence[str]] | None = None,
) -> EditDocument:
    """The document of ``items`` (one entry each, in that order).

    Args:
        target: What edits them (:func:`edit_target`).
        items: The items as the API gives them (a list's rows, or fresh views).
        parent_params: Path parameters of their parent (child resources: a domain's records).
        values: Per entry key, values written instead of the items' own (a rebase keeps the
            user's changes over the server's state); the baseline stays the items' own.
        notes: Comment lines written above fields (see :func:`render_entries`).

    Raises:
        NotEditable: No item was given.
    """
    entries = tuple(_entry(target, item, parent_params or {}) for item in items)
    if not entries:
        raise NotEditable("nothing to edit")
    header = _header(target, len(entries))
    plain = "\n".join([*header, *render_entries(target, entries)]) + "\n"
    parsed = parse_toml(plain).get(target.table, [])
    baseline = {e.key: entry_values(target, raw) for e, raw in zip(entries, parsed, strict=True)}
    text = plain
    if values or notes:
        text = "\n".join([*header, *render_entries(target, entries, values, notes)]) + "\n"
    return EditDocument(target, entries, text, baseline, dict(parent_params or {}))
