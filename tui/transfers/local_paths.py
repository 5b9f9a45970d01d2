"""Tab completion of local paths, as a shell completes them (headless, for the path inputs)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

MAX_SHOWN = 50
"""Candidates returned at most (a huge directory lists its first ones)."""


@dataclass(frozen=True)
class Completion:
    """The result of one tab press.

    Attributes:
        text: The input's new text (extended by the longest common part).
        candidates: Names that still match (for the hint under the input), directories with ``/``.
    """

    text: str
    candidates: tuple[str, ...]


def expand(text: str, base: Path | None = None) -> Path:
    """The path ``text`` means: ``~`` expanded, relative to ``base`` (default: the cwd)."""
    path = Path(os.path.expanduser(text.strip() or "."))
    if not path.is_absolute():
        path = (base or Path.cwd()) / path
    return path


def complete(text: str, base: Path | None = None) -> Completion:
    """Complete the last part of ``text`` against the local file system.

    Args:
        text: What the user typed (absolute, relative to ``base``, or starting with ``~``).
        base: Directory relative paths start from (default: the current directory).
    """
    head, sep, tail = text.rpartition(os.sep)
    directory = expand(head + sep if sep else ".", base)
    try:
        names = sorted(
            entry.name + (os.sep if entry.is_dir() else "")
            for entry in os.scandir(directory)
            if entry.name.startswith(tail)
            and (tail.startswith(".") or not entry.name.startswith("."))
        )
    except OSError:
        return Completion(text, ())
    if not names:
        return Completion(text, ())
    common = os.path.commonprefix(names)  # noqa: RUF071 (names, not paths: character-wise is meant)
    prefix = head + sep if sep else ""
    return Completion(
        prefix + common if len(common) > len(tail) else text, tuple(names[:MAX_SHOWN])
    )
