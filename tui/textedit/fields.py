"""The fields an update request may send, with their allowed values in words, from its model.

The request model is the one truth: its JSON schema says each field's type, choices, bounds and
pattern, its attribute docstrings say what the field is, and its ``shown_when`` rules say when
a field is used. A nested model (an instance's ``alerts``) contributes one field per leaf
(``alerts.cpu``); a list or a free-form table is one field holding the whole value. Secret
fields (passwords, private keys) are never part of a document: they are listed apart so the
document can say that they are not edited there.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from pydantic import BaseModel

from tui.models.docs import field_help
from tui.models.rules import When
from tui.resources.secret_keys import is_secret_key


@dataclass(frozen=True)
class EditField:
    """One field of the document.

    Attributes:
        path: Where the value is in the body (and in the item): ``("alerts", "cpu")``.
        allowed: Its allowed values in words (``whole number, 0 to 100``).
        help: What the field is (its docstring, on one line).
        when: When the field is used, if a rule says so (``used when protocol is https``).
    """

    path: tuple[str, ...]
    allowed: str
    help: str = ""
    when: str = ""

    @property
    def name(self) -> str:
        """The dotted name: ``alerts.cpu``."""
        return ".".join(self.path)


@dataclass(frozen=True)
class ModelFields:
    """What a document of one request model holds.

    Attributes:
        fields: The editable fields, in the model's order.
        secrets: Dotted names of the secret fields left out.
    """

    fields: tuple[EditField, ...]
    secrets: tuple[str, ...]

    def by_name(self) -> dict[str, EditField]:
        """The fields by dotted name."""
        return {f.name: f for f in self.fields}


def _resolve(schema: Mapping[str, Any], defs: Mapping[str, Any]) -> dict[str, Any]:
    """``schema`` with ``$ref`` followed and a nullable ``anyOf`` reduced to its other member."""
    out = dict(schema)
    while True:
        ref = out.pop("$ref", None)
        if isinstance(ref, str):
            out = {**defs.get(ref.rsplit("/", 1)[-1], {}), **out}
            continue
        options = out.get("anyOf")
        if isinstance(options, list):
            kept = [o for o in options if o.get("type") != "null"]
            if len(kept) == 1:
                out.pop("anyOf")
                out = {**kept[0], **{k: v for k, v in out.items() if k != "anyOf"}}
                continue
        return out


def _quoted(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    return str(value)


_SINGULAR = {"characters": "character", "entries": "entry"}


def _range(low: Any, high: Any, unit: str = "") -> str:
    one = (low == 1 and high is None) or (high == 1 and low is None)
    suffix = f" {_SINGULAR.get(unit, unit) if one else unit}" if unit else ""
    if low is not None and high is not None:
        return f"{low} to {high}{suffix}"
    if low is not None:
        return f"at least {low}{suffix}"
    if high is not None:
        return f"at most {high}{suffix}"
    return ""


def describe_schema(schema: Mapping[str, Any], defs: Mapping[str, Any]) -> str:
    """A field's allowed values in words, from its JSON schema.

    Args:
        schema: The field's schema (``$ref`` and nullable ``anyOf`` allowed).
        defs: The model schema's ``$defs``.
    """
    core = _resolve(schema, defs)
    if "enum" in core:
        return "one of " + ", ".join(_quoted(v) for v in core["enum"])
    if "const" in core:
        return f"only {_quoted(core['const'])}"
    if "anyOf" in core:
        options = [o for o in core["anyOf"] if o.get("type") != "null"]
        return " or ".join(describe_schema(o, defs) for o in options)
    kind = core.get("type")
    if kind == "string":
        parts = ["text"]
        length = _range(core.get("minLength"), core.get("maxLength"), "characters")
        if length:
            parts.append(length)
        if core.get("pattern"):
            parts.append(f"matching {core['pattern']}")
        if core.get("pem"):
            parts.append(f"a PEM {core['pem']}")
        return ", ".join(parts)
    if kind in ("integer", "number"):
        low = core.get("minimum", core.get("exclusiveMinimum"))
        high = core.get("maximum", core.get("exclusiveMaximum"))
        span = _range(low, high)
        word = "whole number" if kind == "integer" else "number"
        return f"{word}, {span}" if span else word
    if kind == "boolean":
        return "true or false"
    if kind == "array":
        items = _resolve(core.get("items") or {}, defs)
        if items.get("type") == "object" and "properties" in items:
            inner = "tables with " + ", ".join(items["properties"])
        else:
            inner = describe_schema(items, defs) if items else "values"
        count = _range(core.get("minItems"), core.get("maxItems"), "entries")
        return f"list of {inner}" + (f" ({count})" if count else "")
    if kind == "object":
        return "table of " + ", ".join(core["properties"]) if "properties" in core else "table"
    return "any value"


def _nested_model(annotation: Any) -> type[BaseModel] | None:
    """The model class of a field that is one nested object (Optional and Annotated removed)."""
    while True:
        origin = typing.get_origin(annotation)
        if origin is typing.Annotated:
            annotation = typing.get_args(annotation)[0]
            continue
        if origin in (typing.Union, types.UnionType):
            members = [a for a in typing.get_args(annotation) if a is not type(None)]
            if len(members) == 1:
                annotation = members[0]
                continue
        break
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    return None


def _is_secret(name: str, schema: Mapping[str, Any]) -> bool:
    return (
        is_secret_key(name)
        or bool(schema.get("secret"))
        or schema.get("format") == "password"
        or bool(schema.get("writeOnly"))
    )


def _when(rule: When) -> str:
    values = " or ".join(str(v) for v in rule.values)
    return f"used when {rule.field} is {values}"


def _walk(
    model: type[BaseModel],
    properties: Mapping[str, Any],
    defs: Mapping[str, Any],
    prefix: tuple[str, ...],
    fields: list[EditField],
    secrets: list[str],
) -> None:
    rules: Mapping[str, When] = getattr(model, "shown_when", {})
    for name, info in model.model_fields.items():
        key = info.alias or name
        schema = properties.get(key, {})
        core = _resolve(schema, defs)
        path = (*prefix, key)
        if _is_secret(key, core):
            secrets.append(".".join(path))
            continue
        inner = _nested_model(info.annotation)
        if inner is not None and "properties" in core:
            _walk(inner, core["properties"], defs, path, fields, secrets)
            continue
        rule = rules.get(key)
        fields.append(
            EditField(
                path,
                describe_schema(schema, defs),
                " ".join(field_help(model, name).split()),
                _when(rule) if rule is not None else "",
            )
        )


@cache
def model_fields(model: type[BaseModel]) -> ModelFields:
    """The editable fields of a request model, and the secret ones left out.

    Args:
        model: The update request model (``InstanceUpdate``).
    """
    schema = model.model_json_schema(mode="validation")
    fields: list[EditField] = []
    secrets: list[str] = []
    _walk(model, schema.get("properties", {}), schema.get("$defs", {}), (), fields, secrets)
    return ModelFields(tuple(fields), tuple(secrets))
