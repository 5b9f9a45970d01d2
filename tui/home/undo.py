"""Undo: the changes of this session and the requests that take them back (headless).

Every change an action sends is noted here with what the item was before it. The operation's
declaration in :data:`tui.resources.reversal.REVERSIBILITY` turns that into the request that
undoes it, computed at once (so the confirmation can show it) or into the reason it cannot be
undone. Changes sent together (the records of an applied zone plan) form one group, undone
together in reverse order. Only the last group still undoable can be undone, and only once.

An undo request names its object by label as well as by the id in its path
(:meth:`UndoRequest.preview`): ``POST /compute/instances/12/boot · web-1``.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tui.api.endpoints import REGISTRY
from tui.api.paths import fill_path
from tui.home.activity import ActivityEntry
from tui.resources.format import redact
from tui.resources.reversal import REVERSIBILITY, Irreversible, Reversal
from tui.untrusted import Shown, shown

NOT_DECLARED = "this operation is not declared reversible"

LABEL_FIELDS = ("label", "domain", "name", "username")
"""Fields that name an object, first present wins (a domain by its ``domain``, a DNS record by
its ``name``), when the change's own log line does not name it."""


@dataclass(frozen=True)
class UndoRequest:
    """One request that undoes one change.

    Attributes:
        endpoint: Operation name.
        params: Path parameters.
        body: Request body (None: none).
        label: The name of the object it changes ('' when not known).
    """

    endpoint: str
    params: Mapping[str, Any]
    body: Mapping[str, Any] | None = None
    label: str = ""

    @property
    def method(self) -> str:
        """HTTP method."""
        return REGISTRY[self.endpoint].method

    @property
    def path(self) -> str:
        """The concrete path."""
        return fill_path(REGISTRY[self.endpoint].path, dict(self.params))

    def line(self) -> Shown:
        """``METHOD /path · label``: the request, its object named by id (in the path) and by
        label."""
        named = f" · {self.label}" if self.label else ""
        return shown(f"{self.method} {self.path}{named}")

    def preview(self) -> Shown:
        """:meth:`line` and the JSON body with secrets masked (what the confirmation shows)."""
        if not self.body:
            return self.line()
        body = json.dumps(redact(dict(self.body)), indent=2, ensure_ascii=False)
        return shown(f"{self.line()}\n{body}", lines=True)


def undo_preview(requests: Sequence[UndoRequest]) -> Shown:
    """The previews of ``requests``, one after the other (the undo's confirmation)."""
    return shown("\n".join(r.preview() for r in requests), lines=True)


def change_label(
    before: Mapping[str, Any] | None, answer: Any, entry: ActivityEntry | None = None
) -> str:
    """The name of the object a change was made to: its log line's, else the one its answer or
    its item before the change gives ('' when none does)."""
    if entry is not None and entry.target:
        return entry.target
    for record in (answer, before):
        if not isinstance(record, Mapping):
            continue
        for name in LABEL_FIELDS:
            value = record.get(name)
            if isinstance(value, str | int) and not isinstance(value, bool) and str(value):
                return str(value)
    return ""


@dataclass
class NotedChange:
    """A change sent in this session, with its undo (or why there is none).

    Attributes:
        group: Changes sent together share it.
        title: What was done, for dialogs ("Edit instance web-1").
        entry: Its line in the activity log (None when the log is off).
        undo: The request that undoes it, or None.
        why_not: Why it cannot be undone ('' when it can).
        undone: True once undone.
    """

    group: int
    title: str
    entry: ActivityEntry | None
    undo: UndoRequest | None
    why_not: str = ""
    undone: bool = False


def undo_request(
    endpoint: str,
    params: Mapping[str, Any],
    body: Mapping[str, Any] | None,
    before: Mapping[str, Any] | None,
    answer: Any,
    label: str = "",
) -> UndoRequest | str:
    """The request that undoes one change, or why there is none.

    Args:
        endpoint: The change's operation.
        params: Its path parameters.
        body: Its body.
        before: The item as it was before the change (None: unknown).
        answer: The change's answer (JSON).
        label: The name of the object changed (see :func:`change_label`).
    """
    rule = REVERSIBILITY.get(endpoint)
    if isinstance(rule, Irreversible):
        return rule.why
    if not isinstance(rule, Reversal):
        return NOT_DECLARED
    unknown = "what was there before is not known"
    undo_params = dict(params)
    for param, name in rule.from_answer.items():
        value = answer.get(name) if isinstance(answer, Mapping) else None
        if value is None:
            return f"the answer did not say its {name}"
        undo_params[param] = value
    undo_body: dict[str, Any] | None = None
    if rule.restore:
        if before is None or any(key not in before for key in body or {}):
            return unknown
        undo_body = {key: before[key] for key in body or {}}
    elif rule.copy:
        if before is None or any(before.get(name) is None for name in rule.copy.values()):
            return unknown
        undo_body = {key: before[name] for key, name in rule.copy.items()}
    elif rule.rebuild is not None:
        if before is None:
            return unknown
        undo_body = rule.rebuild(before)
    return UndoRequest(rule.endpoint, undo_params, undo_body, label)


@dataclass
class UndoJournal:
    """The changes of one session on one account, oldest first."""

    changes: list[NotedChange] = field(default_factory=list)
    _groups: itertools.count[int] = field(default_factory=lambda: itertools.count(1))

    def new_group(self) -> int:
        """A group id for changes that are undone together."""
        return next(self._groups)

    def note(
        self,
        title: str,
        endpoint: str,
        params: Mapping[str, Any],
        body: Mapping[str, Any] | None,
        before: Mapping[str, Any] | None,
        answer: Any,
        *,
        entry: ActivityEntry | None = None,
        group: int | None = None,
    ) -> NotedChange:
        """Note a change that succeeded (its undo is computed now, from ``before``)."""
        label = change_label(before, answer, entry)
        found = undo_request(endpoint, params, body, before, answer, label)
        undo = found if isinstance(found, UndoRequest) else None
        why_not = found if isinstance(found, str) else ""
        change = NotedChange(
            group if group is not None else self.new_group(), title, entry, undo, why_not
        )
        self.changes.append(change)
        return change

    def group_of(self, change: NotedChange) -> list[NotedChange]:
        """Every change of ``change``'s group, in the order they were sent."""
        return [c for c in self.changes if c.group == change.group]

    def last_undoable(self) -> list[NotedChange]:
        """The newest group that can still be undone ([] when none can)."""
        for change in reversed(self.changes):
            if change.undone:
                continue
            group = self.group_of(change)
            if all(c.undo is not None for c in group):
                return group
        return []

    def find(self, entry: ActivityEntry) -> NotedChange | None:
        """The change behind an activity log entry (None: not of this session)."""
        return next((c for c in self.changes if c.entry == entry), None)

    def requests(self, group: list[NotedChange]) -> list[UndoRequest]:
        """The requests that undo ``group``: the last change first."""
        return [c.undo for c in reversed(group) if c.undo is not None]

    def mark_undone(self, group: list[NotedChange]) -> None:
        """``group`` was undone: it cannot be undone again."""
        for change in group:
            change.undone = True
