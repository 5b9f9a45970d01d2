"""The activity log: every change the app sent, per profile, with rotation (headless).

One JSON object per line in ``<data>/profiles/<profile>/activity.jsonl``: time, session, method,
path, target label and id, outcome, and for a failure the status and the API's reason. It is
fed by the API client's change observers (:mod:`tui.api.changes`), the one place every change
passes, and never holds a request or answer body.

When the file grows past :attr:`ActivityLog.max_bytes` it is renamed ``activity.jsonl.1`` (the
older ones shift up to ``.N``; the oldest is dropped).
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path

from tui.api.changes import ChangeEvent
from tui.session.datadir import profile_dir

LOG_NAME = "activity.jsonl"
MAX_BYTES = 512 * 1024
BACKUPS = 3


@dataclass(frozen=True)
class ActivityEntry:
    """One logged change.

    Attributes:
        time: Epoch seconds.
        session: Id of the program run that made it (its start time).
        method: HTTP method.
        path: Path of the request.
        target: Label of the item ('' when unknown).
        target_id: Id of a created item ('' otherwise).
        ok: True when the API accepted the change.
        status: HTTP status of a refusal.
        reason: Why it failed.
    """

    time: float
    session: str
    method: str
    path: str
    target: str = ""
    target_id: str = ""
    ok: bool = True
    status: int | None = None
    reason: str = ""

    @property
    def outcome(self) -> str:
        """``ok``, or ``failed (404)`` / ``failed`` for a refusal without an answer."""
        if self.ok:
            return "ok"
        return f"failed ({self.status})" if self.status else "failed"

    @property
    def when(self) -> str:
        """The time as ``YYYY-MM-DD HH:MM:SS`` UTC."""
        return datetime.fromtimestamp(self.time, UTC).strftime("%Y-%m-%d %H:%M:%S")

    @property
    def local_when(self) -> str:
        """The time in the machine's time zone: ``2026-11-26 02:12:03 CET``."""
        return _local(self.time)

    def details(self) -> list[tuple[str, str]]:
        """The entry as ``(heading, text)`` lines a person reads (what the log entry opens)."""
        target = self.target or "—"
        if self.target_id:
            target += f" (id {self.target_id})"
        outcome = "accepted by the API" if self.ok else f"refused: {self.outcome}"
        when = self.local_when
        if datetime.fromtimestamp(self.time).astimezone().utcoffset():
            when += f" ({self.when} UTC)"  # the table's column is in UTC
        try:
            session = f"started {_local(float(self.session))}"
        except ValueError:
            session = self.session or "—"
        lines = [
            ("When", when),
            ("Target", target),
            ("Outcome", outcome),
            ("Request", f"{self.method} {self.path}"),
        ]
        if self.reason:
            lines.append(("Reason", self.reason))
        lines.append(("Session", session))
        return lines

    def text(self) -> str:
        """Everything the filter searches, in one line."""
        parts = (self.when, self.method, self.path, self.target, self.target_id, self.outcome)
        return " ".join((*parts, self.reason))

    def summary(self) -> str:
        """One line for the start screen: ``12:03 POST /volumes (scratch) ok``."""
        target = f" ({self.target})" if self.target else ""
        stamp = datetime.fromtimestamp(self.time, UTC).strftime("%m-%d %H:%M")
        return f"{stamp} {self.method} {self.path}{target} {self.outcome}"


def _local(epoch: float) -> str:
    """``epoch`` in the machine's time zone, named: ``2026-11-26 02:12:03 CET``."""
    return datetime.fromtimestamp(epoch).astimezone().strftime("%Y-%m-%d %H:%M:%S %Z")


class ActivityLog:
    """Append-only log of one profile's changes.

    Args:
        profile: Profile name (``DEMO`` in demo mode).
        session: Id of this program run (default: the start time).
        clock: Returns epoch seconds (the simulator's clock in demo mode).
        max_bytes: Size that triggers a rotation.
        backups: Rotated files kept.
        folder: Folder of the file (default: the profile's data folder).
    """

    def __init__(
        self,
        profile: str,
        *,
        session: str | None = None,
        clock: Callable[[], float] | None = None,
        max_bytes: int = MAX_BYTES,
        backups: int = BACKUPS,
        folder: Path | None = None,
    ) -> None:
        self.folder = folder or profile_dir(profile)
        self.path = self.folder / LOG_NAME
        self.session = session or f"{time.time():.3f}"
        self._clock: Callable[[], float] = clock or time.time
        self.max_bytes = max_bytes
        self.backups = backups
        self.previous = self.read(limit=5)
        """The last changes logged before this run started (newest first)."""
        self.last: ActivityEntry | None = None
        """The change logged last by this run."""

    def record(self, event: ChangeEvent) -> ActivityEntry:
        """Append one change (the client's observer)."""
        entry = ActivityEntry(
            time=float(self._clock()),
            session=self.session,
            method=event.method,
            path=event.path,
            target=event.target,
            target_id=event.target_id,
            ok=event.ok,
            status=event.status,
            reason=event.reason,
        )
        line = json.dumps(asdict(entry), ensure_ascii=False, separators=(",", ":")) + "\n"
        self._rotate_if_needed(len(line.encode()))
        fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        with os.fdopen(fd, "a", encoding="utf-8") as handle:
            handle.write(line)
        self.last = entry
        return entry

    def _rotate_if_needed(self, incoming: int) -> None:
        try:
            size = self.path.stat().st_size
        except FileNotFoundError:
            return
        if size + incoming <= self.max_bytes:
            return
        for number in range(self.backups, 0, -1):
            older = self._file(number)
            if number == self.backups:
                older.unlink(missing_ok=True)
                continue
            if older.exists():
                os.replace(older, self._file(number + 1))
        if self.backups:
            os.replace(self.path, self._file(1))
        else:
            self.path.unlink(missing_ok=True)

    def _file(self, number: int) -> Path:
        return self.path if number == 0 else self.path.with_name(f"{LOG_NAME}.{number}")

    def files(self) -> list[Path]:
        """The log and its rotated files that exist, newest first."""
        return [p for n in range(self.backups + 1) if (p := self._file(n)).exists()]

    def read(self, limit: int = 5000) -> list[ActivityEntry]:
        """Logged changes, newest first (at most ``limit``); unreadable lines are skipped."""
        out: list[ActivityEntry] = []
        for path in self.files():
            try:
                lines = path.read_text(encoding="utf-8").splitlines()
            except OSError:
                continue
            for entry in _parse(reversed(lines)):
                out.append(entry)
                if len(out) >= limit:
                    return out
        return out


def _parse(lines: Iterable[str]) -> Iterator[ActivityEntry]:
    fields = set(ActivityEntry.__dataclass_fields__)
    for line in lines:
        try:
            data = json.loads(line)
        except ValueError:
            continue
        if isinstance(data, dict) and {"time", "session", "method", "path"} <= data.keys():
            try:
                yield ActivityEntry(**{k: v for k, v in data.items() if k in fields})
            except TypeError:
                continue


def matches(entry: ActivityEntry, query: str) -> bool:
    """True when every word of ``query`` occurs in the entry (case-insensitive)."""
    text = entry.text().lower()
    return all(word in text for word in query.lower().split())
