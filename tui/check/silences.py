"""Findings the user chose to stop hearing about, each with a reason, kept per profile
(headless).

A silence names one finding (:attr:`~tui.check.model.Finding.id`: rule, kind and object), so a
new object with the same problem is still reported. The file is
``<data>/profiles/<profile>/check-silences.json`` (0600); a file that cannot be read is left
untouched and :attr:`Silences.problem` says why.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path

from tui.check.model import Finding
from tui.session.datadir import profile_dir, write_private
from tui.untrusted import normalize_newlines

FILE_NAME = "check-silences.json"
VERSION = 1


@dataclass(frozen=True)
class Silence:
    """One silenced finding.

    Attributes:
        finding: The finding's id (``rule:kind:key``).
        rule: The rule's id.
        label: The object's label when it was silenced (to list it after the object is gone).
        reason: Why (as the user wrote it).
        created: When, ISO 8601 in UTC.
    """

    finding: str
    rule: str
    label: str
    reason: str
    created: str


class Silences:
    """The silences of one profile.

    Args:
        profile: Profile name (``DEMO`` in demo mode).
        folder: Folder of the file (default: the profile's data folder).
    """

    def __init__(self, profile: str, *, folder: Path | None = None) -> None:
        self.path = (folder or profile_dir(profile)) / FILE_NAME
        self._by_finding: dict[str, Silence] = {}
        self.problem = ""
        """Why the file could not be read ('' when fine); it is then never overwritten."""
        self._load()

    def _load(self) -> None:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            entries = [Silence(**entry) for entry in data["silences"]]
        except FileNotFoundError:
            return
        except (OSError, ValueError, TypeError, KeyError) as exc:
            self.problem = f"{self.path} cannot be read ({exc.__class__.__name__}): left as it is"
            return
        self._by_finding = {s.finding: s for s in entries}

    def entries(self) -> list[Silence]:
        """Every silence, oldest first."""
        return sorted(self._by_finding.values(), key=lambda s: (s.created, s.finding))

    def reason_for(self, finding_id: str) -> str | None:
        """Why ``finding_id`` is silenced, or None when it is not."""
        found = self._by_finding.get(finding_id)
        return found.reason if found is not None else None

    def add(self, finding: Finding, reason: str, *, now: float | None = None) -> Silence:
        """Silence ``finding`` (replacing an earlier silence of it) and save.

        Args:
            finding: What to silence.
            reason: Why; required (a silence nobody can explain later is a hidden problem).
            now: Epoch seconds to record (default: the clock).

        Raises:
            ValueError: An empty reason.
            OSError: The file cannot be written (or could not be read: it is not replaced).
        """
        text = " ".join(normalize_newlines(reason).split())
        if not text:
            raise ValueError("a silence needs a reason")
        when = datetime.fromtimestamp(now, UTC) if now is not None else datetime.now(UTC)
        silence = Silence(
            finding.id,
            finding.rule.id,
            finding.subject.label,
            text,
            when.strftime("%Y-%m-%dT%H:%M:%SZ"),
        )
        self._by_finding[silence.finding] = silence
        self._save()
        return silence

    def remove(self, finding_id: str) -> bool:
        """Hear about ``finding_id`` again; True when it was silenced.

        Raises:
            OSError: The file cannot be written.
        """
        if self._by_finding.pop(finding_id, None) is None:
            return False
        self._save()
        return True

    def _save(self) -> None:
        if self.problem:
            raise OSError(self.problem)
        data = {"version": VERSION, "silences": [asdict(s) for s in self.entries()]}
        self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        write_private(self.path, json.dumps(data, indent=2, ensure_ascii=False) + "\n")
