"""The simulator's in-memory state: named tables of JSON-ready records, and a timeline.

Records are plain dicts so the whole state serialises to JSON for ``--state FILE``. Each area
keeps its own tables (``compute.instances``, ``domains.records`` ...); nothing here knows the
areas.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any


class StateFileError(Exception):
    """The ``--state`` file cannot be read or is not a simulator state."""


class _Group:
    """Keys of one table by the text of one field: an index kept by :class:`Store`.

    It remembers the value each key was filed under, so a record changed in place and ``put``
    again moves to its new group (the old record is the same object: it cannot tell).
    """

    def __init__(self) -> None:
        self.members: dict[str, dict[str, None]] = {}
        self.value_of: dict[str, str] = {}

    def file(self, key: str, value: str) -> None:
        """File ``key`` under ``value``; a key already there keeps its place in its group."""
        previous = self.value_of.get(key)
        if previous == value:
            return
        if previous is not None:
            self.members[previous].pop(key, None)
        self.value_of[key] = value
        self.members.setdefault(value, {})[key] = None

    def remove(self, key: str) -> None:
        """Forget ``key``."""
        previous = self.value_of.pop(key, None)
        if previous is not None:
            self.members[previous].pop(key, None)


class Store:
    """Tables of records keyed by id, id counters, free-form metadata and scheduled events."""

    FORMAT = 1

    def __init__(self) -> None:
        self.tables: dict[str, dict[str, dict[str, Any]]] = {}
        self.counters: dict[str, int] = {}
        self.meta: dict[str, Any] = {}
        self.events: list[dict[str, Any]] = []
        self._event_seq = 0
        self.dirty = False
        # (table, field) -> field value -> keys in insertion order; built on first use of
        # ``group`` and kept current by ``put``/``delete``, so "the records of zone 7" does
        # not scan every record of every zone (seeding 10,000 instances was quadratic).
        self._groups: dict[tuple[str, str], _Group] = {}

    def table(self, name: str) -> dict[str, dict[str, Any]]:
        """The table ``name`` (created empty on first use), keyed by ``str(id)``."""
        return self.tables.setdefault(name, {})

    def next_id(self, kind: str, start: int = 1000) -> int:
        """A fresh integer id for ``kind``, increasing from ``start``."""
        value = self.counters.get(kind, start - 1) + 1
        self.counters[kind] = value
        return value

    def get(self, table: str, key: object) -> dict[str, Any] | None:
        """One record, or None."""
        return self.table(table).get(str(key))

    def put(self, table: str, key: object, record: dict[str, Any]) -> dict[str, Any]:
        """Insert or replace a record and return it."""
        skey = str(key)
        self.table(table)[skey] = record
        for (name, field), group in self._groups.items():
            if name == table:
                group.file(skey, str(record.get(field)))
        self.dirty = True
        return record

    def delete(self, table: str, key: object) -> dict[str, Any] | None:
        """Remove a record; returns it, or None when absent."""
        self.dirty = True
        for (name, _field), group in self._groups.items():
            if name == table:
                group.remove(str(key))
        return self.table(table).pop(str(key), None)

    def group(self, table: str, field: str, value: object) -> list[dict[str, Any]]:
        """The records of ``table`` whose ``field`` equals ``value`` (compared as text).

        Records come in the order they joined the group (table order unless a record moved
        between groups). An index per ``(table, field)`` is built on first use and
        kept current by :meth:`put` and :meth:`delete`; a record changed in place must be
        ``put`` again for a new ``field`` value to be seen.
        """
        rows = self.table(table)
        group = self._groups.get((table, field))
        if group is None:
            group = self._groups[(table, field)] = _Group()
            for key, record in rows.items():
                group.file(key, str(record.get(field)))
        return [rows[key] for key in group.members.get(str(value), ()) if key in rows]

    def rows(self, table: str) -> list[dict[str, Any]]:
        """All records of a table in insertion order."""
        return list(self.table(table).values())

    # -- timeline ---------------------------------------------------------------------------

    def schedule(self, at: float, name: str, **args: Any) -> dict[str, Any]:
        """Plan the transition ``name`` at epoch second ``at``.

        Args:
            at: When it becomes due.
            name: Registered transition name (see ``tui.simulator.registry.transition``).
            **args: JSON-ready keyword arguments for it.

        Returns:
            The event record.
        """
        self._event_seq += 1
        event = {"at": at, "seq": self._event_seq, "name": name, "args": args}
        self.events.append(event)
        self.dirty = True
        return event

    def cancel_events(self, name: str | None = None, **match: Any) -> int:
        """Drop pending events by name and argument values; returns how many were dropped."""
        keep = []
        dropped = 0
        for ev in self.events:
            if (name is None or ev["name"] == name) and all(
                ev["args"].get(k) == v for k, v in match.items()
            ):
                dropped += 1
            else:
                keep.append(ev)
        self.events = keep
        if dropped:
            self.dirty = True
        return dropped

    def pop_due(
        self, now: float, *, early: Callable[[str], bool] | None = None
    ) -> list[dict[str, Any]]:
        """Remove and return the events due at ``now``, oldest first.

        Args:
            now: The current time.
            early: Event names for which it is true are due whatever their time.
        """

        def is_due(event: dict[str, Any]) -> bool:
            return event["at"] <= now or (early is not None and early(event["name"]))

        due = [e for e in self.events if is_due(e)]
        if not due:
            return []
        self.events = [e for e in self.events if not is_due(e)]
        due.sort(key=lambda e: (e["at"], e["seq"]))
        self.dirty = True
        return due

    # -- persistence ------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The whole state as JSON-ready data."""
        return {
            "format": self.FORMAT,
            "tables": self.tables,
            "counters": self.counters,
            "meta": self.meta,
            "events": self.events,
            "event_seq": self._event_seq,
        }

    @classmethod
    def from_json(cls, data: Any) -> Store:
        """Rebuild a store from :meth:`to_json` output.

        Raises:
            StateFileError: The data is not a state of this format.
        """
        if not isinstance(data, dict) or data.get("format") != cls.FORMAT:
            raise StateFileError("not a cloudtui simulator state (missing or unknown format)")
        store = cls()
        try:
            store.tables = dict(data["tables"])
            store.counters = dict(data["counters"])
            store.meta = dict(data["meta"])
            store.events = list(data["events"])
            store._event_seq = int(data["event_seq"])
        except (KeyError, TypeError, ValueError) as exc:
            raise StateFileError(f"state is incomplete: {exc}") from None
        return store

    def save(self, path: Path) -> None:
        """Write the state atomically: a temporary file in the same folder, then rename."""
        path = Path(path)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump(self.to_json(), fh, separators=(",", ":"))
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        self.dirty = False

    @classmethod
    def load(cls, path: Path) -> Store:
        """Read a state file.

        Raises:
            StateFileError: Unreadable, not JSON, or not a simulator state; the message names the
                file. The file is left untouched.
        """
        path = Path(path)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise StateFileError(f"{path}: cannot read: {exc.strerror or exc}") from None
        try:
            data = json.loads(text)
        except ValueError as exc:
            raise StateFileError(f"{path}: not valid JSON: {exc}") from None
        try:
            return cls.from_json(data)
        except StateFileError as exc:
            raise StateFileError(f"{path}: {exc}") from None
