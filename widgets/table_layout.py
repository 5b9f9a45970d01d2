"""Column widths and cell text of the resource table: pure functions of the rows' text.

Kept apart from the widget so the layout rules (auto widths from a sample, ellipsis, the sort
arrow in the header) read and test on their own.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.cells import cell_len, set_cell_size

from tui.resources.rows import TableColumn, TableRow

MAX_AUTO_WIDTH = 40
"""Widest a column sized from its rows gets (longer cells end in an ellipsis)."""

GUTTER = 2
"""Cells left of the first column: the cursor arrow and the mark."""


def column_widths(columns: Sequence[TableColumn], sample: Sequence[TableRow]) -> list[int]:
    """Width of each column: its fixed width, or the longest cell of ``sample`` (capped)."""
    widths: list[int] = []
    for index, column in enumerate(columns):
        if column.width is not None:
            widths.append(max(column.width, 1))
            continue
        longest = max((cell_len(r.cells[index]) for r in sample), default=0)
        widths.append(max(3, min(MAX_AUTO_WIDTH, max(longest, cell_len(column.title)))))
    return widths


def total_width(widths: Sequence[int]) -> int:
    """Width of a whole row: the gutter plus each column and its separating space."""
    return GUTTER + sum(w + 1 for w in widths)


def fit(text: str, width: int, right: bool = False) -> str:
    """``text`` padded to ``width`` cells (right-aligned if asked), or cut with an ellipsis."""
    if cell_len(text) > width:
        return set_cell_size(text, width - 1) + "…" if width > 1 else "…"
    pad = width - cell_len(text)
    return " " * pad + text if right else text + " " * pad


def header_text(
    columns: Sequence[TableColumn], widths: Sequence[int], sort: tuple[int | None, bool]
) -> str:
    """The header line: titles fitted to their widths, the sorted one with its arrow."""
    sort_column, reverse = sort
    parts = [" " * GUTTER]
    for index, (column, width) in enumerate(zip(columns, widths, strict=True)):
        title = column.title
        if index == sort_column:
            title = f"{title} {'▼' if reverse else '▲'}"
        parts.append(fit(title, width, column.numeric) + " ")
    return "".join(parts)


def column_at(widths: Sequence[int], x: int) -> int | None:
    """Index of the column under content offset ``x``, if any."""
    position = GUTTER
    for index, width in enumerate(widths):
        if position <= x < position + width + 1:
            return index
        position += width + 1
    return None


def split_matches(text: str, words: Sequence[str]) -> list[tuple[str, bool]]:
    """``text`` cut into ``(part, is_match)`` pieces where any of ``words`` occurs (any case).

    Args:
        text: A cell as shown.
        words: Lower-cased words to find.

    Returns:
        Pieces in order; their texts join back to ``text``.
    """
    lower = text.lower()
    if len(lower) != len(text):
        return [(text, False)]  # a character whose lower case is longer: no safe offsets
    hits = [False] * len(text)
    for word in words:
        start = lower.find(word)
        while word and start >= 0:
            hits[start : start + len(word)] = [True] * len(word)
            start = lower.find(word, start + len(word))
    pieces: list[tuple[str, bool]] = []
    for index, char in enumerate(text):
        if pieces and pieces[-1][1] == hits[index]:
            pieces[-1] = (pieces[-1][0] + char, hits[index])
        else:
            pieces.append((char, hits[index]))
    return pieces
