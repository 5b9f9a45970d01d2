"""Filling endpoint path templates safely."""

from __future__ import annotations

import re
from urllib.parse import quote

_PARAM = re.compile(r"\{(\w+)\}")

# Ids that legitimately contain one slash and travel as two path segments.
SLASHED_PARAMS = frozenset({"imageId", "kernelId"})


def fill_path(template: str, params: dict[str, object]) -> str:
    """Substitute path parameters into a template.

    Integers go in as-is; strings are percent-quoted so that ``/``, ``?``, ``#`` or ``..`` in a
    label can never change the route, except image and kernel ids (``private/12``,
    ``compute/latest-64bit``), whose single slash separates two real path segments.

    Args:
        template: Path such as ``/compute/instances/{computeId}``.
        params: Values for every placeholder.

    Returns:
        The concrete path.

    Raises:
        KeyError: A placeholder has no value.
        ValueError: A value is empty, or a slashed id is malformed.
    """

    def substitute(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in params:
            raise KeyError(f"missing path parameter {name!r} for {template}")
        value = params[name]
        if isinstance(value, bool):
            raise ValueError(f"path parameter {name!r} must not be a boolean")
        if isinstance(value, int):
            return str(value)
        text = str(value)
        if not text:
            raise ValueError(f"path parameter {name!r} is empty")
        if name in SLASHED_PARAMS and "/" in text:
            parts = text.split("/")
            if len(parts) != 2 or not all(parts) or any(p in (".", "..") for p in parts):
                raise ValueError(f"malformed {name}: {text!r}")
            return "/".join(quote(p, safe="") for p in parts)
        if text in (".", ".."):
            raise ValueError(f"path parameter {name!r} may not be {text!r}")
        return quote(text, safe="")

    return _PARAM.sub(substitute, template)
