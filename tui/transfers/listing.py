"""A bucket seen as folders: one folder's entries, loaded a page (marker) at a time.

``object-list`` with ``delimiter=/`` rolls names up into folder entries; the first page shows
after one request and :meth:`FolderListing.load_more` fetches the next one when the user scrolls
near the end, so a 20,000-object folder never has to be listed whole before its first row.
"""

from __future__ import annotations

import mimetypes
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from tui.api.client import ApiClient

DELIMITER = "/"
LIST_ENDPOINT = "object_storage.objects.list"
PAGE_SIZE = 200
"""Entries per ``object-list`` request (the API allows 25..500)."""
LOAD_AHEAD = 40
"""Load the next page when the cursor is this close to the last loaded row."""


@dataclass(frozen=True)
class Entry:
    """One row of a folder: a sub-folder or an object.

    Attributes:
        key: The full object name (folders end with ``/``).
        name: The name within the folder (what the row shows).
        folder: True for a sub-folder.
        size: Bytes (0 for folders).
        modified: ``last_modified`` as sent (ISO 8601), folders: None.
        etag: The object's ETag.
        content_type: Guessed from the name (listings do not carry it).
    """

    key: str
    name: str
    folder: bool
    size: int = 0
    modified: str | None = None
    etag: str | None = None
    content_type: str = ""

    @classmethod
    def from_api(cls, data: Mapping[str, Any], prefix: str) -> Entry:
        """An entry of ``object-list`` seen from the folder ``prefix``."""
        key = str(data.get("name") or "")
        folder = key.endswith(DELIMITER)
        name = key[len(prefix) :] if key.startswith(prefix) else key
        return cls(
            key=key,
            name=name,
            folder=folder,
            size=int(data.get("size") or 0),
            modified=data.get("last_modified"),
            etag=data.get("etag"),
            content_type="" if folder else guess_type(key),
        )


EXTRA_TYPES = {
    ".log": "text/plain",
    ".md": "text/markdown",
    ".yaml": "application/yaml",
    ".yml": "application/yaml",
    ".toml": "application/toml",
}
"""Common names the standard ``mimetypes`` table does not know on every system."""


def guess_type(name: str) -> str:
    """Content type from a name (``application/octet-stream`` when unknown)."""
    guessed, _ = mimetypes.guess_type(name, strict=False)
    if guessed is None:
        dot = name.rfind(".")
        guessed = EXTRA_TYPES.get(name[dot:].lower()) if dot >= 0 else None
    return guessed or "application/octet-stream"


def parent_of(prefix: str) -> str:
    """The folder above ``prefix`` (``a/b/`` -> ``a/``; the root stays the root)."""
    trimmed = prefix[:-1] if prefix.endswith(DELIMITER) else prefix
    cut = trimmed.rfind(DELIMITER)
    return trimmed[: cut + 1] if cut >= 0 else ""


def breadcrumb(bucket: str, prefix: str) -> str:
    """``my-bucket / photos / 2026 /`` for the folder ``photos/2026/``."""
    parts = [p for p in prefix.split(DELIMITER) if p]
    return " / ".join([bucket, *parts]) + " /"


@dataclass
class FolderListing:
    """The loaded part of one folder and the marker of the rest.

    Args:
        client: The API client.
        params: ``clusterId`` and ``bucket``.
        prefix: The folder ('' for the bucket's root).
    """

    client: ApiClient
    params: dict[str, Any]
    prefix: str = ""
    entries: list[Entry] = field(default_factory=list)
    marker: str | None = None
    truncated: bool = False
    requests: int = 0

    async def load_first(self) -> list[Entry]:
        """Load the folder's first page (forgetting what was loaded); its entries."""
        self.entries, self.marker, self.truncated = [], None, False
        return await self._page()

    async def load_more(self) -> list[Entry]:
        """Load the next page when there is one; the new entries."""
        if not self.truncated:
            return []
        return await self._page()

    async def _page(self) -> list[Entry]:
        query: dict[str, Any] = {
            "delimiter": DELIMITER,
            "page_size": PAGE_SIZE,
        }
        if self.prefix:
            query["prefix"] = self.prefix
        if self.marker:
            query["marker"] = self.marker
        self.requests += 1
        answer = await self.client.call(LIST_ENDPOINT, self.params, query=query, model=dict)
        data = [d for d in answer.get("data") or [] if isinstance(d, Mapping)]
        new = [Entry.from_api(d, self.prefix) for d in data]
        # Entries already shown (a folder repeated across pages) are not shown twice.
        seen = {e.key for e in self.entries[-len(new) - 1 :]} if new else set()
        new = [e for e in new if e.key not in seen]
        self.entries.extend(new)
        marker = answer.get("next_marker")
        self.truncated = bool(answer.get("is_truncated")) and bool(marker)
        self.marker = str(marker) if self.truncated else None
        return new

    def wants_more(self, cursor_index: int) -> bool:
        """True when the cursor is near the end of what was loaded and more exists."""
        return self.truncated and cursor_index >= len(self.entries) - LOAD_AHEAD


async def walk_objects(
    client: ApiClient, params: Mapping[str, Any], prefix: str
) -> AsyncIterator[Entry]:
    """Every object under ``prefix`` (recursively: no delimiter), a page at a time."""
    marker: str | None = None
    while True:
        query: dict[str, Any] = {"page_size": 500}
        if prefix:
            query["prefix"] = prefix
        if marker:
            query["marker"] = marker
        answer = await client.call(LIST_ENDPOINT, dict(params), query=query, model=dict)
        for data in answer.get("data") or []:
            if isinstance(data, Mapping):
                entry = Entry.from_api(data, prefix)
                if not entry.folder:
                    yield entry
        marker = answer.get("next_marker")
        if not (answer.get("is_truncated") and marker):
            return
