"""The ``:`` commands a profile typed, kept across runs, and ↑/↓ through them.

The file is ``<data>/profiles/<profile>/commands.json`` (0600, like the watchlist), newest
last, at most :data:`MAX_ENTRIES` commands; a command typed again moves to the end instead
of being kept twice. A file that cannot be read is left as it is (nothing is recorded).

A command that may hold a secret is never recorded (:func:`may_hold_secret`): nothing the
``:`` line takes today is one, but a pasted token must not land in a file. The rule, on the
command's words:

* a word ``NAME=VALUE`` or ``NAME:VALUE`` whose name is a secret's (``token=...``,
  ``db_password:...``, as :func:`tui.resources.secret_keys.is_secret_key` judges names);
* a word that is a secret's name (``--token``, ``password``) followed by another word;
* a run of 32 or more letters and digits mixing both (an API token is 64 hex digits), a JSON
  web token (``eyJ...``), a URL with a password (``https://user:pass@host``), a PEM block.

:class:`HistoryCursor` is the ↑/↓ logic of the command line: ↑ goes to older commands that
start like the text typed before the first ↑ (all of them when it was empty), ↓ back to newer
ones and finally to that text again, so a draft is never lost.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path

from tui.resources.secret_keys import is_secret_key
from tui.session.datadir import profile_dir, write_private

FILE_NAME = "commands.json"
MAX_ENTRIES = 500
"""Commands kept (the oldest go first)."""
MAX_LENGTH = 500
"""Longer commands are not recorded (a paste, not a command)."""

_ASSIGNMENT = re.compile(r"^-*([A-Za-z0-9_.-]+)[=:](.+)$")
_TOKEN_RUN = re.compile(r"[A-Za-z0-9]{32,}")
_JWT = re.compile(r"\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}")
_URL_PASSWORD = re.compile(r"://[^/@\s:]*:[^/@\s]+@")


def _secret_name(word: str) -> bool:
    name = word.lstrip("-")
    return bool(name) and is_secret_key(name.replace("-", "_"))


def may_hold_secret(command: str) -> bool:
    """True when ``command`` may hold a secret (see the module's rule): it is not recorded."""
    if "-----BEGIN" in command or _JWT.search(command) or _URL_PASSWORD.search(command):
        return True
    words = command.split()
    for index, word in enumerate(words):
        assignment = _ASSIGNMENT.match(word)
        if assignment and _secret_name(assignment.group(1)):
            return True
        if _secret_name(word) and index + 1 < len(words):
            return True
        for run in _TOKEN_RUN.findall(word):
            if any(c.isdigit() for c in run) and any(c.isalpha() for c in run):
                return True
    return False


def _normalized(command: str) -> str:
    return " ".join(command.strip().lstrip(":").split())


class CommandHistory:
    """The ``:`` commands of one profile.

    Args:
        profile: Profile name (``DEMO`` in demo mode: its own folder per run).
        folder: Folder of the file (default: the profile's data folder).
        limit: Commands kept.
    """

    def __init__(self, profile: str, *, folder: Path | None = None, limit: int = MAX_ENTRIES):
        self.path = (folder or profile_dir(profile)) / FILE_NAME
        self.limit = limit
        self.entries: list[str] = []
        """Oldest first."""
        self.problem = ""
        """Why the file could not be read ('' when fine); it is then never written."""
        self.entries = self._read()

    def _read(self) -> list[str]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return []
        except (OSError, ValueError) as error:
            self.problem = f"{self.path}: {error}"
            return []
        raw = data.get("commands") if isinstance(data, dict) else None
        return [c for c in raw if isinstance(c, str) and c] if isinstance(raw, list) else []

    def record(self, command: str) -> bool:
        """Add a command that was run (the ``:`` and extra spaces dropped).

        The file is read again first, so two sessions of one profile both keep theirs.

        Returns:
            True when it was recorded; False when it is empty, too long, may hold a secret,
            or the file could not be read or written (:attr:`problem` says why).
        """
        text = _normalized(command)
        if not text or len(text) > MAX_LENGTH or may_hold_secret(text) or self.problem:
            return False
        entries = [e for e in self._read() if e != text]
        if self.problem:
            return False
        entries.append(text)
        self.entries = entries[-self.limit :]
        try:
            write_private(self.path, json.dumps({"commands": self.entries}, indent=1))
        except OSError as error:
            self.problem = f"{self.path}: {error.strerror or error}"
            return False
        return True

    def cursor(self, draft: str = "") -> HistoryCursor:
        """A cursor over the commands, starting at the text being typed."""
        return HistoryCursor(self.entries, draft)


class HistoryCursor:
    """↑/↓ through earlier commands while a line is being typed.

    Args:
        entries: The commands, oldest first.
        draft: The text typed so far.
    """

    def __init__(self, entries: Sequence[str], draft: str = "") -> None:
        self.entries = list(entries)
        self.draft = draft
        self.index = len(self.entries)
        """Which command is shown (``len(entries)``: the draft)."""

    @property
    def at_draft(self) -> bool:
        """True while the draft (not a recalled command) is shown."""
        return self.index == len(self.entries)

    def _matches(self, index: int) -> bool:
        prefix = _normalized(self.draft).lower()
        return self.entries[index].lower().startswith(prefix)

    def typed(self, text: str) -> None:
        """The user changed the text: it is the new draft, and ↑ starts from the newest."""
        self.draft = text
        self.index = len(self.entries)

    def previous(self, current: str) -> str | None:
        """↑: the next older command starting like the draft; None when there is none (the
        line stays as it is).

        Args:
            current: The text in the line now (kept as the draft when leaving it).
        """
        if self.at_draft:
            self.draft = current
        for index in range(self.index - 1, -1, -1):
            if self._matches(index):
                self.index = index
                return self.entries[index]
        return None

    def next(self) -> str | None:
        """↓: the next newer command starting like the draft, else the draft itself; None
        when the draft is shown already."""
        for index in range(self.index + 1, len(self.entries)):
            if self._matches(index):
                self.index = index
                return self.entries[index]
        if self.at_draft:
            return None
        self.index = len(self.entries)
        return self.draft
