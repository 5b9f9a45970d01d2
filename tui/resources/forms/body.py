"""Build a request body from what the user typed: each input's text converted to its field's
type, unused rows left out, and the body validated with the same model (:func:`build_body`)."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ValidationError

from tui.models import pem
from tui.models.rules import NOT_SENT
from tui.resources.form_rules import deciding_values, hidden_names, required_now
from tui.resources.forms.errors import loc_name, place, validation_message
from tui.resources.forms.spec import REDACTED, FormField, FormResult, FormSpec
from tui.resources.spec import dig


def display_value(form_field: FormField, value: Any) -> Any:
    """What an input shows for an API value (strings for text inputs, bools for switches)."""
    if value is None:
        return False if form_field.kind == "bool" else ""
    if form_field.kind == "bool":
        return bool(value)
    if form_field.kind == "secret" or value == REDACTED:
        return ""  # never prefill a secret (the API does not return them anyway)
    if form_field.kind == "choice":
        return value
    if form_field.kind == "picks":
        return list(value) if isinstance(value, list) else [value]
    if form_field.kind in ("list", "lines"):
        joiner = "\n" if form_field.kind == "lines" else ", "
        return joiner.join(str(v) for v in value) if isinstance(value, list) else str(value)
    if form_field.kind == "json":
        return json.dumps(value, indent=2, ensure_ascii=False)
    return str(value)


def initial_values(form: FormSpec, item: Mapping[str, Any] | None) -> dict[str, Any]:
    """Input values prefilled from an existing item (edit forms); a value that holds a part
    (a node's ``ip:port``) is split between its two inputs."""
    if not item:
        return {}
    values = {f.name: display_value(f, dig(item, f.name)) for f in form.fields}
    for f in form.fields:
        joined = form.field(f.joins) if f.part is not None else None
        stored = dig(item, f.joins) if joined is not None else None
        if f.part is None or joined is None or stored in (None, ""):
            continue
        value, part_value = f.part.split(stored)
        values[joined.name] = display_value(joined, value)
        values[f.name] = display_value(f, part_value)
    return values


def _blank(value: Any) -> bool:
    if isinstance(value, list):
        return not value  # a multi-choice with nothing chosen
    return value is None or (isinstance(value, str) and not value.strip())


def _convert(form_field: FormField, raw: Any) -> Any:
    """Raw input -> typed value; raises ValueError with a message for the user."""
    kind = form_field.kind
    if kind == "bool":
        return bool(raw)
    if kind == "choice":
        return raw
    if kind == "multi":
        return ",".join(str(v) for v in raw) if isinstance(raw, list | tuple) else str(raw)
    if kind == "picks":
        # Chosen in a list, or typed comma-separated when the choices could not be loaded.
        values = raw if isinstance(raw, list | tuple) else str(raw).split(",")
        picked = [str(v).strip() for v in values if str(v).strip()]
        if form_field.item_type is int:
            try:
                return [int(p) for p in picked]
            except ValueError:
                raise ValueError("must be whole numbers separated by commas") from None
        return picked
    text = raw if isinstance(raw, str) else str(raw)
    if form_field.pem:
        text = pem.from_input(text)
        pem.check(form_field.pem, text)  # before the model: beside the other inputs' errors
        return text
    if kind == "int":
        try:
            return int(text.strip())
        except ValueError:
            raise ValueError("must be a whole number") from None
    if kind == "float":
        try:
            return float(text.strip())
        except ValueError:
            raise ValueError("must be a number") from None
    if kind in ("list", "lines"):
        separator = "\n" if kind == "lines" else ","
        parts = [p.strip() for p in text.split(separator) if p.strip()]
        if form_field.item_type is int:
            try:
                return [int(p) for p in parts]
            except ValueError:
                raise ValueError("must be whole numbers separated by commas") from None
        return parts
    if kind == "json":
        try:
            return json.loads(text)
        except json.JSONDecodeError as exc:
            raise ValueError(f"is not valid JSON ({exc.msg} at line {exc.lineno})") from None
    return text if kind in ("multiline", "secret") else text.strip()


def _nest(flat: Mapping[str, Any]) -> dict[str, Any]:
    """``{"a.b": 1, "l.0.x": 2}`` -> ``{"a": {"b": 1}, "l": [{"x": 2}]}`` (unused slots dropped)."""
    root: dict[str, Any] = {}
    for path, value in flat.items():
        node = root
        parts = path.split(".")
        for part in parts[:-1]:
            node = node.setdefault(part, {})
        node[parts[-1]] = value
    return _lists(root)


def _lists(node: Any) -> Any:
    if not isinstance(node, dict):
        return node
    converted = {k: _lists(v) for k, v in node.items()}
    if converted and all(k.isdigit() for k in converted):
        return [converted[k] for k in sorted(converted, key=int)]
    return converted


def _group_used(form: FormSpec, values: Mapping[str, Any], group: str) -> bool:
    """True when an input of ``group`` (other than a switch) holds something."""
    return any(
        f.group == group and f.kind != "bool" and not _blank(values.get(f.name))
        for f in form.fields
    )


def _row_of(form: FormSpec, name: str) -> str | None:
    """The innermost repeated row ``name`` belongs to (``configs.0.nodes.1.``), if any."""
    best: str | None = None
    for path in form.repeats:
        found = re.match(re.escape(path) + r"\.\d+\.", name)
        if found and (best is None or len(found.group(0)) > len(best)):
            best = found.group(0)
    return best


def _row_used(form: FormSpec, values: Mapping[str, Any], row: str) -> bool:
    """True when an input of the row holds something other than blank or its default."""
    for f in form.fields:
        if not f.send or _row_of(form, f.name) != row:
            continue
        raw = values.get(f.name)
        if f.kind == "bool":
            if bool(raw) != bool(f.default):
                return True
        elif not _blank(raw) and raw != f.default:
            return True
    return False


def _empty(f: FormField) -> Any:
    return False if f.kind == "bool" else ""


def _root(name: str) -> str:
    return name.split(".", 1)[0]


def _changed(f: FormField, raw: Any, before: Any) -> bool:
    return not (raw == before or (_blank(raw) and _blank(before)))


def build_body(
    form: FormSpec,
    values: Mapping[str, Any],
    *,
    initial: Mapping[str, Any] | None = None,
    context: Mapping[str, Any] | None = None,
) -> FormResult:
    """Turn input values into a validated request body.

    Args:
        form: The form.
        values: Input name -> raw value (text, bool, chosen value, or None for no choice).
        initial: The prefilled values of an edit form. Only fields that changed (and required
            ones) are sent, so an edit never re-sends what the user did not touch (a restricted
            user may not send ``tags`` at all, for instance); a nested object or list is sent
            whole when any part of it changed; a cleared top-level input is sent as null.
        context: The item an edit form is about, for rules decided by a field that is not
            an input (a record's type).

    Inputs the model's ``shown_when`` rules hide are never sent; one a rule requires for the
    value chosen is reported when blank, or sends the rule's blank value (a Null MX's ``""``).
    A group of inputs (a repeated row) left at blanks and defaults is not sent at all.

    Returns:
        The body, or the errors to show.
    """
    result = FormResult()
    flat: dict[str, Any] = {}
    editing = initial is not None
    before_of = initial or {}
    changed_roots = {
        # A part that changed sends the field it is sent inside.
        _root(f.joins or f.name)
        for f in form.fields
        if editing
        and (
            # Required fields travel even unchanged: the request is invalid without them.
            (f.required and f.group is None)
            or _changed(f, values.get(f.name), before_of.get(f.name, _empty(f)))
        )
    }
    groups_used: dict[str, bool] = {}
    rows_used: dict[str, bool] = {}
    hidden = hidden_names(form, values, context)
    decided = deciding_values(form, values, context)
    for f in form.fields:
        if not f.send or f.name in hidden:
            continue
        row = _row_of(form, f.name) if not editing else None
        if row is not None:
            if row not in rows_used:
                rows_used[row] = _row_used(form, values, row)
            if not rows_used[row]:
                continue  # an untouched row (a spare one) is not part of the body
        raw = values.get(f.name)
        nested = "." in f.name
        required = required_now(f, decided)
        if editing:
            if _root(f.name) not in changed_roots:
                continue
            if not nested and _blank(raw) and f.kind not in ("secret", "bool"):
                flat[f.name] = [] if f.kind in ("list", "lines") else None
                continue
        if f.kind == "bool":
            # A switch always has a value. A new item sends it only when it differs from the
            # model's default, so untouched switches keep the server's own defaults.
            if not editing and bool(raw) == bool(f.default) and not f.required:
                continue
            flat[f.name] = bool(raw)
            continue
        if _blank(raw):
            instead = f.rule.blank_value(decided[f.name]) if f.rule is not None else NOT_SENT
            if instead is not NOT_SENT:
                flat[f.name] = instead
            elif f.group is not None:
                if f.group not in groups_used:
                    groups_used[f.group] = _group_used(form, values, f.group)
                if required and groups_used[f.group]:
                    result.errors[f.name] = _missing(f, decided)
            elif required:
                result.errors[f.name] = _missing(f, decided)
            continue
        try:
            flat[f.name] = _convert(f, raw)
        except ValueError as exc:
            result.errors[f.name] = f"{f.title} {exc}"
    _join_parts(form, values, hidden, flat, result)
    if result.errors:
        return result
    body = _nest(flat)
    try:
        model = form.model.model_validate(body)
    except ValidationError as exc:
        for error in exc.errors(include_url=False):
            name = loc_name(error.get("loc", ()))
            place(form, name, validation_message(error, form.field(name)), result)
        return result
    result.body = _sent(model, body)
    return result


def _join_parts(
    form: FormSpec,
    values: Mapping[str, Any],
    hidden: set[str],
    flat: dict[str, Any],
    result: FormResult,
) -> None:
    """Send each filled part inside its field (a node's port in its address)."""
    for f in form.fields:
        if f.part is None or f.name in hidden or _blank(values.get(f.name)):
            continue
        if flat.get(f.joins) in (None, ""):
            continue  # its field is not sent (or reported missing): nothing to join
        try:
            number = _convert(f, values.get(f.name))
            _check_bounds(f, number)
            flat[f.joins] = f.part.join(flat[f.joins], number)
        except ValueError as exc:
            result.errors[f.name] = f"{f.title} {exc}"


def _check_bounds(f: FormField, number: Any) -> None:
    """Raise ValueError when ``number`` is outside the input's bounds (no model checks it)."""
    low = f.ge if f.ge is not None else float("-inf")
    high = f.le if f.le is not None else float("inf")
    if not low <= number <= high:
        raise ValueError(f"must be {f.hint_for(True)}")


def _missing(f: FormField, decided: Mapping[str, Any]) -> str:
    """``Weight is required`` (``... for SRV`` when a rule made it so)."""
    if f.rule is not None and not f.required:
        if f.required_when:
            return f"{f.title} is {f.required_when}"  # the model's own words
        return f"{f.title} is required {f.rule.describe(decided.get(f.name))}"
    return f"{f.title} is required"


def _sent(model: BaseModel, body: Mapping[str, Any]) -> dict[str, Any]:
    """The validated body: the model's own serialisation of just the fields the user gave."""
    reveal = getattr(model, "body", None)
    if callable(reveal):
        data: dict[str, Any] = reveal()
        # Fields explicitly cleared to null are "set" and survive exclude_unset.
        return {k: v for k, v in data.items() if k in body}
    return dict(body)
