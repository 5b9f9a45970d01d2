"""``:export csv|json [visible|marked] [path]``: a list written to a file, never its secrets.

CSV holds what the columns show (titles, then one line per row); JSON holds the full items as
the API sent them, with every secret field masked (the same masking as the JSON viewer).
Headless: the command line parses here, the list pane supplies the items.
"""

from __future__ import annotations

import csv
import io
import json
import os
import shlex
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from tui.resources.format import SECRET_MASK, column_cells, is_secret_field, redact
from tui.resources.spec import ResourceSpec, dig

ExportFormat = Literal["csv", "json"]
Which = Literal["visible", "marked"]

USAGE = "export csv|json [visible|marked] [path]"


@dataclass(frozen=True)
class ExportRequest:
    """What ``:export`` asked for.

    Attributes:
        format: ``csv`` or ``json``.
        which: ``visible`` (the rows the filter shows, in their order) or ``marked``.
        path: Where to write, or None for a name made from the list and the time.
    """

    format: ExportFormat = "csv"
    which: Which = "visible"
    path: str | None = None


def parse_export(text: str) -> ExportRequest:
    """Parse the words after ``export`` (any order; a word that is neither is the path).

    Raises:
        ValueError: Unknown or repeated words, with the usage.
    """
    try:
        words = shlex.split(text)
    except ValueError:
        words = text.split()
    if words and words[0].lower().lstrip(":") == "export":
        words = words[1:]
    fmt: ExportFormat = "csv"
    which: Which = "visible"
    path: str | None = None
    for word in words:
        lower = word.lower()
        if lower in ("csv", "json"):
            fmt = "csv" if lower == "csv" else "json"
        elif lower in ("visible", "marked"):
            which = "visible" if lower == "visible" else "marked"
        elif path is None:
            path = word
        else:
            raise ValueError(f"more than one path ({path}, {word}); usage: {USAGE}")
    return ExportRequest(fmt, which, path)


def default_name(spec: ResourceSpec, fmt: ExportFormat, now: float | None = None) -> str:
    """``cloudtui-instances-20261125-103000.csv``."""
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(now))
    name = spec.id.replace(".", "-")
    return f"cloudtui-{name}-{stamp}.{fmt}"


def render_csv(spec: ResourceSpec, items: Sequence[Mapping[str, Any]]) -> str:
    """The columns as shown, one line per item (statuses without the badge glyph, secret
    columns masked)."""
    secret = [is_secret_field(spec, c.key) for c in spec.columns]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([c.title for c in spec.columns])
    status = [c.kind == "status" for c in spec.columns]
    for item in items:
        cells = list(column_cells(spec, item))
        for index, column in enumerate(spec.columns):
            if status[index]:
                # The status word without its badge glyph (spreadsheets sort and filter it).
                value = dig(item, column.key)
                cells[index] = "" if value is None else str(value)
        writer.writerow(
            [
                SECRET_MASK if hidden and cell else cell
                for cell, hidden in zip(cells, secret, strict=True)
            ]
        )
    return out.getvalue()


def render_json(spec: ResourceSpec, items: Sequence[Mapping[str, Any]]) -> str:
    """The full items, secret fields masked."""
    clean = []
    for item in items:
        copy = redact(dict(item))
        for key in list(copy):
            if copy[key] not in (None, "") and is_secret_field(spec, key):
                copy[key] = SECRET_MASK
        clean.append(copy)
    return json.dumps(clean, indent=2, ensure_ascii=False, default=str) + "\n"


def write_export(
    request: ExportRequest,
    spec: ResourceSpec,
    items: Sequence[Mapping[str, Any]],
    *,
    cwd: Path | None = None,
) -> Path:
    """Write ``items`` as asked; never overwrites a file.

    Returns:
        The path written.

    Raises:
        FileExistsError: The file exists already.
        OSError: It could not be written (the message names the reason).
    """
    base = cwd or Path.cwd()
    path = Path(os.path.expanduser(request.path)) if request.path else None
    if path is None:
        path = base / default_name(spec, request.format)
    elif not path.is_absolute():
        path = base / path
    if path.is_dir():
        path = path / default_name(spec, request.format)
    render = render_csv if request.format == "csv" else render_json
    text = render(spec, items)
    with open(path, "x", encoding="utf-8", newline="") as handle:  # "x": never overwrite
        handle.write(text)
    return path
