"""Keys of the config file the settings model does not know, and where keys are in the file.

The valid names are read from the settings model itself (its fields, nested models and
``dict[str, Model]`` tables), so a field added to a model is known here without a list to
update. An unknown key is named with the nearest valid one (``difflib``), so a typo is easy to
see; the same is done for ``[keymap]`` entries against the binding ids the app defines.
"""

from __future__ import annotations

import re
import types
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Union, get_args, get_origin

from pydantic import BaseModel

from tui.untrusted import Shown, shown

Loc = tuple[str | int, ...]
"""A key's path in the file, as pydantic reports it: ``("profiles", "work", "base_url")``."""


@dataclass(frozen=True)
class UnknownKey:
    """A key the program does not know (and ignores).

    Attributes:
        loc: Its path in the file.
        nearest: The closest valid name at the same place, if one is close.
        valid: Every valid name at that place (for a hint when none is close).
        line: 1-based line in the file, when known.
        kind: ``setting`` or ``binding id`` (a ``[keymap]`` entry).
    """

    loc: Loc
    nearest: str | None
    valid: tuple[str, ...]
    line: int | None = None
    kind: str = "setting"

    @property
    def dotted(self) -> str:
        """The key as a user writes it: ``handoff.ssh.prot``."""
        return dotted(self.loc)

    def message(self) -> Shown:
        """One line: what is unknown and what was probably meant (display text: the keys come
        from the user's file)."""
        return shown(self._message())

    def _message(self) -> str:
        where = f"line {self.line}: " if self.line else ""
        if self.kind == "binding id":
            what = f'[keymap] "{self.loc[-1]}" is not a binding id (it is ignored)'
        else:
            what = f"unknown setting {self.dotted} (it is ignored)"
        if self.nearest is not None:
            return f"{where}{what}; did you mean {self.nearest}?"
        if self.kind == "setting" and self.valid:
            return f"{where}{what}; the settings here are {', '.join(self.valid)}"
        return f"{where}{what}; press ? in the app to see the binding ids"


def dotted(loc: Loc) -> str:
    """A path as dotted TOML keys (list positions as ``[n]``)."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            text = part if re.fullmatch(r"[A-Za-z0-9_-]+", part) else f'"{part}"'
            out += f".{text}" if out else text
    return out


def nearest(name: str, candidates: Collection[str]) -> str | None:
    """The candidate most like ``name``, or None when none is close."""
    import difflib  # only when a key is unknown: not on every start

    found = difflib.get_close_matches(name, list(candidates), n=1, cutoff=0.6)
    return found[0] if found else None


def _unwrap_optional(annotation: Any) -> Any:
    if get_origin(annotation) in (Union, types.UnionType):
        options = [a for a in get_args(annotation) if a is not type(None)]
        if len(options) == 1:
            return options[0]
    return annotation


def _model_of(annotation: Any) -> type[BaseModel] | None:
    annotation = _unwrap_optional(annotation)
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    return None


def _table_model(annotation: Any) -> type[BaseModel] | None:
    """The model of each value of a ``dict[str, Model]`` field (profiles by name)."""
    annotation = _unwrap_optional(annotation)
    if get_origin(annotation) is dict:
        args = get_args(annotation)
        if len(args) == 2:
            return _model_of(args[1])
    return None


def _list_model(annotation: Any) -> type[BaseModel] | None:
    """The model of each entry of a ``list[Model]`` field (an array of tables: plugins)."""
    annotation = _unwrap_optional(annotation)
    if get_origin(annotation) is list:
        args = get_args(annotation)
        if len(args) == 1:
            return _model_of(args[0])
    return None


def split_unknown(
    data: Mapping[str, Any], model: type[BaseModel], loc: Loc = ()
) -> tuple[dict[str, Any], list[UnknownKey]]:
    """Separate the keys ``model`` knows from those it does not.

    Args:
        data: The parsed file (or one of its tables).
        model: The model that table must fit.
        loc: Where ``data`` is in the file.

    Returns:
        ``data`` without the unknown keys (so validation reports only bad values), and the
        unknown keys in the order they were read.
    """
    fields = {info.alias or name: info for name, info in model.model_fields.items()}
    valid = tuple(fields)
    kept: dict[str, Any] = {}
    unknown: list[UnknownKey] = []
    for key, value in data.items():
        info = fields.get(key)
        if info is None:
            unknown.append(UnknownKey((*loc, key), nearest(key, valid), valid))
            continue
        inner = _model_of(info.annotation)
        table = _table_model(info.annotation)
        entries = _list_model(info.annotation)
        if inner is not None and isinstance(value, Mapping):
            value, found = split_unknown(value, inner, (*loc, key))
            unknown += found
        elif table is not None and isinstance(value, Mapping):
            cleaned: dict[str, Any] = {}
            for name, entry in value.items():
                if isinstance(entry, Mapping):
                    entry, found = split_unknown(entry, table, (*loc, key, name))
                    unknown += found
                cleaned[name] = entry
            value = cleaned
        elif entries is not None and isinstance(value, list):
            rows: list[Any] = []
            for index, row in enumerate(value):
                if isinstance(row, Mapping):
                    row, found = split_unknown(row, entries, (*loc, key, index))
                    unknown += found
                rows.append(row)
            value = rows
        kept[key] = value
    return kept, unknown


def unknown_binding_ids(
    keymap: Mapping[str, str], known: Collection[str], text: str | None = None
) -> list[UnknownKey]:
    """The ``[keymap]`` entries that name no binding.

    Args:
        keymap: Binding id -> keys, as configured.
        known: Every binding id the app defines.
        text: The config file's text, to say on which line each entry is.
    """
    lines = text.splitlines() if text is not None else []
    return [
        UnknownKey(
            ("keymap", key),
            nearest(key, known),
            (),
            line_of(lines, ("keymap", key)) if lines else None,
            kind="binding id",
        )
        for key in keymap
        if key not in known
    ]


# -- where a key is in the file -------------------------------------------------------------


def key_pattern(parts: Sequence[str]) -> str:
    """A regular expression matching dotted TOML keys ``parts``, bare or quoted."""

    def one(part: str) -> str:
        quoted = f"\"{re.escape(part)}\"|'{re.escape(part)}'"
        if re.fullmatch(r"[A-Za-z0-9_-]+", part):
            return f"(?:{re.escape(part)}|{quoted})"
        return f"(?:{quoted})"

    return r"\s*\.\s*".join(one(p) for p in parts)


_HEADER = re.compile(r"^\s*\[")


def _table_span(lines: Sequence[str], table: Sequence[str]) -> tuple[int, int] | None:
    """Lines (0-based start, end) of the body of ``[table]`` (the top of the file for ``()``)."""
    if table:
        header = re.compile(r"^\s*\[\s*" + key_pattern(table) + r"\s*\]")
        start = next((n + 1 for n, line in enumerate(lines) if header.match(line)), None)
        if start is None:
            return None
    else:
        start = 0
    end = next((n for n in range(start, len(lines)) if _HEADER.match(lines[n])), len(lines))
    return start, end


def line_of(lines: Sequence[str], loc: Loc) -> int | None:
    """Best-effort 1-based line of the key at ``loc`` (its table's header for a table).

    The longest table header that is a prefix of the path is searched first, then a
    ``key = ...`` line in that table naming the rest of the path (dotted keys and inline
    tables included).
    """
    at = next((n for n, part in enumerate(loc) if isinstance(part, int)), None)
    if at is not None and at > 0:
        found = _array_entry_line(lines, [str(p) for p in loc[:at]], int(loc[at]), loc[at + 1 :])
        if found is not None:
            return found
    keys = [str(p) for p in loc if not isinstance(p, int)]
    header: int | None = None
    for split in range(len(keys), -1, -1):
        table, rest = keys[:split], keys[split:]
        span = _table_span(lines, table)
        if span is None:
            continue
        start, end = span
        if table and header is None:
            header = start  # the header's 1-based line is the body's 0-based start
        for length in range(len(rest), 0, -1):
            assignment = re.compile(r"^\s*" + key_pattern(rest[:length]) + r"\s*=")
            for number in range(start, end):
                if assignment.match(lines[number]):
                    return number + 1
        if header is not None:
            return header  # e.g. a required key missing from its table
    # A table known only through its sub-tables: ``[handof.ssh]`` for an unknown ``handof``.
    prefix = re.compile(r"^\s*\[\s*" + key_pattern(keys) + r"\s*\.") if keys else None
    return next((n + 1 for n, line in enumerate(lines) if prefix and prefix.match(line)), None)


def _array_entry_line(
    lines: Sequence[str], table: Sequence[str], index: int, rest: Loc
) -> int | None:
    """1-based line of ``rest`` in entry ``index`` of the array of tables ``[[table]]`` (the
    entry's header when ``rest`` is not written in it); None when there is no such entry."""
    header = re.compile(r"^\s*\[\[\s*" + key_pattern(table) + r"\s*\]\]")
    starts = [n for n, line in enumerate(lines) if header.match(line)]
    if index >= len(starts):
        return None
    start = starts[index]
    end = next((n for n in range(start + 1, len(lines)) if _HEADER.match(lines[n])), len(lines))
    keys = [str(p) for p in rest if not isinstance(p, int)]
    for length in range(len(keys), 0, -1):
        assignment = re.compile(r"^\s*" + key_pattern(keys[:length]) + r"\s*=")
        for number in range(start + 1, end):
            if assignment.match(lines[number]):
                return number + 1
    return start + 1
