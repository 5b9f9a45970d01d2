"""A small JSON Schema validator: the keywords the project's documented schemas use.

``type`` (a name or a list), ``const``, ``enum``, ``required``, ``properties``,
``additionalProperties`` (true, false or a schema), ``items``, ``minimum``, ``pattern``,
``oneOf`` and ``$ref`` to ``#/$defs/...``. An unknown keyword fails loudly, so a schema never
claims more than this checks.
"""

from __future__ import annotations

import re
from typing import Any

KNOWN = {
    "$schema", "title", "description", "$defs", "type", "const", "enum", "required",
    "properties", "additionalProperties", "items", "minimum", "pattern", "oneOf", "$ref",
}  # fmt: skip

TYPES = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}


def errors(value: Any, schema: dict[str, Any], root: dict[str, Any] | None = None,
           at: str = "$") -> list[str]:  # fmt: skip
    """Every way ``value`` breaks ``schema``, each as ``path: problem`` ([] when it fits)."""
    root = root if root is not None else schema
    unknown = set(schema) - KNOWN
    if unknown:
        raise ValueError(f"{at}: keywords this validator does not check: {sorted(unknown)}")
    if "$ref" in schema:
        name = schema["$ref"].removeprefix("#/$defs/")
        return errors(value, root["$defs"][name], root, at)
    out: list[str] = []
    if "type" in schema:
        kinds = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(TYPES[k](value) for k in kinds):
            return [f"{at}: {value!r:.60} is not of type {kinds}"]
    if "const" in schema and value != schema["const"]:
        out.append(f"{at}: {value!r} is not {schema['const']!r}")
    if "enum" in schema and value not in schema["enum"]:
        out.append(f"{at}: {value!r} is not one of {schema['enum']}")
    if "minimum" in schema and TYPES["number"](value) and value < schema["minimum"]:
        out.append(f"{at}: {value} is below {schema['minimum']}")
    if "pattern" in schema and isinstance(value, str) and not re.search(schema["pattern"], value):
        out.append(f"{at}: {value!r} does not match {schema['pattern']}")
    if "oneOf" in schema:
        fits = [s for s in schema["oneOf"] if not errors(value, s, root, at)]
        if len(fits) != 1:
            out.append(f"{at}: fits {len(fits)} of the oneOf schemas, not exactly one")
    if isinstance(value, dict):
        properties = schema.get("properties", {})
        out += [
            f"{at}: {name!r} is missing" for name in schema.get("required", []) if name not in value
        ]
        extra = schema.get("additionalProperties", True)
        for name, inner in value.items():
            where = f"{at}.{name}"
            if name in properties:
                out += errors(inner, properties[name], root, where)
            elif extra is False:
                out.append(f"{where}: not allowed")
            elif isinstance(extra, dict):
                out += errors(inner, extra, root, where)
    if isinstance(value, list) and "items" in schema:
        for n, inner in enumerate(value):
            out += errors(inner, schema["items"], root, f"{at}[{n}]")
    return out
