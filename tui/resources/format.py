"""Turning API values into display text, sort keys and status tones (headless).

List cells and detail fields both go through :func:`format_value`, so a size or a date reads the
same everywhere. Everything returns plain ``str``: the UI renders it literally, never as markup.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

from tui.resources.derived import derived, is_derived

# SECRET_KEYS is re-exported: it lives below udf (which this module renders) so the two share it.
from tui.resources.secret_keys import SECRET_KEYS as SECRET_KEYS
from tui.resources.secret_keys import is_secret_key
from tui.resources.spec import TRANSITIONAL_STATUSES, FieldSpec, ResourceSpec, ValueKind, dig
from tui.resources.udf import preview as udf_preview
from tui.untrusted import Shown, shown

Tone = Literal["ok", "busy", "warn", "error", "muted", "neutral"]
"""How a status reads: settled and fine, changing, needs a look, failed, inactive, or a value
this client does not know (a newer API's status: shown as it is, judged neither way)."""

TONES: tuple[Tone, ...] = ("ok", "busy", "warn", "error", "muted", "neutral")

OK_STATUSES = frozenset(
    {
        "running",
        "active",
        "available",
        "ready",
        "successful",
        "enabled",
        "ok",
        "accept",
        "true",
        "up",
    }
)
WARN_STATUSES = frozenset(
    {
        "degraded",
        "stopped",
        "unavailable",
        "drain",
        "backup",
        "suspended",
        "expired",
        "new",
        "pending",
    }
)
ERROR_STATUSES = frozenset({"failed", "error", "reject", "problem", "disabled_error", "down"})
MUTED_STATUSES = frozenset(
    {"offline", "disabled", "inactive", "revoked", "false", "closed", "unknown"}
)

BADGE_SYMBOL: dict[Tone, str] = {
    "ok": "●",
    "busy": "◐",
    "warn": "▲",
    "error": "✖",
    "muted": "○",
    "neutral": "◇",
}
"""A shape per tone, so the tone survives NO_COLOR and colour blindness (text + shape + colour)."""

SECRET_MASK = "••••••••"

MISSING = "—"
"""What a value the API leaves out reads as wherever it is named in words (a detail field, a
count's breakdown, a choice's text): never ``None``. List cells stay blank instead."""


def or_missing(value: Any, kind: ValueKind = "text") -> Shown:
    """:func:`format_value` of ``value``, or :data:`MISSING` when that is empty."""
    return format_value(value, kind) or MISSING


def status_tone(status: str | None, transitional: frozenset[str] = frozenset()) -> Tone:
    """Classify a status for its badge.

    Args:
        status: The status text (any case); None reads as muted.
        transitional: The resource's transitional statuses (defaults to the shared set).

    Returns:
        The tone.
    """
    if not status:
        return "muted"
    value = status.lower()
    if value in transitional or value in TRANSITIONAL_STATUSES:
        return "busy"
    if value in OK_STATUSES:
        return "ok"
    if value in ERROR_STATUSES:
        return "error"
    if value in WARN_STATUSES:
        return "warn"
    if value in MUTED_STATUSES:
        return "muted"
    return "neutral"


def badge_text(status: str | None, transitional: frozenset[str] = frozenset()) -> Shown:
    """Status as badge text: a tone symbol and the status (``● running``)."""
    if not status:
        return ""
    return f"{BADGE_SYMBOL[status_tone(status, transitional)]} {shown(status.replace('_', ' '))}"


SizeUnit = Literal["bytes", "mb", "gb"]
"""The unit a size arrives in from the API (volumes in GB, memory and images in MB, transfer
figures in bytes or MB)."""

_UNIT_FACTOR: dict[str, int] = {"bytes": 1, "mb": 1024**2, "gb": 1024**3}
_SIZE_UNITS = ("B", "KB", "MB", "GB", "TB", "PB")


def human_size(value: float, unit: SizeUnit = "bytes") -> Shown:
    """A size or amount of data in the largest unit that keeps it at or above 1.

    Every size and amount of data in the app goes through here (list cells, details, type
    choosers, transfer quotas, object sizes and transfer progress), so a list never mixes
    ``200 GB`` with ``40.0 GB``: whole numbers show no decimals, others one (``1.5 GB``),
    and from 100 on none (``117 GB``).

    Units are binary throughout (1 KB = 1024 B, 1 GB = 1024 MB), because that is how the API
    counts memory and disks (the 4 GB type has 4096 MB): so a 4000 GB transfer quota reads
    ``3.9 TB`` wherever it is shown, and 2,000,000 bytes ``1.9 MB``.

    Args:
        value: The amount.
        unit: The unit ``value`` is in.

    Returns:
        ``"40 GB"``, ``"1.5 TB"``, ``"512 B"``.
    """
    size = float(value) * _UNIT_FACTOR[unit]
    for name in _SIZE_UNITS:
        if abs(size) < 1024 or name == _SIZE_UNITS[-1]:
            break
        size /= 1024
    text = f"{size:.0f}" if abs(size) >= 100 else f"{size:.1f}".removesuffix(".0")
    return f"{text} {name}"


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def series_points(raw: Any) -> tuple[tuple[float, float], ...]:
    """A series as ``((epoch seconds, value), ...)`` in time order, malformed points dropped.

    Args:
        raw: ``[[ms, value], ...]`` (instance statistics) or ``[{"x": ms, "y": value}, ...]``
            (managed statistics).
    """
    out: list[tuple[float, float]] = []
    if not isinstance(raw, Sequence) or isinstance(raw, str):
        return ()
    for point in raw:
        if isinstance(point, Mapping):
            pair: Any = (point.get("x"), point.get("y"))
        elif isinstance(point, Sequence) and not isinstance(point, str) and len(point) >= 2:
            pair = point[:2]
        else:
            continue
        if _number(pair[0]) and _number(pair[1]):
            out.append((float(pair[0]) / 1000.0, float(pair[1])))
    out.sort(key=lambda p: p[0])
    return tuple(out)


def format_value(value: Any, kind: ValueKind = "text") -> Shown:
    """Display text of one value.

    Args:
        value: The raw value from the API.
        kind: How to read it.

    Returns:
        One line of display text (``""`` for missing values, ``—`` is left to the caller);
        several lines for ``block`` and ``udf``. Either way it went through the text boundary.
    """
    # Control characters (newlines, escapes) would break a table row or inject terminal codes.
    return shown(_format(value, kind), lines=kind in ("block", "udf"))


def _format(value: Any, kind: ValueKind) -> str:
    if kind == "text" and type(value) is str:
        return value  # the common cell; format_value passes it through the boundary
    if value is None:
        return ""
    if kind == "secret":
        return SECRET_MASK if value else ""
    if kind == "bool" or isinstance(value, bool):
        return "yes" if value else "no"
    if kind in ("bytes", "mb", "gb") and isinstance(value, int | float):
        return human_size(value, kind)
    if kind == "int" and isinstance(value, int | float):
        # No thousands separators: ids and ports must read (and copy) exactly.
        return str(value)
    if kind == "datetime" and isinstance(value, str):
        return value.replace("T", " ")[:16]
    if kind == "status":
        return shown(str(value))
    if kind == "series" and isinstance(value, list):
        points = series_points(value)
        if not points:
            return "no data"
        return f"{len(points)} points, latest {points[-1][1]:g}"
    if kind == "block":
        if not isinstance(value, list | tuple):
            value = shown(_block_text(str(value)), lines=True).split("\n")
        return "\n".join(shown(str(line)).rstrip() for line in value)
    if kind == "udf":
        return udf_preview(value)
    if kind == "json":
        return _structured(value)
    if isinstance(value, Mapping):
        return shown(", ".join(f"{k}: {format_value(v)}" for k, v in value.items()))
    if isinstance(value, list | tuple):
        return shown(", ".join(format_value(v) for v in value))
    return shown(str(value))


PEM_ARMOUR = "-----BEGIN "
"""How a PEM block (a certificate, a key) starts."""


def _block_text(text: str) -> str:
    """A block's text with its line breaks: a PEM sent on one line with written ``\\n``
    sequences (as request bodies carry them) gets its real line breaks back, so each of its
    lines is shown, and copied, whole."""
    if PEM_ARMOUR in text and "\n" not in text and "\\n" in text:
        return text.replace("\\r\\n", "\n").replace("\\n", "\n")
    return text


SSH_KEY_TYPES = ("ssh-", "ecdsa-", "sk-ssh-", "sk-ecdsa-")
"""How an SSH public key's line starts (``ssh-ed25519 AAAA... comment``)."""


def _is_ssh_keys(value: Any) -> bool:
    return (
        isinstance(value, list)
        and bool(value)
        and all(isinstance(v, str) and v.startswith(SSH_KEY_TYPES) for v in value)
    )


def pems_apart(body: Mapping[str, Any]) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    """A request body with each certificate or key (a PEM value, a list of SSH public keys)
    replaced by a pointer, and those values apart, one line of text per line of the key.

    In a request's JSON a PEM is one string with escaped line breaks, and an SSH key sits
    indented inside a list: a terminal wraps both where it likes, and copied from the screen
    they are no key. Shown apart, each line starts at the edge, nothing inserted.

    Returns:
        ``(body, [(field, text), ...])`` in the body's order (top-level fields only).
    """
    out: dict[str, Any] = {}
    apart: list[tuple[str, str]] = []
    for key, value in body.items():
        if isinstance(value, str) and PEM_ARMOUR in value:
            text = _block_text(value)
            out[key] = f"(PEM, {len(text.splitlines())} lines: shown below)"
            apart.append((key, text))
        elif _is_ssh_keys(value):
            out[key] = f"({len(value)} key{'s' if len(value) != 1 else ''}: shown below)"
            apart.append((key, "\n".join(value)))
        else:
            out[key] = value
    return out, apart


def _structured(value: Any) -> Shown:
    """Nested API data in words: ``in 48211.6, out 391877.25``; empty parts left out."""
    if isinstance(value, Mapping):
        parts = [f"{k} {_structured(v)}" for k, v in value.items() if v not in (None, "", [], {})]
        return shown(", ".join(parts))
    if isinstance(value, list | tuple):
        return shown("; ".join(_structured(v) for v in value))
    return format_value(value)


def sort_value(value: Any) -> tuple[int, Any]:
    """A key that sorts numbers numerically, text case-insensitively, missing values last."""
    if type(value) is str:  # the common case, before the slower checks below
        return (1, value.lower()) if value else (2, "")
    if value is None or value == "":
        return (2, "")
    if isinstance(value, bool):
        return (0, float(value))
    if isinstance(value, int | float):
        return (0, float(value))
    if isinstance(value, list | tuple):
        value = ", ".join(str(v) for v in value)
    return (1, str(value).lower())


def display(
    item: Mapping[str, Any], key: str, kind: ValueKind, transitional: frozenset[str] = frozenset()
) -> Shown:
    """Display text of the field ``key`` of ``item`` (or of the derived value ``@name``): a
    badge for statuses, else formatted."""
    value = derived(item, key) if is_derived(key) else dig(item, key)
    if kind == "status":
        return badge_text(None if value is None else str(value), transitional)
    return format_value(value, kind)


def field_display(
    item: Mapping[str, Any],
    field: FieldSpec,
    transitional: frozenset[str] = frozenset(),
    *,
    reveal: bool = False,
) -> Shown:
    """Display text of a detail field: :func:`display`, or the field's text for 0 (defaults).

    Args:
        item: The item.
        field: The field.
        transitional: Statuses shown as in progress.
        reveal: Show a secret field's value (the user asked) instead of the mask.
    """
    if field.zero and dig(item, field.key) == 0:
        return field.zero
    if reveal and field.kind == "secret":
        return display(item, field.key, "text", transitional)
    return display(item, field.key, field.kind, transitional)


def column_cells(spec: ResourceSpec, item: Mapping[str, Any]) -> tuple[Shown, ...]:
    """The formatted cells of ``item`` for the spec's columns."""
    return tuple(display(item, col.key, col.kind, spec.transitional) for col in spec.columns)


def column_sort_keys(spec: ResourceSpec, item: Mapping[str, Any]) -> tuple[tuple[int, Any], ...]:
    """Sort keys of ``item`` for the spec's columns."""
    return tuple(sort_value(dig(item, col.key)) for col in spec.columns)


def copy_value(spec: ResourceSpec, item: Mapping[str, Any]) -> tuple[str, str] | None:
    """What ``y`` copies: the first present copy field.

    Returns:
        ``(field, value)`` or None when the item has none of them.
    """
    for key in (*spec.copy_fields, spec.id_field):
        value = dig(item, key)
        if value not in (None, "", []):
            return key, str(value)
    return None


def field_title(spec: ResourceSpec, key: str) -> Shown:
    """What the spec calls the field ``key`` (a column or detail title), else the key."""
    for column in spec.columns:
        if column.key == key:
            return column.title
    for section in spec.sections:
        for field in section.fields:
            if field.key == key:
                return field.title
    return shown(key)


def search_text(cells: Sequence[str]) -> str:
    """The lower-cased text a filter matches against."""
    return "\x00".join(cells).lower()


def redact(value: Any) -> Any:
    """A copy of ``value`` with secret fields masked (nested dicts and lists too)."""
    if isinstance(value, Mapping):
        return {
            k: (SECRET_MASK if is_secret_key(k) and v not in (None, "") else redact(v))
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [redact(v) for v in value]
    return value


def has_secret_fields(spec: ResourceSpec) -> bool:
    """True when a detail field of ``spec`` holds a secret (shown masked until asked)."""
    return any(f.kind == "secret" for s in spec.sections for f in s.fields)


def is_secret_field(spec: ResourceSpec, key: str) -> bool:
    """True when the field ``key`` of ``spec``'s items holds a secret."""
    if is_secret_key(key.rsplit(".", 1)[-1]):
        return True
    return any(f.key == key and f.kind == "secret" for s in spec.sections for f in s.fields)
