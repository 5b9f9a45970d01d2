"""What a transfer will do before any byte moves: which files, to which names, and conflicts.

* Downloads: objects (selected, marked, or everything under a folder) map to local paths
  relative to the folder being browsed. Object names are untrusted: ``..``, absolute parts and
  empty segments never leave the chosen directory.
* Uploads: a file, or a directory walked recursively, maps to object names under the current
  folder, each with a content type guessed from its name.
* Conflicts: an existing local file is never overwritten unless the user chose overwrite, skip
  or rename, once or for all the remaining ones (:class:`ConflictPolicy`).
"""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path, PurePosixPath

from tui.transfers.listing import DELIMITER, Entry, guess_type


class Choice(StrEnum):
    """What to do with a download whose target exists."""

    OVERWRITE = "overwrite"
    SKIP = "skip"
    RENAME = "rename"


@dataclass
class DownloadItem:
    """One object to download.

    Attributes:
        entry: The object.
        target: The local path it will get (after conflict resolution).
        skip_reason: Set when it will not be downloaded.
    """

    entry: Entry
    target: Path
    skip_reason: str = ""


@dataclass(frozen=True)
class UploadItem:
    """One local file to upload: its path, object name, size and content type."""

    path: Path
    key: str
    size: int
    content_type: str


def safe_relative(name: str) -> PurePosixPath | None:
    """An object name (relative to the browsed folder) as a safe relative path, or None.

    ``a/../b`` and ``/etc/x`` keep only their plain segments (``a/b``, ``etc/x``); a name
    with no plain segment left gives None.
    """
    parts = [p for p in name.replace("\\", "/").split("/") if p not in ("", ".", "..")]
    if not parts:
        return None
    return PurePosixPath(*parts)


def download_items(entries: list[Entry], base_prefix: str, directory: Path) -> list[DownloadItem]:
    """Local targets of ``entries`` inside ``directory``.

    Args:
        entries: Objects (not folders) to download.
        base_prefix: The folder being browsed: names are made relative to it.
        directory: The local directory the user confirmed.
    """
    items: list[DownloadItem] = []
    for entry in entries:
        name = entry.key[len(base_prefix) :] if entry.key.startswith(base_prefix) else entry.key
        relative = safe_relative(name)
        if relative is None:
            items.append(DownloadItem(entry, directory, "the name has no usable file name"))
            continue
        items.append(DownloadItem(entry, directory.joinpath(*relative.parts)))
    return items


def free_name(path: Path, taken: set[Path] | frozenset[Path] = frozenset()) -> Path:
    """``report (1).pdf``, ``report (2).pdf`` ... the first name beside ``path`` that neither
    exists nor is in ``taken``."""
    number = 1
    while True:
        candidate = path.with_name(f"{path.stem} ({number}){path.suffix}")
        if candidate not in taken and not candidate.exists():
            return candidate
        number += 1


Ask = Callable[[Path], Awaitable[tuple[Choice, bool] | None]]
"""Asks the user about one existing file: (choice, apply to all the rest), or None to cancel."""


class ConflictPolicy:
    """Resolves existing targets, remembering a choice made "for all".

    Args:
        ask: How the user is asked (the UI passes a dialog; tests pass a script).
    """

    def __init__(self, ask: Ask) -> None:
        self.ask = ask
        self.remembered: Choice | None = None

    async def resolve(self, items: list[DownloadItem]) -> bool:
        """Settle every conflict of ``items`` in place.

        Returns:
            False when the user cancelled the whole download.
        """
        claimed: set[Path] = set()
        for item in items:
            if item.skip_reason:
                continue
            if item.target.is_dir():
                item.skip_reason = "a directory has this name"
                continue
            if item.target in claimed:
                item.target = free_name(item.target, claimed)
            elif item.target.exists():
                choice = self.remembered
                if choice is None:
                    answer = await self.ask(item.target)
                    if answer is None:
                        return False
                    choice, for_all = answer
                    if for_all:
                        self.remembered = choice
                if choice is Choice.SKIP:
                    item.skip_reason = "exists (skipped)"
                    continue
                if choice is Choice.RENAME:
                    item.target = free_name(item.target, claimed)
            claimed.add(item.target)
        return True


def upload_items(source: Path, prefix: str) -> tuple[list[UploadItem], list[tuple[str, str]]]:
    """Files to upload from ``source`` (a file, or a directory walked recursively).

    A directory ``photos`` uploads as ``<prefix>photos/...``. Symbolic links to directories are
    not followed (no loops); unreadable entries are reported.

    Args:
        source: Local file or directory.
        prefix: The folder being browsed ('' or ending in ``/``).

    Returns:
        (items in name order, [(path, reason)] of what was left out).
    """
    problems: list[tuple[str, str]] = []
    items: list[UploadItem] = []
    if source.is_file():
        items.append(_item(source, prefix + source.name))
        return items, problems
    if not source.is_dir():
        return [], [(str(source), "no such file or directory")]
    root_name = source.resolve().name or "root"

    def on_error(error: OSError) -> None:
        problems.append((str(error.filename), error.strerror or str(error)))

    for folder, dirs, files in os.walk(source, onerror=on_error):
        dirs.sort()
        relative = Path(folder).relative_to(source)
        for name in sorted(files):
            path = Path(folder) / name
            if not path.is_file():
                problems.append((str(path), "not a regular file"))
                continue
            parts = (root_name, *relative.parts, name)
            key = prefix + DELIMITER.join(p for p in parts if p not in ("", "."))
            try:
                items.append(_item(path, key))
            except OSError as error:
                problems.append((str(path), error.strerror or str(error)))
    items.sort(key=lambda i: i.key)
    return items, problems


def _item(path: Path, key: str) -> UploadItem:
    return UploadItem(path, key, path.stat().st_size, guess_type(path.name))
