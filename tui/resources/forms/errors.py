"""Place errors on a form's inputs: pydantic's and the API's ``errors[].field`` in words a
user reads, under the input they name (:func:`field_errors`)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from tui.resources.forms.choices import Lenient
from tui.resources.forms.describe import form_title
from tui.resources.forms.spec import FormField, FormResult, FormSpec
from tui.untrusted import shown


def loc_name(loc: Iterable[Any]) -> str:
    """A pydantic error location as the dotted input name (``configs.0.label``)."""
    return ".".join(str(p) for p in loc)


def validation_message(error: Mapping[str, Any], form_field: FormField | None = None) -> str:
    """A pydantic error in words a user reads (pydantic's own text names regexes and types).

    Args:
        error: One entry of ``ValidationError.errors()``.
        form_field: The input it is about, if known: a length of text (a password is not a
            list, though pydantic counts its "items") is in characters.
    """
    kind = str(error.get("type", ""))
    ctx = error.get("ctx") or {}
    if form_field is not None and form_field.kind not in ("list", "lines", "json"):
        kind = {"too_short": "string_too_short", "too_long": "string_too_long"}.get(kind, kind)
    plain = {
        "missing": "required",
        "string_too_short": "must be at least {min_length} characters",
        "string_too_long": "must be at most {max_length} characters",
        "too_short": "needs at least {min_length} entries",
        "too_long": "may have at most {max_length} entries",
        "greater_than_equal": "must be at least {ge}",
        "less_than_equal": "must be at most {le}",
        "greater_than": "must be more than {gt}",
        "less_than": "must be less than {lt}",
        "int_parsing": "must be a whole number",
        "int_type": "must be a whole number",
        "float_parsing": "must be a number",
        "bool_parsing": "must be yes or no",
        "literal_error": "must be one of {expected}",
        "string_pattern_mismatch": "has characters or a form that is not allowed (see the help)",
    }.get(kind)
    if plain is not None:
        try:
            return plain.format_map(Lenient(ctx))
        except (ValueError, IndexError):
            return plain
    msg = str(error.get("msg", "is not valid"))
    return re.sub(r"^(Value|Assertion) error, ", "", msg)


NAMED_PREFIX = re.compile(r"^(?P<name>[A-Za-z_][\w.\[\]]*): (?P<rest>.+)$", re.S)
"""A message that starts by naming its field: ``configs[0].port: port 80 is used twice``."""


def place(form: FormSpec, name: str, message: str, result: FormResult) -> None:
    """Attach ``message`` to the input ``name`` names (or its nearest parent), else general.

    A message without a field of its own (a whole-model check, a server error without
    ``field``) lands on the input it names: ``configs[0].port: ...`` or ``region is required
    when ...``. Field names in the text read as the inputs' titles.
    """
    named = NAMED_PREFIX.match(message)
    if named and name:
        # A row's own check naming its field (``check_timeout: ...`` about ``configs.0``).
        inner = name + "." + re.sub(r"\[(\d+)\]", r".\1", named["name"])
        if form.field(inner) is not None:
            name, message = inner, named["rest"]
    elif name and form.field(name) is None:
        # A row's check opening with its field's name (``min must not exceed max``).
        first = re.match(r"^([a-z_][a-z0-9_]*)\b", message)
        if first and form.field(f"{name}.{first.group(1)}") is not None:
            name = f"{name}.{first.group(1)}"
    target = _match(form, name)
    if target is None and not name:
        named = NAMED_PREFIX.match(message)
        if named and _match(form, re.sub(r"\[(\d+)\]", r".\1", named["name"])):
            target = _match(form, re.sub(r"\[(\d+)\]", r".\1", named["name"]))
            message = named["rest"]
        else:
            target = _mentioned(form, message)
    if target is None:
        text = f"{form_title(name)}: {message}" if name else message
        result.general.append(shown(humanize(form, text)))
    elif target not in result.errors:
        result.errors[target] = humanize(form, message)


def _leaf_names(form: FormSpec) -> dict[str, FormField]:
    """Last part of each input's name -> the input (the first, for repeated groups)."""
    out: dict[str, FormField] = {}
    for f in form.fields:
        out.setdefault(f.name.rsplit(".", 1)[-1], f)
    return out


def _mentioned(form: FormSpec, message: str) -> str | None:
    """The input a message opens with (``week_of_month is required ...``), if any."""
    first = re.match(r"^([a-z_][a-z0-9_]*)\b", message)
    found = _leaf_names(form).get(first.group(1)) if first else None
    return found.name if found is not None else None


def humanize(form: FormSpec, message: str) -> str:
    """``message`` with the API's field names (``soa_email``) written as the inputs' titles."""
    leaves = _leaf_names(form)

    def title(match: re.Match[str]) -> str:
        word = match.group(0)
        found = leaves.get(word)
        if found is None:
            return word
        if match.start() == 0 or found.title[1:2].isupper():
            return found.title  # a sentence's first word, or an acronym (SOA email)
        return found.title[:1].lower() + found.title[1:]

    # snake_case names anywhere; a plain word (``target``) only when it opens the message.
    text = re.sub(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b", title, message)
    return re.sub(r"^[a-z][a-z0-9]*\b", title, text)


def _match(form: FormSpec, name: str) -> str | None:
    if not name:
        return None
    names = {f.name for f in form.fields}
    candidate = name
    while candidate:
        if candidate in names:
            return candidate
        # A nested error (``devices.sdh``, ``configs.0.port``) lands on its closest input.
        prefixed = sorted(n for n in names if n.startswith(candidate + "."))
        if prefixed:
            return prefixed[0]
        candidate = candidate.rpartition(".")[0]
    return None


def field_errors(form: FormSpec, errors: Iterable[Any]) -> FormResult:
    """Place a server's ``errors[{field, reason}]`` on the form's inputs.

    Args:
        form: The form.
        errors: Entries with ``field`` and ``reason`` (the client's ``FieldError`` objects, or
            plain mappings).

    ``field`` may be dotted or indexed (``node_pools[0].count``); errors naming no input of the
    form become general messages.
    """
    result = FormResult()
    for error in errors:
        if isinstance(error, Mapping):
            raw, reason = error.get("field"), error.get("reason")
        else:
            raw, reason = getattr(error, "field", None), getattr(error, "reason", None)
        name = re.sub(r"\[(\d+)\]", r".\1", str(raw or ""))
        place(form, name, str(reason or "is not valid"), result)
    return result
