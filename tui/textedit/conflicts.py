"""Did the server change an item while its document was being edited? Both sides, and a merge.

Before a plan is sent, each item it changes is fetched again (:func:`fetch_current`) and
compared with what the document was made from (:func:`find_conflicts`) on the document's
fields: a change the document does not edit (a status) is no conflict. ``updated`` is not
relied on: it has a resolution of a second, so two changes in one second share it. A
conflict holds both sides: what the server changed and what the user changed, field by field.
The user then chooses:

* send mine anyway: the plan as it is (it sends only the user's changed fields, so the
  server's other changes stay, but for those :attr:`Conflict.overlap` names: a field both
  changed, or one sent along in a nested object);
* keep the server's: :meth:`tui.textedit.review.EditPlan.without` the conflicting items;
* merge and edit again: :func:`rebase` makes a new document of the items as the server has
  them now with the user's changes written over them, each field the server changed marked.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from tui.api.errors import NotFound
from tui.textedit.document import MISSING, EditDocument, build_document
from tui.textedit.review import EditPlan, FieldChange, same_value

View = Callable[[str, Mapping[str, Any]], Awaitable[Mapping[str, Any]]]
"""Fetches one item: (registry name of the view operation, path parameters) -> the item."""


@dataclass(frozen=True)
class Conflict:
    """An item changed on the server since its document was made.

    Attributes:
        key: The item's key.
        label: Its name.
        gone: It no longer exists.
        theirs: The fields the server changed: the document's value -> the server's now.
        mine: The fields the user changed: the document's value -> the user's.
        sent: The top-level fields the user's request sends (a nested object goes whole).
    """

    key: str
    label: str
    gone: bool = False
    theirs: tuple[FieldChange, ...] = ()
    mine: tuple[FieldChange, ...] = ()
    sent: frozenset[str] = frozenset()

    @property
    def overlap(self) -> tuple[str, ...]:
        """The server's changes that sending the user's request would undo: a field both
        changed to different values, or one sent along in a nested object (another alert
        threshold)."""
        mine = {c.name: c.after for c in self.mine}
        return tuple(
            c.name
            for c in self.theirs
            if c.name.split(".")[0] in self.sent
            and not (c.name in mine and same_value(mine[c.name], c.after))
        )

    def lines(self) -> list[str]:
        """Both sides, for the user to choose (untrusted values inside: show each line through
        :func:`tui.untrusted.shown`)."""
        if self.gone:
            return [f"! {self.label}: deleted on the server while you edited it"]
        lines = [f"! {self.label}: changed on the server while you edited it"]
        lines.extend(f"    server: {change.text()}" for change in self.theirs)
        lines.extend(f"    yours:  {change.text()}" for change in self.mine)
        for name in self.overlap:
            lines.append(f"    sending yours undoes the server's change of {name}")
        return lines


def _values_now(document: EditDocument, item: Mapping[str, Any]) -> Mapping[str, Any]:
    """The document's fields of ``item`` as a document of it would say them."""
    fresh = build_document(document.target, [item])
    return next(iter(fresh.baseline.values()), {})


def _differences(before: Mapping[str, Any], after: Mapping[str, Any]) -> tuple[FieldChange, ...]:
    names = [*before, *(n for n in after if n not in before)]
    return tuple(
        FieldChange(n, before.get(n, MISSING), after.get(n, MISSING))
        for n in names
        if n not in before or n not in after or not same_value(before[n], after[n])
    )


def find_conflicts(
    document: EditDocument, plan: EditPlan, current: Mapping[str, Mapping[str, Any] | None]
) -> list[Conflict]:
    """The plan's items that changed on the server since the document was made.

    Args:
        document: The document the plan came from.
        plan: The reviewed plan.
        current: Item key -> the item as the server has it now (None: it is gone); items
            left out are not checked.
    """
    conflicts: list[Conflict] = []
    for request in plan.requests:
        entry = document.entry(request.key)
        if entry is None or request.key not in current:
            continue
        fresh = current[request.key]
        if fresh is None:
            sent = frozenset(request.body)
            conflicts.append(Conflict(request.key, request.label, True, (), request.changes, sent))
            continue
        theirs = _differences(document.baseline.get(request.key, {}), _values_now(document, fresh))
        if theirs:
            sent = frozenset(request.body)
            conflicts.append(
                Conflict(request.key, request.label, False, theirs, request.changes, sent)
            )
    return conflicts


def rebase(
    document: EditDocument,
    plan: EditPlan,
    current: Mapping[str, Mapping[str, Any] | None],
    conflicts: Iterable[Conflict] = (),
) -> EditDocument:
    """A new document of the items as the server has them now, with the user's changes over
    them: what to reopen the editor on when the user merges.

    Items that are gone are left out; the fields the server changed carry a ``# !`` note
    saying so (and that the user's value was kept, where both changed).

    Args:
        document: The document the plan came from.
        plan: Its reviewed plan (the user's changes).
        current: Item key -> the item now (None: gone), as for :func:`find_conflicts`.
        conflicts: What :func:`find_conflicts` found (for the notes).

    Raises:
        NotEditable: Every item is gone.
    """
    items: list[Mapping[str, Any]] = []
    for entry in document.entries:
        if entry.key in current:
            fresh = current[entry.key]
            if fresh is not None:
                items.append(fresh)
        else:
            items.append(entry.item)
    values = {
        request.key: {c.name: c.after for c in request.changes if c.after is not MISSING}
        for request in plan.requests
    }
    notes: dict[tuple[str, str], list[str]] = {}
    for conflict in conflicts:
        mine = {c.name for c in conflict.mine}
        for change in conflict.theirs:
            said = f"changed on the server while you edited: {change.text()}"
            if change.name in mine:
                said += "; your value is kept below"
            notes.setdefault((conflict.key, change.name), []).append(said)
    return build_document(document.target, items, document.parent, values=values, notes=notes)


async def fetch_current(
    document: EditDocument, keys: Iterable[str], view: View
) -> dict[str, Mapping[str, Any] | None]:
    """The items with these keys as the server has them now (None for one that is gone).

    Args:
        document: The document they are entries of.
        keys: Which items (a plan's :attr:`~tui.textedit.review.EditPlan.keys`).
        view: Fetches one item (the screen's call of the spec's view operation).

    Returns:
        Key -> item; empty when the kind of object has no view operation (nothing checked).
    """
    endpoint = document.target.spec.view_endpoint
    out: dict[str, Mapping[str, Any] | None] = {}
    if endpoint is None:
        return out
    for key in keys:
        entry = document.entry(key)
        if entry is None:
            continue
        try:
            out[key] = await view(endpoint, entry.params)
        except NotFound:
            out[key] = None
    return out
