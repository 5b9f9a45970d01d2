"""Bookmarked items of every kind and what changed in them since they were looked at (headless).

A bookmark keeps the item as it was when bookmarked (or last looked at), so the watchlist can
mark an item whose fields changed since and show the difference. The file is
``<data>/profiles/<profile>/watchlist.json`` (0600); secret fields are never written.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from tui.resources.spec import ResourceSpec
from tui.session.datadir import profile_dir, write_private

FILE_NAME = "watchlist.json"

SECRET_FIELDS = frozenset(
    {
        "root_pass",
        "password",
        "secret_key",
        "ssl_key",
        "kubeconfig",
        "token",
        "api_token",
        "root_password",
        "private_key",
    }
)
"""Field names never stored in a bookmark, at any depth."""

IGNORED_FIELDS = frozenset({"updated"})
"""Fields that change with every other change: not reported as a difference themselves."""


def scrub(value: Any) -> Any:
    """``value`` without secret fields (at any depth)."""
    if isinstance(value, Mapping):
        return {str(k): scrub(v) for k, v in value.items() if str(k) not in SECRET_FIELDS}
    if isinstance(value, list):
        return [scrub(v) for v in value]
    return value


def _flatten(value: Any, prefix: str = "") -> Iterator[tuple[str, Any]]:
    if isinstance(value, Mapping):
        for key, inner in value.items():
            yield from _flatten(inner, f"{prefix}{key}.")
        if not value and prefix:
            yield prefix[:-1], {}
    else:
        yield prefix[:-1], value


def differences(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[tuple[str, Any, Any]]:
    """Fields whose value differs, as ``(dotted field, before, after)`` sorted by field.

    Nested objects are compared field by field; lists as a whole. Secret fields and
    :data:`IGNORED_FIELDS` are left out.
    """
    old = dict(_flatten(scrub(before)))
    new = dict(_flatten(scrub(after)))
    out: list[tuple[str, Any, Any]] = []
    for name in sorted(old.keys() | new.keys()):
        if name.split(".", 1)[0] in IGNORED_FIELDS:
            continue
        if old.get(name) != new.get(name):
            out.append((name, old.get(name), new.get(name)))
    return out


@dataclass(frozen=True)
class Bookmark:
    """One watched item.

    Attributes:
        spec_id: Spec that opens the item (its detail screen).
        key: The item's key in its list (its id).
        label: Display name when bookmarked.
        params: Parent path parameters (a child item: a cluster's pool).
        item: The item as last seen (secrets removed).
        seen_at: Epoch seconds of that look.
    """

    spec_id: str
    key: str
    label: str
    params: dict[str, Any] = field(default_factory=dict)
    item: dict[str, Any] = field(default_factory=dict)
    seen_at: float = 0.0

    @property
    def ident(self) -> tuple[str, str]:
        """What makes two bookmarks the same: spec and key."""
        return self.spec_id, self.key


class Watchlist:
    """The bookmarks of one profile, kept in its data folder.

    Args:
        profile: Profile name (``DEMO`` in demo mode).
        folder: Folder of the file (default: the profile's data folder).
    """

    def __init__(self, profile: str, *, folder: Path | None = None) -> None:
        self.path = (folder or profile_dir(profile)) / FILE_NAME
        self.bookmarks: dict[tuple[str, str], Bookmark] = {}
        self.problem = ""
        """Why the file could not be read ('' when fine); it is then left untouched."""
        self._load()

    def _load(self) -> None:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return
        except (OSError, ValueError) as exc:
            self.problem = f"{self.path}: {exc}"
            return
        fields = set(Bookmark.__dataclass_fields__)
        for raw in data.get("bookmarks", []) if isinstance(data, dict) else []:
            if isinstance(raw, dict) and {"spec_id", "key", "label"} <= raw.keys():
                mark = Bookmark(**{k: v for k, v in raw.items() if k in fields})
                self.bookmarks[mark.ident] = mark

    def save(self) -> None:
        """Write the file (0600) unless it could not be read (never overwrite a broken one)."""
        if self.problem:
            return
        marks = [asdict(m) for m in self.bookmarks.values()]
        write_private(self.path, json.dumps({"bookmarks": marks}, indent=1, default=str))

    def __contains__(self, ident: object) -> bool:
        return ident in self.bookmarks

    def __len__(self) -> int:
        return len(self.bookmarks)

    def toggle(
        self,
        spec: ResourceSpec,
        item: Mapping[str, Any],
        params: Mapping[str, Any],
        now: float,
    ) -> bool:
        """Bookmark ``item`` (listed as ``spec`` under ``params``), or remove its bookmark.

        Returns:
            True when it is bookmarked now, False when the bookmark was removed.
        """
        ident = (spec.id, spec.item_key(item))
        if ident in self.bookmarks:
            del self.bookmarks[ident]
            self.save()
            return False
        self.bookmarks[ident] = Bookmark(
            spec.id, ident[1], spec.label_of(item), scrub(dict(params)), scrub(dict(item)), now
        )
        self.save()
        return True

    def seen(self, ident: tuple[str, str], item: Mapping[str, Any], now: float) -> None:
        """The user looked at the difference: the live item becomes the new reference."""
        mark = self.bookmarks.get(ident)
        if mark is None:
            return
        self.bookmarks[ident] = replace(mark, item=scrub(dict(item)), seen_at=now)
        self.save()
