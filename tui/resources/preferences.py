"""Profile preferences as editable JSON text (headless)."""

from __future__ import annotations

import json
from typing import Any


def dump_preferences(value: Any) -> str:
    """Pretty JSON for editing (an empty object when the API has none)."""
    if not isinstance(value, dict):
        value = {}
    return json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def parse_preferences(text: str) -> tuple[dict[str, Any] | None, str]:
    """The edited text as a preferences object.

    Returns:
        ``(object, "")``, or ``(None, problem)`` naming the line and column of a syntax error.
    """
    if not text.strip():
        return None, "The preferences must be a JSON object, for example {}."
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        return None, f"Not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})."
    if not isinstance(value, dict):
        return None, f"The preferences must be a JSON object, not {type(value).__name__}."
    return value, ""
